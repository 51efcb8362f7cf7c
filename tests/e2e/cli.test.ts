// The CLI's door through dist/ under Node 24, as a user runs it: the options of `run` and `check`
// come from the one request table, a bad flag is a usage error (exit 2) naming the flag and what
// it accepts, and Node's compile cache keeps the CLI's compiled code between runs (not when off).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, REQUEST_OPTIONS, type RequestOption } from "../../src/request/options.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { NODE24 } from "./runner.js";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const tmp = mkdtempSync(path.join(tmpdir(), "da-cli-e2e-"));
  temps.push(tmp);
  const r = spawnSync(NODE24, [CLI, ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    // DOCKER_HOST nowhere: nothing here may reach an engine.
    env: { PATH: process.env.PATH, TMPDIR: tmp, DOCKER_HOST: `unix://${tmp}/none.sock`, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, tmp };
}

describe("the CLI through dist/ (Node 24)", () => {
  it.each(COMMANDS)("`%s --help` lists every option the request table gives it", (command) => {
    const r = cli([command, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`usage: docker-acceptance ${command}`);
    const options = Object.values(REQUEST_OPTIONS as Record<string, RequestOption>).filter((o) =>
      o.commands?.includes(command),
    );
    expect(options.length).toBeGreaterThan(0);
    const lines = r.stdout.split("\n");
    for (const o of options) {
      expect(
        lines.some((l) => l.startsWith(`  --${o.flag} `) && l.includes(o.help)),
        `--${o.flag}`,
      ).toBe(true);
    }
  });

  it.each([
    [
      ["check", "--container", "x", "--network", "host"],
      /--network "host": is not one of none, bridge or any/,
    ],
    [
      ["check", "--container", "x", "--allow-cap", "net bind"],
      /--allow-cap "net bind": is not a capability name/,
    ],
    [["run", "--parallelism", "0"], /--parallelism "0": is not a whole number >= 1/],
    [["run", "--suite", "lifecycle", "--suite", "speed"], /--suite "speed": is not lifecycle or containment/],
    [["run", "--shard", "3/2"], /--shard "3\/2": is not I\/N/],
  ])("%j is a usage error (exit 2) naming the flag and what it accepts", (args, message) => {
    const r = cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(`usage: docker-acceptance ${args[0]}`);
  });

  it("keeps its compiled code in Node's compile cache between runs, and not when that is turned off", () => {
    const on = cli(["run", "--help"]);
    expect(on.code).toBe(0);
    expect(readdirSync(on.tmp)).toContain("node-compile-cache");
    const off = cli(["run", "--help"], { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(off.code).toBe(0);
    expect(existsSync(path.join(off.tmp, "node-compile-cache"))).toBe(false);
  });
});
