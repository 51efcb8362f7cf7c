// The tracking issue, for runs without a pull request when `issue-on-failure: true`: opened or
// updated while failing, closed when green (issue.ts).
import type { GitHubClient } from "../client.js";
import { definePublisher } from "./types.js";

/** The tracking issue: up to 3 listings and 2 writes. */
const ISSUE_RESERVE = 5;

type Outcome = "opened" | "updated" | "closed" | "none" | "failed" | "not-applicable";

export const issuePublisher = definePublisher({
  name: "issue",
  title: "tracking issue",
  rank: 40,
  options: {
    issueOnFailure: {
      input: "issue-on-failure",
      kind: "boolean",
      default: "false",
      help: "a tracking issue for failing runs outside PRs",
      description:
        "On a failing run outside a pull request (schedule, push), open or update one tracking issue; close it when the run passes.",
    },
  },
  remote: true,
  initial: () => ({ outcome: "not-applicable" as Outcome }),
  applies: (run, own) => !run.ctx.pr && own.issueOnFailure,
  reserve: () => ISSUE_RESERVE,
  async publish(run) {
    const { ctx, checkName } = run;
    // Loaded when the issue is synced, not with the option table (it brings the GitHub client).
    const [{ renderIssueBody, renderIssueClosing, renderIssueTitle }, { issueMarker, syncTrackingIssue }] =
      await Promise.all([import("../../report/github.js"), import("../issue.js")]);
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
      return { outcome: i.action, id: i.number };
    } catch (err) {
      run.failed(err);
      return { outcome: "failed" };
    }
  },
  // Said only where it applies: most runs are on a pull request, where it never does.
  describe: (outcome) =>
    outcome.outcome === "not-applicable"
      ? undefined
      : `tracking issue ${outcome.outcome}${outcome.id ? ` (#${outcome.id})` : ""}`,
});
