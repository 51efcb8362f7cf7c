// The PR's diff for the action: the local checkout when it holds the base commit (no request),
// otherwise GitHub's pulls/{n}/files through the OpenAPI-validated double.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pullRequestChanges } from "../../src/action/changes.js";
import { createGitHubClient } from "../../src/github/client.js";
import type { EventContext } from "../../src/github/context.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";

function repoWithBranch(): { dir: string; base: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "da-changes-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir })
      .toString()
      .trim();
  git("init", "-q", "-b", "main");
  writeFileSync(path.join(dir, "app.py"), "print('hi')\n");
  git("add", ".");
  git("commit", "-qm", "base");
  const base = git("rev-parse", "HEAD");
  writeFileSync(path.join(dir, "app.py"), "print('hi')\nbreakpoint()\n");
  git("commit", "-qam", "change");
  return { dir, base };
}

const context = (pr: Partial<NonNullable<EventContext["pr"]>>): EventContext => ({
  eventName: "pull_request",
  kind: "pull_request",
  owner: "octo-org",
  repo: "app",
  sha: "f".repeat(40),
  readOnly: false,
  pr: { number: 7, headSha: "f".repeat(40), headRepo: "octo-org/app", baseRepo: "octo-org/app", ...pr },
});

describe("pullRequestChanges", () => {
  let double: GitHubDouble;
  beforeEach(async () => {
    double = await new GitHubDouble().start();
  });
  afterEach(async () => {
    await double.stop();
    expect(double.problems).toEqual([]);
  });

  it("reads the local checkout when it holds the base commit, with no API request", async () => {
    const { dir, base } = repoWithBranch();
    const client = createGitHubClient({ token: FULL_TOKEN, baseUrl: double.url, spaceWrites: false });
    const changes = await pullRequestChanges(context({ baseSha: base }), dir, client);
    expect(changes?.files.map((f) => [f.path, f.added.map((a) => a.line)])).toEqual([["app.py", [2]]]);
    expect(double.requests).toEqual([]);
  });

  it("falls back to the API over several pages, using the payload's changed_files", async () => {
    const { dir } = repoWithBranch();
    double.seedPull(7, { headSha: "f".repeat(40) });
    double.seedPullFiles(
      7,
      Array.from({ length: 150 }, (_, i) => ({ filename: `src/f${i}.py`, patch: "@@ -0,0 +1 @@\n+x = 1" })),
    );
    const client = createGitHubClient({ token: FULL_TOKEN, baseUrl: double.url, spaceWrites: false });
    const changes = await pullRequestChanges(
      context({ baseSha: "0".repeat(40), changedFiles: 150 }),
      dir,
      client,
    );
    expect(changes?.files).toHaveLength(150);
    expect(changes?.files[149]).toMatchObject({ path: "src/f149.py", added: [{ line: 1, text: "x = 1" }] });
    expect(double.ops()).toEqual(["pulls/list-files 200", "pulls/list-files 200"]);
  });

  it("says nothing about runs without a pull request", async () => {
    expect(await pullRequestChanges({ ...context({}), pr: undefined }, ".", undefined)).toBeUndefined();
  });
});
