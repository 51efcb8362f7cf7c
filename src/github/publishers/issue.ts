// The tracking issue, for runs without a pull request when `issue-on-failure: true`: opened or
// updated while failing, closed when green (issue.ts).
import { renderIssueBody, renderIssueClosing, renderIssueTitle } from "../../report/github.js";
import type { GitHubClient } from "../client.js";
import { issueMarker, syncTrackingIssue } from "../issue.js";
import { recordFailure } from "./result.js";
import type { Publisher } from "./types.js";

/** The tracking issue: up to 3 listings and 2 writes. */
const ISSUE_RESERVE = 5;

export const issuePublisher: Publisher = {
  name: "tracking issue",
  remote: true,
  applies: (run) => !run.ctx.pr && run.opts.issueOnFailure === true,
  reserve: () => ISSUE_RESERVE,
  async publish(run) {
    const { ctx, checkName, result } = run;
    try {
      const i = await syncTrackingIssue(run.client as GitHubClient, {
        owner: ctx.owner,
        repo: ctx.repo,
        checkName,
        failing: run.failing,
        body: renderIssueBody(run.report, { checkName, marker: issueMarker(checkName) }),
        title: renderIssueTitle(checkName),
        closing: renderIssueClosing(ctx.sha, ctx.runUrl),
        author: run.opts.commentAuthor,
      });
      result.issue = i.action;
      result.issueNumber = i.number;
    } catch (err) {
      result.issue = "failed";
      recordFailure(result, err);
    }
  },
};
