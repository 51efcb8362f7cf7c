// What a report mode decides about its check run before its first engine call, without loading the
// publishing code (./publish.ts: the publishers, the report's renderings and its schema): whether
// the run creates one at its start at all, and the external_id it carries. A fork's run and a run
// without a token create none, and so load none of it before the suites (src/action/check-run.ts).
import type { EventContext } from "./context.js";

/**
 * This run's external_id: GitHub's run id and attempt (one per re-run), plus our own run id
 * (one per step, so two matrix jobs never share one). A create whose answer was lost is found
 * again by it; the post step finds this run's check runs by it.
 */
export function externalIdFor(env: Record<string, string | undefined>, owner: string): string {
  return `da:${env.GITHUB_RUN_ID ?? "local"}.${env.GITHUB_RUN_ATTEMPT ?? "1"}:${owner}`;
}

/** The start of a run that creates no check run (a fork's, or one without a token), or undefined. */
export function checkRunSkipped(
  context: EventContext,
  token: string | undefined,
  client?: unknown,
): { notices: string[] } | undefined {
  if (context.readOnly) return { notices: [] }; // publishReport explains the fork case once.
  if (!token && !client) return { notices: ["No GitHub token: no check run is created."] };
  return undefined;
}
