// The pipeline's fail-safe and cancellation paths on the engine double: what could not be measured
// is never green, a cancelled run cleans up what it owns, and an engine that hangs, fails or is
// gone ends the run with the reason. The same paths on the real engine: tests/docker/failsafe,
// signals and probe-channel (which stay).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { listOwned } from "../../src/engine/cleanup.js";
import type { MemoryEngine } from "../../src/engine/providers/memory/engine.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { writeInventory } from "../helpers/inventory.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

type Suites = ("lifecycle" | "containment")[];

function run(
  engine: MemoryEngine,
  inventoryPath: string,
  workspace: string,
  suites: Suites,
  signal?: AbortSignal,
) {
  return runPipeline({
    workspace,
    inventoryPath,
    suites,
    probeImage: MEMORY_BASE,
    log: silentLogger,
    signal: signal ?? new AbortController().signal,
    engine,
  });
}

function workspaceWith(dockerfile: string): string {
  const ws = mkdtempSync(path.join(tmpdir(), "da-memory-"));
  mkdirSync(path.join(ws, "ctx"));
  writeFileSync(path.join(ws, "ctx", "Dockerfile"), dockerfile);
  return ws;
}

const BROKEN = ["ARG BASE_IMAGE", "FROM $BASE_IMAGE", "RUN exit 3", ""].join("\n");
const broken = [{ name: "broken", build: { context: "ctx", args: { BASE_IMAGE: MEMORY_BASE } } }];

/** A subject that runs until stopped and is ready by its log line (no port to poll on the double). */
const service = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  image: MEMORY_BASE,
  command: ["sh", "-c", "echo listening; sleep 300"],
  network: "none",
  readiness: { type: "log", pattern: "listening" },
  startupTimeoutMs: 3000,
  stopTimeoutMs: 1000,
  ...extra,
});

async function nothingOwned(engine: MemoryEngine, owner: string) {
  const left = await listOwned(engine, { owner });
  expect([...left.containers, ...left.images]).toEqual([]);
}

describe("pipeline on the engine double: fail-safe", () => {
  it("--suite containment alone: a subject that never builds reports every containment case as ERROR", async () => {
    const engine = memoryEngine();
    const report = await run(engine, writeInventory(broken), workspaceWith(BROKEN), ["containment"]);
    expect(report.cases.map((c) => c.id)).toEqual([...CONTAINMENT_CASES]);
    expect(new Set(report.cases.map((c) => c.status))).toEqual(new Set(["error"]));
    expect(report.cases[0]?.message).toMatch(/^not measured: lifecycle\.build did not pass: .*exit code: 3/);
    expect(report.verdict).toBe("error");
    await nothingOwned(engine, report.runId);
  });

  it("with the lifecycle suite, the build FAILs at its Dockerfile line and containment SKIPs behind it", async () => {
    const engine = memoryEngine();
    const report = await run(engine, writeInventory(broken), workspaceWith(BROKEN), [
      "lifecycle",
      "containment",
    ]);
    const build = report.cases.find((c) => c.id === "lifecycle.build");
    expect(build?.status).toBe("fail");
    expect(build?.message).toMatch(/^step \[2\/2\] RUN exit 3 failed at ctx\/Dockerfile:3: .*exit code: 3/);
    expect(report.cases.filter((c) => c.suite === "containment").every((c) => c.status === "skip")).toBe(
      true,
    );
    expect(report.verdict).toBe("fail");
  });

  it("a probe image the engine does not have is a run error naming it, and nothing is judged", async () => {
    const engine = memoryEngine();
    const report = await runPipeline({
      workspace: ".",
      inventoryPath: writeInventory([service("svc")]),
      suites: ["containment"],
      probeImage: "registry.invalid/probe:1",
      log: silentLogger,
      signal: new AbortController().signal,
      engine,
    });
    expect(report.verdict).toBe("error");
    expect(report.errors[0]?.message).toContain("probe image registry.invalid/probe:1 is not on this engine");
    expect(report.cases).toEqual([]);
  });

  it("a probe report that does not verify makes the measured cases ERROR or SKIP, never PASS", async () => {
    const engine = memoryEngine();
    engine.answerProbes(() => ({ stdout: "V 1\nU 0\nZ 12 not-the-digest\n", stderr: "", exitCode: 0 }));
    const report = await run(engine, writeInventory([service("svc")]), ".", ["lifecycle", "containment"]);
    expect(report.cases.find((c) => c.id === "lifecycle.ready")?.status).toBe("pass");
    const measured = report.cases.filter((c) => c.suite === "containment" && c.status === "pass");
    // Only what inspect alone proves may pass; nothing the probe was to measure does.
    for (const c of measured)
      expect(c.id).not.toMatch(/mounts|rootfs_readonly|user|capabilities|namespaces|seccomp/);
    expect(report.verdict).not.toBe("pass");
    const unverified = report.cases.filter(
      (c) => c.suite === "containment" && /verif|trailer|length/i.test(c.message),
    );
    expect(
      unverified.length,
      JSON.stringify(report.cases.map((c) => [c.id, c.status, c.message])),
    ).toBeGreaterThan(0);
    await nothingOwned(engine, report.runId);
  });

  it("a crash at start-up is diagnosed from the engine's state: exit code and the last log line", async () => {
    const engine = memoryEngine();
    const crash = service("crash", {
      command: ["sh", "-c", "echo cannot open /data/x: Read-only file system >&2; exit 2"],
    });
    const report = await run(engine, writeInventory([crash]), ".", ["lifecycle"]);
    const ready = report.cases.find((c) => c.id === "lifecycle.ready");
    expect(ready?.status).toBe("fail");
    expect(ready?.message).toMatch(/exited with code 2/);
    expect(ready?.remediation).toContain("allot /data in writableRoots");
    await nothingOwned(engine, report.runId);
  });
});

describe("pipeline on the engine double: an engine that hangs, fails or is gone", () => {
  it("cancelled while the subject starts (its start hangs): the run ends, cleans up, and says cancelled", async () => {
    const engine = memoryEngine();
    engine.inject("start", "hang");
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(new Error("SIGINT")), 300);
    const report = await run(engine, writeInventory([service("svc")]), ".", ["lifecycle"], ac.signal);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.verdict).not.toBe("pass");
    expect(report.errors.map((e) => e.kind)).toContain("cancelled");
    expect(report.cleanup?.completed).toBe(true);
    await nothingOwned(engine, report.runId);
  });

  it("an inspect that fails makes the case ERROR with the engine's reason; cleanup still runs", async () => {
    const engine = memoryEngine();
    engine.inject("inspectImage", "fail", 1);
    const report = await run(engine, writeInventory([service("svc")]), ".", ["lifecycle"]);
    const build = report.cases.find((c) => c.id === "lifecycle.build");
    expect(build?.status).toBe("error");
    expect(build?.message).toContain("injected failure");
    expect(report.cases.find((c) => c.id === "lifecycle.ready")?.status).toBe("skip");
    expect(report.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    await nothingOwned(engine, report.runId);
  });

  it("an engine that refuses the connection is a run error saying so, before anything is created", async () => {
    const engine = memoryEngine();
    engine.inject("ping", "refuse");
    const report = await run(engine, writeInventory([service("svc")]), ".", ["lifecycle"]);
    expect(report.verdict).toBe("error");
    expect(report.errors.map((e) => e.message).join("\n")).toMatch(/unreachable/);
    expect(engine.calls).not.toContain("create");
  });

  it("a subject whose stop hangs past its deadline is still removed by cleanup", async () => {
    const engine = memoryEngine(300);
    engine.inject("stop", "hang");
    const report = await run(engine, writeInventory([service("svc")]), ".", ["lifecycle"]);
    expect(report.cases.find((c) => c.id === "lifecycle.stop")?.status).toBe("error");
    expect(report.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    await nothingOwned(engine, report.runId);
  }, 30_000);
});
