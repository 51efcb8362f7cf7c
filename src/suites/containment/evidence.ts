// What the containment graders read: the evidence a run collects (the trusted probe's report,
// inspect, the host's namespaces, the other containers), what a grader is told about the subject,
// and the small readers every grader shares. Pure: nothing here touches an engine.
import type { Freeze } from "../../engine/trusted-probe.js";
import type { CaseResult } from "../../report/model.js";
import type { InspectEvidence } from "./inspect.js";
import { type ClassifiedMount, classifyMounts, type HostPathAllowance, parseMountinfo } from "./mounts.js";

export interface EngineReach {
  /** The subject's default gateway, as its routing table names it (absent: no route out). */
  gateway?: string;
  /** Every address asked, and what answered there. */
  asked: { address: string; answer: "engine" | "http" | "none" }[];
  /** The host's listeners past the bound on asks: not asked. */
  unasked?: number;
}

/** Namespaces the containment suite compares with the host's. */
export const NAMESPACES = ["pid", "net", "ipc", "uts", "mnt", "cgroup"] as const;

/**
 * One task of the subject, as the kernel keeps credentials: per thread. A process's leader is its
 * pid; each of its other threads is a record of its own (a thread may hold what its leader dropped).
 */
export interface ProcessEvidence {
  /** The task's id in the subject's pid namespace (a leader's is its process's pid). */
  pid: number;
  /** For a thread that is not its process's leader: the process (its Tgid). */
  threadOf?: number;
  /** Selected /proc/<pid>/status fields, e.g. Uid: "65532\t65532\t65532\t65532". */
  status: Record<string, string>;
  /** /proc/<pid>/ns/* link targets, e.g. { pid: "pid:[4026532181]" }; absent when unreadable. */
  ns: Record<string, string>;
  /** /proc/<pid>/attr/current, or undefined when the kernel has no LSM label to give. */
  lsm?: string;
  /** Interfaces in the process's network namespace (/proc/<pid>/net/dev). */
  interfaces?: string[];
  /** What could not be read, e.g. ["ns", "mountinfo"]. */
  unreadable: string[];
}

export interface WriteProbe {
  path: string;
  /**
   * accepted: a file was created (or would have been: `full`); refused: the kernel refused it
   * (read-only, permission); missing: the path is not a directory; failed: it could not be
   * probed for any other reason, so nothing is known of it.
   */
  result: "accepted" | "refused" | "missing" | "failed";
  /** Only for accepted writes: whether the probe's file was removed afterwards. */
  cleaned?: boolean;
  /** Accepted, but full: permission to write was given and no space (or inode) was left. */
  full?: boolean;
}

export interface ProbeEvidence {
  /** The subject's processes, by pid inside the subject's pid namespace. */
  processes: ProcessEvidence[];
  /** mountinfo lines of the first subject process's mount namespace (the one write probes ran in). */
  mountinfo: string[];
  writes: WriteProbe[];
  /**
   * Allotted roots whose path goes through a symlink in the subject's image, as its kernel
   * resolves them (Debian's /var/run -> /run: the engine mounts "/var/run/app" at /run/app).
   */
  resolvedRoots?: Record<string, string>;
  /** Masked / read-only paths that exist inside the subject (path -> exists). */
  exists: Record<string, boolean>;
  /** Mount points inside the subject that are sockets (absent: not looked for). */
  sockets?: string[];
  /**
   * Processes in the subject's pid namespace that are neither the subject's nor this probe's, per
   * container id found in their cgroup (none: a host process). Any entry means a shared namespace.
   */
  foreign?: { container?: string; count: number }[];
  /** The probe could traverse /proc/<pid>/root of the first subject process. */
  rootReadable: boolean;
  /** The capabilities the probe itself held (its own permitted set, as the kernel showed it). */
  held?: string[];
  /** What the engine-reach asks found (absent: the probe did not ask); moved to ContainmentEvidence. */
  reach?: EngineReach | { error: string };
  uid: number;
  gid: number;
}

export interface ContainmentEvidence {
  inspect: InspectEvidence;
  /**
   * What the trusted probe read, or why it could not. `unverified`: a report arrived but failed its
   * length/digest check, so what it says cannot be trusted either way.
   */
  probe: ProbeEvidence | { error: string; unverified?: boolean };
  /**
   * Whether the subject stayed frozen while every probe of it ran (absent: not asked, as for
   * recorded inspect data). Not held, what the subject could watch (the write probes) proves no pass.
   */
  freeze?: Freeze;
  /** The engine failed to thaw the subject afterwards: it may still be paused. */
  thawError?: string;
  /** Host namespace identities, or why they could not be measured. */
  host:
    | {
        ns: Record<string, string>;
        sources?: Record<string, string>;
        /** The host's /proc/sys/kernel/pid_max, where the host reference measured it. */
        pidMax?: number;
      }
    | { error: string };
  /**
   * What answered the engine API's requests from inside the subject's network, asked by the subject
   * probe (absent: it has no network of its own, "none" or the host's, or recorded data), or why it
   * could not be asked.
   */
  reach?: EngineReach | { error: string };
  /** Other containers on the engine (never the subject, never this run's probes), or why not listed. */
  others?: OtherContainer[] | { error: string };
}

/** Another container, with what could be learnt about its namespaces. */
export interface OtherContainer {
  id: string;
  name: string;
  /** Its own `container:<ref>` / `host` modes where known (the listing gives net; inspect the rest). */
  modes: Partial<Record<"pid" | "net" | "ipc", string>>;
  /** Namespace ids measured by a trusted probe in the same run (graded together). */
  ns?: Record<string, string>;
}

export interface GradeTarget {
  subject: string;
  writableRoots: readonly string[];
  allowedCapabilities: readonly string[];
  network: "bridge" | "none" | "any";
  /** Host paths the subject may bind (sensitive ones never count). */
  allowedHostPaths?: readonly HostPathAllowance[];
}

/** A grader's verdict on one case; the runner adds the id, subject, timing and the catalogue's fix. */
export type Outcome = Pick<CaseResult, "status" | "message" | "evidence"> & { remediation?: string };

/** A case's grader: pure over the evidence, never touching the subject. */
export type Grader = (evidence: ContainmentEvidence, target: GradeTarget) => Outcome;

export const CAP_NAMES = [
  "CHOWN",
  "DAC_OVERRIDE",
  "DAC_READ_SEARCH",
  "FOWNER",
  "FSETID",
  "KILL",
  "SETGID",
  "SETUID",
  "SETPCAP",
  "LINUX_IMMUTABLE",
  "NET_BIND_SERVICE",
  "NET_BROADCAST",
  "NET_ADMIN",
  "NET_RAW",
  "IPC_LOCK",
  "IPC_OWNER",
  "SYS_MODULE",
  "SYS_RAWIO",
  "SYS_CHROOT",
  "SYS_PTRACE",
  "SYS_PACCT",
  "SYS_ADMIN",
  "SYS_BOOT",
  "SYS_NICE",
  "SYS_RESOURCE",
  "SYS_TIME",
  "SYS_TTY_CONFIG",
  "MKNOD",
  "LEASE",
  "AUDIT_WRITE",
  "AUDIT_CONTROL",
  "SETFCAP",
  "MAC_OVERRIDE",
  "MAC_ADMIN",
  "SYSLOG",
  "WAKE_ALARM",
  "BLOCK_SUSPEND",
  "AUDIT_READ",
  "PERFMON",
  "BPF",
  "CHECKPOINT_RESTORE",
];

/** A /proc/<pid>/status capability mask ("00000000a80425fb") as names. */
export function decodeCaps(hex: string): string[] {
  let mask = BigInt(`0x${hex.trim() || "0"}`);
  const out: string[] = [];
  for (let bit = 0; mask > 0n; bit++, mask >>= 1n) {
    if (mask & 1n) out.push(CAP_NAMES[bit] ?? `CAP_${bit}`);
  }
  return out;
}

export const normCap = (capability: string) => capability.trim().toUpperCase().replace(/^CAP_/, "");

export const pass = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "pass",
  message,
  evidence,
});

export const fail = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "fail",
  message,
  evidence,
});

export const skip = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "skip",
  message,
  evidence,
});

export function observed(evidence: ContainmentEvidence): ProbeEvidence | undefined {
  return "error" in evidence.probe ? undefined : evidence.probe;
}

export function unobservedReason(evidence: ContainmentEvidence, what = "the subject's processes"): string {
  if ("error" in evidence.probe)
    return `the trusted probe could not observe ${what}: ${evidence.probe.error}`;
  if (evidence.probe.processes.length === 0) return `the trusted probe saw no process of the subject`;
  return `the trusted probe could not read ${what}${lsmRefusal(evidence)}`;
}

/**
 * Why AppArmor likely refused the probe: it runs under the engine's default profile, whose rules
 * let it read only processes under that same profile; a subject under another one (unconfined, or
 * its own) is refused to it. Said from what the engine recorded, so the case names the profile.
 */
function lsmRefusal(ev: ContainmentEvidence): string {
  const profile = ev.inspect.appArmorProfile;
  const apparmor = ev.inspect.engineHost?.macLayers.includes("apparmor");
  const own = ev.inspect.defaults.appArmorProfile;
  if (!profile || !apparmor || (own && profile.startsWith(own))) return "";
  return `: AppArmor refused it (the subject runs under profile ${profile}, the probe under the engine's default profile, which may read only its own profile's processes)`;
}

/** The processes whose `field` the probe read; undefined when it read none (nothing to judge). */
export function procs(evidence: ContainmentEvidence, field: string): ProcessEvidence[] | undefined {
  const p = observed(evidence);
  const readable = p?.processes.filter((x) => x.status[field] !== undefined) ?? [];
  return readable.length > 0 ? readable : undefined;
}

/** Processes the probe could not read `what` of, named for the evidence. */
export function unreadablePids(
  evidence: ContainmentEvidence,
  what: (process: ProcessEvidence) => boolean,
): number[] {
  return (
    observed(evidence)
      ?.processes.filter(what)
      .map((p) => p.pid) ?? []
  );
}

/** A task as a case names it: its process, and the thread when it is not the process's leader. */
export function taskName(process: ProcessEvidence): string {
  return process.threadOf === undefined ? String(process.pid) : `${process.threadOf} (thread ${process.pid})`;
}

/** How many processes the tasks are, and their other threads: "2 processes", "1 process and 3 more threads". */
export function countTasks(processes: readonly ProcessEvidence[]): string {
  const threads = processes.filter((p) => p.threadOf !== undefined).length;
  const n = processes.length - threads;
  const more = threads ? ` and ${threads} more thread${threads === 1 ? "" : "s"}` : "";
  return `${n} process${n === 1 ? "" : "es"}${more}`;
}

export function firstField(value: string | undefined): string {
  return (value ?? "").split(/\s+/)[0] ?? "";
}

/** Capabilities the subject's processes can hold: from inspect, plus any bounding set measured. */
export function heldCapabilities(evidence: ContainmentEvidence): Set<string> {
  const i = evidence.inspect;
  if (i.privileged) return new Set(CAP_NAMES);
  const drop = i.capDrop.map(normCap);
  const base = drop.includes("ALL") ? [] : i.defaults.capabilities.filter((c) => !drop.includes(c));
  const held = new Set([...base, ...i.capAdd.map(normCap)]);
  if (held.has("ALL")) return new Set(CAP_NAMES);
  for (const p of observed(evidence)?.processes ?? [])
    for (const c of decodeCaps(p.status.CapBnd ?? "0")) held.add(c);
  return held;
}

/** The allotted writable roots as declared, and where the subject's own links put them. */
export function allottedRoots(evidence: ContainmentEvidence, target: GradeTarget): string[] {
  const resolved = observed(evidence)?.resolvedRoots ?? {};
  return [...new Set([...target.writableRoots, ...target.writableRoots.flatMap((r) => resolved[r] ?? [])])];
}

export function mountsOf(evidence: ContainmentEvidence, target: GradeTarget): ClassifiedMount[] | undefined {
  const p = observed(evidence);
  if (!p || p.mountinfo.length === 0) return undefined;
  return classifyMounts(
    parseMountinfo(p.mountinfo),
    evidence.inspect,
    allottedRoots(evidence, target),
    maskedPaths(evidence),
    readonlyPaths(evidence),
    target.allowedHostPaths ?? [],
    p.sockets ?? [],
  );
}

export function maskedPaths(evidence: ContainmentEvidence): string[] {
  return [...new Set([...evidence.inspect.defaults.maskedPaths, ...(evidence.inspect.maskedPaths ?? [])])];
}

export function readonlyPaths(evidence: ContainmentEvidence): string[] {
  return [
    ...new Set([...evidence.inspect.defaults.readonlyPaths, ...(evidence.inspect.readonlyPaths ?? [])]),
  ];
}
