// `mode: publish`: post a bundle made by another job. With a command decision the report is
// pinned to the accepted commit and the command answered (a missing or broken bundle gets the
// one reply); otherwise the fork-safe second phase, which re-verifies the bundle and event.json.
import path from "node:path";
import * as core from "@actions/core";
import { externalIdFor } from "../../github/check-run-gate.js";
import { writeJobSummary } from "../../github/summary.js";
import { renderMarkdown } from "../../report/markdown.js";
import { publishingOptions } from "../../request/publishing.js";
import { logSafe } from "../log.js";
import { failsStep, reportPublished, setOutputs } from "../outputs.js";
import { eventContextSafe, requireDir, type Step } from "../step.js";

export async function execute(step: Step): Promise<void> {
  const dir = path.resolve(step.workspace, requireDir(step.inputs));
  if (step.decision) await publishCommand(step, dir);
  else await publishFork(step, dir);
}

async function publishCommand({ inputs, decision, owner }: Step, dir: string): Promise<void> {
  const { verifyBundle } = await import("../../report/bundle.js");
  const verified = await verifyBundle(dir);
  if (!verified.ok) {
    const why = verified.checks
      .filter((c) => c.status === "fail")
      .map((c) => `${c.file ?? c.check}: ${c.detail}`);
    core.warning(logSafe(`docker-acceptance: no usable report bundle in ${dir}: ${why.join("; ")}`));
  }
  const { createGitHubClient } = await import("../../github/client.js");
  const { publishCommandRun } = await import("../../bot/index.js");
  const { actionsLogger } = await import("../log.js");
  const client = createGitHubClient({ token: inputs.githubToken, log: actionsLogger });
  const done = await publishCommandRun(verified.ok ? (verified.report ?? null) : null, decision!, {
    client,
    ...publishingInputs(inputs),
    runUrl: eventContextSafe()?.runUrl,
    externalId: externalIdFor(process.env, owner),
    log: actionsLogger,
  });
  if (done.report) {
    if (inputs.jobSummary)
      await writeJobSummary(
        renderMarkdown(done.report, { target: "job-summary", checkName: inputs.checkName }),
      );
    setOutputs(done.report, dir);
  }
  if (done.published) reportPublished(done.published);
  if (!done.report || failsStep(done.report.verdict, inputs.failOn)) {
    core.setFailed(`docker-acceptance verdict: ${done.report?.verdict ?? "no report"}`);
  }
}

async function publishFork({ inputs, owner }: Step, dir: string): Promise<void> {
  const { forkCheckName, publishBundle } = await import("../../commands/publish.js");
  const { actionsLogger } = await import("../log.js");
  const outcome = await publishBundle(dir, {
    token: inputs.githubToken,
    ...publishingInputs(inputs),
    allowOutsideWorkflowRun: inputs.allowOutsideWorkflowRun,
    externalId: externalIdFor(process.env, owner),
    log: actionsLogger,
  });
  for (const m of outcome.messages) core.notice(logSafe(m));
  if (outcome.report) {
    if (inputs.jobSummary)
      await writeJobSummary(
        renderMarkdown(outcome.report, {
          target: "job-summary",
          checkName: forkCheckName(inputs.checkName),
          unverified: true,
        }),
      );
    setOutputs(outcome.report, dir, true);
  }
  if (outcome.result) reportPublished(outcome.result);
  if (outcome.exitCode !== 0)
    core.setFailed(`docker-acceptance publish: refused (${outcome.messages.at(-1) ?? "see above"})`);
  else if (outcome.report && failsStep(outcome.report.verdict, inputs.failOn)) {
    core.setFailed(`docker-acceptance verdict: ${outcome.report.verdict}`);
  }
}

/**
 * The inputs that shape a publication, the same for both publish paths (a path that dropped one
 * sent 1,000 annotations whatever max-annotations said): the check name and comment author, and
 * every publisher's own options.
 */
function publishingInputs(inputs: Step["inputs"]) {
  return {
    checkName: inputs.checkName,
    commentAuthor: inputs.commentAuthor,
    publishing: publishingOptions(inputs),
  };
}
