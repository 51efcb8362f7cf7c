// The attacks of issue #20, played by a malicious fork author against the OpenAPI-validated API
// double. Each test asserts the attacker's goal is NOT reached; docs/security.md lists them.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishCommandRun } from "../../src/bot/step.js";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { publish } from "../../src/commands/publish.js";
import { commentMarker } from "../../src/github/comment.js";
import { writeBundle } from "../../src/report/bundle.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/model.js";
import { workflowRunEvent } from "../e2e/events.js";
import { commandLine } from "../helpers/cli.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, forkPullDouble, HEAD, HEAD2, maintainerRun } from "./helpers.js";

const TRUSTED = "docker-acceptance";
const FORK = "docker-acceptance (fork, unverified)";
const BASE_SHA = "b".repeat(40);

const double = forkPullDouble();

/** A bundle as the fork's own phase 1 can make it: anything it likes, sealed with SHA256SUMS. */
async function forkBundle(
  report: Report,
  event: unknown = { prNumber: 7, headSha: HEAD, repository: "octo-org/app" },
) {
  const dir = await mkdtemp(path.join(tmpdir(), "da-attack-"));
  await writeBundle(dir, report, { markdown: renderMarkdown(report, { target: "file" }) });
  await writeFile(path.join(dir, "event.json"), JSON.stringify(event));
  return dir;
}

async function eventFile(payload: unknown): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "da-attack-ev-")), "event.json");
  await writeFile(file, JSON.stringify(payload));
  return file;
}

/** Phase 2 of the fork recipe, as fork-safe-publish.yml runs it. */
async function phase2(
  dir: string,
  o: { event?: string; run?: Parameters<typeof workflowRunEvent>[0]; args?: string[] } = {},
) {
  const err: string[] = [];
  const code = await publish(...commandLine("publish", [dir, ...(o.args ?? [])]), {
    env: {
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: o.event ?? "workflow_run",
      GITHUB_EVENT_PATH: await eventFile(
        workflowRunEvent(o.run ?? { headSha: HEAD, headRepo: "stranger/app" }),
      ),
    },
    client: clientFor(double()),
    out: () => {},
    err: (t) => err.push(t),
  });
  return { code, err: err.join("") };
}

const decision = maintainerRun();

/** The command recipe's publish job (maintainer-approved run). */
async function maintainerPublishes(report: Report) {
  return publishCommandRun(report, decision, { client: clientFor(double()) });
}

/** Seven fabricated passing cases, every field a fork would want. */
const forgedGreen = (over: Partial<Report> = {}) =>
  makeReport({
    head: { sha: HEAD },
    cases: CONTAINMENT_CASES.slice(0, 7).map((id) => makeCase({ id, status: "pass" })),
    ...over,
  });

const trustedRuns = () => double().checkRuns.filter((r) => r.name === TRUSTED);
const firstVisibleLine = (body: string) => body.split("\n").find((l) => l.trim() && !l.startsWith("<!--"))!;

describe("attack 1: a forged green result in the fork recipe", () => {
  it.each([
    ["seven fabricated passing cases", forgedGreen()],
    ["no cases at all", forgedGreen({ cases: [] })],
  ])(
    "%s: no success under any name, never the trusted check name, labelled in the first line",
    async (_, report) => {
      const r = await phase2(await forkBundle(report));
      expect(r.code).toBe(0);
      expect(double().checkRuns.map((c) => c.conclusion)).not.toContain("success");
      expect(trustedRuns()).toEqual([]);
      expect(double().checkRuns).toEqual([
        expect.objectContaining({ name: FORK, head_sha: HEAD, conclusion: "neutral" }),
      ]);
      expect(double().checkRuns[0]!.output.title).toMatch(/^UNVERIFIED \(fork's own workflow\)/);
      const body = double().comments[0]!.body;
      expect(body.startsWith(commentMarker(TRUSTED))).toBe(false);
      expect(firstVisibleLine(body)).toMatch(/^## ❔ Unverified, produced by the fork's own workflow/);
      expect(body).toContain("Never make this check required");
      expect(body).toContain("/acceptance run");
      expect(body).not.toContain("✅ PASS");
    },
  );
});

describe("attack 2: the forgery overwrites a maintainer-approved result", () => {
  it("the maintainer's FAIL comment and failing check run stand; the fork's result sits beside them", async () => {
    const fail = makeReport({
      head: { sha: HEAD },
      verdict: "fail",
      cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0" })],
    });
    await maintainerPublishes(fail);
    const trustedComment = double().comments.find((c) => c.body.startsWith(commentMarker(TRUSTED)))!;
    const trustedBody = trustedComment.body;
    expect(trustedBody).toMatch(/docker-acceptance: FAIL/);

    // The fork closes and reopens its PR; phase 1 uploads a forged PASS; phase 2 publishes it.
    const r = await phase2(await forkBundle(forgedGreen()));
    expect(r.code).toBe(0);
    expect(double().comments.find((c) => c.id === trustedComment.id)!.body).toBe(trustedBody);
    expect(trustedRuns().map((c) => c.conclusion)).toEqual(["failure"]);
    expect(double().checkRuns.filter((c) => c.conclusion === "success")).toEqual([]);
    expect(double().comments).toHaveLength(2);
  });
});

describe("attack 4: the command recipe's publish job trusts the bundle's verdict field", () => {
  it("seven failing cases claiming `verdict: pass` are published as FAIL", async () => {
    const forged = makeReport({
      head: { sha: HEAD },
      verdict: "pass",
      cases: CONTAINMENT_CASES.slice(0, 7).map((id) => makeCase({ id, status: "fail" })),
    });
    const done = await maintainerPublishes(forged);
    expect(done.report?.verdict).toBe("fail");
    expect(trustedRuns()).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(trustedRuns()[0]!.output.title).toBe("FAIL: 7 failed, 0 passed, 0 skipped");
    expect(done.reaction).toBe("confused");
  });

  it("a bundle without a head SHA is a mismatch: error, not the pinned commit's result", async () => {
    const done = await maintainerPublishes(forgedGreen({ head: {} }));
    expect(done.report?.verdict).toBe("error");
    expect(done.report?.errors.map((e) => e.kind)).toEqual(["head-mismatch"]);
    expect(trustedRuns().map((c) => c.conclusion)).toEqual(["failure"]);
    expect(double().comments[0]!.body).toContain("names no head commit");
  });

  it("the fork recipe treats a missing head the same way", async () => {
    const r = await phase2(await forkBundle(forgedGreen({ head: {} })));
    expect(r.code).toBe(0);
    expect(double().checkRuns).toEqual([expect.objectContaining({ name: FORK, conclusion: "failure" })]);
    expect(double().comments[0]!.body).toMatch(/ERROR/);
  });
});

describe("attack 6: the fork comment shows the bundle's claimed head", () => {
  it("the head shown is the triggering run's; the claim (base commit + fake stale banner) is an error", async () => {
    const r = await phase2(await forkBundle(forgedGreen({ head: { sha: BASE_SHA, movedTo: HEAD2 } })));
    expect(r.code).toBe(0);
    const body = double().comments[0]!.body;
    expect(body).toContain(`head \`${HEAD.slice(0, 12)}\``);
    expect(body).not.toContain(`head \`${BASE_SHA.slice(0, 12)}\``);
    expect(body).not.toMatch(/Stale: the pull request's head moved/);
    // The claim is named, never shown as fact, and (untrusted text) never as a live commit link.
    expect(body).toMatch(
      /claims it tested commit b{6}\u200db{34}, but the workflow\\_run that produced it names/,
    );
    expect(double().checkRuns).toEqual([
      expect.objectContaining({ name: FORK, head_sha: HEAD, conclusion: "failure" }),
    ]);
  });
});

describe("attack 7: publish outside workflow_run, and PRs matched by head SHA only", () => {
  it("`publish` on a push (or any non-workflow_run) event refuses and posts nothing", async () => {
    for (const event of ["push", "pull_request_target", ""]) {
      const r = await phase2(await forkBundle(forgedGreen()), { event });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/not workflow_run: there is no triggering run .*refusing/);
    }
    expect(double().requests).toEqual([]);
  });

  it("told explicitly (--allow-outside-workflow-run) it publishes, still unverified and never success", async () => {
    const r = await phase2(await forkBundle(forgedGreen()), {
      event: "push",
      args: ["--allow-outside-workflow-run"],
    });
    expect(r.code).toBe(0);
    expect(double().checkRuns).toEqual([expect.objectContaining({ name: FORK, conclusion: "neutral" })]);
  });

  it("told explicitly, it still posts only on the PR's current head (never on, say, the base branch's commit)", async () => {
    const r = await phase2(
      await forkBundle(forgedGreen({ head: { sha: BASE_SHA } }), {
        prNumber: 7,
        headSha: BASE_SHA,
        repository: "octo-org/app",
      }),
      { event: "push", args: ["--allow-outside-workflow-run"] },
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain("no workflow_run vouches for the other; refusing");
    expect(double().checkRuns).toEqual([]);
    expect(double().comments).toEqual([]);
  });

  it("event.json naming a PR whose head has the same SHA but another repository or branch is refused", async () => {
    // The victim's PR carries the same commit (the attacker forked its branch).
    double().seedPull(9, { headSha: HEAD, headRepo: "victim/app", headRef: "fix" });
    const toVictim = { prNumber: 9, headSha: HEAD, repository: "octo-org/app" };
    const otherRepo = await phase2(await forkBundle(forgedGreen(), toVictim));
    expect(otherRepo.code).toBe(1);
    expect(otherRepo.err).toContain(
      "comes from victim/app:fix, but the workflow_run ran on stranger/app:feature",
    );
    double().seedPull(10, { headSha: HEAD, headRepo: "stranger/app", headRef: "other-branch" });
    const otherBranch = await phase2(await forkBundle(forgedGreen(), { ...toVictim, prNumber: 10 }));
    expect(otherBranch.code).toBe(1);
    expect(double().comments).toEqual([]);
    expect(double().checkRuns).toEqual([]);
  });

  it("a workflow_run payload without head repository or branch vouches for nothing", async () => {
    const err: string[] = [];
    const code = await publish(...commandLine("publish", [await forkBundle(forgedGreen())]), {
      env: {
        GITHUB_REPOSITORY: "octo-org/app",
        GITHUB_EVENT_NAME: "workflow_run",
        GITHUB_EVENT_PATH: await eventFile({ workflow_run: { head_sha: HEAD } }),
      },
      client: clientFor(double()),
      out: () => {},
      err: (t) => err.push(t),
    });
    expect(code).toBe(1);
    expect(err.join("")).toMatch(/names no head_sha, head_repository or head_branch; refusing/);
    expect(double().requests).toEqual([]);
  });
});

describe("attack 5: live links and references through untrusted text", async () => {
  const { marked } = await import("marked");
  const evil =
    "`[Sign in](https://evil.example/login)` www.evil.example https://evil.example/x #6 o/r#5 GH-7 deadbeefcafe1234";

  it("a backtick span, bare URLs, www., issue and commit references in a PR's names reach the comment dead", async () => {
    const report = makeReport({
      head: { sha: HEAD },
      verdict: "fail",
      cases: [
        makeCase({ id: "containment.user", status: "fail", message: evil, remediation: evil }),
        makeCase({ id: "lifecycle.build", status: "error", subject: "web", message: evil }),
      ],
      errors: [{ kind: "x", message: evil }],
    });
    await maintainerPublishes(report);
    const body = double().comments[0]!.body;
    const html = await marked.parse(body, { gfm: true });
    // marked implements GFM's links and autolinks: no anchor may point anywhere the text chose.
    expect(html).not.toMatch(/<a [^>]*href="[^"]*evil/);
    expect(html).not.toMatch(/<a [^>]*href="(https?:|mailto:)?\/*www\.evil/);
    expect(html.match(/<a /g) ?? []).toEqual([]);
    // GitHub's own reference links: none survives as typed.
    expect(body).not.toMatch(/(^|[^\u200d])#6|o\/r#5|GH-7|deadbeefcafe1234/);
    expect(body).toContain("#\u200d6");
    expect(body).toContain("deadbe\u200defcafe1234");
    // The code span is still shown as code.
    expect(body).toContain("<code>&#91;Sign in&#93;&#40;https:\u200d//evil.example/login&#41;</code>");
  });
});
