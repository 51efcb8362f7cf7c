// The hardened launch settings, derived from the subject declaration alone (pure), so the same
// settings are what lifecycle.limits reads back and what containment later measures.

import { ownerLabels, SUBJECT_LABEL } from "../../engine/ownership.js";
import type { LaunchSpec } from "../../engine/provider.js";
import { signalName } from "../../engine/signals.js";
import { EngineError } from "../../errors.js";
import { parseMemory } from "../../inventory/rules.js";
import type { Subject } from "../../inventory/schema.js";
import type { Draft } from "./case.js";
import { type ImageConfig, type RuntimeConfig, runtimeConfig } from "./image-config.js";
import { UNSENDABLE_FIX } from "./stop.js";
import { numericIds } from "./user.js";

const LOG_MAX_SIZE = "1m";
const LOG_MAX_FILES = 2;

/** Paths the engine always mounts itself, where a tmpfs would be refused or meaningless. */
const ENGINE_OWNED = ["/", "/proc", "/sys", "/dev", "/etc/hosts", "/etc/hostname", "/etc/resolv.conf"];

export interface LaunchPlan {
  spec: LaunchSpec;
  /** The user the subject runs as, and where that comes from. */
  user: { value: string; from: "inventory" | "image" };
  /** Every runtime field of the image's configuration as the subject runs with it, and its source. */
  runtime: RuntimeConfig;
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
 * The hardened launch spec for `subject` running `image` (throws LaunchSpecError). The image
 * runs as it would under a plain `run`: its own USER, ENTRYPOINT, CMD and PID 1, unless the
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
  const user = subject.user ?? imageConfig.user ?? "";
  const tmpfs: Record<string, string> = {};
  // /dev/shm is the engine's own private tmpfs (world-writable); every other allotted root becomes
  // a tmpfs the subject's user can write, even over a directory (or VOLUME) the image already has.
  for (const root of subject.writableRoots)
    if (root !== "/dev/shm") tmpfs[root] = tmpfsOptions(user, imageConfig.ids);
  const relaxed = [...subject.relax];
  const runtime = runtimeConfig(subject, imageConfig);

  const spec: LaunchSpec = {
    name: containerName,
    image,
    ...(subject.user !== undefined ? { user: subject.user } : {}),
    env: { ...subject.env },
    ...(subject.command ? { command: subject.command } : {}),
    labels: { ...ownerLabels(owner, "subject"), [SUBJECT_LABEL]: subject.name },
    init: subject.init,
    readOnlyRoot: !relaxed.includes("read-only-root"),
    capabilities: { drop: ["ALL"], add: [...subject.capabilities] },
    noNewPrivileges: !relaxed.includes("no-new-privileges"),
    namespaces: {
      net: subject.network,
      // /dev/shm not allotted: no IPC shared memory mount at all, so nothing writable appears there.
      ipc: subject.writableRoots.includes("/dev/shm") ? "private" : "none",
      cgroup: "private",
    },
    limits: { memoryBytes, memorySwapBytes: memoryBytes, pids: subject.limits.pids, nanoCpus },
    tmpfs,
    publish: subject.network === "bridge" ? [{ port: subject.port, hostIp: "127.0.0.1" }] : [],
    // The image's STOPSIGNAL, as every engine's stop and compose send it (else SIGTERM).
    stop: { signal: runtime.stopSignal.value, timeoutSec: Math.ceil(subject.stopTimeoutMs / 1000) },
    logRotation: { maxSize: LOG_MAX_SIZE, maxFiles: LOG_MAX_FILES },
  };
  return {
    spec,
    user: { value: user, from: subject.user !== undefined ? "inventory" : "image" },
    runtime,
    relaxed,
    expected: { memoryBytes, pidsLimit: subject.limits.pids, nanoCpus },
  };
}

/**
 * lifecycle.create's FAIL for an image with nothing to run: no ENTRYPOINT, no CMD (`CMD []`, or a
 * `FROM scratch` stage that never says), and no inventory `command`. Every engine refuses to create
 * it ("No command specified"), which read as the engine's error; the Dockerfile is what to change.
 */
export function nothingToRun(plan: LaunchPlan): Draft | undefined {
  const { entrypoint, command } = plan.runtime;
  if (entrypoint.from !== "engine default" || command.from !== "engine default") return undefined;
  return {
    status: "fail",
    message:
      "the image has no ENTRYPOINT or CMD and the inventory no command: nothing to run, so no engine creates it",
    evidence: { runtime: plan.runtime, nothingToRun: true },
    remediation:
      'say what the image runs with CMD (or ENTRYPOINT) in the Dockerfile, e.g. CMD ["/app"], or set the subject\'s command in the inventory',
  };
}

/**
 * lifecycle.create's FAIL when the engine refused to create the image as it is and its STOPSIGNAL is
 * no signal (a number past 64, which builds take): an engine that checks it at create will not run the
 * image at all, as one that does not (its stop kills the subject unasked: lifecycle.stop) runs it
 * badly. Either way the Dockerfile's line is what to change, never the engine.
 */
export function stopSignalRefused(plan: LaunchPlan, err: unknown): Draft | undefined {
  const signal = plan.runtime.stopSignal.value;
  const refusal = err instanceof EngineError && err.kind === "engine" && (err.statusCode ?? 0) < 502;
  if (!refusal || signalName(signal) !== undefined) return undefined;
  return {
    status: "fail",
    message: `the engine refused to create the image as it is: its stop signal ${signal} is no signal a process can be asked to stop by (${err.message})`,
    evidence: { runtime: plan.runtime, signal, unhandleable: true },
    remediation: UNSENDABLE_FIX,
  };
}

/**
 * A tmpfs the user can write: owned by the user's uid (and gid). Over a directory the image already
 * has, the runtime gives the tmpfs that directory's mode and ignores ours, so ownership is what
 * makes it writable; mode=1777 covers a path the image does not have (and a user not resolved).
 */
function tmpfsOptions(user: string, resolved?: { uid: number; gid?: number }): string {
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
