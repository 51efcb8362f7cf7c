// Publishing that holds on long threads and flaky APIs, against the OpenAPI-validated double:
// the one comment on a 3000-comment thread, check runs that a lost answer cannot duplicate,
// the request budget's priorities, and read-only tokens (Dependabot).
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { externalIdFor } from "../../src/github/check-run-gate.js";
import { completeLeftInProgress } from "../../src/github/checks.js";
import { createGitHubClient, toPublishError } from "../../src/github/client.js";
import { commentMarker, MIDDLE_PAGES } from "../../src/github/comment.js";
import { readEventContext } from "../../src/github/context.js";
import { type PublishingOptions, publishReport, startCheckRun } from "../../src/github/publish.js";
import type { Logger } from "../../src/log.js";
import type { Report } from "../../src/report/model.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { FULL_TOKEN, GitHubDouble, READ_ONLY_TOKEN } from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, HEAD2, prContext } from "./helpers.js";

const HEAD3 = "0123456789abcdef0123456789abcdef01234567";

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

const failing = (sha = HEAD) =>
  makeReport({
    head: { sha },
    cases: [
      makeCase({ id: "lifecycle.build", status: "pass" }),
      makeCase({
        id: "containment.user",
        status: "fail",
        message: "uid 0",
        location: { path: "Dockerfile", line: 4 },
      }),
    ],
  });

function seedOthers(n: number): void {
  for (let i = 0; i < n; i++) double.seedComment(7, `comment ${i}`, i % 2 ? "alice" : "renovate[bot]");
}

/** One action run: start the check run, then publish, as main does; counts its comment listings. */
async function actionRun(
  report: Report,
  ctx = prContext(),
  extra: Partial<PublishingOptions> = {},
  client = clientFor(double),
) {
  const first = double.requests.length;
  const externalId = externalIdFor({ GITHUB_RUN_ID: String(first), GITHUB_RUN_ATTEMPT: "1" }, "da-test");
  const start = await startCheckRun({ context: ctx, client, externalId });
  const result = await publishReport(report, {
    context: ctx,
    client,
    checkRunId: start.checkRunId,
    externalId,
    publishing: publishingOptions(extra),
  });
  const mine = double.requests.slice(first);
  const listings = mine.filter((r) => r.operationId === "issues/list-comments");
  return {
    result,
    // Listings that search for the comment (the one after creating looks only at the last minutes).
    finding: listings.filter((r) => !r.query.since).length,
    requests: mine.length,
  };
}

const ours = () =>
  double.comments.filter(
    (c) => c.login === "github-actions[bot]" && c.body.startsWith(commentMarker("docker-acceptance")),
  );

describe("the one comment on a 3000-comment thread", () => {
  it("three runs, ours buried by 150 newer comments between runs: one comment, at most 2 listings to find it", async () => {
    seedOthers(3000);
    const r1 = await actionRun(failing(), prContext({ action: "synchronize" }));
    expect(r1.result.comment.outcome).toBe("created");
    // Nothing remembers a comment: before creating one, the bounded scan of the middle pages.
    expect(r1.finding).toBe(2 + MIDDLE_PAGES);
    const id = r1.result.comment.id!;

    seedOthers(150); // ours is now on page 31 of 32: neither the oldest nor the newest page
    const r2 = await actionRun(
      failing(HEAD2),
      prContext({ headSha: HEAD2, action: "synchronize", previousSha: HEAD }),
    );
    expect(r2.result).toMatchObject({ comment: { outcome: "updated", id: id } });
    expect(r2.finding).toBeLessThanOrEqual(2);

    seedOthers(150);
    const r3 = await actionRun(
      failing(HEAD3),
      prContext({ headSha: HEAD3, action: "synchronize", previousSha: HEAD2 }),
    );
    expect(r3.result).toMatchObject({ comment: { outcome: "updated", id: id } });
    expect(r3.finding).toBeLessThanOrEqual(2);

    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain("head `0123456789ab`");
    expect(double.comments).toHaveLength(3301);
    // Each run stays inside the 40-request budget (the first run's re-list after creating
    // also reads the last page: here all 3000 comments are of the last ten minutes).
    expect(r1.requests).toBeLessThanOrEqual(9 + MIDDLE_PAGES);
    for (const r of [r2, r3]) expect(r.requests).toBeLessThanOrEqual(8);
  });

  it("an early comment on what became a 3000-comment thread is found on the first page, in one listing", async () => {
    const r1 = await actionRun(failing(), prContext({ action: "synchronize" }));
    seedOthers(3000);
    const r2 = await actionRun(failing(HEAD2), prContext({ headSha: HEAD2, action: "reopened" }));
    expect(r2.result).toMatchObject({ comment: { outcome: "updated", id: r1.result.comment.id } });
    expect(r2.finding).toBe(1);
    expect(ours()).toHaveLength(1);
  });

  it("ours among the newest comments is found on the last page (Link rel=last), in two listings", async () => {
    seedOthers(640);
    const r1 = await actionRun(failing(), prContext({ action: "synchronize" }));
    seedOthers(10);
    const r2 = await actionRun(failing(), prContext({ action: "edited" }));
    expect(r2.result).toMatchObject({ comment: { outcome: "updated", id: r1.result.comment.id } });
    expect(r2.finding).toBe(2);
    const pages = double.requests
      .filter((r) => r.operationId === "issues/list-comments")
      .map((r) => r.query.page);
    expect(pages.slice(-2)).toEqual(["1", "7"]);
    expect(ours()).toHaveLength(1);
  });

  it("a retried create that GitHub had applied is withdrawn on a thread with more than 100 comments of the last ten minutes too", async () => {
    // The re-list after creating asks for comments updated since ten minutes before: a busy
    // thread fills more than its first page, and ours are the newest.
    seedOthers(3000);
    double.fail("issues/create-comment", { status: 502, afterApply: true });
    const r = await actionRun(failing(), prContext({ action: "synchronize" }));
    expect(ours()).toHaveLength(1);
    expect(r.result.comment.id).toBe(ours()[0]!.id);
  });

  it("a retried create that GitHub had applied is withdrawn and described as a retry, not another run", async () => {
    double.fail("issues/create-comment", { status: 502, afterApply: true });
    const r = await actionRun(failing(), prContext({ action: "synchronize" }));
    expect(ours()).toHaveLength(1);
    expect(r.result.comment.id).toBe(ours()[0]!.id);
    const said = r.result.notices.join("\n");
    expect(said).toMatch(/retried request had already created the comment/);
    expect(said).not.toMatch(/Another run commented concurrently/);
  });
});

describe("idempotent check runs", () => {
  it("a 502 after GitHub applied the create: one check run, found by external_id, completed", async () => {
    double.fail("checks/create", { status: 502, afterApply: true });
    const r = await actionRun(failing());
    expect(double.checkRuns).toHaveLength(1);
    expect(double.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(r.result).toMatchObject({ checkRun: { outcome: "completed", id: double.checkRuns[0]!.id } });
    expect(double.ops().slice(0, 2)).toEqual(["checks/create 502", "checks/list-for-ref 200"]);
  });

  it("a 502 before anything was applied: looked up, not found, created once", async () => {
    double.fail("checks/create", { status: 502 });
    await actionRun(failing());
    expect(double.checkRuns).toHaveLength(1);
    expect(double.checkRuns[0]!.status).toBe("completed");
  });

  it("the post step completes this run's check runs still in progress, and no one else's", async () => {
    const client = clientFor(double);
    const ctx = prContext();
    const mine = externalIdFor({ GITHUB_RUN_ID: "5", GITHUB_RUN_ATTEMPT: "2" }, "da-mine");
    const theirs = externalIdFor({ GITHUB_RUN_ID: "6", GITHUB_RUN_ATTEMPT: "1" }, "da-theirs");
    await startCheckRun({ context: ctx, client, externalId: mine });
    await startCheckRun({ context: ctx, client, externalId: theirs });
    const n = await completeLeftInProgress(
      client,
      { owner: "octo-org", repo: "app", headSha: HEAD, name: "docker-acceptance", externalId: mine },
      "main ended",
    );
    expect(n).toBe(1);
    expect(double.checkRuns.map((r) => [r.external_id, r.status, r.conclusion])).toEqual([
      [mine, "completed", "cancelled"],
      [theirs, "in_progress", null],
    ]);
  });
});

describe("priorities within the request budget", () => {
  const flooded = () =>
    makeReport({
      head: { sha: HEAD },
      external: {
        lint: {
          files: ["lint.sarif"],
          findings: Array.from({ length: 1000 }, (_, i) => ({
            path: "src/a.ts",
            line: i + 1,
            rule: "no-unused",
            message: `finding ${i}`,
            onAddedLine: true,
          })),
        },
      },
      cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0" })],
    });

  it("1000 annotations, a 3000-comment thread and retries: the comment and the conclusion are posted; what was dropped is said", async () => {
    seedOthers(3000);
    double.fail("checks/create", { status: 502, times: 2 });
    double.fail("issues/list-comments", { status: 502, times: 2 });
    double.fail("issues/create-comment", { status: 503, times: 2 });
    // A budget of 20 stands for a tighter run: the same faults eat a larger share of it.
    const client = createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: double.url,
      retryAfterBaseMs: 5,
      spaceWrites: false,
      maxRequests: 20,
    });
    const r = await actionRun(flooded(), prContext({ action: "synchronize" }), {}, client);
    expect(r.requests).toBeLessThanOrEqual(20);
    expect(r.result).toMatchObject({ comment: { outcome: "created" }, checkRun: { outcome: "completed" } });
    expect(ours()).toHaveLength(1);
    const run = double.checkRuns[0]!;
    expect(run).toMatchObject({ status: "completed", conclusion: "failure" });
    const sent = run.output.annotations.length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(1000);
    const said = new RegExp(`Annotations not sent: ${1000 - sent} for lack of GitHub requests`);
    expect(run.output.summary).toMatch(said);
    expect(r.result.notices.join("\n")).toMatch(said);
  });

  it("max-annotations caps what is sent and says so", async () => {
    const r = await actionRun(flooded(), prContext(), { maxAnnotations: 60 });
    expect(double.checkRuns[0]!.output.annotations).toHaveLength(60);
    expect(double.checkRuns[0]!.output.summary).toMatch(
      /Annotations not sent: 940 beyond the limit of 60 \(input max-annotations\)/,
    );
    // start, create the comment, the race check, complete (50), one more batch (10)
    expect(r.requests).toBe(5);
  });

  it("with a budget of 6, listing that would eat the conclusion's share is refused, and the conclusion is posted", async () => {
    seedOthers(3000);
    const client = createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: double.url,
      retryAfterBaseMs: 5,
      spaceWrites: false,
      maxRequests: 6,
    });
    double.fail("issues/list-comments", { status: 502, times: 10 });
    const ctx = prContext({ action: "synchronize" });
    const start = await startCheckRun({ context: ctx, client });
    const result = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      publishing: publishingOptions(),
    });
    expect(result.comment.outcome).toBe("failed");
    expect(result.checkRun.outcome).toBe("completed");
    expect(double.checkRuns[0]!.status).toBe("completed");
    expect(result.errors[0]!.message).toMatch(/kept for the check run's conclusion/);
  });
});

describe("rough edges", () => {
  it("the permission fix reads as one line, without a literal \\n", () => {
    const e = toPublishError(
      { status: 403, message: "Resource not accessible by integration" },
      "checks: write",
      "create the check run",
    );
    expect(e.message).toContain("Fix: add `checks: write` under `permissions:` in the workflow job");
    expect(e.message).not.toContain("\\n");
  });

  it("one missing permission: one error, the check run not asked for twice", async () => {
    double.identities.set("ghs_commentsOnly000000000000000000", {
      login: "github-actions[bot]",
      type: "Bot",
      write: ["pull_requests"],
    });
    const client = clientFor(double, "ghs_commentsOnly000000000000000000");
    const ctx = prContext();
    const start = await startCheckRun({ context: ctx, client });
    expect(start.notices).toEqual([]);
    const r = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      startError: start.error,
      publishing: publishingOptions(),
    });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(/lacks `checks: write`/);
    expect(double.requests.filter((q) => q.operationId?.startsWith("checks/"))).toHaveLength(1);
    expect(r.comment.outcome).toBe("created");
  });

  it("a rate limit asking for 600 s is not announced as a retry: it says it gives up", async () => {
    const said: string[] = [];
    const log: Logger = { info: () => {}, warn: (m) => said.push(m), error: () => {}, group: (_t, f) => f() };
    const client = createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: double.url,
      retryAfterBaseMs: 5,
      spaceWrites: false,
      log,
    });
    double.fail("issues/create-comment", {
      status: 403,
      message: "You have exceeded a secondary rate limit.",
      headers: { "retry-after": "600" },
    });
    const r = await publishReport(failing(), {
      context: prContext(),
      client,
      publishing: publishingOptions(),
    });
    expect(r.comment.outcome).toBe("failed");
    expect(said.join("\n")).toMatch(/giving up: GitHub asks to wait 600s, longer than the 120s we wait/);
    expect(said.join("\n")).not.toMatch(/retry 1/);
  });
});

describe("read-only tokens: Dependabot like forks", () => {
  async function eventFile(payload: unknown): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "da-event-"));
    await writeFile(path.join(dir, "event.json"), JSON.stringify(payload));
    return path.join(dir, "event.json");
  }
  const dependabotPr = {
    action: "synchronize",
    before: "c".repeat(40),
    sender: { login: "dependabot[bot]" },
    pull_request: {
      number: 7,
      user: { login: "dependabot[bot]" },
      head: { sha: HEAD, repo: { full_name: "octo-org/app" } },
      base: { sha: "b".repeat(40), repo: { full_name: "octo-org/app" } },
    },
  };

  it("a Dependabot pull_request is read-only: nothing posted, event.json kept for the workflow_run phase", async () => {
    const ctx = readEventContext({
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_ACTOR: "dependabot[bot]",
      GITHUB_EVENT_PATH: await eventFile(dependabotPr),
    });
    expect(ctx).toMatchObject({
      readOnly: true,
      readOnlyReason: "dependabot",
      pr: { previousSha: "c".repeat(40) },
    });
    const dir = await mkdtemp(path.join(tmpdir(), "da-bundle-"));
    const client = clientFor(double, READ_ONLY_TOKEN);
    const start = await startCheckRun({ context: ctx, client });
    const r = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      bundleDir: dir,
      publishing: publishingOptions(),
    });
    expect(double.requests).toHaveLength(0);
    expect(r).toMatchObject({ comment: { outcome: "skipped" }, checkRun: { outcome: "skipped" } });
    expect(r.notices.join("\n")).toMatch(
      /Pull request by Dependabot: this run's token is read-only.*docker-acceptance publish/s,
    );
  });

  it("a Dependabot push (no pull request): nothing posted, no request made, and the notice says why", async () => {
    const ctx = readEventContext({
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: "push",
      GITHUB_ACTOR: "dependabot[bot]",
      GITHUB_SHA: HEAD,
      GITHUB_EVENT_PATH: await eventFile({ ref: "refs/heads/dependabot/npm/x" }),
    });
    const client = clientFor(double, READ_ONLY_TOKEN);
    const start = await startCheckRun({ context: ctx, client });
    const r = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      publishing: publishingOptions({ issueOnFailure: true }),
    });
    expect(double.requests).toHaveLength(0);
    expect(r.notices.join("\n")).toMatch(/triggered by Dependabot: this run's token is read-only/);
  });

  it("Dependabot's push and pull_request_target are read-only too; a human's same-repo PR and workflow_run are not", async () => {
    const file = await eventFile(dependabotPr);
    const base = { GITHUB_REPOSITORY: "octo-org/app", GITHUB_EVENT_PATH: file, GITHUB_SHA: HEAD };
    for (const event of ["push", "pull_request_target"]) {
      expect(
        readEventContext({ ...base, GITHUB_EVENT_NAME: event, GITHUB_ACTOR: "dependabot[bot]" })
          .readOnlyReason,
      ).toBe("dependabot");
    }
    const human = await eventFile({ ...dependabotPr, sender: { login: "alice" } });
    expect(
      readEventContext({
        ...base,
        GITHUB_EVENT_PATH: human,
        GITHUB_EVENT_NAME: "pull_request",
        GITHUB_ACTOR: "alice",
      }).readOnly,
    ).toBe(false);
    expect(
      readEventContext({ ...base, GITHUB_EVENT_NAME: "workflow_run", GITHUB_ACTOR: "dependabot[bot]" })
        .readOnly,
    ).toBe(false);
  });
});
