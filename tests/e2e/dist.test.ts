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
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import { bundle, bundleOptions, lazyImportProblems } from "../../scripts/bundle.mjs";
import { REPO_ROOT } from "../helpers/inventory.js";
import { NODE24 } from "./runner.js";

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
