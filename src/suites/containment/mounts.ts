// The mount inventory: every line of the subject's mountinfo, parsed and classified. A mount is
// acceptable only for a stated reason (read-only, engine-managed file, kernel pseudo-filesystem
// with its expected flags, masking, allotted writable root); anything else is a finding.
import type { InspectEvidence } from "./inspect.js";

export interface MountEntry {
  mountPoint: string;
  /** Path inside the source filesystem (for a bind mount: which file or directory). */
  root: string;
  fsType: string;
  source: string;
  /** Per-mount options (field 6): rw/ro, nosuid, nodev, noexec, ... */
  options: string[];
}

export type MountClass =
  | "rootfs"
  | "kernel"
  | "masking"
  | "engine-file"
  | "allotted"
  | "read-only"
  | "finding";

export interface ClassifiedMount extends MountEntry {
  class: MountClass;
  /** Why it is acceptable, or what is wrong. */
  reason: string;
}

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

export function parseMountinfo(lines: readonly string[]): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of lines) {
    const f = line.trim().split(" ");
    const sep = f.indexOf("-", 6);
    if (f.length < 10 || sep < 0) continue;
    out.push({
      mountPoint: unescapeOctal(f[4]!),
      root: unescapeOctal(f[3]!),
      options: f[5]!.split(","),
      fsType: f[sep + 1]!,
      source: unescapeOctal(f[sep + 2] ?? ""),
    });
  }
  return out;
}

export const ENGINE_FILES = [
  "/etc/hosts",
  "/etc/hostname",
  "/etc/resolv.conf",
  "/sbin/docker-init",
  "/usr/sbin/docker-init",
  "/run/podman-init",
];

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

const SOCKET = /(^|\/)(docker|containerd|podman|crio|cri-dockerd|buildkitd)\.sock$/;

export function under(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

export function classifyMounts(
  mounts: readonly MountEntry[],
  inspect: Pick<InspectEvidence, "mounts" | "maskedPaths" | "readonlyPaths">,
  writableRoots: readonly string[],
  masked: readonly string[],
  readonlyPaths: readonly string[],
): ClassifiedMount[] {
  const declared = new Map(inspect.mounts.map((m) => [m.destination, m]));
  return mounts.map((m) => {
    const ro = m.options.includes("ro");
    const decl = declared.get(m.mountPoint);
    const c = (cls: MountClass, reason: string): ClassifiedMount => ({ ...m, class: cls, reason });
    if (m.mountPoint === "/")
      return c("rootfs", "the root filesystem: judged by containment.rootfs_readonly");
    // An engine socket grants control of the engine (and so the host), read-only or not.
    if (SOCKET.test(m.mountPoint) || SOCKET.test(m.root) || (decl && SOCKET.test(decl.source))) {
      return c(
        "finding",
        "an engine socket is mounted: whoever can connect controls the engine and the host",
      );
    }
    const kernel = KERNEL_RULES.find((r) => r.match(m));
    if (kernel) {
      const missing = kernel.flags.filter((f) => !m.options.includes(f));
      return missing.length === 0
        ? c("kernel", `${kernel.what} with ${kernel.flags.join(",")}`)
        : c("finding", `${kernel.what} lacks ${missing.join(",")}`);
    }
    if (readonlyPaths.includes(m.mountPoint) && m.fsType === "proc") {
      return ro
        ? c("kernel", "engine read-only /proc path")
        : c("finding", "engine read-only /proc path is writable");
    }
    if (masked.includes(m.mountPoint)) {
      // Files are masked with a bind of the engine's /dev/null (root "/null"), directories with an empty ro tmpfs.
      if (m.root === "/null" || (m.fsType === "tmpfs" && ro)) return c("masking", "engine masked path");
      return c("finding", "a masked path is mounted over with something other than the engine's mask");
    }
    if (ENGINE_FILES.includes(m.mountPoint)) {
      return ro
        ? c("engine-file", "engine-managed file, read-only")
        : c(
            "finding",
            "engine-managed file is writable (the subject can rewrite its name resolution or init)",
          );
    }
    if (writableRoots.includes(m.mountPoint)) {
      if (decl?.type === "bind")
        return c("finding", `allotted root ${m.mountPoint} is a host bind mount of ${decl.source}`);
      return c("allotted", "allotted writable root");
    }
    if (ro) return c("read-only", decl ? `${decl.type} mount, read-only` : "read-only");
    if (decl?.type === "bind") return c("finding", `read-write host bind mount of ${decl.source}`);
    if (decl?.type === "volume") {
      const kind =
        decl.name && /^[0-9a-f]{64}$/.test(decl.name)
          ? "anonymous volume (e.g. a Dockerfile VOLUME)"
          : `named volume ${decl.name}`;
      return c("finding", `read-write ${kind}`);
    }
    if (m.fsType === "tmpfs") return c("finding", "extra writable tmpfs outside the allotted roots");
    return c("finding", `read-write ${m.fsType} mount outside the allotted roots`);
  });
}
