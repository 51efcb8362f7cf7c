// What the action's step reports back to the workflow: its outputs (declared in ./step-outputs.ts),
// the publishing summary in the log, and whether the verdict fails the step (`fail-on`).
import * as core from "@actions/core";
import {
  describePublished,
  PUBLISHER_OUTPUTS,
  type PublishResult,
  publishedOutputs,
} from "../github/publishers/gathered.js";
import type { OutputTable } from "../option.js";
import type { Report } from "../report/model.js";
import type { ActionInputs } from "./inputs.js";
import { logSafe } from "./log.js";
import { type FinishedRun, finishedRun, RUN_OUTPUTS } from "./step-outputs.js";

export function failsStep(verdict: Report["verdict"], failOn: ActionInputs["failOn"]): boolean {
  if (failOn === "never") return false;
  if (failOn === "warn") return verdict !== "pass";
  return verdict === "fail" || verdict === "error";
}

/** The run's outputs from its report; each publisher's declared output empty until publishing fills it. */
export function setOutputs(report: Report, reportDir: string, unverified = false): void {
  const run = finishedRun(report, reportDir, unverified);
  for (const [name, o] of Object.entries(RUN_OUTPUTS as OutputTable<FinishedRun>))
    core.setOutput(name, o.value(run));
  for (const name of Object.keys(PUBLISHER_OUTPUTS)) core.setOutput(name, "");
}

export function reportPublished(published: PublishResult): void {
  for (const [name, value] of Object.entries(publishedOutputs(published))) core.setOutput(name, value);
  // Each failure once, as a warning; the other notices as notices.
  const errors = new Set(published.errors.map((e) => e.message));
  for (const e of errors) core.warning(logSafe(e));
  for (const n of published.notices) if (!errors.has(n)) core.notice(logSafe(n));
  core.info(describePublished(published));
}
