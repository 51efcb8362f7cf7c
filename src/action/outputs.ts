// What the action's step reports back to the workflow: its outputs, the publishing summary in the
// log, and whether the verdict fails the step (`fail-on`).
import path from "node:path";
import * as core from "@actions/core";
import { describePublished, type PublishResult, publishedOutputs } from "../github/publishers/gathered.js";
import { countCases, type Report } from "../report/model.js";
import type { ActionInputs } from "./inputs.js";
import { logSafe } from "./log.js";

export function failsStep(verdict: Report["verdict"], failOn: ActionInputs["failOn"]): boolean {
  if (failOn === "never") return false;
  if (failOn === "warn") return verdict !== "pass";
  return verdict === "fail" || verdict === "error";
}

export function setOutputs(report: Report, reportDir: string, unverified = false): void {
  const counts = countCases(report.cases);
  // A bundle made by a fork's own workflow proves nothing about who ran it: a later step that gates
  // on `verdict == 'pass'` must not be fooled by it, as the check run concludes `neutral` at most.
  core.setOutput("verdict", unverified && report.verdict === "pass" ? "warn" : report.verdict);
  core.setOutput("verified", String(!unverified));
  core.setOutput("report-path", path.join(reportDir, "report.json"));
  core.setOutput("report-dir", reportDir);
  core.setOutput("passed", counts.passed);
  core.setOutput("failed", counts.failed + counts.errored);
  core.setOutput("skipped", counts.skipped);
  core.setOutput("image-ids", JSON.stringify(imageIds(report)));
  // Declared outputs are always set, empty until publishing fills them.
  core.setOutput("comment-id", "");
  core.setOutput("check-run-id", "");
  core.setOutput("check-run-url", "");
}

/**
 * Subject name to the ID (sha256:...) of the image it was tested as, built or given. Only names
 * an inventory allows and well-formed IDs: in `mode: publish` the report is a fork's bundle, and
 * a later step of the privileged workflow may expand this output into a script.
 */
export function imageIds(report: Report): Record<string, string> {
  return Object.fromEntries(
    report.subjects
      .filter(
        (s) => /^[a-z0-9][a-z0-9._-]{0,62}$/.test(s.name) && /^sha256:[0-9a-f]{64}$/.test(s.imageId ?? ""),
      )
      .map((s) => [s.name, s.imageId as string]),
  );
}

export function reportPublished(published: PublishResult): void {
  for (const [name, value] of Object.entries(publishedOutputs(published))) core.setOutput(name, value);
  // Each failure once, as a warning; the other notices as notices.
  const errors = new Set(published.errors.map((e) => e.message));
  for (const e of errors) core.warning(logSafe(e));
  for (const n of published.notices) if (!errors.has(n)) core.notice(logSafe(n));
  core.info(describePublished(published));
}
