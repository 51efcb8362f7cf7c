// Containment suite entry points (contract used by the pipeline and `check`).
// Evidence first (inspect once + trusted probe containers), judgement second (pure graders).

import { readlink } from "node:fs/promises";
import { OWNER_LABEL } from "../../engine/ownership.js";
import type { ContainerView, Engine } from "../../engine/provider.js";
import { runProbe } from "../../engine/trusted-probe.js";
import { errorEvidence } from "../../errors.js";
import type { CaseResult } from "../../report/model.js";
import type { SuiteRuntime } from "../runtime.js";
import {
  type ContainmentEvidence,
  decodeCaps,
  type OtherContainer,
  type ProcessEvidence,
} from "./evidence.js";
import { gradeContainment } from "./grade.js";
import { type InspectEvidence, inspectEvidence, numericUser } from "./inspect.js";
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
  /** An inspect document the caller read moments ago (the lifecycle's limits read): not read again. */
  inspect?: ContainerView;
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
  const listed = await engine.listContainers({ status: ["running"] });
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
      observe: (containerId, inspect) =>
        runContainment(
          {
            containerId,
            subject: subject.name,
            writableRoots: subject.writableRoots,
            allowedCapabilities: subject.capabilities,
            allowedHostPaths: subject.allowedHostPaths,
            network: subject.network,
            inspect,
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

/** Evidence for one subject: inspect once, probe once (twice for a user given by name), host shared. */
export async function collectEvidence(
  target: ContainmentTarget,
  opts: ContainmentOptions,
): Promise<ContainmentEvidence> {
  const host = opts.host.then(
    (h) => ({ ns: h.ns, ...(h.sources ? { sources: h.sources } : {}) }),
    (err: unknown) => ({ error: errorEvidence(err).message }),
  );
  let inspect: InspectEvidence;
  let initPid = 0;
  try {
    const raw = target.inspect ?? (await opts.engine.inspect(target.containerId, opts.signal));
    inspect = inspectEvidence(raw);
    initPid = raw.state.pid;
  } catch (err) {
    // Without inspect there is nothing to judge: every case is an error, not a pass.
    await host;
    throw err;
  }
  const others = (opts.others ?? listOtherContainers(opts.engine, opts.owner, opts.signal)).then(
    async (list) => {
      const rest = list.filter((o) => o.id !== inspect.id);
      // Only a shareable IPC namespace can be joined by another container (`--ipc container:<subject>`).
      return inspect.modes.ipc === "shareable" ? withInspectedModes(opts.engine, rest, opts.signal) : rest;
    },
    (err: unknown) => ({ error: errorEvidence(err).message }),
  );
  const probe = inspect.running
    ? await probeSubject(inspect, initPid, target, opts).catch((err: unknown) => ({
        error: errorEvidence(err).message,
        ...(err instanceof ProbeParseError ? { unverified: true } : {}),
      }))
    : { error: "the container is not running" };
  return { inspect, probe, host: await host, others: await others };
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

/** How the probe tells the subject's processes apart, from the subject's pid-namespace mode. */
function matchFor(pidMode: string, initPid: number): ProbeLaunch["match"] {
  if (pidMode === "host") return { by: "tree", rootPid: initPid };
  if (pidMode.startsWith("container:")) return { by: "cgroup" };
  return { by: "ns" };
}

async function probeSubject(
  inspect: InspectEvidence,
  initPid: number,
  target: ContainmentTarget,
  opts: ContainmentOptions,
): Promise<ContainmentEvidence["probe"]> {
  const launch = {
    subjectId: inspect.id,
    match: matchFor(inspect.modes.pid, initPid),
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
  // When the launch settings name a uid:gid that can hold no capabilities, the full probe runs as
  // that at once, holding none. Its own report lists the subject's processes' ids and capabilities
  // (the same status lines an "ids" probe reads): the report is kept only when they are exactly
  // what it ran as; otherwise it is discarded and the probe runs again as the processes measured.
  const guess = credentialsFromInspect(inspect);
  if (guess) {
    const first = await fullProbe(launch, guess, opts).catch(() => undefined);
    if (first && !("error" in first) && first.processes.length > 0) {
      const measured = credentialsOf(first.processes, inspect);
      if (measured && sameCredentials(measured, guess)) return first;
      return probeAsMeasured(first.processes, inspect, launch, opts);
    }
  }
  // First a probe with nothing (any uid may read /proc/<pid>/status): which uid:gid and which
  // capabilities the subject's processes hold, as the kernel reports them, whatever the engine's
  // inspect says (engines differ in their default sets and in how they report them).
  const census = await opts.census?.().catch(() => undefined);
  const counted = census?.get(inspect.id);
  const measured = counted?.length
    ? counted
    : parseProbeOutput(
        (
          await runProbe(
            opts.engine,
            probeOptions(opts.owner, opts.probeImage, {
              ...launch,
              caps: [],
              uid: 65534,
              gid: 65534,
              mode: "ids",
            }),
            opts.signal,
          )
        ).stdout,
        65534,
        65534,
      ).processes;
  return probeAsMeasured(measured, inspect, launch, opts);
}

type SubjectLaunch = Omit<ProbeLaunch, "uid" | "gid" | "caps" | "mode">;
interface Credentials {
  uid: number;
  gid: number;
  caps: string[];
}

/**
 * The full probe as the subject's processes run: their effective uid:gid (a user given by name, or
 * an entrypoint that starts as root and drops to another user, leaves the configured user behind)
 * and the capabilities they hold (the kernel shows a process's namespaces and mounts only to a
 * reader with its uids and a superset of its permitted set).
 */
async function probeAsMeasured(
  measured: readonly ProcessEvidence[],
  inspect: InspectEvidence,
  launch: SubjectLaunch,
  opts: ContainmentOptions,
): Promise<ContainmentEvidence["probe"]> {
  if (measured.length === 0) return { error: "no subject process visible to the probe" };
  const creds = credentialsOf(measured, inspect);
  if (!creds) {
    return {
      error: `could not resolve user ${JSON.stringify(inspect.user)} to a uid:gid (no subject process visible)`,
    };
  }
  return fullProbe(launch, creds, opts);
}

async function fullProbe(
  launch: SubjectLaunch,
  creds: Credentials,
  opts: ContainmentOptions,
): Promise<ContainmentEvidence["probe"]> {
  const run = await runProbe(
    opts.engine,
    probeOptions(opts.owner, opts.probeImage, { ...launch, ...creds }),
    opts.signal,
  );
  try {
    return parseProbeOutput(run.stdout, creds.uid, creds.gid);
  } catch (err) {
    const stderr = run.stderr.trim().slice(0, 300);
    return {
      error: `${(err as Error).message} (exit ${run.exitCode}${stderr ? `: ${stderr}` : ""})`,
      ...(err instanceof ProbeParseError ? { unverified: true } : {}),
    };
  }
}

/** What the probe must run as: the processes' common uid:gid and the union of their permitted sets. */
function credentialsOf(
  processes: readonly ProcessEvidence[],
  inspect: InspectEvidence,
): Credentials | undefined {
  const caps = [...new Set(processes.flatMap((p) => decodeCaps(p.status.CapPrm ?? "")))];
  const ids = commonIds(processes) ?? numericUser(inspect.user);
  if (!ids || ids.gid === undefined) return undefined;
  return { uid: ids.uid, gid: ids.gid, caps };
}

/**
 * The credentials the launch settings promise when they leave no capability to hold: a numeric
 * uid:gid that is not root (the kernel gives a non-root process none), or root with every
 * capability dropped and none added. Never more than the subject could hold; undefined otherwise.
 */
export function credentialsFromInspect(inspect: InspectEvidence): Credentials | undefined {
  const ids = numericUser(inspect.user);
  if (!ids || ids.gid === undefined || inspect.privileged) return undefined;
  const dropsAll = inspect.capDrop.some((c) => /^(CAP_)?ALL$/i.test(c.trim()));
  if (ids.uid === 0 && !(dropsAll && inspect.capAdd.length === 0)) return undefined;
  return { uid: ids.uid, gid: ids.gid, caps: [] };
}

function sameCredentials(a: Credentials, b: Credentials): boolean {
  const caps = (c: Credentials) => [...c.caps].sort().join(",");
  return a.uid === b.uid && a.gid === b.gid && caps(a) === caps(b);
}

/** The effective uid:gid most of the subject's processes run as (ties: the earliest process's). */
function commonIds(processes: readonly ProcessEvidence[]): { uid: number; gid: number } | undefined {
  const counts = new Map<string, number>();
  for (const p of processes) {
    const uid = Number(p.status.Uid?.split(/\s+/)[1]);
    const gid = Number(p.status.Gid?.split(/\s+/)[1]);
    if (!Number.isInteger(uid) || !Number.isInteger(gid)) continue;
    const key = `${uid}:${gid}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [key, n] of counts) if (best === undefined || n > counts.get(best)!) best = key;
  if (best === undefined) return undefined;
  const [uid, gid] = best.split(":").map(Number) as [number, number];
  return { uid, gid };
}
