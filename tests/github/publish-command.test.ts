// `docker-acceptance publish BUNDLE_DIR`, the fork-safe second phase, against the GitHub double
// with a real bundle written by writeBundle.
import { appendFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publish } from "../../src/commands/publish.js";
import { writeBundle } from "../../src/report/bundle.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/model.js";
import { GitHubDouble } from "../double/github-double.js";
import { commandLine } from "../helpers/cli.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, HEAD2 } from "./helpers.js";

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD, headRepo: "contributor/app" });
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

async function bundle(
  report: Report,
  event: unknown = { prNumber: 7, headSha: HEAD, repository: "octo-org/app" },
) {
  const dir = await mkdtemp(path.join(tmpdir(), "da-fork-bundle-"));
  await writeBundle(dir, report, { markdown: renderMarkdown(report, { target: "file" }) });
  await writeFile(path.join(dir, "event.json"), JSON.stringify(event));
  return dir;
}

async function workflowRunEvent(headSha: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "da-wr-")), "event.json");
  await writeFile(
    file,
    JSON.stringify({
      workflow_run: {
        head_sha: headSha,
        head_branch: "feature",
        head_repository: { full_name: "contributor/app" },
        html_url: "https://github.com/octo-org/app/actions/runs/5",
      },
    }),
  );
  return file;
}

async function run(dir: string, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await publish(...commandLine("publish", [dir]), {
    env: {
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: "workflow_run",
      GITHUB_EVENT_PATH: await workflowRunEvent(HEAD),
      ...env,
    },
    client: clientFor(double),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  return { code, out: out.join(""), err: err.join("") };
}

const failing = () =>
  makeReport({
    head: { sha: HEAD },
    cases: [
      makeCase({
        id: "containment.user",
        status: "fail",
        message: "uid 0 <img src=x onerror=alert(1)> @org/team",
      }),
    ],
  });

describe("publish BUNDLE_DIR", () => {
  it("verifies the bundle, checks the PR's head, and posts the comment and check run on that SHA", async () => {
    const r = await run(await bundle(failing()));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^published: comment created \(#\d+\), check run completed \(#\d+\), 5 GitHub API request\(s\)/,
    );
    expect(double.ops()).toEqual([
      "pulls/get 200",
      "issues/list-comments 200",
      "issues/create-comment 201",
      "issues/list-comments 200",
      "checks/create 201",
    ]);
    expect(double.checkRuns[0]).toMatchObject({
      name: "docker-acceptance (fork, unverified)",
      head_sha: HEAD,
      conclusion: "failure",
      details_url: "https://github.com/octo-org/app/actions/runs/5",
    });
    const body = double.comments[0]!.body;
    expect(body).not.toMatch(/<img|@org/);
  });

  it("recomputes the verdict: a bundle claiming PASS over a failing case is published as FAIL", async () => {
    const forged = { ...failing(), verdict: "pass" as const };
    const r = await run(await bundle(forged));
    expect(r.code).toBe(0);
    expect(r.err).toContain("report.json says pass but its cases give fail; publishing fail");
    expect(double.checkRuns[0]!.conclusion).toBe("failure");
  });

  it("refuses a tampered bundle and posts nothing", async () => {
    const dir = await bundle(failing());
    await appendFile(path.join(dir, "report.json"), " ");
    const r = await run(dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bundle does NOT verify: report\.json: sha256 is/);
    expect(double.requests).toHaveLength(0);
  });

  it("posts only the check run when the PR has moved on to a newer head", async () => {
    double.issues.find((i) => i.number === 7)!.pull!.headSha = HEAD2;
    const r = await run(await bundle(failing()));
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      "has moved on to fedcba098765; posting the check run on 1234567890ab only, no comment",
    );
    expect(double.comments).toHaveLength(0);
    expect(double.checkRuns[0]!.head_sha).toBe(HEAD);
  });

  it("refuses an event.json whose head SHA is not the triggering run's, or whose repository is another", async () => {
    const wrongRun = await run(await bundle(failing()), { GITHUB_EVENT_PATH: await workflowRunEvent(HEAD2) });
    expect(wrongRun.code).toBe(1);
    expect(wrongRun.err).toContain(
      `says head ${HEAD}, but the workflow_run that produced it ran on ${HEAD2}; refusing`,
    );
    const otherRepo = await run(
      await bundle(failing(), { prNumber: 7, headSha: HEAD, repository: "evil/app" }),
    );
    expect(otherRepo.code).toBe(1);
    expect(double.requests).toHaveLength(0);
  });

  it("finds event.json beside the bundle, where the action writes it (SHA256SUMS covers only the bundle)", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "da-fork-run-"));
    const dir = path.join(parent, "bundle");
    const report = failing();
    await writeBundle(dir, report, { markdown: renderMarkdown(report, { target: "file" }) });
    await writeFile(
      path.join(parent, "event.json"),
      JSON.stringify({ prNumber: 7, headSha: HEAD, repository: "octo-org/app" }),
    );
    const r = await run(dir);
    expect(r.code).toBe(0);
    expect(double.comments).toHaveLength(1);
  });

  it("a malformed event.json is a configuration error naming the file and field", async () => {
    const dir = await bundle(failing(), {
      prNumber: "7; rm -rf /",
      headSha: "HEAD",
      repository: "octo-org/app",
    });
    await expect(run(dir)).rejects.toThrow(
      /event\.json: prNumber: .*\n.*event\.json: headSha: .*40-character/,
    );
  });
});
