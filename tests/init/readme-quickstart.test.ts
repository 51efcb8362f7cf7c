// The README's "Your first inventory", as a first-time user follows it: its commands, read from
// the README between their markers, run as written in a copy of acceptance/fixtures/init/web-app,
// end in a PASS; and the file the README shows is the file `init` writes there. The README and
// this test cannot drift apart: change one and the other fails.
//
// Two things stand in for what a user's machine has and this one cannot: `docker-acceptance` is
// this checkout's dist/cli.js, linked from a directory on PATH above the repository (as after the
// README's install; above it, so the link is not in the build context), and `run` is given the
// local probe image, since nothing can be pulled here.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ALL_CASES } from "../../src/cases/index.js";
import { CLI } from "../helpers/cli.js";
import { ENGINE_KIND, hasEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { tempDir } from "./repos.js";

const README = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

/** The fenced block between `<!-- NAME:start ... -->` and `<!-- NAME:end -->`. */
function block(name: string): string {
  const m = new RegExp(
    `<!-- ${name}:start[^>]*-->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`,
  ).exec(README);
  if (!m) throw new Error(`README.md has no fenced block between the ${name} markers`);
  return m[1]!;
}

/** The commands of the quick start, comments dropped. */
const COMMANDS = block("quickstart")
  .split("\n")
  .map((l) => l.replace(/\s+#.*$/, "").trim())
  .filter(Boolean);

describe("README: Your first inventory", () => {
  it("shows the commands a user types: init, then run", () => {
    expect(COMMANDS).toEqual(["docker-acceptance init", "docker-acceptance run"]);
  });

  // On Podman the README's known engine differences fail four cases of any subject (README, Engines):
  // tests/init/init-run.test.ts holds init's output to exactly those there.
  it.skipIf(!hasEngine || ENGINE_KIND === "podman")(
    "followed as written on a hardened repository, ends in a PASS, and shows the file init writes",
    { timeout: 900_000 },
    async () => {
      const home = tempDir("quickstart");
      mkdirSync(path.join(home, "node_modules/.bin"), { recursive: true });
      symlinkSync(CLI, path.join(home, "node_modules/.bin/docker-acceptance"));
      const ws = path.join(home, "web-app");
      cpSync(path.join(REPO_ROOT, "acceptance/fixtures/init/web-app"), ws, { recursive: true });
      const started = Date.now();
      const outputs: string[] = [];
      for (const command of COMMANDS) {
        const argv = command.split(/\s+/);
        if (argv[1] === "run") argv.push("--probe-image", PROBE_IMAGE);
        const r = await promisify(execFile)(argv[0]!, argv.slice(1), {
          cwd: ws,
          env: {
            ...process.env,
            PATH: `${path.join(home, "node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
          },
          maxBuffer: 16 * 1024 * 1024,
        });
        outputs.push(r.stdout);
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stderr.write(`README quick start: ${COMMANDS.length} commands in ${seconds} s\n`);
      const n = ALL_CASES.length;
      expect(outputs.at(-1)).toMatch(new RegExp(`Verdict: PASS\\s+${n} passed, 0 failed, 0 skipped of ${n}`));
      expect(readFileSync(path.join(ws, "acceptance/inventory.json"), "utf8")).toBe(
        block("quickstart-inventory"),
      );
    },
  );
});
