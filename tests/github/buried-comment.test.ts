// The sticky comment buried in the middle of a long thread, with no check run remembering its id
// (a run cancelled before it completed, a re-created check, a new workflow file): found by the
// bounded scan of the middle pages, newest first, and updated in place, never posted twice. Past
// the bound (deeper than the newest 1,000 comments) one new comment is posted and the next run
// finds that one: the thread gains one duplicate at most, never one per run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commentMarker, MIDDLE_PAGES, PER_PAGE } from "../../src/github/comment.js";
import { publishReport } from "../../src/github/publish.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { GitHubDouble } from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, prContext } from "./helpers.js";

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

const marker = commentMarker("docker-acceptance");
const report = () =>
  makeReport({ cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0" })] });
const others = (n: number) => {
  for (let i = 0; i < n; i++) double.seedComment(7, `comment ${i}`, i % 2 ? "alice" : "renovate[bot]");
};
const ours = () =>
  double.comments.filter((c) => c.login === "github-actions[bot]" && c.body.startsWith(marker));

/** One publication (no check run started, none remembering anything); its searching listings. */
async function publish() {
  const from = double.requests.length;
  const result = await publishReport(report(), {
    context: prContext({ action: "synchronize" }),
    client: clientFor(double),
    publishing: publishingOptions(),
  });
  const listings = double.requests
    .slice(from)
    .filter((r) => r.operationId === "issues/list-comments" && !r.query.since).length;
  return { result, listings, requests: double.requests.length - from };
}

describe("the sticky comment in the middle of a long thread, nothing remembering its id", () => {
  it("250 comments, ours at 125: found on page 2 and updated, in three listings", async () => {
    others(124);
    const id = double.seedComment(7, `${marker}\nan earlier report`, "github-actions[bot]");
    others(125);
    const { result, listings } = await publish();
    expect(result).toMatchObject({ comment: { outcome: "updated", id: id } });
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain("containment.user");
    expect(listings).toBe(3); // page 1, the last page (3), then page 2
  });

  it("anywhere in the newest 1,000 comments: found within the bound, inside the request budget", async () => {
    others(100); // page 1 is all others'
    const id = double.seedComment(7, `${marker}\nan earlier report`, "github-actions[bot]");
    others(PER_PAGE * (MIDDLE_PAGES + 1) - 2); // ours on page 2 of 10: the deepest the scan reads
    const { result, listings, requests } = await publish();
    expect(result).toMatchObject({ comment: { outcome: "updated", id: id } });
    expect(listings).toBe(2 + MIDDLE_PAGES);
    expect(requests).toBeLessThanOrEqual(40);
    expect(ours()).toHaveLength(1);
  });

  it("deeper than the bound: one new comment, which the next run finds; never one per run", async () => {
    others(150);
    double.seedComment(7, `${marker}\nan earlier report`, "github-actions[bot]");
    others(PER_PAGE * (MIDDLE_PAGES + 2));
    const first = await publish();
    expect(first.result.comment.outcome).toBe("created");
    expect(first.listings).toBe(2 + MIDDLE_PAGES);
    const second = await publish();
    expect(second.result).toMatchObject({ comment: { outcome: "updated", id: first.result.comment.id } });
    const third = await publish();
    expect(third.result).toMatchObject({ comment: { outcome: "updated", id: first.result.comment.id } });
    expect(ours()).toHaveLength(2);
  });
});
