// The check run a report mode starts before its suites run ("in progress" on the pull request),
// and what the later steps need of it: finishing hands it the report, failing abandons it, and the
// post step completes it from the saved state if main dies. Below report-step.ts, finish.ts and
// fail.ts, which all read it, so none of them imports another to learn its shape.
import * as core from "@actions/core";
import { checkRunSkipped, externalIdFor } from "../github/check-run-gate.js";
import type { EventContext } from "../github/context.js";
import type { StartCheckRunResult } from "../github/publish.js";
import { logSafe } from "./log.js";
import type { Step } from "./step.js";

/** What the post step needs to complete this run's check run if main could not (saved as state). */
export interface CheckRunState {
  owner: string;
  repo: string;
  sha: string;
  name: string;
  externalId: string;
}

export interface StartedCheckRun {
  started: StartCheckRunResult;
  externalId: string;
  abandon?: (reason: string) => Promise<string | undefined>;
  /** Set once the report is handed to publishing, which completes the check run (never throws). */
  handedOver?: boolean;
}

/**
 * The check run shows "in progress" on the PR while the suites run. Its external_id ties a
 * retried create to the first attempt, and lets the post step complete it if main dies.
 */
export async function startCheckRun(step: Step, context: EventContext): Promise<StartedCheckRun> {
  const { inputs, owner } = step;
  const externalId = externalIdFor(process.env, owner);
  // A run that creates no check run loads no publishing code before its suites.
  const skipped = checkRunSkipped(context, inputs.githubToken);
  if (skipped) {
    for (const n of skipped.notices) core.notice(logSafe(n));
    return { started: skipped, externalId };
  }
  const state: CheckRunState = {
    owner: context.owner,
    repo: context.repo,
    sha: context.sha,
    name: inputs.checkName,
    externalId,
  };
  core.saveState("check-run", JSON.stringify(state));
  const github = await import("../github/publish.js");
  const { actionsLogger } = await import("./log.js");
  const started = await github.startCheckRun({
    context,
    token: inputs.githubToken,
    checkName: inputs.checkName,
    externalId,
    log: actionsLogger,
  });
  for (const n of started.notices ?? []) core.notice(logSafe(n));
  const { client, checkRunId } = started;
  const abandon =
    client && checkRunId !== undefined
      ? (reason: string) =>
          github.abandonCheckRun({ client, context, checkRunId, checkName: inputs.checkName, reason })
      : undefined;
  return { started, externalId, abandon };
}
