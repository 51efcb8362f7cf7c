// The hardened launch settings, derived from the subject declaration alone (pure), so the same
// settings are what lifecycle.limits reads back and what containment later measures.

import { ownerLabels, SUBJECT_LABEL } from "../../engine/ownership.js";
import type { CreateOptions } from "../../engine/providers/docker/engine.js";
import { parseMemory, type Subject } from "../../inventory/schema.js";
import { numericIds } from "./user.js";

const LOG_MAX_SIZE = "1m";
const LOG_MAX_FILE = "2";

/** Paths Docker always mounts itself, where a tmpfs would be refused or meaningless. */
const ENGINE_OWNED = ["/", "/proc", "/sys", "/dev", "/etc/hosts", "/etc/hostname", "/etc/resolv.conf"];

/** What the image itself says about how it runs (its config, read by inspect before create). */
export interface ImageConfig {
  /** The Dockerfile's USER, "" when it has none (root). */
  user?: string;
  /** The Dockerfile's VOLUME paths. */
  volumes?: string[];
  /** The user as numbers, when it was given by name and resolved in the image's /etc/passwd. */
  ids?: { uid: number; gid?: number };
}

export interface LaunchPlan {
  options: CreateOptions;
  /** The user the subject runs as, and where that comes from. */
  user: { value: string; from: "inventory" | "image" };
  /** Hardening the inventory explicitly relaxed (empty: the full contract). */
  relaxed: string[];
  /** Exactly what lifecycle.limits compares against inspect. */
  expected: { memoryBytes: number; pidsLimit: number; nanoCpus: number };
}

/** A declaration the hardened launch cannot enforce as written: which field, why, the fix. */
export class LaunchSpecError extends Error {
  override name = "LaunchSpecError";
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly fix: string,
  ) {
    super(`${field}: ${reason} (fix: ${fix})`);
  }
}

/** Capabilities that defeat containment outright: declaring them is refused, not granted. */
const NEVER_GRANTED = [
  "SYS_ADMIN",
  "SYS_PTRACE",
  "SYS_MODULE",
  "SYS_RAWIO",
  "DAC_READ_SEARCH",
  "NET_ADMIN",
  "BPF",
  "PERFMON",
  "SYS_BOOT",
  "MAC_ADMIN",
  "MAC_OVERRIDE",
  "ALL",
];

/**
 * Checks a subject's declaration without touching the engine; the pipeline calls it for every
 * subject before the first engine call, so an unenforceable spec is a configuration error.
 */
export function checkLaunchSpec(subject: Subject): void {
  for (const root of subject.writableRoots) {
    if (ENGINE_OWNED.includes(root)) {
      throw new LaunchSpecError(
        "writableRoots",
        `${root} cannot be an allotted writable root (the engine mounts it itself)`,
        "allot a directory such as /tmp or /var/run/app instead",
      );
    }
  }
  if (new Set(subject.writableRoots).size !== subject.writableRoots.length) {
    throw new LaunchSpecError("writableRoots", "lists the same path twice", "list each writable root once");
  }
  const refused = subject.capabilities.filter((c) => NEVER_GRANTED.includes(c.replace(/^CAP_/, "")));
  if (refused.length > 0) {
    throw new LaunchSpecError(
      "capabilities",
      `${refused.join(", ")} would defeat containment`,
      "drop it from the inventory and change the subject so it does not need it",
    );
  }
  if (parseMemory(subject.limits.memory) < 6 * 1024 * 1024) {
    throw new LaunchSpecError("limits.memory", "is below the engine's 6 MiB minimum", 'raise it, e.g. "64m"');
  }
}

/**
 * The hardened create options for `subject` running `image` (throws LaunchSpecError). The image
 * runs as it would under `docker run`: its own USER, ENTRYPOINT, CMD and PID 1, unless the
 * inventory says otherwise; the hardening contract applies unless the inventory relaxes it.
 */
export function planLaunch(
  subject: Subject,
  image: string,
  owner: string,
  containerName: string,
  imageConfig: ImageConfig = {},
): LaunchPlan {
  checkLaunchSpec(subject);
  const memoryBytes = parseMemory(subject.limits.memory);
  const nanoCpus = Math.round(subject.limits.cpus * 1e9);
  const portKey = `${subject.port}/tcp`;
  const user = subject.user ?? imageConfig.user ?? "";
  const tmpfs: Record<string, string> = {};
  // /dev/shm is the engine's own private tmpfs (world-writable); every other allotted root becomes
  // a tmpfs the subject's user can write, even over a directory (or VOLUME) the image already has.
  for (const root of subject.writableRoots)
    if (root !== "/dev/shm") tmpfs[root] = tmpfsOptions(user, imageConfig.ids);
  const relaxed = [...subject.relax];

  const options: CreateOptions = {
    name: containerName,
    Image: image,
    ...(subject.user !== undefined ? { User: subject.user } : {}),
    Env: Object.entries(subject.env).map(([k, v]) => `${k}=${v}`),
    ...(subject.command ? { Cmd: subject.command } : {}),
    Labels: { ...ownerLabels(owner, "subject"), [SUBJECT_LABEL]: subject.name },
    ExposedPorts: subject.network === "bridge" ? { [portKey]: {} } : undefined,
    StopSignal: "SIGTERM",
    StopTimeout: Math.ceil(subject.stopTimeoutMs / 1000),
    HostConfig: {
      Init: subject.init,
      ReadonlyRootfs: !relaxed.includes("read-only-root"),
      CapDrop: ["ALL"],
      CapAdd: subject.capabilities.length > 0 ? subject.capabilities : undefined,
      SecurityOpt: relaxed.includes("no-new-privileges") ? [] : ["no-new-privileges:true"],
      CgroupnsMode: "private",
      // /dev/shm not allotted: no IPC shared memory mount at all, so nothing writable appears there.
      IpcMode: subject.writableRoots.includes("/dev/shm") ? "private" : "none",
      PidsLimit: subject.limits.pids,
      Memory: memoryBytes,
      MemorySwap: memoryBytes,
      NanoCpus: nanoCpus,
      Tmpfs: tmpfs,
      NetworkMode: subject.network,
      PortBindings:
        subject.network === "bridge" ? { [portKey]: [{ HostIp: "127.0.0.1", HostPort: "" }] } : undefined,
      LogConfig: { Type: "json-file", Config: { "max-size": LOG_MAX_SIZE, "max-file": LOG_MAX_FILE } },
      RestartPolicy: { Name: "no" },
    } as CreateOptions["HostConfig"],
  };
  return {
    options,
    user: { value: user, from: subject.user !== undefined ? "inventory" : "image" },
    relaxed,
    expected: { memoryBytes, pidsLimit: subject.limits.pids, nanoCpus },
  };
}

/**
 * A tmpfs the user can write: owned by the user's uid (and gid). Over a directory the image already
 * has, the runtime gives the tmpfs that directory's mode and ignores ours, so ownership is what
 * makes it writable; mode=1777 covers a path the image does not have (and a user not resolved).
 */
export function tmpfsOptions(user: string, resolved?: { uid: number; gid?: number }): string {
  const ids = resolved ?? numericIds(user);
  const owner =
    ids && ids.uid !== 0 ? [`uid=${ids.uid}`, ...(ids.gid !== undefined ? [`gid=${ids.gid}`] : [])] : [];
  return ["rw", "noexec", "nosuid", "nodev", "size=64m", "mode=1777", ...owner].join(",");
}

/** Whether the tmpfs ownership needs the user's name looked up in the image first. */
export function needsUserLookup(subject: Subject, user: string): boolean {
  const tmpfsRoots = subject.writableRoots.some((r) => r !== "/dev/shm");
  return tmpfsRoots && user !== "" && numericIds(user) === undefined;
}
