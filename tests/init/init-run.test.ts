// What `init` writes is judged on findings, never on drift, on the real engine through dist/: on
// a hardened image `run` passes (exit 0); on its twin without a USER line it fails containment
// with zero drift; on the compose stack both built services pass.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_CASES, type CaseId } from "../../src/cases/index.js";
import type { Report } from "../../src/report/model.js";
import { runCli } from "../helpers/cli.js";
import { expectedOn } from "../helpers/differences.js";
import { ENGINE_KIND, hasEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { repoCopy } from "./repos.js";

async function initThenRun(ws: string) {
  const init = await runCli(["init", "--workspace", ws]);
  expect(init.code, init.stderr).toBe(0);
  const out = path.join(ws, "out");
  const run = await runCli(["run", "--workspace", ws, "--probe-image", PROBE_IMAGE, "--out", out, "-q"]);
  const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")) as Report;
  return { init, run, report };
}

/** Each case's status against what this engine gives a hardened subject (Podman: its known differences). */
function unexpected(report: Report, dockerStatus: (id: string) => string) {
  return report.cases.filter(
    (c) => c.status !== expectedOn(ENGINE_KIND, c.subject, c.id as CaseId, dockerStatus(c.id)),
  );
}

describe.skipIf(!hasEngine)("init, then run, on the real engine", () => {
  it("a hardened single-Dockerfile app passes every pinned case, with nothing unpinned", {
    timeout: 600_000,
  }, async () => {
    const { run, report } = await initThenRun(repoCopy("web-app"));
    expect(
      unexpected(report, () => "pass"),
      run.stdout,
    ).toEqual([]);
    // Every case of the catalogue once (containment runs between lifecycle.limits and stop).
    expect(report.cases.map((c) => c.id).sort()).toEqual([...ALL_CASES].sort());
    expect(report.inventory).toMatchObject({ complete: true, drift: [], fixes: [] });
    expect(report.cleanup?.completed).toBe(true);
    if (ENGINE_KIND !== "podman") {
      expect(run.code, run.stderr).toBe(0);
      const n = ALL_CASES.length;
      expect(run.stdout).toMatch(new RegExp(`Verdict: PASS\\s+${n} passed, 0 failed, 0 skipped of ${n}`));
    }
  });

  it("its twin without USER fails containment with the fix, and shows zero drift", {
    timeout: 600_000,
  }, async () => {
    const ws = repoCopy("web-app");
    const df = path.join(ws, "Dockerfile");
    writeFileSync(df, readFileSync(df, "utf8").replace(/^USER .*\n/m, ""));
    const { init, run, report } = await initThenRun(ws);
    expect(init.stdout).toContain("containment.user fails for root");
    expect(run.code).toBe(1);
    const failed = report.cases.filter((c) => c.status === "fail").map((c) => c.id);
    expect(failed).toContain("containment.user");
    expect(failed.filter((id) => !id.startsWith("containment.") && id !== "lifecycle.create")).toEqual([]);
    expect(report.inventory).toMatchObject({ complete: true, drift: [], fixes: [] });
    expect(run.stdout).not.toMatch(/Inventory drift|unexpected|not pin/);
    expect(run.stdout).toMatch(/app containment\.user( \([^)]*\))?: no user configured/);
  });

  it("a compose stack's built services pass; the image-only one is not a subject", {
    timeout: 600_000,
  }, async () => {
    const { init, run, report } = await initThenRun(repoCopy("compose-stack"));
    expect(init.stdout).toContain("note: db: uses the image postgres:16-alpine");
    expect(report.subjects.map((s) => s.name)).toEqual(["web", "api"]);
    expect(
      unexpected(report, () => "pass"),
      run.stdout,
    ).toEqual([]);
    expect(report.inventory).toMatchObject({ complete: true, fixes: [] });
    if (ENGINE_KIND !== "podman") expect(run.code, run.stderr).toBe(0);
  });
});
