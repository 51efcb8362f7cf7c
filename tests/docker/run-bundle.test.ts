import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { hasEngine, PROBE_IMAGE } from "../helpers/engine.js";

describe.skipIf(!hasEngine)("the bundle `run --out` writes", () => {
  it("verifies against this repository's inventory, and stops verifying once a byte changes", async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "da-run-")), "bundle");
    const run = await runCli(["run", "--probe-image", PROBE_IMAGE, "--out", out, "-q"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Verdict: PASS\s+20 passed, 0 failed, 0 skipped of 20/);

    const verified = await runCli(["verify", out, "--inventory", "acceptance/inventory.json"]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toContain("bundle verified");

    const cleanup = path.join(out, "cleanup.json");
    writeFileSync(cleanup, readFileSync(cleanup, "utf8").replace('"completed": true', '"completed": false'));
    const tampered = await runCli(["verify", out]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain("FAIL hash         cleanup.json");
  });
});
