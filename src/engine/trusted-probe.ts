// Every trusted probe launches the same way, whatever the engine: the pinned image, labelled as
// the run's own, never gaining privileges, read-only root, every capability dropped but the ones
// the spec names and the ceiling allows, small limits. Providers launch this spec; none may loosen
// it. Both suites probe through here: containment measures the subject's processes (frozen while
// it reads them), lifecycle reaches a subject that has no network from inside its network namespace.
import { EngineError, errorEvidence } from "../errors.js";
import { sleep } from "./deadline.js";
import { ownerLabels } from "./ownership.js";
import type { Engine, LaunchSpec, PreparedProbe, ProbeOutput, ProbeSpec } from "./provider.js";

/**
 * The most any probe holds, whatever it is asked for: the capabilities every engine gives a
 * container by default, and the network and IPC ones that act inside a probe's own (empty)
 * namespaces. Never SYS_ADMIN, SYS_PTRACE, DAC_READ_SEARCH (open_by_handle_at reaches outside a
 * container), SYS_MODULE, SYS_RAWIO or any other that reaches the host: a probe asked for one
 * (a subject granted it, a forged measurement) runs without it, and what the kernel then keeps
 * from it is reported as not read.
 */
export const PROBE_CAPABILITY_CEILING: readonly string[] = [
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "IPC_LOCK",
  "KILL",
  "MKNOD",
  "NET_ADMIN",
  "NET_BIND_SERVICE",
  "NET_BROADCAST",
  "NET_RAW",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
];

/** `caps` under the ceiling, named as the ceiling names them (no CAP_ prefix, upper case). */
export function underCeiling(caps: readonly string[]): string[] {
  const names = caps.map((c) => c.trim().toUpperCase().replace(/^CAP_/, ""));
  return [...new Set(names.filter((c) => PROBE_CAPABILITY_CEILING.includes(c)))];
}

export function probeLaunch(probe: ProbeSpec): LaunchSpec {
  return {
    image: probe.image,
    user: probe.user,
    env: probe.env,
    entrypoint: ["/bin/sh", "-c", probe.script.text, probe.script.name],
    command: [],
    labels: probe.labels,
    init: false,
    readOnlyRoot: true,
    capabilities: { drop: ["ALL"], add: underCeiling(probe.capabilities) },
    noNewPrivileges: true,
    namespaces: probe.namespaces,
    limits: { memoryBytes: 32 * 1024 * 1024, pids: 64 },
    tmpfs: {},
    publish: [],
  };
}

const PROBE_TIMEOUT_MS = 20_000;

/**
 * Every trusted probe: a POSIX sh script in the pinned image, labelled as this run's probe, never
 * gaining privileges, read-only, small (the engine launches it so: probeLaunch above).
 * Callers add only what is particular to them: user, environment, namespaces, capabilities.
 */
export function trustedProbe(
  owner: string,
  image: string,
  script: { name: string; text: string },
  probe: {
    user: string;
    env?: Record<string, string>;
    namespaces: ProbeSpec["namespaces"];
    caps?: string[];
    complete?: ProbeSpec["complete"];
  },
): ProbeSpec {
  return {
    image,
    labels: ownerLabels(owner, "probe"),
    script,
    user: probe.user,
    env: probe.env ?? {},
    namespaces: probe.namespaces,
    capabilities: probe.caps ?? [],
    timeoutMs: PROBE_TIMEOUT_MS,
    ...(probe.complete ? { complete: probe.complete } : {}),
  };
}

/**
 * Runs a probe to completion; the engine removes it at once (cleanup is only the safety net): gone
 * when this returns, or, given `removals`, once the promise it adds there settles.
 */
export async function runProbe(
  engine: Engine,
  spec: ProbeSpec,
  signal?: AbortSignal,
  /** How long the probe may run; a probe that polls until a deadline passes that deadline plus a margin. */
  timeoutMs = spec.timeoutMs,
  removals?: Promise<void>[],
): Promise<ProbeRun> {
  return settled(await engine.probe({ ...spec, timeoutMs }, signal), removals);
}

/** Runs a probe created ahead (Engine.prepareProbe) to completion, gone as runProbe's are. */
export async function runPrepared(
  prepared: PreparedProbe,
  signal?: AbortSignal,
  removals?: Promise<void>[],
): Promise<ProbeRun> {
  return settled(await prepared.run(signal), removals);
}

type ProbeRun = Omit<ProbeOutput, "removed">;

async function settled({ removed, ...output }: ProbeOutput, removals?: Promise<void>[]): Promise<ProbeRun> {
  if (removed && removals) removals.push(removed);
  else await removed;
  return output;
}

/** How often a freeze the runtime could not finish is asked for (waiting 200, 400, 800, 1,600 ms). */
const PAUSE_TRIES = 5;

/**
 * The runtime's own failure to freeze, which passes: Docker relays runc's words ("unable to
 * freeze"), Podman only that the runtime failed ("`/usr/bin/runc pause <id>` failed: exit status
 * 1"). An engine's "not running" or "already paused" is an answer, not a passing condition.
 */
const FREEZE_FAILED = /freez|\b(?:runc|crun)\b[^`]*\bpause\b[^`]*`? failed/i;

/**
 * Whether the subject stayed frozen the whole time it was read. `held`: the pause succeeded and
 * the thaw found it still paused; otherwise the reason (the engine cannot pause it, or something
 * thawed it meanwhile).
 */
export type Freeze = { held: true; pausedMs: number } | { held: false; reason: string };

/**
 * Runs `read` with container `containerId` frozen, so none of its processes executes anything while its
 * evidence is taken: it cannot watch, signal or race what reads it. Thawed on every path (an error,
 * the run's cancellation: the thaw takes no signal), also after a pause that got no answer. An
 * engine that cannot pause still gets the read, and the freeze says why it did not hold.
 */
export async function whileFrozen<T>(
  engine: Engine,
  containerId: string,
  /** Told whether the pause succeeded (a read may take fewer risks when it did). */
  read: (frozen: boolean) => Promise<T>,
  signal?: AbortSignal,
): Promise<{ value: T; freeze: Freeze; thawError?: string }> {
  const started = performance.now();
  // An engine that answered no (not running, already paused by its owner, no cgroup to freeze)
  // paused nothing, and its container is left as it was; one that gave no answer may have.
  const ask = (): Promise<{ paused: boolean; refused?: string }> =>
    engine.pause(containerId, signal).then(
      () => ({ paused: true }),
      (err: unknown) => ({
        paused: !(err instanceof EngineError && err.kind === "engine"),
        refused: errorEvidence(err).message,
      }),
    );
  // The runtime gives up on a freeze it could not finish in its own short window (runc: "unable
  // to freeze", a task busy in the kernel under a loaded host) and thaws what it froze: a passing
  // condition, so it is asked again. A subject that keeps itself unfreezable still ends unfrozen,
  // and its write probes are not believed.
  let answer = await ask();
  let asked = 1;
  for (; asked < PAUSE_TRIES && !answer.paused && FREEZE_FAILED.test(answer.refused ?? ""); asked++) {
    await sleep(100 * 2 ** asked, signal);
    answer = await ask();
  }
  const { paused } = answer;
  const refused =
    answer.refused === undefined
      ? undefined
      : `the engine did not pause it (${answer.refused}${asked > 1 ? `; asked ${asked} times` : ""})`;
  let read_: { value: T } | { error: unknown };
  try {
    read_ = { value: await read(refused === undefined) };
  } catch (error) {
    read_ = { error };
  }
  const pausedMs = Math.round(performance.now() - started);
  const thaw = paused
    ? await engine.unpause(containerId).then(
        (was) => ({ was }),
        (err: unknown) => ({ error: `could not unpause it: ${errorEvidence(err).message}` }),
      )
    : { was: false };
  if ("error" in read_) throw read_.error;
  const freeze: Freeze = refused
    ? { held: false, reason: refused }
    : "was" in thaw && !thaw.was
      ? { held: false, reason: "something thawed it while the probe read it" }
      : { held: true, pausedMs };
  return { value: read_.value, freeze, ...("error" in thaw ? { thawError: thaw.error } : {}) };
}
