// The sticky PR comment: one per check name per pull request, updated in place.
//
// Finding it: a hidden marker on the first line that includes the check name, and ONLY among
// comments written by the token's identity, so nobody can hijack ours by pasting the marker.
// The identity: GITHUB_TOKEN cannot call GET /user (403) and an app cannot learn its slug without
// its private key, so we do not ask. The author login is an input (`comment-author`) defaulting
// to `github-actions[bot]`, the GITHUB_TOKEN identity; with a PAT or an app token, set it to the
// user's login or `<app-slug>[bot]`. That also saves a request per run.
//
// Finding it on a thread of any length, in a bounded number of requests: the oldest page (a PR's
// first run comments early, so ours is nearly always there), then via the Link header's `last`
// the newest page, then the id an earlier run remembered on its check run (`knownId`, see
// checks.ts), then the pages in between, newest first, at most MIDDLE_PAGES of them and only while
// the request budget keeps what posting needs. So with no memory at all a comment anywhere in the
// newest 1,000 comments or the first 100 is found in at most 10 listings; one buried deeper in a
// longer thread is not, and a new comment is posted: that one is then remembered (and on the last
// page), so the thread gains at most that one duplicate, never one per run.
//
// Races: two runs on one PR may both find nothing and both create. After creating, we list the
// comments updated since shortly before ours; of our marked comments the oldest (lowest id) wins,
// and a run whose new comment is not the oldest moves its body onto the oldest and deletes its
// own. Comment ids are increasing, so of two racing creators the later one always sees both and
// removes only what it created. A duplicate with our exact body is our own retried create (the
// first answer was lost), not another run.
import { call, type GitHubClient } from "./client.js";

type CommentMode = "always" | "on-failure" | "never";
/** `always` rewrites the comment each run; `on-change` leaves it alone when the report's content is the same. */
type CommentUpdate = "always" | "on-change";
/** What a passing run does to an earlier failing comment: `update` it, `keep` it as it was, `hide` (minimize) or `delete` it. */
type CommentOnPass = "update" | "keep" | "hide" | "delete";
export const DEFAULT_COMMENT_AUTHOR = "github-actions[bot]";

/** The hidden marker. The check name is reduced to safe characters so it cannot end the comment. */
export function commentMarker(checkName: string): string {
  return `<!-- docker-acceptance:comment:${checkName.replace(/[^A-Za-z0-9 ._/:-]/g, "_").slice(0, 100)} -->`;
}

/** A second hidden marker on the first line: the verdict and a digest of what the comment says. */
export function stateMarker(state: CommentState): string {
  return `<!-- docker-acceptance:state:${state.verdict}:${state.digest} -->`;
}

interface CommentState {
  verdict: "pass" | "warn" | "fail" | "error";
  /** Hex digest of the report's content (see publish.ts contentDigest). */
  digest: string;
}

const STATE = /<!-- docker-acceptance:state:(pass|warn|fail|error):([0-9a-f]{8,64}) -->/;

function readState(body: string): CommentState | undefined {
  const m = STATE.exec(body.split("\n", 1)[0] ?? "");
  return m ? { verdict: m[1] as CommentState["verdict"], digest: m[2]! } : undefined;
}

interface StickyCommentOptions {
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
  /** Our comment's id as an earlier run remembered it; checked (author, marker, PR) before use. */
  knownId?: number;
  /** Lazily finds knownId when the listings did not find the comment (costs requests only then). */
  findKnownId?: () => Promise<number | undefined>;
  update?: CommentUpdate;
  onPass?: CommentOnPass;
  /** This run's state; its marker must be in `body`. Needed for `update: on-change` and `onPass`. */
  state?: CommentState;
}

interface StickyCommentResult {
  id?: number;
  action: "created" | "updated" | "unchanged" | "kept" | "hidden" | "deleted" | "skipped";
  /** Comments of ours removed because another run made them concurrently. */
  removedDuplicates: number[];
  /** Of those, how many our own retried create made (GitHub applied a request whose answer was lost). */
  retryDuplicates: number;
  /** Comment listing requests made to find it (at most 2 + MIDDLE_PAGES), and after creating. */
  listings: number;
}

interface ListedComment {
  id: number;
  node_id?: string;
  body?: string;
  user: { login: string } | null;
  issue_url?: string;
}

export const PER_PAGE = 100;
/** Pages between the first and the last read at most when nothing remembers the comment's id. */
export const MIDDLE_PAGES = 8;
/** Requests the scan leaves for posting: the create and its two retries, the race listing (two on a busy thread). */
const POSTING_REQUESTS = 5;
/** After creating, comments updated this long before ours are listed to catch a racing run's. */
const RACE_WINDOW_MS = 10 * 60_000;

/** The `page` of a Link header's `rel="last"`, or undefined when there is no later page. */
export function lastPage(link: string | undefined): number | undefined {
  for (const part of (link ?? "").split(",")) {
    const m = /<([^>]+)>;\s*rel="last"/.exec(part);
    if (m) {
      const page = Number(new URL(m[1]!).searchParams.get("page"));
      return Number.isInteger(page) && page > 0 ? page : undefined;
    }
  }
  return undefined;
}

class Finder {
  listings = 0;
  constructor(
    private client: GitHubClient,
    private o: StickyCommentOptions,
    private author: string,
  ) {}

  isOurs(c: ListedComment): boolean {
    return c.user?.login.toLowerCase() === this.author && (c.body ?? "").startsWith(this.o.marker);
  }

  async list(query: { page?: number; since?: string }) {
    this.listings++;
    const res = await call("pull-requests: write", "list the PR's comments", () =>
      this.client.octokit.rest.issues.listComments({
        owner: this.o.owner,
        repo: this.o.repo,
        issue_number: this.o.issueNumber,
        per_page: PER_PAGE,
        ...query,
      }),
    );
    return {
      ours: (res.data as ListedComment[]).filter((c) => this.isOurs(c)),
      last: lastPage(res.headers.link),
    };
  }

  /** The oldest page, then (not there) the newest; then the remembered id. Sorted oldest first. */
  async find(): Promise<ListedComment[]> {
    const first = await this.list({ page: 1 });
    let ours = first.ours;
    if (ours.length === 0 && first.last !== undefined && first.last > 1) {
      ours = [...ours, ...(await this.list({ page: first.last })).ours];
    }
    // Pages 2..last-1 were not read: the comment may be there, buried. Ask where it was.
    if (ours.length === 0 && first.last !== undefined && first.last > 2) {
      const known = this.o.knownId ?? (await this.o.findKnownId?.());
      const found = known !== undefined ? await this.get(known) : undefined;
      if (found) ours = [found];
    }
    if (ours.length === 0 && first.last !== undefined && first.last > 2) ours = await this.middle(first.last);
    return ours.sort((a, b) => a.id - b.id);
  }

  /** Pages last-1 down to 2, newest first, bounded in pages and by what posting needs of the budget. */
  private async middle(last: number): Promise<ListedComment[]> {
    for (let page = last - 1; page >= 2 && page >= last - MIDDLE_PAGES; page--) {
      // This page and then posting: the page must leave POSTING_REQUESTS.
      if (this.client.remaining() - this.client.reserve - 1 < POSTING_REQUESTS) break;
      const { ours } = await this.list({ page });
      if (ours.length > 0) return ours;
    }
    return [];
  }

  async get(id: number): Promise<ListedComment | undefined> {
    const res = await call("pull-requests: write", "read the remembered PR comment", () =>
      this.client.octokit.rest.issues.getComment({ owner: this.o.owner, repo: this.o.repo, comment_id: id }),
    ).catch((err: unknown) => {
      if ((err as { kind?: string }).kind === "not-found") return undefined;
      throw err;
    });
    const c = res?.data as ListedComment | undefined;
    const onThisPr = c?.issue_url?.endsWith(`/issues/${this.o.issueNumber}`);
    return c && onThisPr && this.isOurs(c) ? c : undefined;
  }
}

/** The result of one upsert: what was done, to which comment, and the listings it took. */
type Outcome = (
  action: StickyCommentResult["action"],
  id?: number,
  removed?: number[],
  retryDuplicates?: number,
) => StickyCommentResult;

export async function upsertStickyComment(
  client: GitHubClient,
  options: StickyCommentOptions,
): Promise<StickyCommentResult> {
  if (!options.body.startsWith(options.marker)) throw new Error("comment body must start with its marker");
  const author = (options.author ?? DEFAULT_COMMENT_AUTHOR).toLowerCase();
  const finder = new Finder(client, options, author);
  const result: Outcome = (action, id, removed = [], retryDuplicates = 0) => ({
    id,
    action,
    removedDuplicates: removed,
    retryDuplicates,
    listings: finder.listings,
  });
  if (options.mode === "never") return result("skipped");

  const existing = options.mayExist === false ? [] : await finder.find();
  const [keep, ...extra] = existing;
  if (keep) return reviseExisting(client, options, keep, extra, result);
  // An existing comment is updated whatever the mode; a new one only when asked for.
  if (options.mode === "on-failure" && !options.failing) return result("skipped");
  // Hiding or deleting the comment on green means a green run leaves none behind.
  const onPass = options.onPass ?? "update";
  if (options.state?.verdict === "pass" && (onPass === "hide" || onPass === "delete"))
    return result("skipped");
  return createAndSettle(client, options, finder, result);
}

/**
 * Our comment found: its duplicates removed, then it is updated, left unchanged, or (a pass after
 * a failure, as `onPass` asks) kept, deleted or hidden.
 */
async function reviseExisting(
  client: GitHubClient,
  options: StickyCommentOptions,
  keep: ListedComment,
  extra: ListedComment[],
  result: Outcome,
): Promise<StickyCommentResult> {
  // Duplicates from an earlier race that ended badly: ours, so ours to remove.
  for (const d of extra) await remove(client, options, d.id);
  const removed = extra.map((d) => d.id);
  const before = readState(keep.body ?? "");
  const onPass = options.onPass ?? "update";
  if (options.state?.verdict === "pass" && onPass !== "update" && before && before.verdict !== "pass") {
    if (onPass === "keep") return result("kept", keep.id, removed);
    if (onPass === "delete") {
      await remove(client, options, keep.id);
      return result("deleted", undefined, [...removed]);
    }
    // Retired first (its marker renamed, so no later run finds and reuses a hidden comment: a
    // later failure gets a fresh, visible one), then minimized as outdated.
    await retire(client, options, keep);
    await minimize(client, keep);
    return result("hidden", keep.id, removed);
  }
  if (options.update === "on-change" && before && options.state && before.digest === options.state.digest) {
    return result("unchanged", keep.id, removed);
  }
  await update(client, options, keep.id);
  return result("updated", keep.id, removed);
}

/**
 * A new comment posted, then the race settled: of our marked comments made since shortly before
 * it, the oldest wins; ours (and a lost attempt of ours) give way to an older one.
 */
async function createAndSettle(
  client: GitHubClient,
  options: StickyCommentOptions,
  finder: Finder,
  result: Outcome,
): Promise<StickyCommentResult> {
  const created = await call("pull-requests: write", "post the PR comment", () =>
    client.octokit.rest.issues.createComment({
      owner: options.owner,
      repo: options.repo,
      issue_number: options.issueNumber,
      body: options.body,
    }),
  );
  const mine = created.data.id;
  const after = await oursSince(finder, created.data.created_at);
  // Ours twice with the same body before `mine`: a create GitHub applied but whose answer was lost.
  const retried = after.filter((c) => c.id < mine && c.body === options.body);
  const oldest = after[0];
  if (!oldest || oldest.id >= mine) return result("created", mine);
  // Another run (or our own lost attempt) got there first: carry our body over and withdraw ours.
  await update(client, options, oldest.id);
  await remove(client, options, mine);
  // A lost attempt of ours that is not the oldest is a duplicate too.
  for (const d of retried.filter((c) => c.id !== oldest.id)) await remove(client, options, d.id);
  const removed = [mine, ...retried.filter((c) => c.id !== oldest.id).map((c) => c.id)];
  return result("updated", oldest.id, removed, retried.length);
}

/** Our comments updated since RACE_WINDOW_MS before `createdAt`, oldest first. */
async function oursSince(finder: Finder, createdAt: string): Promise<ListedComment[]> {
  const since = new Date(Date.parse(createdAt) - RACE_WINDOW_MS).toISOString();
  const recent = await finder.list({ since });
  // A busy thread fills more than a page in that window; ours (and a lost attempt) are the newest.
  const newest =
    recent.last !== undefined && recent.last > 1
      ? await finder.list({ since, page: recent.last })
      : undefined;
  return uniqueById([...recent.ours, ...(newest?.ours ?? [])]).sort((a, b) => a.id - b.id);
}

function uniqueById(comments: ListedComment[]): ListedComment[] {
  return [...new Map(comments.map((c) => [c.id, c])).values()];
}

async function update(client: GitHubClient, o: StickyCommentOptions, id: number): Promise<void> {
  await call("pull-requests: write", "update the PR comment", () =>
    client.octokit.rest.issues.updateComment({ owner: o.owner, repo: o.repo, comment_id: id, body: o.body }),
  );
}

async function remove(client: GitHubClient, o: StickyCommentOptions, id: number): Promise<void> {
  await call("pull-requests: write", "remove a PR comment of ours", () =>
    client.octokit.rest.issues.deleteComment({ owner: o.owner, repo: o.repo, comment_id: id }),
  );
}

async function retire(client: GitHubClient, o: StickyCommentOptions, c: ListedComment): Promise<void> {
  const body = (c.body ?? "").replace("<!-- docker-acceptance:comment:", "<!-- docker-acceptance:retired:");
  await call("pull-requests: write", "retire the earlier PR comment", () =>
    client.octokit.rest.issues.updateComment({ owner: o.owner, repo: o.repo, comment_id: c.id, body }),
  );
}

/** Minimizes (hides) a comment as outdated: GitHub's GraphQL minimizeComment; REST has no equivalent. */
async function minimize(client: GitHubClient, c: ListedComment): Promise<void> {
  if (!c.node_id) throw new Error(`comment ${c.id} came without its node_id`);
  await call("pull-requests: write", "hide the earlier PR comment", () =>
    client.octokit.graphql(
      "mutation($id: ID!) { minimizeComment(input: { subjectId: $id, classifier: OUTDATED }) { minimizedComment { isMinimized } } }",
      { id: c.node_id },
    ),
  );
}
