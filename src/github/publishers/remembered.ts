// The comment id an earlier run of this check remembered on its check run (checks.ts external_id).
import { commentIdOf, listCheckRuns } from "../checks.js";
import type { GitHubClient } from "../client.js";

/**
 * On the commit before the push (`synchronize`), else on this head (a re-run). Never throws:
 * without it the comment is found by listing.
 */
export async function rememberedCommentId(
  client: GitHubClient,
  t: { owner: string; repo: string; name: string },
  ref: string,
): Promise<number | undefined> {
  try {
    for (const r of await listCheckRuns(client, t, ref)) {
      const id = commentIdOf(r.external_id);
      if (id !== undefined) return id;
    }
  } catch {
    // A missing permission or an outage here only costs the hint.
  }
  return undefined;
}
