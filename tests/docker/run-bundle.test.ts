import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_CASES, type CaseId } from "../../src/cases/index.js";
import type { Report } from "../../src/report/model.js";
import { runCli } from "../helpers/cli.js";
import { expectedOn } from "../helpers/differences.js";
import { ENGINE_KIND, hasEngine, PROBE_IMAGE } from "../helpers/engine.js";

describe.skipIf(!hasEngine)("the bundle `run --out` writes", () => {
  it("verifies against this repository's inventory, and stops verifying once a byte changes", async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "da-run-")), "bundle");
    const run = await runCli(["run", "--probe-image", PROBE_IMAGE, "--out", out, "-q"]);
    // Every case passes, on Docker and on Podman alike.
    const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as Report;
    const unexpected = report.cases.filter(
      (c) => c.status !== expectedOn(ENGINE_KIND, c.subject, c.id as CaseId, "pass"),
    );
    expect(
      report.cases.map((c) => [c.id, c.status]),
      JSON.stringify(unexpected, null, 1),
    ).toEqual(report.cases.map((c) => [c.id, expectedOn(ENGINE_KIND, c.subject, c.id as CaseId, "pass")]));
    expect(report.cleanup?.completed).toBe(true);
    // Counted from the catalogue; on Podman, exactly the listed differences fail.
    const n = ALL_CASES.length;
    const failing = report.cases.filter(
      (c) => expectedOn(ENGINE_KIND, c.subject, c.id as CaseId, "pass") !== "pass",
    ).length;
    // The demo PASSes on stock rootful Podman as on Docker: no listed difference applies to it.
    expect(failing).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Verdict: PASS\\s+${n} passed, 0 failed, 0 skipped of ${n}`));

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
