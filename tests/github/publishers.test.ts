// The publishers as one list: each publish target is a module behind the Publisher interface, run
// in order by publishReport. The job summary is the first and needs no token, so a run that may
// not post (a fork's PR, no event context) still gets it; the remote ones hold requests for later.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishReport } from "../../src/github/publish.js";
import { PUBLISHERS } from "../../src/github/publishers/index.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { GitHubDouble } from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, prContext } from "./helpers.js";

const failing = () =>
  makeReport({
    head: { sha: HEAD },
    cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0", remediation: "add USER" })],
  });

// One file for the whole file: @actions/core remembers the summary's path on first use.
const summary = path.join(await mkdtemp(path.join(tmpdir(), "da-summary-")), "summary.md");
const saved = process.env.GITHUB_STEP_SUMMARY;
beforeEach(async () => {
  await writeFile(summary, "");
  process.env.GITHUB_STEP_SUMMARY = summary;
});
afterEach(() => {
  if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  else process.env.GITHUB_STEP_SUMMARY = saved;
});

describe("the list of publishers", () => {
  it("runs the job summary first, then the comment, the check run and the tracking issue", () => {
    expect(PUBLISHERS.map((p) => p.title)).toEqual(["job summary", "comment", "check run", "tracking issue"]);
    expect(PUBLISHERS.filter((p) => !p.remote).map((p) => p.title)).toEqual(["job summary"]);
  });

  it("writes the job summary when asked (its default), and only then", async () => {
    const report = failing();
    const quiet = await publishReport(report, {
      context: prContext({}, { readOnly: true }),
      publishing: publishingOptions({ jobSummary: false }),
    });
    expect(quiet.jobSummary.outcome).toBe("off");
    expect(await readFile(summary, "utf8")).toBe("");
    const r = await publishReport(report, {
      context: prContext({}, { readOnly: true }),
      publishing: publishingOptions({ jobSummary: true }),
    });
    expect(r.jobSummary.outcome).toBe("written");
    expect(await readFile(summary, "utf8")).toContain("docker-acceptance: FAIL");
  });

  it("writes the job summary on a fork's PR, where nothing may be posted, with no request", async () => {
    const r = await publishReport(failing(), {
      context: prContext({}, { readOnly: true }),
      token: "t",
      publishing: publishingOptions({ jobSummary: true }),
    });
    expect(r).toMatchObject({
      jobSummary: { outcome: "written" },
      comment: { outcome: "skipped" },
      checkRun: { outcome: "skipped" },
      requests: 0,
    });
    expect(r.notices.join(" ")).toMatch(/Pull request from a fork/);
  });

  it("without an event context writes the job summary alone and says nothing was published", async () => {
    const r = await publishReport(failing(), {
      token: "t",
      publishing: publishingOptions({ jobSummary: true }),
    });
    expect(r).toMatchObject({
      jobSummary: { outcome: "written" },
      comment: { outcome: "not-applicable" },
      checkRun: { outcome: "skipped" },
      requests: 0,
    });
    expect(r.notices).toEqual([
      "Not in a GitHub Actions event context (GITHUB_REPOSITORY unset): nothing published.",
    ]);
    expect(await readFile(summary, "utf8")).toContain("docker-acceptance: FAIL");
  });
});

describe("the remote publishers against the GitHub double", () => {
  let double: GitHubDouble;
  beforeEach(async () => {
    double = await new GitHubDouble().start();
    double.seedPull(7, { headSha: HEAD });
  });
  afterEach(async () => {
    await double.stop();
    expect(double.problems).toEqual([]);
  });

  it("posts the summary, the comment and the check run from one call", async () => {
    const r = await publishReport(failing(), {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ jobSummary: true }),
    });
    expect(r).toMatchObject({
      jobSummary: { outcome: "written" },
      comment: { outcome: "created" },
      checkRun: { outcome: "completed" },
      errors: [],
    });
    expect(await readFile(summary, "utf8")).toContain("docker-acceptance: FAIL");
  });
});
