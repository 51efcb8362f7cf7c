// Every engine call gets its own explicit timeout; waits poll with backoff against a deadline.
import { EngineError } from "../errors.js";

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * Runs `fn` with an AbortSignal that fires after `ms` or when `outer` aborts. A verification step
 * calls this afresh, so it never inherits the remains of an exhausted deadline.
 */
export async function withTimeout<T>(
  what: string,
  ms: number,
  fn: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  if (outer?.aborted) throw new EngineError(`${what}: aborted`, "aborted");
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error("timeout"));
      reject(new EngineError(`${what}: no answer within ${ms} ms`, "timeout"));
    }, ms);
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
    return await Promise.race([fn(controller.signal), timeout, aborted]);
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

  track<T>(p: Promise<T>): Promise<T> {
    this.calls.add(p);
    const forget = () => this.calls.delete(p);
    p.then(forget, forget);
    return p;
  }

  async settle(maxMs: number): Promise<void> {
    if (this.calls.size === 0) return;
    await Promise.race([
      Promise.allSettled([...this.calls]),
      new Promise((r) => setTimeout(r, maxMs).unref()),
    ]);
  }
}

export interface PollOptions {
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
