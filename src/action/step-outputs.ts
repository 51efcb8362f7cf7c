// Every step output of the action, declared as data in one place: the run's own (below), each
// publisher's (src/github/publishers/, gathered) and the accept step's (src/bot/outputs.ts).
// action.yml's `outputs:` is generated from STEP_OUTPUTS by `npm run docs` (docs:check fails when
// they differ), and so is the README's outputs table. No toolkit here: the docs load this module.
import path from "node:path";
import { COMMAND_OUTPUT_DESCRIPTIONS } from "../bot/outputs.js";
import { PUBLISHER_OUTPUTS } from "../github/publishers/gathered.js";
import { describeOutputs, type OutputTable } from "../option.js";
import { type Counts, countCases, type Report } from "../report/model.js";

/** What a finished run's outputs are read from (./outputs.ts builds it). */
export interface FinishedRun {
  report: Report;
  reportDir: string;
  /** The report came from a fork's own workflow (`mode: publish` without a command). */
  unverified: boolean;
  counts: Counts;
}

export function finishedRun(report: Report, reportDir: string, unverified = false): FinishedRun {
  return { report, reportDir, unverified, counts: countCases(report.cases) };
}

/** The outputs of every mode that produces a report, set before publishing. */
export const RUN_OUTPUTS = {
  verdict: {
    description:
      "`pass`, `warn`, `fail` or `error`. For a fork's bundle published by `mode: publish` (unverified), a pass is given as `warn`.",
    // A bundle made by a fork's own workflow proves nothing about who ran it: a later step that
    // gates on `verdict == 'pass'` must not be fooled by it, as the check run concludes `neutral` at most.
    value: (r) => (r.unverified && r.report.verdict === "pass" ? "warn" : r.report.verdict),
  },
  verified: {
    description:
      "`false` when the report came from a fork's own workflow (`mode: publish` without a command): never gate on it; `true` otherwise.",
    value: (r) => String(!r.unverified),
  },
  "report-path": { description: "Path of report.json.", value: (r) => path.join(r.reportDir, "report.json") },
  "report-dir": {
    description: "Directory of the report bundle (upload it as an artifact).",
    value: (r) => r.reportDir,
  },
  passed: { description: "Number of passing cases.", value: (r) => r.counts.passed },
  failed: {
    description: "Number of failing cases (errors included).",
    value: (r) => r.counts.failed + r.counts.errored,
  },
  skipped: { description: "Number of skipped cases.", value: (r) => r.counts.skipped },
  "image-ids": {
    description:
      'The ID (`sha256:...`) of each subject\'s image as tested, as a JSON object by subject name, e.g. `{"web":"sha256:..."}`.',
    value: (r) => JSON.stringify(imageIds(r.report)),
  },
} satisfies OutputTable<FinishedRun>;

/**
 * Every step output by name with its description, in action.yml's order: the run's, the
 * publishers', the accept step's. A name declared twice throws when this module loads.
 */
export const STEP_OUTPUTS = describeOutputs(RUN_OUTPUTS, PUBLISHER_OUTPUTS, COMMAND_OUTPUT_DESCRIPTIONS);

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
