// The sticky PR comment: one per check name, found again by its hidden marker, created, updated,
// kept, hidden or deleted as comment.ts decides; the check run's conclusion keeps its requests.
import { contentDigest, renderCommentBody } from "../../report/github.js";
import type { GitHubClient } from "../client.js";
import { commentMarker, stateMarker, upsertStickyComment } from "../comment.js";
import { rememberedCommentId } from "./remembered.js";
import { recordFailure } from "./result.js";
import type { Publisher, PublishRun } from "./types.js";

export const commentPublisher: Publisher = {
  name: "comment",
  remote: true,
  applies: (run) => run.ctx.pr !== undefined && run.opts.postComment !== false,
  reserve: () => 0,
  async publish(run, held) {
    const client = run.client as GitHubClient;
    // Requests held back for the conclusion (and its retries) while the comment is posted.
    client.reserve = held;
    try {
      await upsert(run, client);
    } catch (err) {
      run.result.comment = "failed";
      recordFailure(run.result, err);
    } finally {
      client.reserve = 0;
    }
  },
};

async function upsert(run: PublishRun, client: GitHubClient): Promise<void> {
  const { ctx, opts, report, checkName, result } = run;
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
    mode: opts.comment ?? "always",
    failing: run.failing,
    author: opts.commentAuthor,
    mayExist: pr.action !== "opened",
    findKnownId: () => rememberedCommentId(client, run.target, pr),
    update: opts.commentUpdate,
    onPass: opts.commentOnPass,
    state,
  });
  result.comment = c.action;
  result.commentId = c.id;
  const racing = c.removedDuplicates.length - c.retryDuplicates;
  if (c.retryDuplicates > 0) {
    result.notices.push(
      `A retried request had already created the comment (GitHub applied it but its answer was lost); removed the duplicate.`,
    );
  }
  if (racing > 0) {
    result.notices.push(`Another run commented concurrently; kept one comment, removed ${racing}.`);
  }
}
