// The job summary: written first, through @actions/core, so a GitHub API outage never costs the
// maintainer the report. Needs no token.
import { renderJobSummary } from "../../report/github.js";
import { writeJobSummary } from "../summary.js";
import type { Publisher } from "./types.js";

export const jobSummaryPublisher: Publisher = {
  name: "job summary",
  remote: false,
  applies: (run) => run.opts.jobSummary === true,
  reserve: () => 0,
  async publish(run) {
    const markdown = renderJobSummary(run.report, { checkName: run.checkName, unverified: run.unverified });
    try {
      run.result.jobSummary = await writeJobSummary(markdown);
    } catch (err) {
      run.result.jobSummary = false;
      run.result.notices.push(`The job summary could not be written: ${(err as Error).message}`);
    }
  },
};
