// A step that ends without a report: fail it with the message and the exit code the CLI would
// give, and complete the check run it started instead of leaving it spinning on the pull request.
import * as core from "@actions/core";
import { signalExitCode } from "../commands/common.js";
import { exitCodeOf, redact } from "../errors.js";
import type { StartedCheckRun } from "./check-run.js";
import { logSafe } from "./log.js";
import type { Step } from "./step.js";

export async function failStep(
  err: unknown,
  step: Pick<Step, "received">,
  checkRun?: StartedCheckRun,
): Promise<void> {
  const message = redact((err as Error).message ?? String(err));
  core.setFailed(`docker-acceptance: ${message} (exit code ${exitCodeOf(err)})`);
  if (checkRun && !checkRun.handedOver) {
    // A start that failed is reported once: by publishing, or here when no report follows.
    if (checkRun.started.error) core.warning(logSafe(checkRun.started.error.message));
    const notice = await checkRun.abandon?.(message);
    if (notice) core.warning(logSafe(notice));
  }
  const sig = step.received();
  if (sig) process.exitCode = signalExitCode(sig);
}
