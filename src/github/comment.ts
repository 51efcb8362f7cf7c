// The sticky PR comment: one per check name per pull request, updated in place.
//
// Finding it: a hidden marker on the first line that includes the check name, and ONLY among
// comments written by the token's identity, so nobody can hijack ours by pasting the marker.
// The identity: GITHUB_TOKEN cannot call GET /user (403) and an app cannot learn its slug without
// its private key, so we do not ask. The author login is an input (`comment-author`) defaulting
// to `github-actions[bot]`, the GITHUB_TOKEN identity; with a PAT or an app token, set it to the
// user's login or `<app-slug>[bot]`. That also saves a request per run.
//
// Races: two runs on one PR may both find nothing and both create. After creating, we list
// again; of our marked comments the oldest (lowest id) wins, and a run whose new comment is not
// the oldest moves its body onto the oldest and deletes its own. Comment ids are increasing, so
// of two racing creators the later one always sees both and removes only what it created.
import { call, type GitHubClient } from "./client.js";

export type CommentMode = "always" | "on-failure" | "never";
export const DEFAULT_COMMENT_AUTHOR = "github-actions[bot]";

/** The hidden marker. The check name is reduced to safe characters so it cannot end the comment. */
export function commentMarker(checkName: string): string {
  return `<!-- docker-acceptance:comment:${checkName.replace(/[^A-Za-z0-9 ._/:-]/g, "_").slice(0, 100)} -->`;
}

export interface StickyCommentOptions {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The rendered body; must start with `marker`. */
  body: string;
  marker: string;
  mode: CommentMode;
  /** Whether the run failed (verdict fail or error); `on-failure` creates only then. */
  failing: boolean;
  author?: string;
  /**
   * False when no earlier run can have commented (the PR was just opened): skips the first
   * listing. The listing after creating still runs, so a wrong guess costs a request, never a
   * duplicate.
   */
  mayExist?: boolean;
}

export interface StickyCommentResult {
  id?: number;
  action: "created" | "updated" | "skipped";
  /** Comments of ours removed because another run made them concurrently. */
  removedDuplicates: number[];
}

interface ListedComment {
  id: number;
  body?: string;
  user: { login: string } | null;
}

const MAX_PAGES = 5;

async function listOurs(
  client: GitHubClient,
  o: StickyCommentOptions,
  author: string,
): Promise<ListedComment[]> {
  const ours: ListedComment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await call("pull-requests: write", "list the PR's comments", () =>
      client.octokit.rest.issues.listComments({
        owner: o.owner,
        repo: o.repo,
        issue_number: o.issueNumber,
        per_page: 100,
        page,
      }),
    );
    for (const c of res.data as ListedComment[]) {
      if (c.user?.login.toLowerCase() === author && (c.body ?? "").startsWith(o.marker)) ours.push(c);
    }
    if (res.data.length < 100 || !/rel="next"/.test(String(res.headers.link ?? ""))) break;
  }
  return ours.sort((a, b) => a.id - b.id);
}

export async function upsertStickyComment(
  client: GitHubClient,
  o: StickyCommentOptions,
): Promise<StickyCommentResult> {
  if (!o.body.startsWith(o.marker)) throw new Error("comment body must start with its marker");
  const author = (o.author ?? DEFAULT_COMMENT_AUTHOR).toLowerCase();
  if (o.mode === "never") return { action: "skipped", removedDuplicates: [] };

  const existing = o.mayExist === false ? [] : await listOurs(client, o, author);
  const [keep, ...extra] = existing;
  if (keep) {
    await update(client, o, keep.id);
    // Duplicates from an earlier race that ended badly: ours, so ours to remove.
    for (const d of extra) await remove(client, o, d.id);
    return { id: keep.id, action: "updated", removedDuplicates: extra.map((d) => d.id) };
  }
  // An existing comment is updated whatever the mode; a new one only when asked for.
  if (o.mode === "on-failure" && !o.failing) return { action: "skipped", removedDuplicates: [] };

  const created = await call("pull-requests: write", "post the PR comment", () =>
    client.octokit.rest.issues.createComment({
      owner: o.owner,
      repo: o.repo,
      issue_number: o.issueNumber,
      body: o.body,
    }),
  );
  const mine = created.data.id;
  const after = await listOurs(client, o, author);
  const oldest = after[0];
  if (!oldest || oldest.id >= mine) return { id: mine, action: "created", removedDuplicates: [] };
  // Another run got there first: carry our body over to its comment and withdraw ours.
  await update(client, o, oldest.id);
  await remove(client, o, mine);
  return { id: oldest.id, action: "updated", removedDuplicates: [mine] };
}

async function update(client: GitHubClient, o: StickyCommentOptions, id: number): Promise<void> {
  await call("pull-requests: write", "update the PR comment", () =>
    client.octokit.rest.issues.updateComment({ owner: o.owner, repo: o.repo, comment_id: id, body: o.body }),
  );
}

async function remove(client: GitHubClient, o: StickyCommentOptions, id: number): Promise<void> {
  await call("pull-requests: write", "remove a duplicate PR comment", () =>
    client.octokit.rest.issues.deleteComment({ owner: o.owner, repo: o.repo, comment_id: id }),
  );
}
