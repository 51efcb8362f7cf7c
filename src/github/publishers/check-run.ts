// The check run, completed with the report: conclusion, title, summary, text and annotations. It
// runs whether or not the comment did; a check run the token may not write is not asked again.
import type { GitHubClient } from "../client.js";
import { definePublisher } from "./types.js";

/** Completing the check run: one request and two retries. */
const CONCLUSION_RESERVE = 3;
const RETRY_HEADROOM = 2;

type Outcome = "completed" | "failed" | "skipped";

export const checkRunPublisher = definePublisher({
  name: "checkRun",
  title: "check run",
  rank: 30,
  options: {
    maxAnnotations: {
      input: "max-annotations",
      kind: "int",
      min: 0,
      max: 1000,
      default: "1000",
      help: "most check run annotations to send",
      description:
        "Most check run annotations to send, 0 to 1000 (GitHub keeps at most 1,000 per check run). What is left out is said in the check run's summary.",
    },
  },
  remote: true,
  initial: () => ({ outcome: "skipped" as Outcome }),
  applies: () => true,
  reserve: (run) => (run.checksRefused ? 0 : CONCLUSION_RESERVE),
  async publish(run, own, held) {
    const { opts } = run;
    if (run.checksRefused) {
      run.failed(opts.startError);
      return { outcome: "failed" };
    }
    const client = run.client as GitHubClient;
    // Loaded when the check run is completed, not with the option table (it brings the client).
    const [{ renderCheckRun }, { completeCheckRun }] = await Promise.all([
      import("../../report/github.js"),
      import("../checks.js"),
    ]);
    try {
      const done = await completeCheckRun(
        client,
        // The comment's id is remembered on the check run (its external_id) for the next run.
        { ...run.target, commentId: run.results.comment?.id },
        renderCheckRun(run.report, { checkName: run.checkName, unverified: run.unverified }),
        // After the completing request: what later publishers hold, then retries' headroom.
        { max: own.maxAnnotations, extraRequests: client.remaining() - 1 - held - RETRY_HEADROOM },
      );
      if (done.note) run.notice(done.note);
      return { outcome: "completed", id: done.id, url: done.url };
    } catch (err) {
      run.failed(err);
      return { outcome: "failed", id: opts.checkRunId };
    }
  },
  describe: (outcome) => `check run ${outcome.outcome}${outcome.id ? ` (#${outcome.id})` : ""}`,
  outputs: {
    "check-run-id": {
      description: "ID of the check run, empty when none was created.",
      value: (outcome) => outcome.id,
    },
    "check-run-url": {
      description: "Web URL of the check run, empty when none was created.",
      value: (outcome) => outcome.url,
    },
  },
});
