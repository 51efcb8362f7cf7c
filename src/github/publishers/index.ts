// Every publish target, in the order publishReport runs them: the job summary first (local, so an
// outage never costs the report), then the comment, the check run's conclusion and the tracking
// issue. Each later one's requests are held back from those before it (types.ts, reserve).
import { checkRunPublisher } from "./check-run.js";
import { commentPublisher } from "./comment.js";
import { issuePublisher } from "./issue.js";
import { jobSummaryPublisher } from "./job-summary.js";
import type { Publisher } from "./types.js";

export const PUBLISHERS: readonly Publisher[] = [
  jobSummaryPublisher,
  commentPublisher,
  checkRunPublisher,
  issuePublisher,
];
