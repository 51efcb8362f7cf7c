// The suites job refuses to test anything but the accepted commit.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assertWorkspaceAt, type RunDecision } from "../../src/bot/index.js";
import { UsageError } from "../../src/errors.js";

const dir = mkdtempSync(path.join(tmpdir(), "da-bot-ws-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: dir,
    encoding: "utf8",
  }).trim();

function decisionAt(headSha: string): RunDecision {
  return {
    kind: "run",
    owner: "octo-org",
    repo: "app",
    pr: 7,
    headSha,
    headRepo: "octo-org/app",
    fork: false,
    subjects: [],
    commentId: 1,
    requestedBy: "maintainer",
    reactionTarget: { owner: "octo-org", repo: "app", commentId: 1 },
  };
}

describe("assertWorkspaceAt", () => {
  git("init", "-q");
  writeFileSync(path.join(dir, "a"), "1");
  git("add", "a");
  git("commit", "-q", "-m", "one");
  const first = git("rev-parse", "HEAD");
  writeFileSync(path.join(dir, "a"), "2");
  git("commit", "-q", "-am", "two");
  const second = git("rev-parse", "HEAD");

  it("accepts the checkout at the accepted SHA", async () => {
    expect(await assertWorkspaceAt(dir, decisionAt(second))).toBe(second);
  });

  it("refuses a checkout at another commit, naming both and the fix", async () => {
    const err = await assertWorkspaceAt(dir, decisionAt(first)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(`is at ${second}, but the command accepted ${first}`);
    expect((err as Error).message).toMatch(/head-sha/);
  });

  it("refuses a workspace that is not a checkout", async () => {
    const bare = mkdtempSync(path.join(tmpdir(), "da-bot-nogit-"));
    try {
      await expect(assertWorkspaceAt(bare, decisionAt(first))).rejects.toThrow(/not a git checkout/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
