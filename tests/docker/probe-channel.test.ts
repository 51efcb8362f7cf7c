// The probe channel cannot lie: the probe's report carries its length and SHA-256, and a report that
// arrives altered (a line dropped, two lines merged, as Podman's log path can do), or comes from a
// probe that did not run to its end, makes every case that needed it ERROR with the reason, never PASS. Run through the real probe on the real engine;
// only what the engine hands over of it (its attach stream or its log) is altered, the way an engine's log path would alter it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, ownedTag, ownerLabels } from "../../src/engine/ownership.js";
import type { ProbeOutput, ProbeSpec } from "../../src/engine/provider.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import type { CaseResult } from "../../src/report/model.js";
import { measureHostNamespaces, runContainment } from "../../src/suites/containment/index.js";
import { fixtureLaunch, HARDENED_DIR, hardenedSubject, loadFaults } from "../containment/faults.js";
import { BASE_IMAGE, cleanupProblems, DIALECTS, hasEngine, PROBE_IMAGE } from "../helpers/engine.js";

type Alter = (stdout: string) => string;

/** The engine as it is, except that a probe's log comes back altered by `alter`. */
class AlteringEngine extends DockerEngine {
  constructor() {
    super(undefined, undefined, undefined, DIALECTS);
  }

  alter: Alter = (s) => s;
  /** The exit code a probe comes back with, as a probe killed by a signal would (137). */
  exitCode: number | undefined;
  /** A subject probe made slow: it sleeps this long before reading, its deadline cut to 2 s. */
  sleepS: number | undefined;
  /** How many subject probes ran (were started). */
  subjectProbes = 0;
  private slowed(spec: ProbeSpec): ProbeSpec {
    if (spec.script.name !== "da-probe") return spec;
    this.subjectProbes++;
    if (this.sleepS === undefined) return spec;
    const text = `sleep ${this.sleepS}\n${spec.script.text}`;
    return { ...spec, script: { ...spec.script, text }, timeoutMs: 2000 };
  }
  /** What the engine hands over of a probe (its attach stream or its log), altered. */
  private altered(out: ProbeOutput): ProbeOutput {
    const stdout = this.alter(out.stdout);
    return this.exitCode === undefined ? { ...out, stdout } : { ...out, stdout, exitCode: this.exitCode };
  }
  override async probe(spec: ProbeSpec, signal?: AbortSignal) {
    return this.altered(await super.probe(this.slowed(spec), signal));
  }
  override async prepareProbe(spec: ProbeSpec, signal?: AbortSignal) {
    const prepared = await super.prepareProbe(this.slowed(spec), signal);
    return { ...prepared, run: async (s?: AbortSignal) => this.altered(await prepared.run(s)) };
  }
}

/** A record line to alter: a mountinfo line (where a host bind is found) or, in the first probe, a status line. */
const recordLine = (lines: string[]) => {
  const m = lines.findIndex((l) => l.startsWith("M ") && l.includes("/data"));
  return m !== -1 ? m : lines.findIndex((l) => l.startsWith("S "));
};
const dropLine: Alter = (s) => {
  const lines = s.split("\n");
  lines.splice(recordLine(lines), 1);
  return lines.join("\n");
};
const mergeLines: Alter = (s) => {
  const lines = s.split("\n");
  const i = recordLine(lines);
  lines.splice(i, 2, `${lines[i]}${lines[i + 1]}`);
  return lines.join("\n");
};

describe.skipIf(!hasEngine)("probe channel on the real engine", () => {
  const engine = new AlteringEngine();
  const owner = newRunId();
  const hostDir = mkdtempSync(path.join(tmpdir(), "da-channel-bind-"));
  const fault = loadFaults().find((f) => f.name === "host-bind-rw")!;
  let id = "";
  const run = async (alter: Alter, exitCode?: number): Promise<CaseResult[]> => {
    engine.alter = alter;
    engine.exitCode = exitCode;
    const host = measureHostNamespaces(engine, owner, PROBE_IMAGE);
    const target = {
      containerId: id,
      subject: fault.name,
      writableRoots: hardenedSubject.writableRoots,
      allowedCapabilities: hardenedSubject.capabilities,
      network: hardenedSubject.network,
    };
    return runContainment(target, { engine, owner, probeImage: PROBE_IMAGE, host });
  };
  const status = (rs: CaseResult[], caseId: string) => rs.find((r) => r.id === caseId)?.status;

  beforeAll(async () => {
    const tag = ownedTag(owner, "hardened");
    await engine.build({
      context: readBuildContext(HARDENED_DIR, "Dockerfile"),
      tag,
      labels: ownerLabels(owner, "subject"),
      buildArgs: { BASE_IMAGE },
      timeoutMs: 90_000,
    });
    id = await engine.createContainer(fixtureLaunch(fault, tag, owner, `${owner}-channel`, hostDir));
    await engine.start(id);
  });

  afterAll(async () => {
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    rmSync(hostDir, { recursive: true, force: true });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
  });

  it("an intact report finds the read-write host bind", async () => {
    expect(status(await run((s) => s), "containment.mounts")).toBe("fail");
  });

  it.each([
    ["a dropped line", dropLine, undefined, /probe report does not verify/],
    ["two merged lines", mergeLines, undefined, /probe report does not verify/],
    // An intact log from a probe that did not run to its end (killed: 128 + SIGKILL).
    ["a probe that did not complete", (s: string) => s, 137, /the probe did not complete \(exit 137/],
  ])("%s makes the probe's cases ERROR with the reason, never PASS", async (_what, alter, exitCode, why) => {
    const results = await run(alter, exitCode);
    for (const caseId of ["containment.user", "containment.capabilities", "containment.writable_roots"]) {
      const r = results.find((x) => x.id === caseId)!;
      expect(r.status).toBe("error");
      expect(r.message).toMatch(why);
    }
    // The bind is still found from inspect alone; nothing the probe would have measured passes.
    expect(status(results, "containment.mounts")).toBe("fail");
    // The cases inspect alone decides (as for a subject no probe could observe) are the only passes.
    const passes = results.filter((r) => r.status === "pass").map((r) => r.id);
    const inspectDecided = ["containment.privileged", "containment.devices", "containment.resources"];
    expect(passes.filter((c) => !inspectDecided.includes(c))).toEqual([]);
    expect(passes).not.toContain("containment.mounts");
    // Whether the engine answers from the subject's network was asked by that probe: not measured.
    expect(results.find((r) => r.id === "containment.network")?.message).toMatch(/was not measured/);
  });

  it("a probe still reading at its deadline runs once: its cases say so, the subject is not held again", async () => {
    engine.sleepS = 60;
    engine.subjectProbes = 0;
    try {
      const started = Date.now();
      const results = await run((s) => s);
      for (const caseId of ["containment.user", "containment.capabilities", "containment.network"]) {
        const r = results.find((x) => x.id === caseId)!;
        expect(r.status, caseId).toBe("skip");
        expect(r.message, caseId).toMatch(/the probe was still reading when its deadline passed/);
      }
      // Before: the engine ran it again as a fault, then the suite a third and fourth time.
      expect(engine.subjectProbes).toBe(1);
      expect(Date.now() - started).toBeLessThan(40_000);
      expect((await engine.inspect(id)).state.status).toBe("running");
    } finally {
      engine.sleepS = undefined;
    }
  });
});
