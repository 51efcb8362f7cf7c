// The comment id an earlier run of this check remembered on its check run (checks.ts external_id).
import { commentIdOf, listCheckRuns } from "../checks.js";
import { call, type GitHubClient } from "../client.js";
import { lastPage } from "../comment.js";

/** How many of the PR's newest commits are asked, when neither the previous head nor this one knows. */
const NEWEST_COMMITS = 5;

/**
 * On the commit before the push (`synchronize`), then on this head (a re-run); then on the PR's
 * newest commits: a command run or a fork's publish phase knows no previous head, and a push
 * right after a cancelled run finds nothing on the one before. Never throws: without it the
 * comment is found by listing.
 */
export async function rememberedCommentId(
  client: GitHubClient,
  target: { owner: string; repo: string; name: string },
  pull: { number: number; headSha: string; previousSha?: string },
): Promise<number | undefined> {
  const tried = new Set<string>();
  const on = async (sha: string) => {
    tried.add(sha);
    for (const r of await listCheckRuns(client, target, sha)) {
      const id = commentIdOf(r.external_id);
      if (id !== undefined) return id;
    }
    return undefined;
  };
  try {
    for (const sha of [pull.previousSha, pull.headSha]) {
      const id = sha && !tried.has(sha) ? await on(sha) : undefined;
      if (id !== undefined) return id;
    }
    const newest = (await newestCommits(client, target, pull.number)).filter((sha) => !tried.has(sha));
    for (const sha of newest.slice(0, NEWEST_COMMITS)) {
      const id = await on(sha);
      if (id !== undefined) return id;
    }
  } catch {
    // A missing permission, an outage or the request budget here only costs the hint.
  }
  return undefined;
}

/** The PR's commits, newest first (GitHub lists at most 250, oldest first: the last page is read). */
async function newestCommits(
  client: GitHubClient,
  t: { owner: string; repo: string },
  number: number,
): Promise<string[]> {
  const list = (page: number) =>
    call("pull-requests: read", "list the pull request's commits", () =>
      client.octokit.rest.pulls.listCommits({
        owner: t.owner,
        repo: t.repo,
        pull_number: number,
        per_page: 100,
        page,
      }),
    );
  const first = await list(1);
  const last = lastPage(first.headers.link);
  const shas = first.data.map((c) => c.sha);
  if (last !== undefined && last > 1) shas.push(...(await list(last)).data.map((c) => c.sha));
  return shas.reverse();
}
