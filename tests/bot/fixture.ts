// One GitHub double per test for the bot: PR #7 (head HEAD, its branch last pushed an hour ago),
// the repository's collaborators, a client without write spacing, and the views a PR participant
// has of what the bot did (its comments, the reactions on a comment). Every test ends with no
// request GitHub would have rejected.
import { afterEach, beforeEach, expect } from "vitest";
import { createGitHubClient, type GitHubClient } from "../../src/github/client.js";
import type { Logger } from "../../src/log.js";
import { FULL_TOKEN, GitHubDouble, githubTime } from "../double/github-double.js";
import { type CommentScenario, issueCommentPayload } from "./payloads.js";

export const HEAD = "1".repeat(40);
export const PR = 7;

export interface BotFixture {
  double: GitHubDouble;
  client: GitHubClient;
  log: Logger;
  warnings: string[];
  /** A comment as it exists on GitHub (made `at`, default now) and the webhook announcing it. */
  comment(
    body: string,
    login: string,
    over?: Partial<CommentScenario> & { at?: string },
  ): { commentId: number; payload: Record<string, unknown> };
  botComments(): GitHubDouble["comments"];
  reactionsOn(commentId: number): string[];
}

/** Seconds from now as GitHub stamps them (negative: in the past). */
export const at = (seconds: number) => githubTime(Date.now() + seconds * 1000);

export function useBotDouble(): BotFixture {
  const warnings: string[] = [];
  const f = {
    warnings,
    log: {
      info: () => {},
      warn: (m: string) => warnings.push(m),
      error: () => {},
      group: (_t: string, fn: () => unknown) => fn(),
    } as Logger,
    comment(body: string, login: string, over: Partial<CommentScenario> & { at?: string } = {}) {
      const { at: when, ...scenario } = over;
      const commentId = f.double.seedComment(scenario.issue ?? PR, body, login, when);
      const payload = issueCommentPayload({ body, login, commentId, issue: PR, ...scenario });
      return { commentId, payload };
    },
    botComments: () => f.double.comments.filter((c) => c.login === "github-actions[bot]"),
    reactionsOn: (id: number) => f.double.reactions.filter((r) => r.commentId === id).map((r) => r.content),
  } as BotFixture;

  beforeEach(async () => {
    f.double = await new GitHubDouble().start();
    f.double.seedPull(PR, { headSha: HEAD, pushedAt: at(-3600) });
    f.double.seedCollaborator("maintainer", "maintain");
    f.double.seedCollaborator("writer", "write");
    f.double.seedCollaborator("boss", "admin");
    f.double.seedCollaborator("triager", "triage");
    // Writes unspaced: GitHub's 1 s / 3 s spacing would only make these files slow, not more real.
    f.client = createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: f.double.url,
      retryAfterBaseMs: 1,
      spaceWrites: false,
    });
    warnings.length = 0;
  });

  afterEach(async () => {
    expect(f.double.problems, "requests GitHub would reject").toEqual([]);
    await f.double.stop();
  });
  return f;
}
