// The subject probe's cost on the real engine: as whom it runs is chosen before any probe (the
// subject's processes as this tool's /proc shows them), so a subject whose user is a name is probed
// once, not twice; its first probe is created from the inspect that saw the subject ready while the
// subject freezes, and runs only when the frozen inspect calls for that very launch (a stale one is
// removed unstarted). Verdicts are the same either way; nothing of the run is left.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { newRunId } from "../../src/engine/ownership.js";
import type { ContainerView, ProbeSpec } from "../../src/engine/provider.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { CaseResult } from "../../src/report/model.js";
import { hostProcesses } from "../../src/suites/containment/host-procs.js";
import { measureHostNamespaces, runContainment } from "../../src/suites/containment/index.js";
import { specFor } from "../engine/contract.js";
import {
  BASE_IMAGE,
  cleanupProblems,
  DIALECTS,
  hasEngine,
  ownedLeft,
  PROBE_IMAGE,
} from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

/** The engine as it is, counting the probes it creates: each with the user it runs as. */
class CountingEngine extends DockerEngine {
  constructor() {
    super(undefined, undefined, undefined, DIALECTS);
  }
  created: { user: string; ahead: boolean }[] = [];
  override probe(spec: ProbeSpec, signal?: AbortSignal) {
    this.created.push({ user: spec.user, ahead: false });
    return super.probe(spec, signal);
  }
  override prepareProbe(spec: ProbeSpec, signal?: AbortSignal) {
    this.created.push({ user: spec.user, ahead: true });
    return super.prepareProbe(spec, signal);
  }
}

describe.skipIf(!hasEngine)("the subject probe's credentials and its creation ahead", () => {
  const engine = new CountingEngine();
  const owner = newRunId();
  const host = measureHostNamespaces(engine, owner, PROBE_IMAGE);
  host.catch(() => undefined);
  let numeric = "";
  let named = "";

  const target = (containerId: string) => ({
    containerId,
    subject: "subject",
    writableRoots: ["/tmp"],
    allowedCapabilities: [],
    network: "none" as const,
  });
  const contain = async (id: string, seen?: ContainerView) => {
    engine.created = [];
    const results = await runContainment(target(id), { engine, owner, probeImage: PROBE_IMAGE, host }, seen);
    return { results, created: engine.created };
  };
  const statuses = (rs: CaseResult[]) => Object.fromEntries(rs.map((r) => [r.id, r.status]));
  const probesLeft = async () => (await engine.listContainers({ owner, role: "probe" })).length;

  beforeAll(async () => {
    // Two processes each (a shell and its child): a user by number, and one by name (nobody).
    numeric = await engine.create(specFor(owner, "numeric", BASE_IMAGE, "sleep 300 & wait"));
    named = await engine.create({
      ...specFor(owner, "named", BASE_IMAGE, "sleep 300 & wait"),
      user: "nobody",
    });
    await Promise.all([engine.start(numeric), engine.start(named)]);
  });

  afterAll(async () => {
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
  });

  it("reads a container's processes from this tool's /proc only where the PID there is the container's", async () => {
    const view = await engine.inspect(named);
    const procs = hostProcesses(view.state.pid, view.id);
    expect(procs?.length).toBeGreaterThanOrEqual(2);
    for (const p of procs ?? []) expect(p.status.Uid?.split(/\s+/)[1]).toBe("65534");
    // The same PID named as another container's: not this one's, so nothing is read.
    expect(hostProcesses(view.state.pid, (await engine.inspect(numeric)).id)).toBeUndefined();
  });

  it("a subject whose user is a name is probed once, as the uid its processes run as", async () => {
    const { results, created } = await contain(named);
    expect(created).toEqual([{ user: "65534:65534", ahead: false }]);
    expect(statuses(results)["containment.user"]).toBe("pass");
    expect(await probesLeft()).toBe(0);
  });

  it("its first probe is created ahead from the inspect that saw it ready, and is the one that runs", async () => {
    const seen = await engine.inspect(numeric);
    const ahead = await contain(numeric, seen);
    const plain = await contain(numeric);
    expect(ahead.created).toEqual([{ user: "65534:65534", ahead: true }]);
    expect(statuses(ahead.results)).toEqual(statuses(plain.results));
    expect(await probesLeft()).toBe(0);
  });

  it("an inspect that no longer describes the subject gets its probe removed unstarted, and a fresh one runs", async () => {
    // Its init at another PID, as if the subject had been started again since it was seen ready.
    const seen = await engine.inspect(numeric);
    const stale = { ...seen, state: { ...seen.state, pid: (await engine.inspect(named)).state.pid } };
    const { results, created } = await contain(numeric, stale);
    expect(created.map((c) => c.ahead)).toEqual([true, false]);
    expect(statuses(results)).toEqual(statuses((await contain(numeric)).results));
    expect(await probesLeft()).toBe(0);
  });

  it("a probe whose removal is slow holds no phase: the subject's stop runs beside it, its cleanup waits for it", async () => {
    // Each subject probe's removal (a probe joined to the subject's network) ends 8 s after the
    // engine's own: a phase that waited for it would end after it.
    const slow = new SlowProbeRemovals(8000);
    const report = await runPipeline({
      workspace: REPO_ROOT,
      inventoryPath: writeInventory([fixtureSubject("hardened")]),
      probeImage: PROBE_IMAGE,
      log: silentLogger,
      signal: new AbortController().signal,
      engine: slow,
    });
    // In order, not in durations (a loaded engine makes every phase slow): the stop began before
    // the probe's removal ended, and the cleanup ended after it.
    const at = (name: string, end = false) => {
      const p = report.subjects[0]!.phases.find((x) => x.name === name)!;
      return Date.parse(report.startedAt) + p.startMs + (end ? p.durationMs : 0);
    };
    expect(slow.removedProbes.length).toBeGreaterThan(0);
    expect(at("stop")).toBeLessThan(Math.min(...slow.removedProbes));
    // The cleanup is what waits: it never removes the subject while a probe that joined it stands.
    expect(Math.max(...slow.removedProbes)).toBeLessThanOrEqual(at("cleanup", true));
    expect(report.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    expect(await ownedLeft(report.runId, [report.cleanup])).toEqual({ containers: [], images: [] });
  }, 120_000);
});

/** The engine as it is, but each subject probe's removal ends `ms` later: when (epoch ms) each did. */
class SlowProbeRemovals extends DockerEngine {
  readonly removedProbes: number[] = [];
  constructor(private readonly ms: number) {
    super(undefined, undefined, undefined, DIALECTS);
  }
  override async removeContainer(containerId: string): Promise<void> {
    const view = await this.inspect(containerId).catch(() => undefined);
    const probe =
      view?.labels["org.docker-acceptance.role"] === "probe" && view.modes.net.startsWith("container:");
    await super.removeContainer(containerId);
    if (!probe) return;
    await new Promise((resolve) => setTimeout(resolve, this.ms));
    this.removedProbes.push(Date.now());
  }
}
