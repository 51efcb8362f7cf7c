// Fail-safe paths: what could not be measured is never green.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { listOwned } from "../../src/engine/cleanup.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { runCli } from "../helpers/cli.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";

const run = (
  inventoryPath: string,
  workspace: string,
  suites: ("lifecycle" | "containment")[],
  probeImage = PROBE_IMAGE,
) =>
  runPipeline({
    workspace,
    inventoryPath,
    suites,
    probeImage,
    log: silentLogger,
    signal: new AbortController().signal,
  });

function brokenBuildWorkspace(): string {
  const ws = mkdtempSync(path.join(tmpdir(), "da-failsafe-"));
  mkdirSync(path.join(ws, "ctx"));
  writeFileSync(
    path.join(ws, "ctx", "Dockerfile"),
    ["ARG BASE_IMAGE", "FROM $BASE_IMAGE", "RUN exit 3", ""].join("\n"),
  );
  return ws;
}

describe.skipIf(!hasEngine)("fail-safe", () => {
  it("--suite containment alone: a subject that never builds reports every containment case as ERROR", async () => {
    const ws = brokenBuildWorkspace();
    const inv = writeInventory([{ name: "broken", build: { context: "ctx", args: { BASE_IMAGE } } }]);
    const report = await run(inv, ws, ["containment"]);
    expect(report.cases).toHaveLength(CONTAINMENT_CASES.length);
    expect(new Set(report.cases.map((c) => c.status))).toEqual(new Set(["error"]));
    // With the lifecycle suite unselected its failure shows nowhere else: the reason carries it.
    expect(report.cases[0]?.message).toMatch(/^not measured: lifecycle\.build did not pass: .*exit code: 3/);
    expect(report.verdict).toBe("error");
    expect((await listOwned(newEngine(), { owner: report.runId })).images).toEqual([]);
  });

  it("with the lifecycle suite too, the same subject's containment cases SKIP behind the failing build", async () => {
    const ws = brokenBuildWorkspace();
    const inv = writeInventory([{ name: "broken", build: { context: "ctx", args: { BASE_IMAGE } } }]);
    const report = await run(inv, ws, ["lifecycle", "containment"]);
    const build = report.cases.find((c) => c.id === "lifecycle.build");
    expect(build?.status).toBe("fail");
    expect(build?.message).toMatch(/^step \[2\/2\] RUN exit 3 failed at ctx\/Dockerfile:3: .*exit code: 3/);
    expect(build?.remediation).toContain("ctx/Dockerfile:3");
    expect(report.cases.filter((c) => c.suite === "containment").every((c) => c.status === "skip")).toBe(
      true,
    );
    expect(report.verdict).toBe("fail");
  });

  it("a probe image that is not on the engine and cannot be pulled is a run error naming it", async () => {
    const inv = writeInventory([
      { name: "svc", image: BASE_IMAGE, command: ["sleep", "30"], network: "none" },
    ]);
    const report = await run(inv, ".", ["containment"], "registry.invalid/probe:1");
    expect(report.verdict).toBe("error");
    expect(report.errors[0]?.message).toContain("probe image registry.invalid/probe:1 is not on this engine");
    expect(report.cases).toEqual([]);
  });

  it("check on a container that is not running: inspect-proven FAILs stay, the unmeasured make it an ERROR (exit 3)", async () => {
    const engine = newEngine();
    const id = await engine.createContainer({
      Image: BASE_IMAGE,
      Cmd: ["sleep", "60"],
      Labels: { "test.docker-acceptance": "failsafe" },
    });
    try {
      const r = await runCli(["check", "--container", id, "--probe-image", PROBE_IMAGE, "--format", "json"]);
      expect(r.code).toBe(3);
      const report = JSON.parse(r.stdout);
      expect(report.verdict).toBe("error");
      const status = (cid: string) => report.cases.find((c: { id: string }) => c.id === cid).status;
      expect(status("containment.user")).toBe("fail");
      expect(status("containment.seccomp")).toBe("skip");
      expect(report.errors.map((e: { kind: string }) => e.kind)).toEqual(["not-measured"]);
    } finally {
      await engine.removeContainer(id);
    }
  });
});
