// Every engine call gets its own explicit timeout, scaled to the work in flight and how fast the
// engine answers (EngineLoad); waits poll with backoff against a deadline.
import { EngineError } from "../errors.js";

/** A call's own allowance on an idle engine; EngineLoad adds the engine's share on top. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * The load never stretches a call past this, however loaded the engine reads: a hung engine ends
 * the run in bounded time. A call that asks for longer itself (a build's own time-out) gets what it
 * asked for and no share on top: the ceiling bounds the load's share, never a stated allowance.
 */
export const MAX_CALL_TIMEOUT_MS = 10 * 60_000;
/** Headroom over the mean: answers spread around it, and a slow one must not read as a dead engine. */
const QUEUE_FACTOR = 3;
/** How much each new answer moves the service-time estimate (an exponentially weighted mean). */
const SAMPLE_WEIGHT = 0.2;

/**
 * How loaded the engine answers, and so how long a call may take. A fixed 30 s failed on busy
 * machines (Podman creating one container at a time behind a lock, 60 containers started at once
 * on an emulated CPU): the call was not lost, it was queued. So each call's deadline is
 *
 *     deadline = max(base, min(MAX_CALL_TIMEOUT_MS, base + QUEUE_FACTOR x service x queued))
 *
 * - `base`: the call's own allowance: DEFAULT_CALL_TIMEOUT_MS, or what the call itself needs (a
 *   stop's grace, a probe's run time, a build's time-out);
 * - `service`: the engine's time per call, measured: each completed short call's duration divided
 *   by the calls that were in flight with it (an engine serving n calls at once answers each about
 *   n times later), averaged (weight SAMPLE_WEIGHT); the first round trip (the /_ping) seeds it.
 *   Measured per kind of call: a container's start (the runtime sets up its namespaces, mounts and
 *   cgroups) costs the engine hundreds of times an inspect, and one estimate for both gave sixteen
 *   starts on an emulated CPU the inspects' share (a start unanswered at 72 s). A kind not yet
 *   measured takes the short calls' estimate;
 * - `queued`: the calls in flight when this one is sent, itself included.
 *
 * After a call times out the engine's share is not added again until some call completes: an
 * engine that stopped answering does not make every later call wait up to the ceiling.
 */
export class EngineLoad {
  private readonly serviceMs = new Map<CallKind, number>();
  private inFlight = 0;
  private stalled = false;

  /** The deadline for a call of `kind` sent now with its own allowance `baseMs`. */
  deadlineMs(baseMs = DEFAULT_CALL_TIMEOUT_MS, kind: CallKind = "short"): number {
    const service = this.serviceMs.get(kind) ?? this.serviceMs.get("short") ?? 0;
    const share = this.stalled ? 0 : QUEUE_FACTOR * service * (this.inFlight + 1);
    return Math.round(Math.max(baseMs, Math.min(MAX_CALL_TIMEOUT_MS, baseMs + share)));
  }

  /** The engine's measured time per short call (undefined before its first answer). */
  get perCallMs(): number | undefined {
    return this.serviceMs.get("short");
  }

  /** The calls in flight now. */
  get queued(): number {
    return this.inFlight;
  }

  /**
   * Tracks one call: counted while in flight; its duration (a short call's, `sample`) feeds the
   * estimate when the engine answered, refusal included; a time-out marks the engine stalled.
   */
  async track<T>(
    run: () => Promise<T>,
    sample: boolean,
    kind: CallKind = "short",
    /** When the call was sent (earlier than now for a call adopted once under way). */
    sent = Date.now(),
    /** When the engine answered, if that was before the call settled here (an adopted call). */
    answeredAt?: () => number | undefined,
  ): Promise<T> {
    const alongside = ++this.inFlight;
    let answered = true;
    try {
      return await run();
    } catch (err) {
      const kind = err instanceof EngineError ? err.kind : undefined;
      answered = kind === "engine";
      if (kind === "timeout") this.stalled = true;
      throw err;
    } finally {
      this.inFlight--;
      if (answered) this.stalled = false;
      if (answered && sample) this.observe(kind, ((answeredAt?.() ?? Date.now()) - sent) / alongside);
    }
  }

  private observe(kind: CallKind, perCallMs: number): void {
    const was = this.serviceMs.get(kind);
    this.serviceMs.set(kind, was === undefined ? perCallMs : was + SAMPLE_WEIGHT * (perCallMs - was));
  }
}

/** The kinds of call whose cost is measured apart: a container's start, and every other short call. */
export type CallKind = "short" | "start";

/**
 * Runs `operation` with an AbortSignal that fires after `allowanceMs` or when `outer` aborts. A
 * verification step calls this afresh, so it never inherits the remains of an exhausted deadline.
 */
export async function withTimeout<T>(
  what: string,
  /** The allowance from now; a function is asked again when it falls due, and may have grown. */
  allowanceMs: number | (() => number),
  operation: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  if (outer?.aborted) throw new EngineError(`${what}: aborted`, "aborted");
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  const started = Date.now();
  const allowance = typeof allowanceMs === "number" ? () => allowanceMs : allowanceMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const due = () => {
      const left = started + allowance() - Date.now();
      if (left > 0) {
        timer = setTimeout(due, left);
        return;
      }
      controller.abort(new Error("timeout"));
      reject(new EngineError(`${what}: no answer within ${Date.now() - started} ms`, "timeout"));
    };
    timer = setTimeout(due, allowance());
  });
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener(
      "abort",
      () => {
        if (outer?.aborted) reject(new EngineError(`${what}: aborted`, "aborted"));
      },
      { once: true },
    );
  });
  try {
    return await Promise.race([operation(controller.signal), timeout, aborted]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

/**
 * The engine calls still in flight: a provider tracks each call here, and `settle` waits (bounded)
 * for them, so a container whose create is still answering is listed by the cleanup after it.
 */
export class InFlight {
  private readonly calls = new Set<Promise<unknown>>();

  track<T>(call: Promise<T>): Promise<T> {
    this.calls.add(call);
    const forget = () => this.calls.delete(call);
    call.then(forget, forget);
    return call;
  }

  async settle(maxMs: number): Promise<void> {
    if (this.calls.size === 0) return;
    await Promise.race([
      Promise.allSettled([...this.calls]),
      new Promise((r) => setTimeout(r, maxMs).unref()),
    ]);
  }
}

interface PollOptions {
  deadlineMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/**
 * Calls `attempt` until it returns a value other than undefined, backing off from
 * `initialDelayMs` to `maxDelayMs`. Returns undefined when the deadline passes.
 */
export async function pollUntil<T>(
  attempt: () => Promise<T | undefined>,
  { deadlineMs, initialDelayMs = 25, maxDelayMs = 500, signal }: PollOptions,
): Promise<T | undefined> {
  const end = Date.now() + deadlineMs;
  let delay = initialDelayMs;
  for (;;) {
    if (signal?.aborted) throw new EngineError("wait aborted", "aborted");
    const value = await attempt();
    if (value !== undefined) return value;
    const left = end - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(delay, left), signal);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

export function sleep(durationMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, durationMs);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
