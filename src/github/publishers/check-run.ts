// The check run, completed with the report: conclusion, title, summary, text and annotations. It
// runs whether or not the comment did; a check run the token may not write is not asked again.
import { renderCheckRun } from "../../report/github.js";
import { completeCheckRun } from "../checks.js";
import type { GitHubClient } from "../client.js";
import { recordFailure } from "./result.js";
import type { Publisher } from "./types.js";

/** Completing the check run: one request and two retries. */
const CONCLUSION_RESERVE = 3;
const RETRY_HEADROOM = 2;

export const checkRunPublisher: Publisher = {
  name: "check run",
  remote: true,
  applies: () => true,
  reserve: (run) => (run.checksRefused ? 0 : CONCLUSION_RESERVE),
  async publish(run, held) {
    const { result, opts } = run;
    if (run.checksRefused) {
      result.checkRun = "failed";
      recordFailure(result, opts.startError);
      return;
    }
    const client = run.client as GitHubClient;
    try {
      const done = await completeCheckRun(
        client,
        { ...run.target, commentId: result.commentId },
        renderCheckRun(run.report, { checkName: run.checkName, unverified: run.unverified }),
        // After the completing request: what later publishers hold, then retries' headroom.
        { max: opts.maxAnnotations, extraRequests: client.remaining() - 1 - held - RETRY_HEADROOM },
      );
      result.checkRunId = done.id;
      result.checkRunUrl = done.url;
      result.checkRun = "completed";
      if (done.note) result.notices.push(done.note);
    } catch (err) {
      result.checkRun = "failed";
      result.checkRunId = opts.checkRunId;
      recordFailure(result, err);
    }
  },
};
