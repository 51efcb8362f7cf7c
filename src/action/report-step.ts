// The modes that produce a report (run, check, merge) share one step: inputs checked before
// anything is created on GitHub, the check run started ("in progress" on the PR while the suites
// run), the report produced by the mode, then the bundle and the job summary written BEFORE any
// publishing (a GitHub outage never loses the report), the results printed, published, outputs
// set, and the step failed per `fail-on`.
import type { GitHubClient } from "../github/client.js";
import type { EventContext } from "../github/context.js";
import { startCheckRun } from "./check-run.js";
import { failStep } from "./fail.js";
import type { Produced } from "./finish.js";
import { eventContext, type Step } from "./step.js";

/** What a report mode adds to the shared step. */
export interface ReportMode {
  /** Input mistakes, thrown before anything is created on GitHub. */
  validate?(step: Step): void | Promise<void>;
  produce(step: Step, github: { context?: EventContext; client?: GitHubClient }): Promise<Produced>;
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
