// Evidence from the engine's inspect: the launch settings as the engine recorded them, reduced to
// the fields the graders read, with the engine's defaults they are read against. Recorded inspect
// documents (fixtures) reach here through their provider's view.
import type {
  ContainerSettings,
  ContainerView,
  EngineDefaults,
  SecuritySettings,
} from "../../engine/provider.js";

export interface InspectEvidence extends ContainerSettings {
  /** Memory plus swap as the engine recorded it (-1: unlimited swap); absent when not read. */
  memorySwap?: number;
  /** What the engine grants when not told otherwise (capabilities, masked paths, its own files). */
  defaults: EngineDefaults;
}

/** The graded settings of a container's view (its state, labels and image are not evidence here). */
export function inspectEvidence(view: ContainerView): InspectEvidence {
  const { image: _i, labels: _l, state: _s, init: _n, publishConfig: _p, ...settings } = view;
  return settings;
}

/** The engine's own words for the security settings it recorded, as evidence quotes them. */
export function securityWords(security: SecuritySettings): string[] {
  const { noNewPrivileges, seccomp, appArmor, selinux, untyped } = security;
  return [
    ...(noNewPrivileges ? [noNewPrivileges.said] : []),
    ...(seccomp.said ? [seccomp.said] : []),
    ...(appArmor ? [appArmor.said] : []),
    ...selinux.map((o) => o.said),
    ...untyped,
  ];
}

/** uid / gid the subject's main process runs as, when the configured user says so numerically. */
export function numericUser(user: string): { uid: number; gid?: number } | undefined {
  const u = user.trim();
  if (u === "" || u === "root") return { uid: 0, gid: 0 };
  const m = /^(\d+|root)(?::(\d+|root))?$/.exec(u);
  if (!m) return undefined;
  const id = (s: string) => (s === "root" ? 0 : Number(s));
  return { uid: id(m[1]!), ...(m[2] !== undefined ? { gid: id(m[2]) } : {}) };
}

/**
 * The kernel's largest pid_max on 64-bit (PID_MAX_LIMIT, 2^22): a pids limit at or above it never
 * bounds, on any host. The host's own pid_max, where measured, is the tighter test.
 */
export const PID_MAX_LIMIT = 4_194_304;

/** The CPUs a cpuset list names ("0-2,4" is 4); 0 for an empty or unreadable list. */
export function cpusetSize(list: string): number {
  let n = 0;
  for (const part of list.split(",").map((p) => p.trim())) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return 0;
    n += m[2] === undefined ? 1 : Number(m[2]) - Number(m[1]) + 1;
  }
  return n;
}

const GIB = 1024 ** 3;
const size = (b: number) => (b >= GIB ? `${(b / GIB).toFixed(1)} GiB` : `${Math.round(b / 1024 ** 2)} MiB`);

/**
 * What each limit bounds on the host the engine runs it on: a limit at or above what the host has
 * is never reached (the host runs out first), so it is no limit. Memory against the host's memory,
 * pids against pid_max (the host's where measured, else the kernel's largest), CPU as a quota
 * below the host's CPUs or a cpuset of fewer CPUs than it has (CIS 5.10, 5.11, 5.28).
 */
export function limitBounds(
  inspect: InspectEvidence,
  pidMax?: number,
): { missing: string[]; unbounded: string[]; bounds: string[] } {
  const host = inspect.engineHost?.memoryBytes ? inspect.engineHost : undefined;
  const out = { missing: [] as string[], unbounded: [] as string[], bounds: [] as string[] };
  if (inspect.memory <= 0) out.missing.push("memory");
  else if (host && inspect.memory >= host.memoryBytes)
    out.unbounded.push(`memory ${size(inspect.memory)} is at or above the host's ${size(host.memoryBytes)}`);
  else
    out.bounds.push(
      `memory ${size(inspect.memory)}${host ? ` of the host's ${size(host.memoryBytes)}` : ""}`,
    );
  const ceiling = pidMax ?? PID_MAX_LIMIT;
  const ceilingName = pidMax
    ? `the host's pid_max ${pidMax}`
    : `the kernel's largest pid_max ${PID_MAX_LIMIT}`;
  if (inspect.pidsLimit === null || inspect.pidsLimit <= 0) out.missing.push("pids");
  else if (inspect.pidsLimit >= ceiling)
    out.unbounded.push(`pids ${inspect.pidsLimit} is at or above ${ceilingName}`);
  else out.bounds.push(`pids ${inspect.pidsLimit} (below ${ceilingName})`);
  const cpu = cpuBound(inspect, host?.cpus);
  if (cpu.kind === "missing") out.missing.push("cpu");
  else out[cpu.kind === "bound" ? "bounds" : "unbounded"].push(cpu.text);
  return out;
}

function cpuBound(
  i: InspectEvidence,
  hostCpus: number | undefined,
): { kind: "bound" | "unbounded" | "missing"; text: string } {
  const quota =
    i.nanoCpus > 0 ? i.nanoCpus / 1e9 : i.cpuQuota > 0 ? i.cpuQuota / (i.cpuPeriod || 100_000) : 0;
  const set = cpusetSize(i.cpusetCpus ?? "");
  const of = hostCpus ? ` of the host's ${hostCpus}` : "";
  if (quota > 0 && (!hostCpus || quota < hostCpus))
    return { kind: "bound", text: `cpu quota ${quota} CPUs${of}` };
  if (set > 0 && hostCpus && set < hostCpus)
    return { kind: "bound", text: `cpuset ${i.cpusetCpus} (${set}${of} CPUs)` };
  if (quota > 0)
    return { kind: "unbounded", text: `cpu quota ${quota} CPUs is at or above the host's ${hostCpus}` };
  if (set > 0)
    return {
      kind: "unbounded",
      text: hostCpus
        ? `cpuset ${i.cpusetCpus} holds all ${hostCpus} of the host's CPUs`
        : `cpuset ${i.cpusetCpus} cannot be compared with the host's CPUs (the engine did not say how many)`,
    };
  return { kind: "missing", text: "" };
}
