// The sticky PR comment: one per check name, found again by its hidden marker, created, updated,
// kept, hidden or deleted as comment.ts decides; the check run's conclusion keeps its requests.
import type { ValuesOf } from "../../option.js";
import type { GitHubClient } from "../client.js";
import { definePublisher, type PublishRun } from "./types.js";

type Outcome =
  | "created"
  | "updated"
  | "unchanged"
  | "kept"
  | "hidden"
  | "deleted"
  | "skipped"
  | "failed"
  | "not-applicable";

const OPTIONS = {
  comment: {
    input: "comment",
    flag: "comment",
    commands: ["publish"],
    kind: "enum",
    values: ["always", "on-failure", "never"],
    default: "always",
    help: "when to comment on the PR",
    description:
      "PR comment: `always` (one comment, updated in place), `on-failure` (only when not passing), `never`.",
  },
  commentUpdate: {
    input: "comment-update",
    kind: "enum",
    values: ["always", "on-change"],
    default: "always",
    help: "when to rewrite the comment",
    description:
      "`always` rewrites the PR comment on every run; `on-change` leaves it alone when the report says the same as the last run's (verdict, head, every case's outcome and words).",
  },
  commentOnPass: {
    input: "comment-on-pass",
    kind: "enum",
    values: ["update", "keep", "hide", "delete"],
    default: "update",
    help: "what a pass does to a failing comment",
    description:
      "What a passing run does to an earlier failing comment: `update` it to the passing report, `keep` it as it was, `hide` it (minimized as outdated) or `delete` it. With `hide` and `delete` a passing run never creates a comment.",
  },
} as const;

type Own = ValuesOf<typeof OPTIONS>;

export const commentPublisher = definePublisher({
  name: "comment",
  title: "comment",
  rank: 20,
  options: OPTIONS,
  remote: true,
  initial: (run) => ({ outcome: (run.opts.context?.pr ? "skipped" : "not-applicable") as Outcome }),
  applies: (run) => run.ctx.pr !== undefined && run.opts.postComment !== false,
  reserve: () => 0,
  async publish(run, own, held) {
    const client = run.client as GitHubClient;
    // Requests held back for the conclusion (and its retries) while the comment is posted.
    client.reserve = held;
    try {
      return await upsert(run, own, client);
    } catch (err) {
      run.failed(err);
      return { outcome: "failed" };
    } finally {
      client.reserve = 0;
    }
  },
  describe: (outcome) => `comment ${outcome.outcome}${outcome.id ? ` (#${outcome.id})` : ""}`,
  outputs: {
    "comment-id": {
      description: "ID of the PR comment created or updated, empty when none was posted.",
      value: (outcome) => outcome.id,
    },
  },
});

async function upsert(
  run: PublishRun,
  own: Own,
  client: GitHubClient,
): Promise<{ outcome: Outcome; id?: number }> {
  // Loaded when a comment is posted, not with the option table (it brings the GitHub client).
  const [
    { contentDigest, renderCommentBody },
    { commentMarker, stateMarker, upsertStickyComment },
    remembered,
  ] = await Promise.all([
    import("../../report/github.js"),
    import("../comment.js"),
    import("./remembered.js"),
  ]);
  const { ctx, report, checkName } = run;
  const pr = ctx.pr!;
  const marker = commentMarker(checkName);
  const state = { verdict: report.verdict, digest: contentDigest(report) };
  const c = await upsertStickyComment(client, {
    owner: ctx.owner,
    repo: ctx.repo,
    issueNumber: pr.number,
    body: renderCommentBody(report, {
      checkName,
      marker: marker + stateMarker(state),
      unverified: run.unverified,
    }),
    marker,
    mode: own.comment,
    failing: run.failing,
    author: run.opts.commentAuthor,
    mayExist: pr.action !== "opened",
    findKnownId: () => remembered.rememberedCommentId(client, run.target, pr),
    update: own.commentUpdate,
    onPass: own.commentOnPass,
    state,
  });
  const racing = c.removedDuplicates.length - c.retryDuplicates;
  if (c.retryDuplicates > 0) {
    run.notice(
      `A retried request had already created the comment (GitHub applied it but its answer was lost); removed the duplicate.`,
    );
  }
  if (racing > 0) run.notice(`Another run commented concurrently; kept one comment, removed ${racing}.`);
  return { outcome: c.action, id: c.id };
}
