// lifecycle.ready: start the subject and wait, with backoff and no fixed sleeps, until its
// readiness strategy holds within the start-up deadline. Whatever goes wrong, the verdict is
// decided from the engine's state read after the failure: a subject that is not running is
// reported as what happened to it (exit code, signal, OOM kill, after how long, its last log
// lines and the known cause they name), never as whichever check happened to notice first.

import { READINESS_TYPES, readinessKind } from "../../checks/registry.js";
import { type ContainerView, publishedText } from "../../engine/provider.js";
import { EngineError } from "../../errors.js";
import { readinessOf } from "../../inventory/reading.js";
import type { Readiness } from "../../inventory/schema.js";
import { type CaseContext, type Draft, netnsTarget } from "./case.js";
import {
  describeExit,
  type ExitFacts,
  exitFactsOn,
  knownCause,
  lastLine,
  logExcerpt,
  missingInterpreter,
  parseTime,
} from "./diagnose.js";
import { explainListening, listeners } from "./listening.js";
import { hearInNetns } from "./netns-hear.js";
import { withHeartbeat } from "./progress.js";
import { describeReadiness, type WaitOutcome, type WaitTarget, waitUntilReady } from "./readiness.js";
import { classifySpeech, type Exchanges, hearOnHost } from "./speaks.js";

export interface Ready {
  draft: Draft;
  /** The published port on 127.0.0.1 (network bridge). */
  hostPort?: number;
  logExcerpt?: string;
  /** The inspect that saw it running once ready: limits and containment read it, not a new one. */
  inspect?: ContainerView;
}

export async function startAndWaitReady(context: CaseContext, containerId: string): Promise<Ready> {
  const { engine, subject, signal } = context;
  const readiness = readinessOf(subject);
  const started = Date.now();
  try {
    await engine.start(containerId, signal);
  } catch (err) {
    // The engine refused to start it (executable not found, bad user, ...): the subject's fault,
    // unless the engine itself is gone or the run was cancelled.
    if (!(err instanceof EngineError) || err.kind !== "engine") throw err;
    return notRunning(context, containerId, readiness, started, err.message);
  }
  let hostPort: number | undefined;
  // The port is published on bridge whatever the strategy: probes use it after readiness.
  if (subject.network === "bridge") {
    const info = await engine.inspect(containerId, signal);
    hostPort = info.ports[`${subject.port}/tcp`]?.[0]?.port || undefined;
    // An exited container has no published ports: that is a crash, not a missing EXPOSE.
    if (!info.state.running) return notRunning(context, containerId, readiness, started);
    if (!hostPort) {
      return {
        draft: {
          status: "fail",
          message: `port ${subject.port}/tcp was not published while the subject was running`,
          evidence: { ports: publishedText(info.ports) },
          remediation: `make the subject listen on ${subject.port}/tcp, or set the inventory's port to the one it serves`,
        },
      };
    }
  }
  const deadlineMs = subject.startupTimeoutMs;
  const waiting = describeReadiness(readiness, subject.port);
  const outcome = await withHeartbeat(
    context.log,
    (ms) =>
      `  ready: waiting until ${waiting} (${Math.round(ms / 1000)} s of ${Math.round(deadlineMs / 1000)} s)`,
    () => readyOrExited(context, readiness, { containerId, hostPort, deadlineMs }),
  );
  // Whatever the race said, the engine's state decides whether the subject is still running.
  const state = await engine.inspect(containerId, signal);
  if (!state.state.running) return notRunning(context, containerId, readiness, started, undefined, state);
  if (outcome === "exited") return notRunning(context, containerId, readiness, started, undefined, state);
  const what = waiting;
  const evidence = {
    readiness,
    attempts: outcome.attempts,
    waitedMs: sinceStarted(started, state.state.startedAt),
    via: outcome.via,
    ...(outcome.last ? { last: outcome.last } : {}),
    ...readinessKind(readiness).evidence?.(readiness),
  };
  if (outcome.ready) {
    return {
      hostPort,
      inspect: state,
      draft: { status: "pass", message: `ready: ${what} after ${evidence.waitedMs} ms`, evidence },
    };
  }
  return notReady(context, { containerId, hostPort, deadlineMs, readiness, outcome, evidence, what });
}

/** Running but not ready by the deadline: what it last answered, where it listens, what it speaks. */
async function notReady(
  c: CaseContext,
  at: {
    containerId: string;
    hostPort?: number;
    deadlineMs: number;
    readiness: Readiness;
    outcome: WaitOutcome;
    evidence: Record<string, unknown>;
    what: string;
  },
): Promise<Ready> {
  const { readiness, outcome } = at;
  const [excerpt, listening] = await Promise.all([
    logExcerpt(c.engine, at.containerId),
    readinessKind(readiness).asks ? whyNoAnswer(c, at) : undefined,
  ]);
  // What the port speaks replaces "no answer", which would read as if nothing listened; a port
  // that stayed silent (maybe still starting) keeps it beside the note.
  const spoke = listening?.speech && listening.speech.kind !== "silent";
  const last = outcome.last && !spoke ? ` (last: ${outcome.last})` : "";
  return {
    hostPort: at.hostPort,
    logExcerpt: excerpt,
    draft: {
      status: "fail",
      message: `not ready within ${at.deadlineMs} ms: expected ${at.what}${last}${listening ? `; ${listening.note}` : ""}`,
      evidence: {
        ...at.evidence,
        logExcerpt: excerpt,
        ...(listening?.listeners ? { listening: listening.listeners } : {}),
        ...(listening?.speech ? { speaks: listening.speech } : {}),
      },
      remediation: listening?.fix ?? notReadyFix(readiness, outcome, at.what),
    },
  };
}

/**
 * How long since the subject's process started, by the engine's StartedAt: on a loaded engine the
 * start call's own wait is not the subject's start-up. Since the start was asked, when the engine's
 * time is missing or not on this clock (a remote engine's).
 */
function sinceStarted(askedAt: number, startedAt: string | undefined): number {
  const now = Date.now();
  const t = parseTime(startedAt);
  return Number.isFinite(t) && t >= askedAt && t <= now ? now - t : now - askedAt;
}

/**
 * The readiness wait raced against the process's end: the engine's wait settles when it exits, so
 * the race stops waiting at once. A check that failed outright (a probe refused because the
 * subject is gone) leaves it to whether the subject still runs, not to the check's error.
 */
async function readyOrExited(
  c: CaseContext,
  readiness: Readiness,
  t: WaitTarget,
): Promise<WaitOutcome | "exited"> {
  const { engine, signal } = c;
  const exited = engine.wait(t.containerId, t.deadlineMs + 60_000, signal).then(
    () => "exited" as const,
    () => new Promise<never>(() => {}),
  );
  try {
    return await Promise.race([waitUntilReady(c, readiness, t), exited]);
  } catch (err) {
    if ((await engine.inspect(t.containerId, signal).catch(() => undefined))?.state.running === false)
      return "exited";
    throw err;
  }
}

/**
 * What the subject listens on instead, when that explains why its port did not answer; when it
 * does listen on the port and never answered HTTP, what the port speaks instead. The listeners
 * come first: a published port's proxy accepts connections even when nothing listens behind it.
 */
async function whyNoAnswer(
  c: CaseContext,
  at: { containerId: string; hostPort?: number; readiness: Readiness; outcome: WaitOutcome },
) {
  const found = await listeners(c.engine, c.owner, c.probeImage, at.containerId, c.signal);
  if (!found) return undefined;
  // On network "none" the checks ask from inside the namespace, where loopback is reachable.
  const offline = c.subject.network === "none";
  const explained = explainListening(found, c.subject.port, offline);
  if (explained) return { ...explained, listeners: found };
  // An HTTP status of any kind was an HTTP answer: only "no answer" (or, offline, none seen) is heard.
  const asks = readinessKind(at.readiness).asks;
  if (asks !== "http" || (!offline && at.outcome.last !== "no answer")) return undefined;
  const heard = await (offline
    ? hearInNetns(netnsTarget(c, at.containerId))
    : at.hostPort
      ? hearOnHost(at.hostPort, c.signal)
      : undefined
  )?.catch(() => undefined); // a diagnosis only: the failure stands without it
  const speech = heard && classifySpeech(heard, c.subject.port);
  if (!speech) return undefined;
  return {
    note: speech.note,
    fix: speech.fix,
    listeners: found,
    speech: { kind: speech.kind, ...heardHex(heard) },
  };
}

/** The exchanges' first bytes as hex, for the evidence (bounded: the subject wrote them). */
function heardHex(x: Exchanges): Record<string, string> {
  return Object.fromEntries(
    Object.entries(x)
      .filter(([, b]) => b.length > 0)
      .map(([k, b]) => [k, b.subarray(0, 64).toString("hex")]),
  );
}

function notReadyFix(r: Readiness, outcome: WaitOutcome, what: string): string {
  return (
    readinessKind(r).notReadyFix?.(outcome) ??
    `make the subject ready so that ${what}, declare the readiness strategy it does support (${READINESS_TYPES.join(", ")}), or raise startupTimeoutMs in the inventory`
  );
}

/** The subject is not running: say what happened, from the engine's state, and why if the log knows. */
async function notRunning(
  c: CaseContext,
  containerId: string,
  readiness: Readiness,
  started: number,
  startError?: string,
  inspected?: ContainerView,
): Promise<Ready> {
  const info = inspected ?? (await c.engine.inspect(containerId, c.signal));
  const facts = await exitFactsOn(c.engine, info.state);
  const excerpt = await logExcerpt(c.engine, containerId);
  // The engine's refusal to start it is evidence too (the runtime's words, e.g. "permission denied").
  const said = startError ? `${startError}\n${excerpt}` : excerpt;
  const cause =
    knownCause(said, c.subject.writableRoots) ?? (await missingInterpreter(c.engine, containerId, excerpt));
  const line = lastLine(excerpt);
  const happened = startError
    ? `could not be started: ${startError}`
    : describeExit(facts, Date.now() - started, said);
  const message = `${happened} before it was ready${cause ? `: ${cause.cause}` : ""}${line ? ` (last log line: ${line})` : ""}`;
  return {
    logExcerpt: excerpt,
    draft: {
      // An exit whose cause the engine could not settle is not put on the subject.
      status: facts.causeUnknown ? "error" : "fail",
      message,
      evidence: {
        readiness,
        waitedMs: Date.now() - started,
        ...facts,
        ...(startError ? { startError } : {}),
        ...(cause ? { cause: cause.cause, causeLine: cause.line } : {}),
        ...(cause?.instruction ? { causeInstruction: cause.instruction } : {}),
        logExcerpt: excerpt,
      },
      remediation: cause?.fix ?? crashFix(facts, c.subject.limits.memory, startError),
    },
  };
}

/**
 * The fix when no known cause was shown: only what the facts prove (an OOM kill, a process that
 * ended by itself), else what to look at, never a guessed cause.
 */
function crashFix(f: ExitFacts, memory: string | number, startError?: string): string {
  if (startError)
    return "check the image's ENTRYPOINT/CMD (and the inventory's command) against the engine's error above: the executable must exist in the image and be executable by the image's USER";
  if (f.oomKilled || f.oomUnreported)
    return `the process needs more memory than limits.memory (${memory}): raise it in the inventory, or reduce the process's memory use`;
  if (f.exitCode === 0 && !f.signal)
    return "the process ended by itself (exit 0) before it was ready: a service must stay in the foreground as PID 1; check that its command does not start it in the background (a daemon mode, a trailing `&`, `service ... start`)";
  const exit = f.signal ? `was killed by ${f.signal}` : `exited with code ${f.exitCode}`;
  return `it ${exit} and its log names no cause docker-acceptance recognises: read the log's last lines (in the evidence and the job log) for the error it printed, and run the reproduce command to see the same exit; to find a hardening setting it trips over, run it without --read-only, --cap-drop ALL or --user, one at a time`;
}
