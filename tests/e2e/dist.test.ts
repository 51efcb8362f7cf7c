// What ships is dist/, built by scripts/bundle.mjs with split chunks: a module loaded by import()
// gets a chunk of its own, and one esbuild bundles as CommonJS then exports only `default`, so a
// named binding the source and its tests see is undefined in the bundle (the proxy crash: "c is
// not a constructor"). The build refuses that class from esbuild's metafile; these tests show the
// refusal is real (a planted import breaks under Node 24 and is refused by name) and that every
// chunk of a fresh bundle loads under Node 24, those no end-to-end test reaches included.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import { bundle, bundleOptions, lazyImportProblems } from "../../scripts/bundle.mjs";
import { FULL_TOKEN } from "../double/github-double.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { scheduleEvent } from "./events.js";
import { NODE24, newJob, runStep } from "./runner.js";

const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "da-dist-"));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** The build of dist/ with one entry of `source` instead of ours (resolved from the checkout). */
const planted = (source: string, outdir: string) => {
  const { entryPoints: _ours, ...options } = bundleOptions;
  return {
    ...options,
    outdir,
    stdin: { contents: source, resolveDir: REPO_ROOT, sourcefile: "planted.ts", loader: "ts" as const },
  };
};
const node24 = (file: string) => execFileSync(NODE24, [file], { encoding: "utf8" }).trim();

describe("the bundle's lazy imports", () => {
  // A named binding from an import() of a CommonJS package, as the proxy code had it.
  const MISTAKE = 'const { ProxyAgent } = await import("undici");\nconsole.log(typeof ProxyAgent);\n';

  it("a named import() of a CommonJS package is undefined in the bundle under Node 24 (what the check exists for)", async () => {
    const out = tempDir();
    await build(planted(MISTAKE, out));
    expect(node24(path.join(out, "stdin.js"))).toBe("undefined");
    // The same package imported statically keeps its names.
    const fixed = tempDir();
    await build(planted('import { ProxyAgent } from "undici";\nconsole.log(typeof ProxyAgent);\n', fixed));
    expect(node24(path.join(fixed, "stdin.js"))).toBe("function");
  });

  it("the build refuses it, naming the importer, the import, the module and the fix", async () => {
    const out = tempDir();
    await expect(bundle(planted(MISTAKE, out))).rejects.toThrow(
      /planted\.ts: import\("undici"\) loads node_modules\/undici\/index\.js, a CommonJS module: .*only its `default` export exists.*\(fix: import it statically in a module of ours and import\(\) that module/,
    );
  });

  it("an import() of a JSON file or of one of our ES modules is not refused", async () => {
    const { metafile } = await build({
      ...planted(
        'const pkg = await import("./package.json");\nconst { proxyFor } = await import("./src/github/proxy.ts");\nconsole.log(pkg.default.name, typeof proxyFor);\n',
        tempDir(),
      ),
      metafile: true,
    });
    expect(lazyImportProblems(metafile)).toEqual([]);
  });

  it("a fresh bundle of ours passes the check, and every one of its chunks loads under Node 24", async () => {
    const outdir = tempDir();
    const { metafile } = await bundle({ ...bundleOptions, outdir });
    expect(lazyImportProblems(metafile)).toEqual([]);
    const chunks = readdirSync(path.join(outdir, "chunks")).filter((f) => f.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(10);
    // One process imports them all, each on its own so a failure names its chunk.
    const script = `const failed = [];
for (const f of ${JSON.stringify(chunks)}) {
  try { await import(${JSON.stringify(`${path.join(outdir, "chunks")}/`)} + f); }
  catch (err) { failed.push(f + ": " + String(err?.message ?? err).slice(0, 300)); }
}
console.log(JSON.stringify(failed));`;
    const loader = path.join(outdir, "load-all.mjs");
    writeFileSync(loader, script);
    expect(JSON.parse(node24(loader))).toEqual([]);
  });
});

describe("an error that escapes every handler, in dist/ under Node 24", () => {
  // Planted from outside the bundle (node --import): as soon as the step installs its handler, a
  // promise rejects that nobody awaits, its message carrying a token-shaped secret.
  const SECRET = `ghp_${"x".repeat(36)}`;
  const plant = () => {
    const file = path.join(tempDir(), "plant.mjs");
    writeFileSync(
      file,
      `const on = process.on.bind(process);
process.on = (event, fn) => {
  const r = on(event, fn);
  if (event === "unhandledRejection")
    setImmediate(() => Promise.reject(new TypeError("c is not a constructor ${SECRET}")));
  return r;
};
`,
    );
    return pathToFileURL(file).href;
  };

  for (const step of ["main", "post"] as const) {
    it(`${step}: one readable line naming the error, the token redacted; ${step === "main" ? "the step fails as an internal error (exit 3)" : "a warning, the job not failed (exit 0)"}`, async () => {
      const j = newJob({
        eventName: "schedule",
        event: scheduleEvent(),
        inputs: { mode: "merge", "report-dir": tempDir() },
        token: FULL_TOKEN,
        apiUrl: "http://127.0.0.1:9",
        sha: "1".repeat(40),
      });
      temps.push(j.dir);
      j.env.NODE_OPTIONS = `--import ${plant()}`;
      const r = await runStep(j, step);
      const log = r.stdout + r.stderr;
      expect(r.code, log).toBe(step === "main" ? 3 : 0);
      const command = step === "main" ? "::error::" : "::warning title=docker-acceptance post step failed::";
      expect(r.stdout).toContain(
        `${command}docker-acceptance ${step}: internal error: TypeError: c is not a constructor`,
      );
      expect(log).not.toContain(SECRET);
      expect(log.split("\n").filter((l) => l.length > 2000)).toEqual([]);
    });
  }
});
