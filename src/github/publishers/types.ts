// One interface for every place a report is published (the job summary, the PR comment, the check
// run, the tracking issue): publishReport (../publish.ts) runs the list in ./index.ts in order.
// A new publish target is one module implementing Publisher and one entry in that list.
import type { Logger } from "../../log.js";
import type { Report } from "../../report/model.js";
import type { CheckTarget } from "../checks.js";
import type { GitHubClient, PublishError } from "../client.js";
import type { CommentMode, CommentOnPass, CommentUpdate } from "../comment.js";
import type { EventContext } from "../context.js";

export interface ClientOptions {
  /** GITHUB_TOKEN or another token; without one nothing is posted (a notice says so). */
  token?: string;
  /** Defaults to GITHUB_API_URL. */
  apiUrl?: string;
  /** Reuse one client across startCheckRun and publishReport so the request count is per run. */
  client?: GitHubClient;
  log?: Logger;
  /** Test seam: shortens waits between retries. */
  retryAfterBaseMs?: number;
}

export type Provenance = "trusted" | "fork-unverified";

export interface PublishOptions extends ClientOptions {
  /** The event; without one (not in GitHub Actions) only the local publishers run. */
  context?: EventContext;
  checkName?: string;
  /** Write the job summary (the first publisher: it needs no token and runs before any request). */
  jobSummary?: boolean;
  /** `always` (default), `on-failure` (create only when failing; an existing comment is still updated), `never`. */
  comment?: CommentMode;
  /** Runs without a PR: open/update a tracking issue on failure, close it when green. */
  issueOnFailure?: boolean;
  /** From startCheckRun; without it the check run is created already completed. */
  checkRunId?: number;
  /** The bundle directory: on a fork PR, event.json is written here for the workflow_run phase. */
  bundleDir?: string;
  /** Login whose comments and issues are ours (see comment.ts); default github-actions[bot]. */
  commentAuthor?: string;
  /** Post the comment at all (the `publish` command turns it off when the PR head moved on). */
  postComment?: boolean;
  /**
   * `fork-unverified`: the report was produced by the fork's own workflow (fork recipe, phase 2).
   * The check run concludes `neutral` at most and every rendering says so on its first line.
   */
  provenance?: Provenance;
  /** `on-change`: leave the comment alone when the report says the same as last time. */
  commentUpdate?: CommentUpdate;
  /** What a passing run does to an earlier failing comment. */
  commentOnPass?: CommentOnPass;
  /** Most annotations to send (at most GitHub's 1,000). */
  maxAnnotations?: number;
  /** This run's external_id (see startCheckRun); the completed check run also remembers the comment's id. */
  externalId?: string;
  /** startCheckRun's error: a missing permission is not asked again, and reported once. */
  startError?: PublishError;
}

export interface PublishResult {
  commentId?: number;
  checkRunId?: number;
  issueNumber?: number;
  checkRunUrl?: string;
  comment:
    | "created"
    | "updated"
    | "unchanged"
    | "kept"
    | "hidden"
    | "deleted"
    | "skipped"
    | "failed"
    | "not-applicable";
  checkRun: "completed" | "failed" | "skipped";
  issue: "opened" | "updated" | "closed" | "none" | "failed" | "not-applicable";
  /** Whether the job summary was written (false outside Actions or when not asked for). */
  jobSummary?: boolean;
  /** HTTP requests to GitHub this run made through the client, retries included. */
  requests: number;
  /** Things a maintainer should know (fork PR skipped, permission missing, ...). Never secret. */
  notices: string[];
  errors: Array<{ kind: string; message: string }>;
}

/** What every publisher sees of one publishing: the report, the options, and where results go. */
export interface PublishRun {
  report: Report;
  opts: PublishOptions;
  /** The event: always there for the remote publishers (they run only with a client, which needs one). */
  ctx: EventContext;
  checkName: string;
  /** The GitHub client; undefined when this run may not write (fork, Dependabot, no token). */
  client?: GitHubClient;
  result: PublishResult;
  failing: boolean;
  unverified: boolean;
  /** The check run this run completes (its id from startCheckRun, if any). */
  target: CheckTarget & { checkRunId?: number };
  /** startCheckRun was refused for want of a permission: the check run is not asked for again. */
  checksRefused: boolean;
  log: Logger;
}

export interface Publisher {
  readonly name: string;
  /** Needs the GitHub API (skipped when this run may not write); the job summary does not. */
  readonly remote: boolean;
  /** Whether it has anything to do in this run. */
  applies(run: PublishRun): boolean;
  /** GitHub requests it needs, held back from the publishers before it. */
  reserve(run: PublishRun): number;
  /**
   * Publishes and records the outcome in run.result; `held` is what the publishers after it
   * reserved. Never throws: a failure is recorded (see recordFailure).
   */
  publish(run: PublishRun, held: number): Promise<void>;
}
