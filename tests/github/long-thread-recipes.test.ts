// The one comment at any thread length, for the two publications that know no previous head: the
// fork recipe's phase 2 (workflow_run) and the command recipe's publish job (issue_comment). Both
// used to look for the remembered comment id only on the head being published, where nothing is
// yet: on a thread of more than 200 comments with ours buried, every push added another comment.
// Also a pull_request push right after a run that was cancelled before it commented.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishCommandRun } from "../../src/bot/step.js";
import { forkCheckName, publishBundle } from "../../src/commands/publish.js";
import { externalIdFor } from "../../src/github/check-run-gate.js";
import { commentMarker } from "../../src/github/comment.js";
import { publishReport, startCheckRun } from "../../src/github/publish.js";
import { writeBundle } from "../../src/report/bundle.js";
import type { Report } from "../../src/report/model.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { GitHubDouble } from "../double/github-double.js";
import { workflowRunEvent } from "../e2e/events.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, maintainerRun, prContext } from "./helpers.js";

const SHAS = ["1", "2", "3", "4"].map((d) => d.repeat(40));

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

const failing = (sha: string): Report =>
  makeReport({
    head: { sha },
    cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0" })],
  });

const seedOthers = (n: number) => {
  for (let i = 0; i < n; i++) double.seedComment(7, `comment ${i}`, i % 2 ? "alice" : "renovate[bot]");
};
const ours = (checkName: string) =>
  double.comments.filter(
    (c) => c.login === "github-actions[bot]" && c.body.startsWith(commentMarker(checkName)),
  );
/** Comment listings that search (the one after creating looks only at the last minutes). */
const findingListings = (from: number) =>
  double.requests.slice(from).filter((r) => r.operationId === "issues/list-comments" && !r.query.since)
    .length;

async function forkPhase2(sha: string) {
  const root = await mkdtemp(path.join(tmpdir(), "da-long-fork-"));
  const dir = path.join(root, "bundle");
  const report = failing(sha);
  await writeBundle(dir, report, { markdown: "report" });
  await writeFile(
    path.join(root, "event.json"),
    JSON.stringify({ prNumber: 7, headSha: sha, repository: "octo-org/app" }),
  );
  const eventPath = path.join(root, "workflow_run.json");
  await writeFile(eventPath, JSON.stringify(workflowRunEvent({ headSha: sha, headRepo: "stranger/app" })));
  const from = double.requests.length;
  const out = await publishBundle(dir, {
    env: {
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: "workflow_run",
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_RUN_ID: String(from),
    },
    client: clientFor(double),
  });
  expect(out.exitCode, out.messages.join("\n")).toBe(0);
  return { result: out.result!, finding: findingListings(from) };
}

async function commandPublish(sha: string) {
  const decision = maintainerRun(sha);
  const from = double.requests.length;
  const done = await publishCommandRun(failing(sha), decision, {
    client: clientFor(double),
    externalId: externalIdFor({ GITHUB_RUN_ID: String(from) }, "da-publish"),
  });
  return { result: done.published!, finding: findingListings(from) };
}

describe("a 3000-comment thread, ours buried by 150 newer comments between pushes", () => {
  it.each([
    ["the fork recipe's phase 2", forkPhase2, forkCheckName("docker-acceptance")],
    ["the command recipe's publish job", commandPublish, "docker-acceptance"],
  ] as const)("%s: one comment after three pushes, found in at most 2 listings", async (_, publish, name) => {
    double.seedPull(7, { headSha: SHAS[0]!, headRepo: "stranger/app", headRef: "feature" });
    seedOthers(3000);
    const first = await publish(SHAS[0]!);
    expect(first.result.comment.outcome).toBe("created");
    for (const sha of SHAS.slice(1)) {
      seedOthers(150);
      double.pushPull(7, sha);
      const next = await publish(sha);
      expect(next.result).toMatchObject({ comment: { outcome: "updated", id: first.result.comment.id } });
      expect(next.finding).toBeLessThanOrEqual(2);
    }
    expect(ours(name)).toHaveLength(1);
    expect(ours(name)[0]!.body).toContain(`head \`${SHAS[3]!.slice(0, 12)}\``);
  });
});

describe("a push right after a run cancelled before it commented", () => {
  it("finds the comment on an earlier commit of the pull request, not a second one", async () => {
    double.seedPull(7, { headSha: SHAS[0]! });
    seedOthers(3000);
    const client = clientFor(double);
    const run = async (sha: string, previousSha: string | undefined, publish: boolean) => {
      const ctx = prContext({ headSha: sha, action: "synchronize", previousSha });
      const externalId = externalIdFor({ GITHUB_RUN_ID: sha.slice(0, 4) }, "da-test");
      const start = await startCheckRun({ context: ctx, client, externalId });
      if (!publish) return undefined; // cancelled: its check run never remembers a comment
      return publishReport(failing(sha), {
        context: ctx,
        client,
        checkRunId: start.checkRunId,
        externalId,
        publishing: publishingOptions(),
      });
    };
    const first = await run(SHAS[0]!, HEAD, true);
    seedOthers(150);
    double.pushPull(7, SHAS[1]!);
    await run(SHAS[1]!, SHAS[0], false);
    double.pushPull(7, SHAS[2]!);
    const third = await run(SHAS[2]!, SHAS[1], true);
    expect(third).toMatchObject({ comment: { outcome: "updated", id: first!.comment.id } });
    expect(ours("docker-acceptance")).toHaveLength(1);
  });
});
