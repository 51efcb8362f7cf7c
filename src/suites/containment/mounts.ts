// The mount inventory: every line of the subject's mountinfo, parsed and classified. A mount is
// acceptable only for a stated reason (read-only, engine-managed file, kernel pseudo-filesystem
// with its expected flags, masking, allotted writable root); anything else is a finding.
import path from "node:path";
import { ENGINE_DATA_ROOTS, ENGINE_SOCKET } from "../../engine/host-paths.js";
import type { InspectEvidence } from "./inspect.js";

interface MountEntry {
  /** The mount's ID and its parent's (fields 1 and 2): a mount over another at the same point has it as parent. */
  id: string;
  parent: string;
  mountPoint: string;
  /** The filesystem's major:minor (field 3): which host filesystem a bind comes from. */
  device: string;
  /** Path inside the source filesystem (for a bind mount: which file or directory). */
  root: string;
  fsType: string;
  source: string;
  /** Per-mount options (field 6): rw/ro, nosuid, nodev, noexec, ... */
  options: string[];
}

type MountClass =
  | "rootfs"
  | "kernel"
  | "masking"
  | "engine-file"
  | "allotted"
  | "host-path"
  | "read-only"
  | "finding";

export interface ClassifiedMount extends MountEntry {
  class: MountClass;
  /** Why it is acceptable, or what is wrong. */
  reason: string;
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
/** A mountinfo field as it is on disk: the kernel writes space, tab, newline and backslash in octal. */
export function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

export function parseMountinfo(lines: readonly string[]): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of lines) {
    const f = line.trim().split(" ");
    const sep = f.indexOf("-", 6);
    if (f.length < 10 || sep < 0) continue;
    out.push({
      id: f[0]!,
      parent: f[1]!,
      mountPoint: unescapeOctal(f[4]!),
      device: f[2]!,
      root: unescapeOctal(f[3]!),
      options: f[5]!.split(","),
      fsType: f[sep + 1]!,
      source: unescapeOctal(f[sep + 2] ?? ""),
    });
  }
  return out;
}

/** Kernel pseudo-filesystems where the engine puts them, and the flags each must carry. */
interface KernelRule {
  match: (m: MountEntry) => boolean;
  flags: string[];
  what: string;
}
const KERNEL_RULES: KernelRule[] = [
  {
    what: "procfs",
    match: (m) => m.mountPoint === "/proc" && m.fsType === "proc",
    flags: ["nosuid", "nodev", "noexec"],
  },
  { what: "/dev tmpfs", match: (m) => m.mountPoint === "/dev" && m.fsType === "tmpfs", flags: ["nosuid"] },
  {
    what: "devpts",
    match: (m) => m.mountPoint === "/dev/pts" && m.fsType === "devpts",
    flags: ["nosuid", "noexec"],
  },
  {
    what: "POSIX message queues",
    match: (m) => m.mountPoint === "/dev/mqueue" && m.fsType === "mqueue",
    flags: ["nosuid", "nodev", "noexec"],
  },
  {
    what: "sysfs",
    match: (m) => m.mountPoint === "/sys" && m.fsType === "sysfs",
    flags: ["ro", "nosuid", "nodev", "noexec"],
  },
  // cgroup v1: a small root-owned tmpfs holding read-only hierarchy mounts; v2: one cgroup2 mount.
  {
    what: "cgroup v1 directory",
    match: (m) => m.mountPoint === "/sys/fs/cgroup" && m.fsType === "tmpfs",
    flags: ["nosuid", "nodev", "noexec"],
  },
  {
    what: "cgroup hierarchy",
    match: (m) =>
      (m.fsType === "cgroup" || m.fsType === "cgroup2") &&
      (m.mountPoint === "/sys/fs/cgroup" || m.mountPoint.startsWith("/sys/fs/cgroup/")),
    flags: ["ro", "nosuid", "nodev", "noexec"],
  },
];

const SOCKET = ENGINE_SOCKET;

export function under(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * The mount a path resolves to: the deepest mount point above it and, of several mounts there, the
 * one on top (none of the others has it as parent). A mount hides the one it is mounted over: the
 * engine stacks a Dockerfile `VOLUME ../../tmp` over the launch's tmpfs at /tmp (it does not match
 * the two paths), and what the subject writes at /tmp lands on the volume, not on the tmpfs.
 */
export function mountAt<M extends MountEntry>(path: string, mounts: readonly M[]): M | undefined {
  const above = mounts.filter((m) => under(path, m.mountPoint));
  const deepest = Math.max(...above.map((m) => m.mountPoint.length));
  const there = above.filter((m) => m.mountPoint.length === deepest);
  return there.find((m) => !there.some((o) => o.parent === m.id)) ?? there.at(-1);
}

// --- host paths ---------------------------------------------------------------------------------
// A host bind is a finding unless allowed (inventory allowedHostPaths, check --allow-host-path, or a
// container's allowance label). Sensitive host paths are never allowable: read-only still exposes
// the host's processes, credentials and engine. Judged from the declared source, so the verdict does
// not depend on whether the engine made sub-mounts read-only too (newer engines do, older ones do not).

/** A host path the subject may have bound, read-only unless `readOnly` is false. */
export interface HostPathAllowance {
  path: string;
  readOnly: boolean;
}

/** `PATH`, `PATH:ro` or `PATH:rw` (flag, action input and label form). Throws with the fix. */
export function parseHostPathAllowance(spec: string): HostPathAllowance {
  const m = /^(\/[^:\s]*)(?::(ro|rw))?$/.exec(spec.trim());
  if (!m) {
    throw new Error(
      `${JSON.stringify(spec)}: expected an absolute host path, optionally followed by :ro or :rw (e.g. /srv/data:ro)`,
    );
  }
  return { path: normalHostPath(m[1]!), readOnly: m[2] !== "rw" };
}

function normalHostPath(hostPath: string): string {
  const n = path.posix.normalize(hostPath);
  return n.length > 1 ? n.replace(/\/+$/, "") : n;
}

/** The CIS container benchmark's (5.5) sensitive host directories, plus the home and boot trees. */
const SENSITIVE_HOST_PATHS = [
  "/proc",
  "/sys",
  "/etc",
  "/run",
  "/var/run",
  ...ENGINE_DATA_ROOTS,
  "/boot",
  "/dev",
  "/root",
  "/home",
];

/**
 * The host's programs and libraries (CIS 5.5 names /usr and /lib): bound read-only they only
 * disclose, bound read-write they let the subject change what the host runs. Allowed read-write
 * they are still a finding.
 */
const HOST_SYSTEM_DIRS = ["/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin"];

/** Why writing host path `source` reaches what the host runs (it is, holds, or sits inside one). */
function hostSystemPath(source: string): string | undefined {
  const src = normalHostPath(source);
  for (const r of HOST_SYSTEM_DIRS) {
    if (under(src, r)) return `inside the host's ${r}`;
    if (under(r, src)) return `contains the host's ${r}`;
  }
  return undefined;
}

const writableSystem = (source: string, where: string) =>
  `host path ${source} is ${where}, mounted read-write: the subject can change what the host runs (read-only at most)`;

/** Why a host path is sensitive (it is, holds, or sits inside one), or undefined. */
export function sensitiveHostPath(source: string, dataRoot?: string): string | undefined {
  const src = normalHostPath(source);
  if (src === "/") return "the host's root filesystem";
  if (SOCKET.test(src)) return "an engine socket";
  const roots = [...SENSITIVE_HOST_PATHS, ...(dataRoot ? [normalHostPath(dataRoot)] : [])];
  for (const r of roots) {
    if (under(src, r))
      return r === dataRoot ? `inside the engine's data root ${r}` : `inside the host's ${r}`;
    if (under(r, src)) return `contains the host's ${r}`;
  }
  return undefined;
}

interface HostBind {
  source: string;
  destination: string;
  rw: boolean;
  /** What is wrong with it; undefined when an allowance covers it. */
  problem?: string;
}

/** What is wrong with binding host path `source` (undefined: an allowance covers it). */
function hostPathProblem(
  source: string,
  rw: boolean,
  propagation: string | undefined,
  allowed: readonly HostPathAllowance[],
  dataRoot: string | undefined,
): string | undefined {
  const sensitive = sensitiveHostPath(source, dataRoot);
  const allow = allowed.find((a) => under(source, normalHostPath(a.path)));
  const system = rw ? hostSystemPath(source) : undefined;
  return sensitive
    ? `host path ${source} is ${sensitive}: never allowed, read-only or not`
    : !allow
      ? `host path ${source} is not an allowed host path`
      : allow.readOnly && rw
        ? `host path ${source} is allowed read-only but mounted read-write`
        : system
          ? writableSystem(source, system)
          : /^r?shared$/.test(propagation ?? "")
            ? `host path ${source} is mounted with ${propagation} propagation (mounts made inside reach the host)`
            : undefined;
}

/**
 * The host directory a declared mount binds, as the engine says it: a bind's source, or the
 * `device` of a local volume whose options say `o=bind` (`-o type=none -o o=bind -o device=DIR`).
 * Decided from the engine's record of the mount, never from the filesystem that holds it (on a
 * tmpfs such as a runner's /run or /dev/shm the kernel shows it as one more tmpfs).
 */
export function boundHostPath(mount: InspectEvidence["mounts"][number]): string | undefined {
  if (mount.type === "bind") return mount.source;
  const o = mount.volumeOptions;
  if (mount.type !== "volume" || !o?.device) return undefined;
  return o.o?.split(",").some((x) => x.trim() === "bind" || x.trim() === "rbind") ? o.device : undefined;
}

/** Every declared host bind with its judgement (engine-managed files are not declared mounts). */
export function judgeHostBinds(
  inspect: Pick<InspectEvidence, "mounts" | "dataRoot">,
  allowed: readonly HostPathAllowance[],
): HostBind[] {
  return inspect.mounts.flatMap((m) => {
    const bound = boundHostPath(m);
    if (bound === undefined) return [];
    const source = normalHostPath(bound);
    const problem = hostPathProblem(source, m.rw, m.propagation, allowed, inspect.dataRoot);
    const via = m.type === "volume" ? `volume ${m.name}, a bind of ` : "";
    return [
      {
        source,
        destination: m.destination,
        rw: m.rw,
        ...(problem ? { problem: `${via}${problem}` } : {}),
      },
    ];
  });
}

// A declared source can be a symlink (`-v /srv/allowed/link:/data` with link -> /etc): the engine
// records the path as given, the kernel mounts what it points to. So a bind is also judged by what
// was measured: a kernel filesystem (the host's /proc, /sys, /dev, ...) is sensitive whatever the
// path, and on a filesystem whose paths are provably host paths (the one holding the engine's own
// files for this container, read off their mountinfo root), the mountinfo root is the host path.
const HOST_KERNEL_FS = new Set([
  "proc",
  "sysfs",
  "devtmpfs",
  "cgroup",
  "cgroup2",
  "securityfs",
  "debugfs",
  "tracefs",
  "bpf",
  "pstore",
  "configfs",
  "efivarfs",
  "binfmt_misc",
  "fusectl",
  "devpts",
]);

/** Devices whose mountinfo root is the host path (the engine's files for this container live there). */
function hostPathDevices(
  mounts: readonly MountEntry[],
  inspect: Pick<InspectEvidence, "dataRoot" | "defaults">,
): Set<string> {
  const root = inspect.dataRoot ? normalHostPath(inspect.dataRoot) : undefined;
  return new Set(
    mounts
      .filter((m) => root && inspect.defaults.engineFiles.includes(m.mountPoint) && under(m.root, root))
      .map((m) => m.device),
  );
}

/**
 * The problem with a bound mountinfo entry as measured, where its declared source hides it: only
 * sensitivity (and a writable host system directory) is judged here (an allowed directory reached
 * through a symlink stays allowed).
 */
function measuredBindProblem(
  m: MountEntry,
  bind: HostBind,
  hostDevices: ReadonlySet<string>,
  dataRoot: string | undefined,
): string | undefined {
  const via = ` (bound through ${bind.source})`;
  if (HOST_KERNEL_FS.has(m.fsType) && bind.destination === m.mountPoint)
    return `the host's ${m.fsType} filesystem is mounted${via}: never allowed, read-only or not`;
  if (!hostDevices.has(m.device)) return undefined;
  const real = normalHostPath(m.root);
  const sensitive = sensitiveHostPath(real, dataRoot);
  if (sensitive) return `host path ${real} is ${sensitive}${via}: never allowed, read-only or not`;
  const system = bind.rw && !m.options.includes("ro") ? hostSystemPath(real) : undefined;
  return system && writableSystem(`${real}${via}`, system);
}

/** The declared host bind a mountinfo entry belongs to (its own mount point or a sub-mount of it). */
function bindAt(mountPoint: string, binds: readonly HostBind[]): HostBind | undefined {
  return binds
    .filter((b) => under(mountPoint, b.destination))
    .sort((a, b) => b.destination.length - a.destination.length)[0];
}

export function classifyMounts(
  mounts: readonly MountEntry[],
  inspect: Pick<InspectEvidence, "mounts" | "maskedPaths" | "readonlyPaths" | "dataRoot" | "defaults">,
  writableRoots: readonly string[],
  masked: readonly string[],
  readonlyPaths: readonly string[],
  allowedHostPaths: readonly HostPathAllowance[] = [],
  sockets: readonly string[] = [],
): ClassifiedMount[] {
  const known: KnownMounts = {
    declared: new Map(inspect.mounts.map((m) => [m.destination, m])),
    binds: judgeHostBinds(inspect, allowedHostPaths),
    hostDevices: hostPathDevices(mounts, inspect),
    inspect,
    writableRoots,
    masked,
    readonlyPaths,
    sockets,
  };
  return mounts.map((m) => ({ ...m, ...classifyMount(m, known) }));
}

/** What a mount is judged against: the declared mounts and host binds, and the paths each rule names. */
interface KnownMounts {
  declared: ReadonlyMap<string, InspectEvidence["mounts"][number]>;
  binds: readonly HostBind[];
  hostDevices: ReadonlySet<string>;
  inspect: Pick<InspectEvidence, "dataRoot" | "defaults">;
  writableRoots: readonly string[];
  masked: readonly string[];
  readonlyPaths: readonly string[];
  sockets: readonly string[];
}

type Judged = Pick<ClassifiedMount, "class" | "reason">;
const judged = (cls: MountClass, reason: string): Judged => ({ class: cls, reason });

/**
 * One mount's class, by the first rule that claims it: the root filesystem, an engine socket, a
 * host bind, a volume that is a host bind, then the kernel's and the engine's own mounts, then
 * what is left writable.
 */
function classifyMount(m: MountEntry, known: KnownMounts): Judged {
  const decl = known.declared.get(m.mountPoint);
  if (m.mountPoint === "/")
    return judged("rootfs", "the root filesystem: judged by containment.rootfs_readonly");
  // An engine socket grants control of the engine (and so the host), read-only or not.
  if (SOCKET.test(m.mountPoint) || SOCKET.test(m.root) || (decl && SOCKET.test(decl.source))) {
    return judged(
      "finding",
      "an engine socket is mounted: whoever can connect controls the engine and the host",
    );
  }
  const bind = bindAt(m.mountPoint, known.binds);
  if (bind) return classifyBind(m, bind, known);
  const disguised = volumeHostPath(m, decl);
  if (disguised) return judged("finding", disguised);
  return classifySystemMount(m, known) ?? classifyTheRest(m, decl, known);
}

/** A mount under a declared host bind: a finding, or the allowed host path it is. */
function classifyBind(m: MountEntry, bind: HostBind, known: KnownMounts): Judged {
  const sub = bind.destination === m.mountPoint ? "" : `sub-mount of ${bind.destination}: `;
  if (bind.problem) return judged("finding", `${sub}${bind.problem}`);
  const measured = measuredBindProblem(m, bind, known.hostDevices, known.inspect.dataRoot);
  if (measured) return judged("finding", `${sub}${measured}`);
  // An engine's socket under another name (a hard link, a renamed path) is still the engine.
  if (known.sockets.includes(m.mountPoint))
    return judged(
      "finding",
      `${sub}host path ${bind.source} is a socket: never allowed (an engine's socket cannot be told apart by its name)`,
    );
  if (!m.options.includes("ro") && !bind.rw)
    return judged("finding", `${sub}writable although ${bind.source} is allowed read-only`);
  return judged(
    "host-path",
    `${sub}allowed host path ${bind.source}${bind.rw ? " (read-write)" : ", read-only"}`,
  );
}

/** The kernel's filesystems and the engine's own mounts (read-only /proc paths, masks, its files), each with its flags. */
function classifySystemMount(m: MountEntry, known: KnownMounts): Judged | undefined {
  const ro = m.options.includes("ro");
  const kernel = KERNEL_RULES.find((r) => r.match(m));
  if (kernel) {
    const missing = kernel.flags.filter((f) => !m.options.includes(f));
    return missing.length === 0
      ? judged("kernel", `${kernel.what} with ${kernel.flags.join(",")}`)
      : judged("finding", `${kernel.what} lacks ${missing.join(",")}`);
  }
  if (known.readonlyPaths.includes(m.mountPoint) && m.fsType === "proc") {
    return ro
      ? judged("kernel", "engine read-only /proc path")
      : judged("finding", "engine read-only /proc path is writable");
  }
  if (known.masked.includes(m.mountPoint)) {
    // Files are masked with a bind of the engine's /dev/null (root "/null"), directories with an empty ro tmpfs.
    if (m.root === "/null" || (m.fsType === "tmpfs" && ro)) return judged("masking", "engine masked path");
    return judged("finding", "a masked path is mounted over with something other than the engine's mask");
  }
  if (known.inspect.defaults.engineFiles.includes(m.mountPoint)) {
    return ro
      ? judged("engine-file", "engine-managed file, read-only")
      : judged(
          "finding",
          "engine-managed file is writable (the subject can rewrite its name resolution or init)",
        );
  }
  return undefined;
}

/** Everything else: an allotted writable root, read-only, or writable where nothing allots it. */
function classifyTheRest(
  m: MountEntry,
  decl: InspectEvidence["mounts"][number] | undefined,
  known: KnownMounts,
): Judged {
  if (known.writableRoots.includes(m.mountPoint)) return judged("allotted", "allotted writable root");
  if (m.options.includes("ro"))
    return judged("read-only", decl ? `${decl.type} mount, read-only` : "read-only");
  if (decl?.type === "volume") {
    const kind =
      decl.name && /^[0-9a-f]{64}$/.test(decl.name)
        ? "anonymous volume (e.g. a Dockerfile VOLUME)"
        : `named volume ${decl.name}`;
    return judged("finding", `read-write ${kind}`);
  }
  if (m.fsType === "tmpfs") return judged("finding", "extra writable tmpfs outside the allotted roots");
  return judged("finding", `read-write ${m.fsType} mount outside the allotted roots`);
}

/**
 * A local named volume created with `-o bind -o device=/host/path` is a host bind under another
 * name: its mountinfo root is the host directory, not the engine's volumes/<name>/_data.
 */
function volumeHostPath(
  m: MountEntry,
  decl: InspectEvidence["mounts"][number] | undefined,
): string | undefined {
  if (decl?.type !== "volume" || !decl.name || decl.driver !== "local") return undefined;
  if (m.fsType === "tmpfs" || m.root.endsWith(`/volumes/${decl.name}/_data`)) return undefined;
  return `volume ${decl.name} is a bind of the host path ${m.root} (not the engine's volume directory)`;
}
