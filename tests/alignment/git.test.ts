import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { gitDiffFiles, runAlignment } from "../../src/alignment/index.js";
import { UsageError } from "../../src/errors.js";
import {
  EXPECTED,
  EXPECTED_OPEN_RFCS,
  EXPECTED_SUMMARY,
  FEATURE_FILES,
  type FixtureRepo,
  git,
  makeFixtureRepo,
  rows,
} from "./fixture-repo.js";

describe("alignment review through the local git source", () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await makeFixtureRepo();
  });
  afterAll(async () => {
    await repo.cleanup();
  });

  test("exact findings, tiers, lines and suggested reviewers for the feature branch", async () => {
    const report = await runAlignment({
      workspace: repo.dir,
      source: { kind: "git", base: repo.base, head: repo.head },
    });
    expect(report.configured).toBe(true);
    expect(report.source).toBe("git diff main...feature (242 files)");
    expect(rows(report.findings)).toEqual(EXPECTED);
    expect(report.summary).toBe(EXPECTED_SUMMARY);
    expect(report.openRfcs).toEqual(EXPECTED_OPEN_RFCS);
    expect(report.notes).toEqual([
      "1 allow comment not counted: new in this change (an exception counts only when it is already there at the base)",
    ]);
    const principle = report.findings.find((f) => f.ref === "no-shell")!;
    expect(principle).toMatchObject({
      title: "No shell execution",
      concern: "Subjects are started through the engine API, never a shell.",
    });
  });

  test("every finding's line is a line the PR added", async () => {
    const files = await gitDiffFiles(repo.dir, repo.base, repo.head);
    const added = new Set(files.flatMap((f) => f.added.map((a) => `${f.path}:${a.line}`)));
    const report = await runAlignment({
      workspace: repo.dir,
      source: { kind: "git", base: repo.base, head: repo.head },
    });
    const pointed = report.findings.filter((f) => f.line !== undefined);
    expect(pointed.length).toBeGreaterThan(10);
    for (const f of pointed) expect(added.has(`${f.path}:${f.line}`), `${f.path}:${f.line}`).toBe(true);
    // The line that was there before the PR ("already here") is never reported.
    expect(report.findings.some((f) => f.path === "src/engine/docker.ts" && f.line === 2)).toBe(false);
  });

  test("RFCs and CODEOWNERS are read at --head, not from whatever is checked out", async () => {
    git(repo.dir, "checkout", "-q", "main");
    try {
      const report = await runAlignment({
        workspace: repo.dir,
        source: { kind: "git", base: repo.base, head: repo.head },
      });
      expect(rows(report.findings)).toEqual(EXPECTED);
    } finally {
      git(repo.dir, "checkout", "-q", "feature");
    }
  });

  test("a base that does not exist is a usage error with the fix; an option-shaped ref is refused", async () => {
    await expect(gitDiffFiles(repo.dir, "origin/nope")).rejects.toThrow(
      /--base origin\/nope is not a commit in .*\(fix: fetch it, e\.g\. `git fetch origin nope`/,
    );
    await expect(gitDiffFiles(repo.dir, "--output=/tmp/x")).rejects.toBeInstanceOf(UsageError);
  });

  test("no config: the section says not configured and nothing fails", async () => {
    const report = await runAlignment({
      workspace: repo.dir,
      configPath: "acceptance/none.yml",
      source: { kind: "git", base: repo.base, head: repo.head },
    });
    expect(report).toEqual({
      configured: false,
      source: "git diff main...feature",
      findings: [],
      openRfcs: [],
      clean: [],
      notes: [
        "acceptance/none.yml not found: the alignment review is not configured (see docs/alignment.md)",
      ],
      summary: "not configured",
    });
  });

  test("the fixture's additions are what the diff parser sees", async () => {
    const files = await gitDiffFiles(repo.dir, repo.base, repo.head);
    const py = files.find((f) => f.path === "tools/job.py")!;
    expect(py.added.map((a) => a.text)).toEqual(String(FEATURE_FILES["tools/job.py"]).trimEnd().split("\n"));
    expect(files.find((f) => f.path === "acceptance/fixtures/hardened/logo.png")).toMatchObject({
      binary: true,
      status: "added",
    });
    expect(files.find((f) => f.path === "src/engine/old.ts")).toMatchObject({ status: "removed", added: [] });
  });
});
