// The job summary: the same report, rendered for the 1 MiB job summary budget, written through
// @actions/core (which appends to the file named by GITHUB_STEP_SUMMARY). The caller writes it
// before publishing, so a GitHub API outage never costs the maintainer the report.
import * as core from "@actions/core";

/** Appends `markdown` to the job summary. False (and nothing written) outside Actions. */
export async function writeJobSummary(markdown: string): Promise<boolean> {
  if (!process.env.GITHUB_STEP_SUMMARY) return false;
  await core.summary.emptyBuffer().addRaw(markdown, true).write();
  return true;
}
