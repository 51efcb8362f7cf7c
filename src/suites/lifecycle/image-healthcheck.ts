// The image's own HEALTHCHECK, held as a probe when the inventory does not already wait on it. An
// image whose check can never pass (it calls curl, which the image lacks; it writes under the
// read-only root) serves well enough to pass an HTTP readiness check, yet every engine marks it
// unhealthy: compose's `depends_on: service_healthy` never starts its dependants, and
// orchestrators restart it. The engine runs the check only after its interval (30 s by default),
// so the tool runs the same command the same way (in the container, as its user) at once.
import { sleep } from "../../engine/deadline.js";
import type { ImageHealthcheck } from "../../engine/provider.js";
import { EngineError } from "../../errors.js";
import { readinessOf } from "../../inventory/reading.js";
import { BOUNDS } from "../../inventory/rules.js";
import type { Subject } from "../../inventory/schema.js";
import type { CaseContext } from "./case.js";

/** A shell saying the command does not exist (dash, busybox sh, bash): running it again cannot help. */
const NOT_FOUND = /^(?:\/bin\/)?(?:sh|dash|bash|ash)(?::(?: line)? \d+)?: [^\s:]+: (?:command )?not found$/m;

/**
 * The image's start period and retries are the pull request's (`HEALTHCHECK --start-period=1000h
 * --retries=1000000` held the case for a thousand hours): the check is held at most as long as a
 * start-up may take (BOUNDS.startupTimeoutMs), and asked again at most this many times in a row.
 */
const MAX_RETRIES = 10;

/** The image's check, unless the inventory already waits on or probes it. */
export function imageCheckToHold(subject: Subject, healthcheck: ImageHealthcheck | undefined) {
  const declared =
    readinessOf(subject).type === "healthcheck" || subject.probes.some((p) => p.type === "healthcheck");
  return declared ? undefined : healthcheck;
}

export interface ImageCheckResult {
  name: string;
  type: "image-healthcheck";
  ok: boolean;
  expected: string;
  got: string;
  command: string[];
  runs: number;
}

/**
 * Runs the check until it passes. A failure is tried again (the engine calls a container
 * unhealthy only after `retries` failures in a row) until the subject's start-up time-out or the
 * check's own start period has passed, since a service may warm up after its readiness signal;
 * a command that does not exist fails at once.
 */
export async function holdImageCheck(
  context: CaseContext,
  containerId: string,
  check: ImageHealthcheck,
): Promise<ImageCheckResult> {
  const holdMs = Math.min(
    Math.max(context.subject.startupTimeoutMs, check.startPeriodMs),
    BOUNDS.startupTimeoutMs,
  );
  const end = Date.now() + holdMs;
  const retries = Math.min(check.retries, MAX_RETRIES);
  const timeoutMs = Math.min(check.timeoutMs, context.subject.startupTimeoutMs);
  let runs = 0;
  let delay = 250;
  for (;;) {
    const { exitCode, output } = await runOnce(context, containerId, check.argv, timeoutMs);
    runs++;
    const base = {
      name: "the image's HEALTHCHECK",
      type: "image-healthcheck" as const,
      command: check.test,
      runs,
    };
    if (exitCode === 0) return { ...base, ok: true, expected: "exit 0", got: "exit 0" };
    const cannotRun = exitCode === 126 || exitCode === 127 || NOT_FOUND.test(output);
    if (cannotRun || (runs >= retries && Date.now() + delay > end) || context.signal.aborted) {
      const said = output.trim().split("\n").slice(-3).join(" / ").slice(0, 300);
      const how = exitCode === -1 ? "no exit code" : `exit ${exitCode}`;
      return { ...base, ok: false, expected: "exit 0", got: `${how}${said ? ` (${said})` : ""}` };
    }
    await sleep(delay, context.signal);
    delay = Math.min(delay * 2, 2000);
  }
}

/**
 * One run. Past its time-out a check has failed, as the engine counts it; a container that is no
 * longer running fails it too (its exit is what the other cases report). Anything else is the
 * engine's own error.
 */
async function runOnce(c: CaseContext, containerId: string, argv: string[], timeoutMs: number) {
  try {
    return await c.engine.execCommand(containerId, argv, timeoutMs, c.signal);
  } catch (err) {
    if (!(err instanceof EngineError) || c.signal.aborted) throw err;
    if (err.kind === "timeout") return { exitCode: -1, output: `no exit within ${timeoutMs} ms` };
    if (err.statusCode === 409) return { exitCode: -1, output: "the container is not running" };
    throw err;
  }
}

export const IMAGE_CHECK_FIX =
  "make the Dockerfile's HEALTHCHECK pass in the container as it runs (read-only root, no capabilities, its own user): install what it calls, or call what the image has (e.g. `python3 -c` or `wget` where `curl` is missing); or remove it";
