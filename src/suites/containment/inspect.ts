// Evidence from `docker inspect`: the launch settings as the engine recorded them, reduced to the
// fields the graders read. Recorded inspect documents (fixtures) go through the same function.
import type { ContainerInspect } from "../../engine/providers/docker/engine.js";

export interface InspectEvidence {
  id: string;
  name: string;
  running: boolean;
  /** Config.User as the engine will apply it ("" means the image's default, root). */
  user: string;
  privileged: boolean;
  capAdd: string[];
  capDrop: string[];
  securityOpt: string[];
  readonlyRootfs: boolean;
  modes: { pid: string; net: string; ipc: string; uts: string; cgroup: string; userns: string };
  memory: number;
  pidsLimit: number | null;
  nanoCpus: number;
  cpuQuota: number;
  devices: string[];
  deviceRequests: number;
  deviceCgroupRules: string[];
  maskedPaths: string[] | null;
  readonlyPaths: string[] | null;
  tmpfs: Record<string, string>;
  mounts: {
    type: string;
    source: string;
    destination: string;
    rw: boolean;
    name?: string;
    driver?: string;
    /** Bind propagation (rprivate, rslave, shared, ...). */
    propagation?: string;
  }[];
  /** The engine's data root (e.g. /var/lib/docker), read off the container's own files' paths. */
  dataRoot?: string;
  /** HostConfig.Sysctls as launched. */
  sysctls: Record<string, string>;
  /** Published ports as bound: "8080/tcp" -> ["127.0.0.1:49153"]. */
  ports: Record<string, string[]>;
}

type Loose = Record<string, unknown>;

export function inspectEvidence(doc: ContainerInspect): InspectEvidence {
  const hc = (doc.HostConfig ?? {}) as Loose;
  const cfg = (doc.Config ?? {}) as Loose;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const num = (v: unknown) => (typeof v === "number" ? v : 0);
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const ports: Record<string, string[]> = {};
  const netPorts = (doc.NetworkSettings?.Ports ?? {}) as Record<
    string,
    { HostIp: string; HostPort: string }[] | null
  >;
  for (const [port, bindings] of Object.entries(netPorts)) {
    if (bindings) ports[port] = bindings.map((b) => `${b.HostIp}:${b.HostPort}`);
  }
  const devices = Array.isArray(hc.Devices)
    ? (hc.Devices as Loose[]).map((d) => `${str(d.PathOnHost)}:${str(d.PathInContainer)}`)
    : [];
  return {
    id: doc.Id,
    name: doc.Name.replace(/^\//, ""),
    running: doc.State?.Running === true,
    user: str(cfg.User),
    privileged: hc.Privileged === true,
    capAdd: list(hc.CapAdd),
    capDrop: list(hc.CapDrop),
    securityOpt: list(hc.SecurityOpt),
    readonlyRootfs: hc.ReadonlyRootfs === true,
    modes: {
      pid: str(hc.PidMode),
      net: str(hc.NetworkMode),
      ipc: str(hc.IpcMode),
      uts: str(hc.UTSMode),
      cgroup: str(hc.CgroupnsMode),
      userns: str(hc.UsernsMode),
    },
    memory: num(hc.Memory),
    pidsLimit: typeof hc.PidsLimit === "number" ? hc.PidsLimit : null,
    nanoCpus: num(hc.NanoCpus),
    cpuQuota: num(hc.CpuQuota),
    devices,
    deviceRequests: Array.isArray(hc.DeviceRequests) ? hc.DeviceRequests.length : 0,
    deviceCgroupRules: list(hc.DeviceCgroupRules),
    maskedPaths: Array.isArray(hc.MaskedPaths) ? list(hc.MaskedPaths) : null,
    readonlyPaths: Array.isArray(hc.ReadonlyPaths) ? list(hc.ReadonlyPaths) : null,
    tmpfs: (hc.Tmpfs as Record<string, string> | undefined) ?? {},
    mounts: (doc.Mounts ?? []).map((m) => ({
      type: String(m.Type ?? ""),
      source: String(m.Source ?? ""),
      destination: String(m.Destination ?? ""),
      rw: m.RW === true,
      ...(m.Name ? { name: String(m.Name) } : {}),
      ...(m.Driver ? { driver: String(m.Driver) } : {}),
      ...(m.Propagation ? { propagation: String(m.Propagation) } : {}),
    })),
    ...dataRootOf(doc),
    sysctls: (hc.Sysctls as Record<string, string> | undefined) ?? {},
    ports,
  };
}

/** <data-root>/containers/<id>/resolv.conf -> <data-root>; nothing when the engine does not say. */
function dataRootOf(doc: ContainerInspect): { dataRoot?: string } {
  for (const p of [doc.ResolvConfPath, doc.HostnamePath, doc.HostsPath]) {
    const i = typeof p === "string" ? p.lastIndexOf("/containers/") : -1;
    if (i > 0) return { dataRoot: p.slice(0, i) };
  }
  return {};
}

/**
 * `no-new-privileges` parsed as the engine parses it: a bare flag means true; `:v` or `=v` carries
 * a boolean. Undefined when the option is absent (the daemon's default then decides).
 */
export function noNewPrivilegesOption(securityOpt: readonly string[]): boolean | undefined {
  let value: boolean | undefined;
  for (const opt of securityOpt) {
    const m = /^no-new-privileges(?:[:=](.*))?$/.exec(opt.trim());
    if (!m) continue;
    const v = (m[1] ?? "true").trim().toLowerCase();
    value = ["true", "1", "t", "yes"].includes(v)
      ? true
      : ["false", "0", "f", "no"].includes(v)
        ? false
        : value;
  }
  return value;
}

/** `seccomp=unconfined` / `seccomp:unconfined` (either separator, as the engine accepts). */
export function seccompUnconfined(securityOpt: readonly string[]): boolean {
  return securityOpt.some((o) => /^seccomp[:=]unconfined$/.test(o.trim()));
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

/** Docker's default capability set (moby oci/caps/defaults.go), used only to reason from inspect alone. */
export const ENGINE_DEFAULT_CAPS = [
  "CHOWN",
  "DAC_OVERRIDE",
  "FSETID",
  "FOWNER",
  "MKNOD",
  "NET_RAW",
  "SETGID",
  "SETUID",
  "SETFCAP",
  "SETPCAP",
  "NET_BIND_SERVICE",
  "SYS_CHROOT",
  "KILL",
  "AUDIT_WRITE",
];

/** Engine's default masked and read-only paths (moby oci/defaults.go). */
export const DEFAULT_MASKED_PATHS = [
  "/proc/asound",
  "/proc/acpi",
  "/proc/kcore",
  "/proc/keys",
  "/proc/latency_stats",
  "/proc/timer_list",
  "/proc/timer_stats",
  "/proc/sched_debug",
  "/proc/scsi",
  "/sys/firmware",
];
export const DEFAULT_READONLY_PATHS = [
  "/proc/bus",
  "/proc/fs",
  "/proc/irq",
  "/proc/sys",
  "/proc/sysrq-trigger",
];
