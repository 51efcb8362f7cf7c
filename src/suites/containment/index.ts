// Containment suite entry points (contract used by the pipeline and `check`).
// Evidence first (inspect once + trusted probe containers), judgement second (pure graders).

import { readlink } from "node:fs/promises";
import { OWNER_LABEL } from "../../engine/ownership.js";
import type { ContainerView, Engine } from "../../engine/provider.js";
import { runProbe, whileFrozen } from "../../engine/trusted-probe.js";
import { errorEvidence } from "../../errors.js";
import type { CaseResult } from "../../report/model.js";
import type { ObservingSuite } from "../runtime.js";
import { type ReachAsks, reachTargets } from "./engine-reach.js";
import type { ContainmentEvidence, OtherContainer, ProcessEvidence } from "./evidence.js";
import { gradeContainment } from "./grade.js";
import { type InspectEvidence, inspectEvidence } from "./inspect.js";
import type { HostPathAllowance } from "./mounts.js";
import {
  censusOptions,
  hostProbeOptions,
  ProbeParseError,
  parseCensusOutput,
  parseHostOutput,
} from "./probe.js";
import { type EarlyProbe, prepareEarly, probeSubject, subjectLaunch } from "./subject-probe.js";

export type { ContainmentEvidence } from "./evidence.js";
export { gradeContainment } from "./grade.js";
export { inspectEvidence } from "./inspect.js";
export { type HostPathAllowance, parseHostPathAllowance } from "./mounts.js";

export { DEFAULT_PROBE_IMAGE } from "./probe-image.js";

export interface HostNamespaces {
  /** e.g. { pid: "pid:[4026531836]", net: "net:[...]", ... } measured in the host namespaces. */
  ns: Record<string, string>;
  probeContainerId?: string;
  /** Where a namespace was read when not from the probe itself, e.g. { mnt: "docker-acceptance" } (this tool's own process). */
  sources?: Record<string, string>;
}

interface ContainmentTarget {
  containerId: string;
  /** Subject name for results (attach mode: the container's name). */
  subject: string;
  writableRoots: string[];
  allowedCapabilities: string[];
  /** Declared network mode; "any" in attach mode when nothing was declared. */
  network: "bridge" | "none" | "any";
  /** Host paths the subject may bind (inventory allowedHostPaths, check --allow-host-path). */
  allowedHostPaths?: HostPathAllowance[];
}

interface ContainmentOptions {
  engine: Engine;
  owner: string;
  probeImage: string;
  /** Measured once per run and shared by every target. */
  host: Promise<HostNamespaces>;
  /**
   * Every subject's processes from one census probe (check mode), taken on first call (only
   * subjects whose launch settings leave their credentials open need it); one "ids" probe each when absent.
   */
  census?: () => Promise<Map<string, ProcessEvidence[]>>;
  /** The engine's other running containers, listed once per run (listed per subject when absent). */
  others?: Promise<OtherContainer[]>;
  signal?: AbortSignal;
  /**
   * Where the subject's probe removals go, still under way, for the caller to await (the lifecycle,
   * before its cleanup: they run beside the subject's stop). Absent: awaited here, after the thaw.
   */
  removals?: Promise<void>[];
}

/**
 * Every running container but this run's own probes: whom a subject could share namespaces with.
 * Listed once per run; a container whose listing has no network mode (some engines' carry no
 * host configuration) is inspected here, once, so a `--network container:<subject>` sidecar is seen.
 */
export async function listOtherContainers(
  engine: Engine,
  owner: string,
  signal?: AbortSignal,
): Promise<OtherContainer[]> {
  // Paused too: another subject of the run is paused while its own probe reads it.
  const listed = await engine.listContainers({ status: ["running", "paused"] });
  return Promise.all(
    listed
      .filter((c) => c.labels[OWNER_LABEL] !== owner || c.labels["org.docker-acceptance.role"] !== "probe")
      .map(async (c) => {
        const net =
          c.networkMode ??
          (await engine.inspect(c.id, signal).then(
            (doc) => doc.modes.net,
            () => undefined,
          ));
        return {
          id: c.id,
          name: (c.names[0] ?? c.id.slice(0, 12)).replace(/^\//, ""),
          modes: net ? { net } : {},
        };
      }),
  );
}

/** pid and ipc modes are not in the listing: read them where only inspect can tell. */
async function withInspectedModes(engine: Engine, others: OtherContainer[], signal?: AbortSignal) {
  return Promise.all(
    others.map(async (o) => {
      const doc = await engine.inspect(o.id, signal).catch(() => undefined);
      if (!doc) return o;
      return { ...o, modes: { ...o.modes, pid: doc.modes.pid, ipc: doc.modes.ipc } };
    }),
  );
}

/** One census probe for many subjects (check mode): their processes' ids and capabilities. */
export async function takeCensus(
  engine: Engine,
  owner: string,
  probeImage: string,
  subjectIds: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, ProcessEvidence[]>> {
  const run = await runProbe(engine, censusOptions(owner, probeImage, subjectIds), signal);
  return parseCensusOutput(run.stdout);
}

/** One host probe per run: the namespace identities the engine's "host" modes would share. */
export async function measureHostNamespaces(
  engine: Engine,
  owner: string,
  probeImage: string,
  signal?: AbortSignal,
): Promise<HostNamespaces> {
  const run = await runProbe(engine, hostProbeOptions(owner, probeImage), signal);
  const { ns, sources } = parseHostOutput(run.stdout);
  const own = await ownMountNamespace(ns);
  return own
    ? { ns: { ...ns, mnt: own }, sources: { ...sources, mnt: "docker-acceptance" } }
    : { ns, sources };
}

/**
 * The host's mount namespace, without reading any other process's links: this tool's own, but
 * only when the tool provably runs in the host's pid, net, ipc and uts namespaces (the host
 * probe's readings). Otherwise (a remote engine, the tool in a container) mnt stays unmeasured
 * and the namespaces case says so.
 */
async function ownMountNamespace(host: Record<string, string>): Promise<string | undefined> {
  try {
    for (const n of ["pid", "net", "ipc", "uts"]) {
      if (!host[n] || (await readlink(`/proc/self/ns/${n}`)) !== host[n]) return undefined;
    }
    return await readlink("/proc/self/ns/mnt");
  } catch {
    return undefined;
  }
}

/**
 * The containment suite as a run's observing suite: the host reference is measured once, from the
 * start (off every subject's critical path) and shared; each subject is then graded while it runs.
 */
export const CONTAINMENT_RUNTIME: ObservingSuite = {
  start({ engine, owner, probeImage, signal }) {
    const host = measureHostNamespaces(engine, owner, probeImage, signal);
    host.catch(() => {}); // judged per subject (the namespaces case says why), never unhandled
    return (subject) => ({
      suite: "containment",
      // The inspect the lifecycle hands on only predicts the first probe, created while the subject
      // freezes; the subject is inspected again once frozen, and that inspect decides.
      observe: (containerId, seen, settling) =>
        runContainment(
          {
            containerId,
            subject: subject.name,
            writableRoots: subject.writableRoots,
            allowedCapabilities: subject.capabilities,
            allowedHostPaths: subject.allowedHostPaths,
            network: subject.network,
          },
          { engine, owner, probeImage, host, signal, ...(settling ? { removals: settling } : {}) },
          seen,
        ),
    });
  },
};

/** Collects evidence for one running container, then grades it: one CaseResult per containment case. */
export async function runContainment(
  target: ContainmentTarget,
  opts: ContainmentOptions,
  seen?: ContainerView,
): Promise<CaseResult[]> {
  const started = performance.now();
  const evidence = await collectEvidence(target, opts, seen);
  return gradeContainment(evidence, target, performance.now() - started);
}

/**
 * Evidence for one subject: the subject frozen from before its inspect until its last probe has
 * exited (so the PID the probe enters by is the one the inspect read, and none of its processes
 * executes anything while it is read), the host's namespaces shared, the other containers listed.
 */
export async function collectEvidence(
  target: ContainmentTarget,
  opts: ContainmentOptions,
  seen?: ContainerView,
): Promise<ContainmentEvidence> {
  const host = opts.host.then(
    (h) => ({ ns: h.ns, ...(h.sources ? { sources: h.sources } : {}) }),
    (err: unknown) => ({ error: errorEvidence(err).message }),
  );
  // The other containers are listed while the subject is frozen (it can start nothing meanwhile),
  // beside its inspect and probe rather than after them.
  const listed = (opts.others ?? listOtherContainers(opts.engine, opts.owner, opts.signal)).then(
    (list) => ({ list }),
    (err: unknown) => ({ error: errorEvidence(err).message }),
  );
  // The probes' removals run beside the thaw and the listing, and are over before this returns
  // unless the caller takes them.
  const removals: Promise<void>[] = opts.removals ?? [];
  const made = ahead(target, { ...opts, removals }, seen);
  let frozen: Awaited<ReturnType<typeof whileFrozen<Observed>>>;
  try {
    frozen = await whileFrozen(
      opts.engine,
      target.containerId,
      (pausable) => observe(target, { ...opts, removals }, pausable, made),
      opts.signal,
    );
  } catch (err) {
    // Without inspect there is nothing to judge: every case is an error, not a pass.
    await Promise.all([host, listed, discarded(made), ...removals]);
    throw err;
  }
  // A probe made ahead and never run (the subject stopped, its launch changed) goes too.
  removals.push(discarded(made));
  const { inspect, probe, reach } = frozen.value;
  const others = listed.then(async (listing) => {
    if ("error" in listing) return listing;
    const rest = listing.list.filter((o) => o.id !== inspect.id);
    // Only a shareable IPC namespace can be joined by another container (`--ipc container:<subject>`).
    return inspect.modes.ipc === "shareable"
      ? withInspectedModes(opts.engine, rest, opts.signal).catch((err: unknown) => ({
          error: errorEvidence(err).message,
        }))
      : rest;
  });
  const [hostEvidence, othersEvidence] = await Promise.all([
    host,
    others,
    opts.removals ? undefined : Promise.all(removals),
  ]);
  return {
    inspect,
    probe,
    ...(reach ? { reach } : {}),
    freeze: frozen.freeze,
    ...(frozen.thawError ? { thawError: frozen.thawError } : {}),
    host: hostEvidence,
    others: othersEvidence,
  };
}

/** The probe made ahead removed, unless it ran (then its own removal is under way). */
async function discarded(made: Ahead): Promise<void> {
  await (await made.probe?.catch(() => undefined))?.probe.discard();
}

interface Observed {
  inspect: InspectEvidence;
  probe: ContainmentEvidence["probe"];
  reach?: ContainmentEvidence["reach"];
}

/** The frozen subject's inspect, then its probe (which asks, from the subject's network, whether the engine answers there). */
async function observe(
  target: ContainmentTarget,
  opts: ContainmentOptions,
  frozen: boolean,
  ahead: Ahead,
): Promise<Observed> {
  const raw = await opts.engine.inspect(target.containerId, opts.signal);
  const inspect = inspectEvidence(raw);
  if (!inspect.running) return { inspect, probe: { error: "the container is not running" } };
  const asks = asksFor(inspect) ? await ahead.asks() : undefined;
  const reach = asks && !("error" in asks) ? asks : undefined;
  const launch = subjectLaunch(inspect, raw.state.pid, target, reach);
  const probed = await probeSubject(inspect, launch, frozen, opts, ahead.probe).catch((err: unknown) => ({
    error: errorEvidence(err).message,
    ...(err instanceof ProbeParseError ? { unverified: true } : {}),
  }));
  if (!asks) return { inspect, probe: probed };
  if ("error" in asks) return { inspect, probe: probed, reach: { error: asks.error } };
  if ("error" in probed)
    return { inspect, probe: probed, reach: { error: `the probe did not report: ${probed.error}` } };
  const { reach: answered, ...probe } = probed;
  if (!answered)
    return { inspect, probe, reach: { error: "the probe's report has no engine-reach records" } };
  return { inspect, probe, reach: asks.unasked ? { ...answered, unasked: asks.unasked } : answered };
}

/**
 * A subject without a network has no way to the engine's port: nothing to ask. On the host's
 * network the case fails whatever answers. Otherwise the subject probe asks from inside the
 * subject's network (./engine-reach.ts), within the freeze, in the same container as its reading.
 */
function asksFor(inspect: InspectEvidence): boolean {
  return inspect.modes.net !== "none" && inspect.modes.net !== "host";
}

/** What is made before the freeze: where to ask for the engine, and the first probe. */
interface Ahead {
  /** The host's facts (its listeners, the engine's address), read once: the subject cannot change them. */
  asks: () => Promise<ReachAsks | { error: string }>;
  /** The first subject probe, created from the inspect that saw the subject ready (none in check). */
  probe?: Promise<EarlyProbe | undefined>;
}

function ahead(target: ContainmentTarget, opts: ContainmentOptions, seen?: ContainerView): Ahead {
  let asked: Promise<ReachAsks | { error: string }> | undefined;
  const asks = () =>
    (asked ??= reachTargets(opts.engine).catch((err: unknown) => ({ error: errorEvidence(err).message })));
  if (!seen?.state.running) return { asks };
  const inspect = inspectEvidence(seen);
  const probe = (async () => {
    const found = asksFor(inspect) ? await asks() : undefined;
    const reach = found && !("error" in found) ? found : undefined;
    return prepareEarly(subjectLaunch(inspect, seen.state.pid, target, reach), inspect, opts);
  })();
  return { asks, probe };
}

/**
 * Several subjects graded together (check over a stack): each subject's measured namespace ids are
 * compared with every other's, so sharing between two graded containers is measured, not inferred.
 */
export function withPeerNamespaces(all: ContainmentEvidence[]): ContainmentEvidence[] {
  const measured = new Map<string, Record<string, string>>();
  for (const ev of all) {
    const first = "error" in ev.probe ? undefined : ev.probe.processes.find((p) => Object.keys(p.ns).length);
    if (first) measured.set(ev.inspect.id, first.ns);
  }
  return all.map((ev) => {
    if (!Array.isArray(ev.others)) return ev;
    const others = ev.others.map((o) => {
      const ns = measured.get(o.id);
      return ns ? { ...o, ns } : o;
    });
    return { ...ev, others };
  });
}
