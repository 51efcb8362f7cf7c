// publishReport and startCheckRun against the OpenAPI-validated GitHub double: what a PR
// run posts, how many requests it needs, and what happens when GitHub says no.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitHubClient } from "../../src/github/client.js";
import { commentMarker } from "../../src/github/comment.js";
import { type PublishingOptions, publishReport, startCheckRun } from "../../src/github/publish.js";
import { publishingOptions } from "../../src/request/publishing.js";
import {
  FULL_TOKEN,
  GitHubDouble,
  NO_PR_WRITE_TOKEN,
  READ_ONLY_TOKEN,
  SECONDARY_RATE_LIMIT,
} from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, HEAD2, prContext } from "./helpers.js";

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
});
afterEach(async () => {
  await double.stop();
  // Any request the double could not match to GitHub's OpenAPI description fails the test.
  expect(double.problems).toEqual([]);
});

const failing = () =>
  makeReport({
    head: { sha: HEAD },
    cases: [
      makeCase({ id: "lifecycle.build", status: "pass" }),
      makeCase({
        id: "containment.user",
        status: "fail",
        message: "uid 0",
        remediation: "add USER 10001",
        location: { path: "Dockerfile", line: 4 },
      }),
    ],
  });

async function run(report = failing(), ctx = prContext(), token = FULL_TOKEN) {
  const client = clientFor(double, token);
  const start = await startCheckRun({ context: ctx, client });
  return publishReport(report, {
    context: ctx,
    client,
    checkRunId: start.checkRunId,
    publishing: publishingOptions(),
  });
}

describe("a typical PR run", () => {
  it("makes at most 4 requests and leaves one comment and one completed check run", async () => {
    const result = await run();
    expect(result.requests).toBeLessThanOrEqual(4);
    expect(double.requests).toHaveLength(result.requests);
    expect(double.comments).toHaveLength(1);
    const comment = double.comments[0]!;
    expect(comment.body.startsWith(commentMarker("docker-acceptance"))).toBe(true);
    expect(comment.body).toContain("head `1234567890ab`");
    expect(comment.login).toBe("github-actions[bot]");
    expect(double.checkRuns).toHaveLength(1);
    const check = double.checkRuns[0]!;
    expect(check).toMatchObject({
      head_sha: HEAD,
      status: "completed",
      conclusion: "failure",
      name: "docker-acceptance",
    });
    expect(check.output.title).toBe("FAIL: 1 failed, 1 passed, 0 skipped");
    expect(check.output.summary).toContain("### Tier 1: Fixes Required");
    expect(check.output.annotations).toEqual([
      expect.objectContaining({
        path: "Dockerfile",
        start_line: 4,
        annotation_level: "failure",
        title: "web containment.user",
      }),
    ]);
    expect(result).toMatchObject({
      comment: { outcome: "created", id: comment.id },
      checkRun: { outcome: "completed", id: check.id },
      errors: [],
    });
    // The check run was opened in_progress first, then completed.
    expect(double.requests[0]).toMatchObject({
      operationId: "checks/create",
      body: expect.objectContaining({ status: "in_progress" }),
    });
  });

  it("the next push updates the same comment in place, naming the new head SHA, in 4 requests", async () => {
    await run();
    const firstId = double.comments[0]!.id;
    double.requests.length = 0;
    const next = makeReport({ head: { sha: HEAD2 } });
    const result = await run(next, prContext({ headSha: HEAD2, action: "synchronize" }));
    expect(result.requests).toBeLessThanOrEqual(4);
    expect(result).toMatchObject({ comment: { outcome: "updated", id: firstId } });
    expect(double.comments).toHaveLength(1);
    expect(double.comments[0]!.body).toContain("head `fedcba098765`");
    expect(double.comments[0]!.body).toContain("✅ docker-acceptance: PASS");
    expect(double.ops()).toEqual([
      "checks/create 201",
      "issues/list-comments 200",
      "issues/update-comment 200",
      "checks/update 200",
    ]);
  });

  it("ignores a comment someone else wrote with our marker, and comments from other check names", async () => {
    const forged = double.seedComment(
      7,
      `${commentMarker("docker-acceptance")}\nI am not the bot`,
      "mallory",
    );
    const other = double.seedComment(7, `${commentMarker("other-check")}\nmine`, "github-actions[bot]");
    const result = await run(failing(), prContext({ action: "synchronize" }));
    expect(result.comment.outcome).toBe("created");
    expect(double.comments.map((c) => c.id)).toEqual([forged, other, result.comment.id]);
    expect(double.comments.find((c) => c.id === forged)!.body).toContain("I am not the bot");
  });

  it("with production write spacing (no test seam) the same run posts the same things", async () => {
    const client = createGitHubClient({ token: FULL_TOKEN, baseUrl: double.url });
    const ctx = prContext();
    const start = await startCheckRun({ context: ctx, client });
    const result = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      publishing: publishingOptions(),
    });
    expect(result).toMatchObject({
      comment: { outcome: "created" },
      checkRun: { outcome: "completed" },
      requests: 4,
    });
    expect(double.comments).toHaveLength(1);
  });
});

describe("two runs racing on one PR", () => {
  it("both find no comment, both create, exactly one remains", async () => {
    // Hold both initial listings until both have arrived: each sees an empty PR.
    double.barrier("issues/list-comments", 2);
    const ctx = prContext({ action: "synchronize" });
    const [a, b] = await Promise.all([
      publishReport(failing(), { context: ctx, client: clientFor(double), publishing: publishingOptions() }),
      publishReport(failing(), { context: ctx, client: clientFor(double), publishing: publishingOptions() }),
    ]);
    expect(double.comments).toHaveLength(1);
    expect(a.comment.id).toBe(double.comments[0]!.id);
    expect(b.comment.id).toBe(double.comments[0]!.id);
    expect(double.requests.filter((r) => r.operationId === "issues/create-comment")).toHaveLength(2);
    expect(double.requests.filter((r) => r.operationId === "issues/delete-comment")).toHaveLength(1);
  });

  it("two runs on a just-opened PR (no listing first) also leave exactly one", async () => {
    const ctx = prContext({ action: "opened" });
    await Promise.all([
      publishReport(failing(), { context: ctx, client: clientFor(double), publishing: publishingOptions() }),
      publishReport(failing(), { context: ctx, client: clientFor(double), publishing: publishingOptions() }),
    ]);
    expect(double.comments).toHaveLength(1);
  });
});

describe("fork pull requests and missing permissions", () => {
  it("on a fork's pull_request event posts nothing, writes event.json and says why", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "da-bundle-"));
    const ctx = prContext({ headRepo: "contributor/app" }, { readOnly: true });
    const client = clientFor(double, READ_ONLY_TOKEN);
    const start = await startCheckRun({ context: ctx, client });
    const result = await publishReport(failing(), {
      context: ctx,
      client,
      checkRunId: start.checkRunId,
      bundleDir: dir,
      publishing: publishingOptions(),
    });
    expect(double.requests).toHaveLength(0);
    expect(result).toMatchObject({
      comment: { outcome: "skipped" },
      checkRun: { outcome: "skipped" },
      requests: 0,
    });
    expect(result.notices.join("\n")).toMatch(
      /fork: this run's token is read-only.*workflow_run.*docker-acceptance publish/s,
    );
    expect(JSON.parse(await readFile(path.join(dir, "event.json"), "utf8"))).toEqual({
      prNumber: 7,
      headSha: HEAD,
      repository: "octo-org/app",
    });
  });

  it("a 403 names the missing permission, still completes the check run, and leaves the verdict alone", async () => {
    const report = failing();
    const before = JSON.stringify(report);
    const result = await run(report, prContext(), NO_PR_WRITE_TOKEN);
    expect(result.checkRun.outcome).toBe("completed");
    expect(result.comment.outcome).toBe("failed");
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.kind).toBe("permission");
    expect(result.errors[0]!.message).toMatch(
      /Could not post the PR comment: the token lacks `pull-requests: write`/,
    );
    expect(result.errors[0]!.message).toMatch(/Resource not accessible by integration/);
    expect(result.errors[0]!.message).not.toContain(NO_PR_WRITE_TOKEN);
    expect(JSON.stringify(report)).toBe(before);
  });

  it("a token without checks: write gets an error naming `checks: write` and the comment is still posted", async () => {
    double.identities.set("ghs_commentsOnly000000000000000000", {
      login: "github-actions[bot]",
      type: "Bot",
      write: ["pull_requests"],
    });
    const result = await run(failing(), prContext(), "ghs_commentsOnly000000000000000000");
    expect(result.comment.outcome).toBe("created");
    expect(result.checkRun.outcome).toBe("failed");
    expect(result.notices.join("\n")).toMatch(/the token lacks `checks: write`/);
  });
});

describe("GitHub failing", () => {
  it("a secondary rate limit is waited out and retried; the retry is counted", async () => {
    double.fail("issues/create-comment", SECONDARY_RATE_LIMIT);
    const result = await run();
    expect(result.comment.outcome).toBe("created");
    expect(double.comments).toHaveLength(1);
    expect(double.ops()).toContain("issues/create-comment 403");
    expect(result.requests).toBe(double.requests.length);
    expect(result.requests).toBe(5);
  });

  it("a 502 on completing the check run is retried", async () => {
    double.fail("checks/update", { status: 502 });
    const result = await run();
    expect(result.checkRun.outcome).toBe("completed");
    expect(double.checkRuns[0]!.status).toBe("completed");
  });

  it("a 404 (PR gone) and a 422 become errors, not exceptions", async () => {
    const gone = await publishReport(failing(), {
      context: prContext({ number: 99 }),
      client: clientFor(double),
      publishing: publishingOptions(),
    });
    expect(gone.comment.outcome).toBe("failed");
    expect(gone.errors[0]).toMatchObject({ kind: "not-found" });
    double.fail("checks/create", { status: 422, message: "Validation Failed" });
    const invalid = await publishReport(failing(), {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions(),
    });
    expect(invalid.checkRun.outcome).toBe("failed");
    expect(invalid.errors[0]).toMatchObject({ kind: "validation" });
    expect(invalid.comment.outcome).toBe("created");
  });
});

describe("comment modes", () => {
  it("on-failure: a green run creates nothing, but updates an existing comment", async () => {
    const green = makeReport({ head: { sha: HEAD } });
    const ctx = prContext({ action: "synchronize" });
    const first = await publishReport(green, {
      context: ctx,
      client: clientFor(double),
      publishing: publishingOptions({ comment: "on-failure" }),
    });
    expect(first.comment.outcome).toBe("skipped");
    expect(double.comments).toHaveLength(0);
    await publishReport(failing(), {
      context: ctx,
      client: clientFor(double),
      publishing: publishingOptions({ comment: "on-failure" }),
    });
    expect(double.comments).toHaveLength(1);
    const again = await publishReport(green, {
      context: ctx,
      client: clientFor(double),
      publishing: publishingOptions({ comment: "on-failure" }),
    });
    expect(again.comment.outcome).toBe("updated");
    expect(double.comments[0]!.body).toContain("PASS");
  });

  it("never: no comment requests at all", async () => {
    const result = await publishReport(failing(), {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ comment: "never" }),
    });
    expect(result.comment.outcome).toBe("skipped");
    expect(double.requests.map((r) => r.operationId)).toEqual(["checks/create"]);
  });
});

describe("comment-update and comment-on-pass", () => {
  const green = () => makeReport({ head: { sha: HEAD } });
  const ctx = prContext({ action: "synchronize" });
  const publish = (report: ReturnType<typeof makeReport>, extra: Partial<PublishingOptions> = {}) =>
    publishReport(report, { context: ctx, client: clientFor(double), publishing: publishingOptions(extra) });

  it("on-change: a re-run saying the same leaves the comment alone; a changed outcome updates it", async () => {
    const first = await publish(failing(), { commentUpdate: "on-change" });
    const before = double.comments[0]!.updatedAt;
    const same = await publish(failing(), { commentUpdate: "on-change" });
    expect(same).toMatchObject({ comment: { outcome: "unchanged", id: first.comment.id } });
    expect(double.requests.filter((r) => r.operationId === "issues/update-comment")).toHaveLength(0);
    expect(double.comments[0]!.updatedAt).toBe(before);
    const changed = await publish(green(), { commentUpdate: "on-change" });
    expect(changed.comment.outcome).toBe("updated");
    expect(double.comments[0]!.body).toContain("PASS");
  });

  it("keep: a passing run leaves the earlier failing comment as it was", async () => {
    await publish(failing());
    const body = double.comments[0]!.body;
    const r = await publish(green(), { commentOnPass: "keep" });
    expect(r.comment.outcome).toBe("kept");
    expect(double.comments[0]!.body).toBe(body);
  });

  it("delete: a passing run deletes the earlier failing comment and posts none", async () => {
    await publish(failing());
    const r = await publish(green(), { commentOnPass: "delete" });
    expect(r.comment.outcome).toBe("deleted");
    expect(double.comments).toHaveLength(0);
    const again = await publish(green(), { commentOnPass: "delete" });
    expect(again.comment.outcome).toBe("skipped");
    expect(double.comments).toHaveLength(0);
  });

  it("hide: a passing run minimizes the earlier failing comment (GraphQL, checked against GitHub's schema) and retires it", async () => {
    await publish(failing());
    const id = double.comments[0]!.id;
    const r = await publish(green(), { commentOnPass: "hide" });
    expect(r).toMatchObject({ comment: { outcome: "hidden", id: id } });
    expect(double.comments).toHaveLength(1);
    expect(double.comments[0]!.minimized).toBe("OUTDATED");
    expect(double.comments[0]!.body).toContain("FAIL"); // hidden as it was, not rewritten
    expect(double.ops().slice(-3)).toEqual([
      "issues/update-comment 200",
      "graphql/minimizeComment 200",
      "checks/create 201",
    ]);
    // A later failure is not buried in the hidden comment: it gets a fresh, visible one.
    const again = await publish(failing());
    expect(again.comment.outcome).toBe("created");
    expect(double.comments.filter((c) => !c.minimized)).toHaveLength(1);
  });

  it("update (the default): a passing run rewrites the failing comment to PASS", async () => {
    await publish(failing());
    const r = await publish(green());
    expect(r.comment.outcome).toBe("updated");
    expect(double.comments[0]!.body).toContain("PASS");
  });
});
