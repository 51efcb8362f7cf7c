// The tracking issue for runs without a pull request (schedule, manual, push) when
// `issue-on-failure: true`: one open issue per check name, found by a hidden marker among issues
// our identity opened; opened or updated while failing, closed with a comment when green again.
// Its title, body and closing comment are rendered in report/github.ts.
import { call, type GitHubClient } from "./client.js";
import { DEFAULT_COMMENT_AUTHOR } from "./comment.js";

export function issueMarker(checkName: string): string {
  return `<!-- docker-acceptance:issue:${checkName.replace(/[^A-Za-z0-9 ._/:-]/g, "_").slice(0, 100)} -->`;
}

interface TrackingIssueOptions {
  owner: string;
  repo: string;
  checkName: string;
  failing: boolean;
  /** Rendered report, starting with issueMarker(checkName). */
  body: string;
  /** The title when opened (report/github.ts renderIssueTitle: fixed text, nothing from the report). */
  title: string;
  /** The comment it is closed with when green again (report/github.ts renderIssueClosing). */
  closing: string;
  author?: string;
}

interface TrackingIssueResult {
  number?: number;
  action: "opened" | "updated" | "closed" | "none";
}

interface ListedIssue {
  number: number;
  body?: string | null;
  user: { login: string } | null;
  pull_request?: unknown;
}

const MAX_PAGES = 3;

async function findOpen(client: GitHubClient, o: TrackingIssueOptions): Promise<ListedIssue | undefined> {
  const author = (o.author ?? DEFAULT_COMMENT_AUTHOR).toLowerCase();
  const marker = issueMarker(o.checkName);
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await call("issues: write", "list open issues", () =>
      client.octokit.rest.issues.listForRepo({
        owner: o.owner,
        repo: o.repo,
        state: "open",
        per_page: 100,
        page,
      }),
    );
    const found = (res.data as ListedIssue[]).find(
      (i) => !i.pull_request && i.user?.login.toLowerCase() === author && (i.body ?? "").startsWith(marker),
    );
    if (found) return found;
    if (res.data.length < 100) break;
  }
  return undefined;
}

export async function syncTrackingIssue(
  client: GitHubClient,
  options: TrackingIssueOptions,
): Promise<TrackingIssueResult> {
  if (!options.body.startsWith(issueMarker(options.checkName)))
    throw new Error("issue body must start with its marker");
  const open = await findOpen(client, options);
  if (options.failing) {
    if (open) {
      await call("issues: write", "update the tracking issue", () =>
        client.octokit.rest.issues.update({
          owner: options.owner,
          repo: options.repo,
          issue_number: open.number,
          body: options.body,
        }),
      );
      return { number: open.number, action: "updated" };
    }
    const res = await call("issues: write", "open the tracking issue", () =>
      client.octokit.rest.issues.create({
        owner: options.owner,
        repo: options.repo,
        title: options.title,
        body: options.body,
      }),
    );
    return { number: res.data.number, action: "opened" };
  }
  if (!open) return { action: "none" };
  await call("issues: write", "comment on the tracking issue", () =>
    client.octokit.rest.issues.createComment({
      owner: options.owner,
      repo: options.repo,
      issue_number: open.number,
      body: options.closing,
    }),
  );
  await call("issues: write", "close the tracking issue", () =>
    client.octokit.rest.issues.update({
      owner: options.owner,
      repo: options.repo,
      issue_number: open.number,
      state: "closed",
      state_reason: "completed",
    }),
  );
  return { number: open.number, action: "closed" };
}
