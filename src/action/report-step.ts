// The modes that produce a report (run, check, merge) share one step: inputs checked before
// anything is created on GitHub, the check run started ("in progress" on the PR while the suites
// run), the report produced by the mode, then the bundle and the job summary written BEFORE any
// publishing (a GitHub outage never loses the report), the results printed, published, outputs
// set, and the step failed per `fail-on`.
import * as core from "@actions/core";
import type { GitHubClient } from "../github/client.js";
import type { EventContext } from "../github/context.js";
import type { StartCheckRunResult } from "../github/publish.js";
import type { Report } from "../report/model.js";
import { failStep } from "./fail.js";
import { logSafe } from "./log.js";
import { eventContext, type Step } from "./step.js";

/** What a report mode adds to the shared step. */
export interface ReportMode {
  /** Input mistakes, thrown before anything is created on GitHub. */
  validate?(step: Step): void | Promise<void>;
  produce(step: Step, github: { context?: EventContext; client?: GitHubClient }): Promise<Produced>;
}

export interface Produced {
  report: Report;
  reportDir: string;
}

/** What the post step needs to complete this run's check run if main could not (saved as state). */
export interface CheckRunState {
  owner: string;
  repo: string;
  sha: string;
  name: string;
  externalId: string;
}

export async function reportStep(step: Step, mode: ReportMode): Promise<void> {
  const { decision } = step;
  // A command run tests exactly the commit the maintainer accepted, or nothing.
  if (decision) await (await import("../bot/index.js")).assertWorkspaceAt(step.workspace, decision);
  await mode.validate?.(step);
  // On issue_comment GITHUB_SHA is the default branch's head: a command run describes (and,
  // if handed a token, publishes on) the accepted pull request and commit instead.
  const context = decision
    ? (await import("../bot/index.js")).commandEventContext(decision, eventContext()?.runUrl)
    : eventContext();
  const checkRun = context ? await startCheckRun(step, context) : undefined;
  // After a signal the runner's grace period is short: what finishes the report loads while the
  // run cleans up, not after it.
  step.signal.addEventListener("abort", () => void import("./finish.js"), { once: true });
  try {
    const produced = await mode.produce(step, { context, client: checkRun?.started.client });
    const { finishReport } = await import("./finish.js");
    await finishReport(step, produced, context && checkRun && { context, ...checkRun });
  } catch (err) {
    // Completes the in-progress check run instead of leaving it spinning on the pull request.
    await failStep(err, step, checkRun);
  }
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
async function startCheckRun(step: Step, context: EventContext): Promise<StartedCheckRun> {
  const { inputs, owner } = step;
  const externalId = (await import("../github/checks.js")).externalIdFor(process.env, owner);
  if (!context.readOnly && inputs.githubToken) {
    const state: CheckRunState = {
      owner: context.owner,
      repo: context.repo,
      sha: context.sha,
      name: inputs.checkName,
      externalId,
    };
    core.saveState("check-run", JSON.stringify(state));
  }
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
