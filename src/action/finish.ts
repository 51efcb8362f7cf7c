// The end of a report mode: the report through the schema once, the bundle and the job summary
// written before anything is published, the results printed, then publishing (which completes the
// check run and never throws), the outputs, and the step failed per `fail-on` or a signal.
import path from "node:path";
import * as core from "@actions/core";
import { signalExitCode } from "../commands/common.js";
import type { EventContext } from "../github/context.js";
import { writeBundle } from "../report/bundle.js";
import { renderMarkdown } from "../report/markdown.js";
import { type Report, reportSchema } from "../report/model.js";
import { publishingOptions } from "../request/publishing.js";
import type { StartedCheckRun } from "./check-run.js";
import { actionsLogger, logResults } from "./log.js";
import { failsStep, reportPublished, setOutputs } from "./outputs.js";
import type { Step } from "./step.js";

/** What a report mode produced: the report and where its bundle goes. */
export interface Produced {
  report: Report;
  reportDir: string;
}

export async function finishReport(
  step: Step,
  produced: Produced,
  github?: StartedCheckRun & { context: EventContext },
): Promise<void> {
  const { inputs } = step;
  const { reportDir } = produced;
  // Through the schema once: the bundle holds exactly what `verify` and `publish` will read back.
  const report = reportSchema.parse(produced.report);
  // Files first, then the log, then the publishers (the job summary first, before any request).
  await keepBundle(step, reportDir, report);
  setOutputs(report, reportDir);
  await logResults(report, reportDir);
  await publish(step, report, reportDir, github);

  const sig = step.received();
  if (sig) {
    core.setFailed(`docker-acceptance: cancelled by ${sig}; what the run owned was removed`);
    // The CLI's documented codes (130 SIGINT, 143 SIGTERM), not setFailed's 1.
    process.exitCode = signalExitCode(sig);
  } else if (failsStep(report.verdict, inputs.failOn))
    core.setFailed(`docker-acceptance verdict: ${report.verdict}`);
}

/** The bundle as the step keeps it; also a cancelled run's provisional report (modes/run.ts). */
export async function keepBundle(step: Step, reportDir: string, report: Report): Promise<void> {
  await writeBundle(reportDir, report, {
    markdown: renderMarkdown(report, { target: "file", checkName: step.inputs.checkName }),
  });
}

async function publish(
  step: Step,
  report: Report,
  reportDir: string,
  github: (StartedCheckRun & { context: EventContext }) | undefined,
): Promise<void> {
  const { inputs, signal } = step;
  const started = github?.started;
  // publishReport completes the check run with the report (and never throws); without an event
  // context it writes the job summary alone and says nothing was published.
  if (github) github.handedOver = true;
  const publishing = publishingOptions(inputs);
  if (signal.aborted) {
    // After a cancellation only the check run is completed: the runner's grace period is short.
    publishing.comment = "never";
    publishing.issueOnFailure = false;
  }
  const published = await (await import("../github/publish.js")).publishReport(report, {
    context: github?.context,
    publishing,
    token: inputs.githubToken,
    client: started?.client,
    checkRunId: started?.checkRunId,
    checkName: inputs.checkName,
    commentAuthor: inputs.commentAuthor,
    externalId: github?.externalId,
    startError: started?.error,
    // event.json goes beside the bundle, not in it: SHA256SUMS covers exactly the bundle's files.
    bundleDir: path.dirname(reportDir),
    log: actionsLogger,
  });
  // Completed here: the post step need not look for it (saves it a request).
  if (published.checkRun.outcome === "completed") core.saveState("check-run", "");
  reportPublished(published);
}
