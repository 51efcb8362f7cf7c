// When did the pull request's head branch last move, and to what? Answered from the one record
// of it that neither the pull request's author nor its commits can write: GitHub's activity log
// of the repository the branch lives in (GET /repos/{owner}/{repo}/activity; a fork's own for a
// fork's pull request), one entry per push, force-push, creation or deletion of a branch, stamped
// when GitHub took it. What else looks like an answer is not one: commit dates are the author's
// to set; workflow runs and check suites exist only when CI ran (`[skip ci]` leaves none) and
// say nothing of a later rewind to an old commit; the timeline records force-pushes, not pushes.
import type { GitHubClient } from "../github/client.js";

/** Entries read: enough to see every change recorded in the newest second, never a long list. */
const NEWEST = 10;

type LastPush =
  /** `afters`: where the branch pointed after each change recorded at `at`, the newest second. */
  | { kind: "pushed"; at: string; afters: string[] }
  /** GitHub has no record of a change to the branch (none kept, or the repository's is empty). */
  | { kind: "none" }
  /** The log could not be read: a private fork, a server without it, GitHub failing. */
  | { kind: "unreadable"; status?: number };

export async function lastPush(
  client: GitHubClient,
  where: { owner: string; repo: string; branch: string },
): Promise<LastPush> {
  let entries: Array<{ after: string; timestamp: string }>;
  try {
    const res = await client.octokit.rest.repos.listActivities({
      owner: where.owner,
      repo: where.repo,
      ref: `refs/heads/${where.branch}`,
      direction: "desc",
      per_page: NEWEST,
    });
    entries = res.data;
  } catch (err) {
    // Not knowing is an answer here, not a failure: the caller refuses and says why.
    const status =
      typeof err === "object" && err !== null && "status" in err ? Number(err.status) : undefined;
    return { kind: "unreadable", status };
  }
  // The newest by GitHub's own stamp, whatever order the page came in.
  if (entries.length === 0) return { kind: "none" };
  const times = entries.map((e) => Date.parse(e.timestamp));
  if (!times.every(Number.isFinite)) return { kind: "unreadable" };
  const newest = Math.max(...times);
  const afters = entries.filter((e) => Date.parse(e.timestamp) === newest).map((e) => e.after);
  return { kind: "pushed", at: new Date(newest).toISOString(), afters };
}
