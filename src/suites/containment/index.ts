// Containment suite entry points (contract used by the pipeline and `check`).
// Evidence first (inspect once + trusted probe containers), judgement second (pure graders).

import { readlink } from "node:fs/promises";
import { OWNER_LABEL } from "../../engine/ownership.js";
import type { Engine } from "../../engine/provider.js";
import { runProbe, whileFrozen } from "../../engine/trusted-probe.js";
import { EngineError, errorEvidence } from "../../errors.js";
import type { CaseResult } from "../../report/model.js";
import type { SuiteRuntime } from "../runtime.js";
import { type Credentials, launchCredentials, measuredCredentials, sameCredentials } from "./credentials.js";
import { type ReachAsks, reachTargets } from "./engine-reach.js";
import type { ContainmentEvidence, OtherContainer, ProcessEvidence } from "./evidence.js";
import { gradeContainment } from "./grade.js";
import { type InspectEvidence, inspectEvidence } from "./inspect.js";
import type { HostPathAllowance } from "./mounts.js";
import {
  censusOptions,
  hostProbeOptions,
  type ProbeLaunch,
  ProbeParseError,
  parseCensusOutput,
  parseHostOutput,
  parseProbeOutput,
  probeOptions,
} from "./probe.js";

export type { ContainmentEvidence, GradeTarget, OtherContainer } from "./evidence.js";
export { gradeContainment } from "./grade.js";
export { type InspectEvidence, inspectEvidence } from "./inspect.js";
export { type HostPathAllowance, parseHostPathAllowance } from "./mounts.js";

/** Default trusted probe: small, multi-arch, pinned by digest. Tests pass a local image instead. */
export const DEFAULT_PROBE_IMAGE =
  "busybox:1.37.0@sha256:bdf57e528e45e4433820e045b29b4597825a1c9e38353532d90a01445013f82e";

export interface HostNamespaces {
  /** e.g. { pid: "pid:[4026531836]", net: "net:[...]", ... } measured in the host namespaces. */
  ns: Record<string, string>;
  probeContainerId?: string;
  /** Where a namespace was read when not from the probe itself, e.g. { mnt: "docker-acceptance" } (this tool's own process). */
  sources?: Record<string, string>;
}

export interface ContainmentTarget {
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

export interface ContainmentOptions {
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
  /** Removals of the subject's probes still under way: awaited after the thaw, not before it. */
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
export const CONTAINMENT_RUNTIME: SuiteRuntime = {
  role: "observes",
  start({ engine, owner, probeImage, signal }) {
    const host = measureHostNamespaces(engine, owner, probeImage, signal);
    host.catch(() => {}); // judged per subject (the namespaces case says why), never unhandled
    return (subject) => ({
      suite: "containment",
      // The inspect the lifecycle hands on is not used: the subject is inspected again once frozen.
      observe: (containerId) =>
        runContainment(
          {
            containerId,
            subject: subject.name,
            writableRoots: subject.writableRoots,
            allowedCapabilities: subject.capabilities,
            allowedHostPaths: subject.allowedHostPaths,
            network: subject.network,
          },
          { engine, owner, probeImage, host, signal },
        ),
    });
  },
};

/** Collects evidence for one running container, then grades it: one CaseResult per containment case. */
export async function runContainment(
  target: ContainmentTarget,
  opts: ContainmentOptions,
): Promise<CaseResult[]> {
  const started = performance.now();
  const evidence = await collectEvidence(target, opts);
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
  // The probes' removals run beside the thaw and the listing; each is over before this returns.
  const removals: Promise<void>[] = [];
  let frozen: Awaited<ReturnType<typeof whileFrozen<Observed>>>;
  try {
    frozen = await whileFrozen(
      opts.engine,
      target.containerId,
      (pausable) => observe(target, { ...opts, removals }, pausable),
      opts.signal,
    );
  } catch (err) {
    // Without inspect there is nothing to judge: every case is an error, not a pass.
    await Promise.all([host, listed, ...removals]);
    throw err;
  }
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
  const [hostEvidence, othersEvidence] = await Promise.all([host, others, Promise.all(removals)]);
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
): Promise<Observed> {
  const raw = await opts.engine.inspect(target.containerId, opts.signal);
  const inspect = inspectEvidence(raw);
  if (!inspect.running) return { inspect, probe: { error: "the container is not running" } };
  // A subject without a network has no way to the engine's port: nothing to ask. On the host's
  // network the case fails whatever answers. Otherwise the subject probe asks from inside the
  // subject's network (./engine-reach.ts), within the freeze, in the same container as its reading.
  const net = inspect.modes.net;
  const asks =
    net === "none" || net === "host"
      ? undefined
      : await reachTargets(opts.engine).catch((err: unknown) => ({ error: errorEvidence(err).message }));
  const probed = await probeSubject(
    inspect,
    raw.state.pid,
    target,
    opts,
    frozen,
    asks && !("error" in asks) ? asks : undefined,
  ).catch((err: unknown) => ({
    error: errorEvidence(err).message,
    ...(err instanceof ProbeParseError ? { unverified: true } : {}),
  }));
  if (!asks) return { inspect, probe: probed };
  if ("error" in asks) return { inspect, probe: probed, reach: { error: asks.error } };
  if ("error" in probed)
    return { inspect, probe: probed, reach: { error: `the probe did not report: ${probed.error}` } };
  const { reach, ...probe } = probed;
  if (!reach) return { inspect, probe, reach: { error: "the probe's report has no engine-reach records" } };
  return { inspect, probe, reach: asks.unasked ? { ...reach, unasked: asks.unasked } : reach };
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

/** Which processes of the namespace the probe reads are the subject's, from its pid-namespace mode. */
function matchFor(pidMode: string): ProbeLaunch["match"] {
  if (pidMode === "host") return "tree";
  if (pidMode.startsWith("container:")) return "cgroup";
  return "ns";
}

type SubjectLaunch = Omit<ProbeLaunch, "uid" | "gid" | "caps" | "mode">;

async function probeSubject(
  inspect: InspectEvidence,
  initPid: number,
  target: ContainmentTarget,
  opts: ContainmentOptions,
  frozen: boolean,
  reach?: ReachAsks,
): Promise<ContainmentEvidence["probe"]> {
  const launch: SubjectLaunch = {
    subjectId: inspect.id,
    rootPid: initPid,
    match: matchFor(inspect.modes.pid),
    writableRoots: target.writableRoots,
    existsPaths: [
      ...new Set([
        ...inspect.defaults.maskedPaths,
        ...(inspect.maskedPaths ?? []),
        ...inspect.defaults.readonlyPaths,
        ...(inspect.readonlyPaths ?? []),
      ]),
    ],
  };
  // Frozen, the subject cannot watch one probe's writes before the next reads it: the full probe
  // runs at once as the launch's credentials, and its report is kept when the processes it read
  // call for exactly what it held; otherwise it runs again as they call for (without asking the
  // engine again: the first report's asks are kept). Not frozen, every read comes before any
  // write: the processes are measured first (no writes), then one full probe, which asks.
  const first = launchCredentials(inspect);
  if (first && frozen) {
    const report = await fullProbe({ ...launch, reach }, first, opts).catch(() => undefined);
    if (report && !("error" in report) && report.processes.length > 0) {
      const wanted = measuredCredentials(report.processes, inspect);
      const held = { uid: first.uid, gid: first.gid, caps: report.held ?? first.caps };
      if (!wanted || sameCredentials(wanted, held)) return report;
      const again = await fullProbe(launch, wanted, opts);
      return "error" in again || !report.reach ? again : { ...again, reach: report.reach };
    }
  }
  const counted = (await opts.census?.().catch(() => undefined))?.get(inspect.id);
  const measured = counted?.length ? counted : await idsProbe(launch, opts);
  if (measured.length === 0) return { error: "no subject process visible to the probe" };
  const creds = measuredCredentials(measured, inspect);
  if (!creds) {
    return {
      error: `could not resolve user ${JSON.stringify(inspect.user)} to a uid:gid (no subject process visible)`,
    };
  }
  return fullProbe({ ...launch, reach }, creds, opts);
}

/** The processes' status as the host shows them, read as nobody holding nothing: whom to probe as. */
async function idsProbe(launch: SubjectLaunch, opts: ContainmentOptions): Promise<ProcessEvidence[]> {
  const spec = probeOptions(opts.owner, opts.probeImage, {
    ...launch,
    caps: [],
    uid: 65534,
    gid: 65534,
    mode: "ids",
  });
  const run = await runProbe(opts.engine, spec, opts.signal, undefined, opts.removals);
  return parseProbeOutput(verifiedRun(run), 65534, 65534).processes;
}

/** A probe's report, when the probe ran to its end (exit 0): a probe that did not is not evidence. */
function verifiedRun(run: { stdout: string; stderr: string; exitCode: number }): string {
  if (run.exitCode !== 0) {
    const stderr = run.stderr.trim().slice(0, 300);
    throw new ProbeParseError(
      `the probe did not complete (exit ${run.exitCode}${stderr ? `: ${stderr}` : ""})`,
    );
  }
  return run.stdout;
}

async function fullProbe(
  launch: SubjectLaunch,
  creds: Credentials,
  opts: ContainmentOptions,
): Promise<ContainmentEvidence["probe"]> {
  const spec = probeOptions(opts.owner, opts.probeImage, { ...launch, ...creds });
  let run: Awaited<ReturnType<typeof runProbe>>;
  try {
    run = await runProbe(opts.engine, spec, opts.signal, undefined, opts.removals);
  } catch (err) {
    // An engine that will not launch the probe in the subject's network still gets it read, as
    // before the asks joined it: without them, the asks' evidence saying why. Refused (an engine
    // may not start a container joined to one that itself joins a third: "generating dependency
    // graph") or failed (no reason recorded, after the provider's own second try) alike.
    const refused = err instanceof EngineError && (err.kind === "engine" || err.kind === "fault");
    if (!launch.reach || !refused) throw err;
    const read = await fullProbe({ ...launch, reach: undefined }, creds, opts);
    const why = `the engine did not launch the probe in the subject's network (${errorEvidence(err).message})`;
    return "error" in read ? read : { ...read, reach: { error: why } };
  }
  try {
    return parseProbeOutput(verifiedRun(run), creds.uid, creds.gid);
  } catch (err) {
    const stderr = run.stderr.trim().slice(0, 300);
    const why = run.exitCode === 0 && stderr ? ` (${stderr})` : "";
    return {
      error: `${(err as Error).message}${why}`,
      ...(err instanceof ProbeParseError ? { unverified: true } : {}),
    };
  }
}
