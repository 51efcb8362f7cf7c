// lifecycle.stop: the stop signal (the image's STOPSIGNAL, else SIGTERM, as every engine's stop
// command and compose send it), then the subject exits within its grace; killed after it is a FAIL. Without
// `init: true` the image's own PID 1 receives the signal, as under a plain `run`: a PID 1 without
// a handler for it ignores it (the kernel's rule for PID 1), and that is what is graded.
import { constants } from "node:os";
import type { ContainerState } from "../../engine/provider.js";
import { signalName, signalNumber } from "../../engine/signals.js";
import type { CaseContext, Draft } from "./case.js";
import { describeExit, exitFactsOn, knownCause, lastLine, logExcerpt, parseTime } from "./diagnose.js";
import { ENGINE_STOP_SIGNAL } from "./image-config.js";
import { withHeartbeat } from "./progress.js";

export async function stopSubject(
  context: CaseContext,
  containerId: string,
  signal = ENGINE_STOP_SIGNAL,
): Promise<Draft> {
  const { engine, subject } = context;
  const graceSec = Math.ceil(subject.stopTimeoutMs / 1000);
  if (signalName(signal) === undefined) return unsendable(context, containerId, signal);
  const started = Date.now();
  // How it ended is the engine's fact (the kill found it running, or not), never the duration.
  const outcome = await withHeartbeat(
    context.log,
    (ms) =>
      `  stop: waiting for the subject to exit after ${signal} (${Math.round(ms / 1000)} s of its ${graceSec} s grace)`,
    () => engine.stop(containerId, graceSec),
  );
  const answeredMs = Date.now() - started;
  const state = (await engine.inspect(containerId)).state;
  const stopMs = stopDuration(started, state.finishedAt, answeredMs);
  if (outcome === "not running") return diedBeforeStop(context, containerId, state, signal);
  const evidence = {
    exitCode: state.exitCode,
    stopMs,
    graceMs: subject.stopTimeoutMs,
    oomKilled: state.oomKilled,
    init: subject.init,
    signal,
  };
  // SIGKILL cannot be handled: the subject was killed, not asked to stop, however soon it went.
  if (signalNumber(signal) === constants.signals.SIGKILL) {
    return {
      status: "fail",
      message: `the stop signal is ${signal}: it was killed at once, never asked to stop, so no shutdown of its own ran (exit ${state.exitCode})`,
      evidence: { ...evidence, unhandleable: true },
      remediation:
        "remove STOPSIGNAL SIGKILL from the Dockerfile, or declare the signal the server shuts down on, and handle it",
    };
  }
  // Killed after the grace period: the kill found it still running.
  if (outcome === "killed") return killedAfterGrace(context, containerId, signal, graceSec, evidence);
  return { status: "pass", message: `exited ${state.exitCode} after ${signal} in ${stopMs} ms`, evidence };
}

/** The fix for a STOPSIGNAL no process can be asked to stop by, wherever it is found. */
export const UNSENDABLE_FIX =
  "declare the signal the server shuts down on with STOPSIGNAL in the Dockerfile (SIGTERM, SIGINT, SIGQUIT, ...) and handle it, or remove the line (SIGTERM)";

/**
 * A STOPSIGNAL the build took that no process can be asked to stop by: a number past 64, or 32 and
 * 33, which the C library keeps for itself (no program can handle them). The engine's kill refuses
 * them; its own stop fails to send one past 64 and kills the subject 2 s later, or sends 32 or 33,
 * which no handler catches (measured). The subject is left running: cleanup removes it.
 */
async function unsendable(context: CaseContext, containerId: string, signal: string): Promise<Draft> {
  const state = (await context.engine.inspect(containerId)).state;
  if (!state.running) return diedBeforeStop(context, containerId, state, signal);
  return {
    status: "fail",
    message: `the stop signal ${signal} is no signal a process can be asked to stop by (past 64 there are none; 32 and 33 are the C library's own): a stop kills it unasked, so no shutdown of its own runs`,
    evidence: { signal, unhandleable: true },
    remediation: UNSENDABLE_FIX,
  };
}

/** It died on its own after it was ready: nothing received the signal; say what happened instead. */
async function diedBeforeStop(
  { engine, subject }: CaseContext,
  containerId: string,
  state: ContainerState,
  signal: string,
): Promise<Draft> {
  const facts = await exitFactsOn(engine, state);
  const excerpt = await logExcerpt(engine, containerId);
  // The same reading of its log as a crash before readiness: the known cause and its fix.
  const cause = knownCause(excerpt, subject.writableRoots);
  const line = lastLine(excerpt);
  return {
    status: facts.causeUnknown ? "error" : "fail",
    message: `${describeExit(facts, undefined, excerpt)} while running, before it was asked to stop${cause ? `: ${cause.cause}` : ""}${line ? ` (last log line: ${line})` : ""}`,
    evidence: {
      ...facts,
      ...(cause ? { cause: cause.cause, causeLine: cause.line } : {}),
      logExcerpt: excerpt,
    },
    remediation:
      facts.oomKilled || facts.oomUnreported
        ? "raise limits.memory in the inventory, or reduce the process's memory use"
        : (cause?.fix ?? `read the log excerpt: the service must keep running until it receives ${signal}`),
  };
}

/** It outlived its grace and was killed: a FAIL, with what its log says of the shutdown and the way to handle the signal. */
async function killedAfterGrace(
  { engine, subject }: CaseContext,
  containerId: string,
  signal: string,
  graceSec: number,
  evidence: Record<string, unknown>,
): Promise<Draft> {
  const excerpt = await logExcerpt(engine, containerId);
  // A server that tried to shut down but could not (e.g. could not write its final state) says so.
  const cause = knownCause(excerpt, subject.writableRoots);
  return {
    status: "fail",
    message: `ignored ${signal}: killed after the ${graceSec} s grace period${cause ? `; its log: ${cause.cause}` : ""}`,
    evidence: {
      ...evidence,
      logExcerpt: excerpt,
      ...(cause ? { cause: cause.cause, causeLine: cause.line } : {}),
    },
    remediation: cause
      ? `${cause.fix} (the shutdown failed on it)`
      : subject.init
        ? `handle ${signal} in the server (the init forwards it; the server ignores or outlives it), or raise stopTimeoutMs`
        : `handle ${signal} in PID 1 (exec the server so it receives the signal, and make it exit on it), declare the signal it does exit on with STOPSIGNAL in the Dockerfile, or declare "init": true in the inventory (\`{cli} run --init\`) so an init forwards it; or raise stopTimeoutMs`,
  };
}

/**
 * From the stop signal to the exit: the engine's FinishedAt against when the signal was sent (one
 * clock on a local socket). A remote engine's clock may differ: the stop's own answer bounds it.
 */
function stopDuration(sentAt: number, finishedAt: string | undefined, answeredMs: number): number {
  const byEngine = parseTime(finishedAt) - sentAt;
  return Number.isFinite(byEngine) && byEngine >= 0 && byEngine <= answeredMs ? byEngine : answeredMs;
}
