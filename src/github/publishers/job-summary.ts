// The job summary: written first, through @actions/core, so a GitHub API outage never costs the
// maintainer the report. Needs no token.
import { definePublisher } from "./types.js";

/** `unavailable`: not in GitHub Actions (GITHUB_STEP_SUMMARY unset); `off`: `job-summary: false`. */
type Outcome = "written" | "unavailable" | "failed" | "off";

export const jobSummaryPublisher = definePublisher({
  name: "jobSummary",
  title: "job summary",
  rank: 10,
  options: {
    jobSummary: {
      input: "job-summary",
      kind: "boolean",
      default: "true",
      help: "write the report to the job summary",
      description: "Write the report to the job summary. `false` leaves the job summary to other steps.",
    },
  },
  remote: false,
  initial: () => ({ outcome: "off" as Outcome }),
  applies: (_run, own) => own.jobSummary,
  reserve: () => 0,
  async publish(run) {
    // Loaded here, not with the option table: the CLI never loads the Actions toolkit.
    const [{ renderJobSummary }, { writeJobSummary }] = await Promise.all([
      import("../../report/github.js"),
      import("../summary.js"),
    ]);
    const markdown = renderJobSummary(run.report, { checkName: run.checkName, unverified: run.unverified });
    try {
      return { outcome: (await writeJobSummary(markdown)) ? "written" : "unavailable" };
    } catch (err) {
      run.notice(`The job summary could not be written: ${(err as Error).message}`);
      return { outcome: "failed" };
    }
  },
});
