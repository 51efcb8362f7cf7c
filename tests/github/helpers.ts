import { afterEach, beforeEach, expect } from "vitest";
import type { RunDecision } from "../../src/bot/index.js";
import { createGitHubClient, type GitHubClient } from "../../src/github/client.js";
import type { EventContext } from "../../src/github/context.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";

export const HEAD = "1234567890abcdef1234567890abcdef12345678";
export const HEAD2 = "fedcba0987654321fedcba0987654321fedcba09";

export function prContext(
  over: Partial<EventContext["pr"]> = {},
  ctx: Partial<EventContext> = {},
): EventContext {
  const pr = {
    number: 7,
    headSha: HEAD,
    headRepo: "octo-org/app",
    baseRepo: "octo-org/app",
    action: "opened",
    ...over,
  };
  return {
    eventName: "pull_request",
    kind: "pull_request",
    owner: "octo-org",
    repo: "app",
    sha: pr.headSha,
    pr,
    readOnly: false,
    runUrl: "https://github.com/octo-org/app/actions/runs/1",
    ...ctx,
  };
}

export function scheduleContext(sha = HEAD): EventContext {
  return { eventName: "schedule", kind: "schedule", owner: "octo-org", repo: "app", sha, readOnly: false };
}

/** A client against the double; retry waits shortened and writes unspaced so tests spend no real minutes. */
export function clientFor(double: GitHubDouble, token = FULL_TOKEN): GitHubClient {
  return createGitHubClient({ token, baseUrl: double.url, retryAfterBaseMs: 5, spaceWrites: false });
}

/** A maintainer's `/acceptance run` on fork PR #7, accepted for `headSha` (the command recipe). */
export function maintainerRun(headSha = HEAD): RunDecision {
  return {
    kind: "run",
    owner: "octo-org",
    repo: "app",
    pr: 7,
    headSha,
    headRepo: "stranger/app",
    fork: true,
    subjects: [],
    commentId: 900,
    requestedBy: "maintainer",
    reactionTarget: { owner: "octo-org", repo: "app", commentId: 900 },
  };
}

/**
 * A GitHub double for each test of the file, with fork PR #7 (stranger/app, at HEAD); after each
 * test every request it saw must have matched GitHub's OpenAPI description.
 */
export function forkPullDouble(): () => GitHubDouble {
  let double: GitHubDouble;
  beforeEach(async () => {
    double = await new GitHubDouble().start();
    double.seedPull(7, { headSha: HEAD, headRepo: "stranger/app", headRef: "feature" });
  });
  afterEach(async () => {
    await double.stop();
    expect(double.problems).toEqual([]);
  });
  return () => double;
}
