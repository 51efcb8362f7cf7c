// Check run annotations in batches, oversized reports, tracking issues for scheduled runs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishReport } from "../../src/github/publish.js";
import { buildAnnotations } from "../../src/report/github.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { GitHubDouble } from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, HEAD2, prContext, scheduleContext } from "./helpers.js";

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

const failures = (n: number, extra: Partial<Parameters<typeof makeCase>[0]> = {}) =>
  Array.from({ length: n }, (_, i) =>
    makeCase({
      id: `containment.c${i}`,
      status: "fail",
      message: `bad ${i}`,
      location: { path: "Dockerfile", line: i + 1 },
      ...extra,
    }),
  );

describe("check run annotations", () => {
  it("75 annotations go out in two requests of at most 50, all landing on the check run", async () => {
    const report = makeReport({ cases: failures(75) });
    const result = await publishReport(report, {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ comment: "never" }),
    });
    const checkWrites = double.requests.filter((r) => r.operationId?.startsWith("checks/"));
    expect(checkWrites.map((r) => r.operationId)).toEqual(["checks/create", "checks/update"]);
    const sizes = checkWrites.map(
      (r) => (r.body as { output: { annotations: unknown[] } }).output.annotations.length,
    );
    expect(sizes).toEqual([50, 25]);
    const run = double.checkRuns[0]!;
    expect(run.output.annotations).toHaveLength(75);
    expect(run.output.annotations[74]).toMatchObject({
      path: "Dockerfile",
      start_line: 75,
      message: "bad 74",
    });
    expect(run.conclusion).toBe("failure");
    expect(result.requests).toBe(2);
  });

  it("point at the inventory line for a hash mismatch, and only at PR-added lines for lint", () => {
    const report = makeReport({
      artifacts: [{ path: "entry.sh", expected: "a".repeat(64), actual: "b".repeat(64), ok: false, line: 9 }],
      external: {
        lint: {
          findings: [
            { path: "app.py", line: 3, rule: "E501", message: "line too long", onAddedLine: true },
            { path: "old.py", line: 8, rule: "F401", message: "unused import", onAddedLine: false },
          ],
          files: ["ruff.sarif"],
        },
      },
      cases: [
        makeCase({
          id: "containment.user",
          status: "fail",
          severity: "warn",
          message: "m",
          location: { path: "/etc/passwd" },
        }),
      ],
    });
    expect(buildAnnotations(report)).toEqual([
      expect.objectContaining({
        path: "acceptance/inventory.json",
        start_line: 9,
        annotation_level: "failure",
        title: "Artifact hash mismatch",
      }),
      expect.objectContaining({
        path: "app.py",
        start_line: 3,
        annotation_level: "warning",
        title: "E501",
        message: "line too long",
      }),
    ]);
  });
});

describe("an oversized report", () => {
  it("degrades to fit and still posts both the comment and the check run", async () => {
    const log = `${"x".repeat(390)}\n`.repeat(2000);
    const report = makeReport({
      subjects: Array.from({ length: 6 }, (_, i) => ({
        name: `s${i}`,
        phases: [],
        logExcerpt: log,
        buildLog: log,
      })),
      cases: failures(300, { message: "🐳".repeat(300), remediation: "r".repeat(500) }).map((c, i) => ({
        ...c,
        subject: `s${i % 6}`,
      })),
    });
    const result = await publishReport(report, {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions(),
    });
    expect(result).toMatchObject({
      comment: { outcome: "created" },
      checkRun: { outcome: "completed" },
      errors: [],
    });
    const body = double.comments[0]!.body;
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toContain("Shortened to fit the 65,536-character PR comment limit");
    const out = double.checkRuns[0]!.output;
    expect(Buffer.byteLength(out.summary!)).toBeLessThanOrEqual(65_535);
    expect(Buffer.byteLength(out.text!)).toBeLessThanOrEqual(65_535);
    expect(out.summary).toContain("Shortened to fit the 65,535-byte check run summary limit");
  });
});

describe("scheduled runs with issue-on-failure", () => {
  it("opens a tracking issue on failure, updates it while failing, closes it with a comment when green", async () => {
    const failing = makeReport({ head: { sha: HEAD }, cases: failures(1) });
    const opts = (sha: string) => ({
      context: scheduleContext(sha),
      client: clientFor(double),
      publishing: publishingOptions({ issueOnFailure: true }),
    });

    const opened = await publishReport(failing, opts(HEAD));
    expect(opened).toMatchObject({
      issue: { outcome: "opened" },
      comment: { outcome: "not-applicable" },
      checkRun: { outcome: "completed" },
    });
    expect(double.issues.filter((i) => !i.pull)).toHaveLength(1);
    const issue = double.issues.find((i) => i.number === opened.issue.id)!;
    expect(issue).toMatchObject({
      state: "open",
      title: "docker-acceptance: acceptance run failing",
      login: "github-actions[bot]",
    });
    expect(double.checkRuns[0]).toMatchObject({ head_sha: HEAD, conclusion: "failure" });

    const stillFailing = makeReport({ head: { sha: HEAD2 }, cases: failures(2) });
    const updated = await publishReport(stillFailing, opts(HEAD2));
    expect(updated).toMatchObject({ issue: { outcome: "updated", id: opened.issue.id } });
    expect(issue.body).toContain("head `fedcba098765`");
    expect(double.issues.filter((i) => !i.pull)).toHaveLength(1);

    const green = await publishReport(makeReport({ head: { sha: HEAD2 } }), opts(HEAD2));
    expect(green).toMatchObject({ issue: { outcome: "closed", id: opened.issue.id } });
    expect(issue.state).toBe("closed");
    expect(double.comments.filter((c) => c.issue === issue.number).map((c) => c.body)).toEqual([
      "✅ Green again at `fedcba098765`. Closing.",
    ]);

    const stillGreen = await publishReport(makeReport(), opts(HEAD2));
    expect(stillGreen.issue.outcome).toBe("none");
  });

  it("without issue-on-failure a scheduled run posts only the check run", async () => {
    const result = await publishReport(makeReport({ cases: failures(1) }), {
      context: scheduleContext(),
      client: clientFor(double),
      publishing: publishingOptions(),
    });
    expect(result).toMatchObject({
      issue: { outcome: "not-applicable" },
      comment: { outcome: "not-applicable" },
      checkRun: { outcome: "completed" },
      requests: 1,
    });
  });
});
