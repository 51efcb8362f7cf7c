// The bot against the OpenAPI-validated GitHub double, driven by issue_comment payloads that
// validate against GitHub's webhook schema. What a PR participant would see: replies, reactions,
// the report comment; and what they must not cause: runs, requests, replies to bots.
import { describe, expect, it } from "vitest";
import {
  applyPinnedHead,
  commandOutputs,
  finishCommand,
  handleIssueComment,
  isHeadStale,
  parseCommands,
  parseRunDecision,
  publishCommandRun,
  type RunDecision,
} from "../../src/bot/index.js";
import { UsageError } from "../../src/errors.js";
import { PublishError } from "../../src/github/client.js";
import { makeReport } from "../helpers/report.js";
import { HEAD, PR, useBotDouble } from "./fixture.js";
import { issueCommentPayload } from "./payloads.js";

const MOVED = "2".repeat(40);

const f = useBotDouble();
const { comment, botComments, reactionsOn, log, warnings } = f;

describe("a member's /acceptance run", () => {
  it("runs once on the head it saw (unmoved since), reacts 👀 then 🚀, and leaves exactly one report comment", async () => {
    const { commentId, payload } = comment("Looks right to me.\n/acceptance run", "maintainer");
    const decision = await handleIssueComment(payload, { client: f.client, log });

    expect(decision).toEqual({
      kind: "run",
      owner: "octo-org",
      repo: "app",
      pr: PR,
      headSha: HEAD,
      // The base read with the head: the suites job reads the inventory's judging parts there.
      baseSha: "0".repeat(40),
      headRepo: "octo-org/app",
      fork: false,
      subjects: [],
      commentId,
      requestedBy: "maintainer",
      reactionTarget: { owner: "octo-org", repo: "app", commentId },
    });
    // Who asked; the comment as it is now (unedited, and when it was made); the head; GitHub's
    // record of the head branch's last push (an hour before the comment); the head again.
    expect(f.double.ops()).toEqual([
      "repos/get-collaborator-permission-level 200",
      "issues/get-comment 200",
      "pulls/get 200",
      "repos/list-activities 200",
      "pulls/get 200",
      "reactions/create-for-issue-comment 201",
    ]);
    expect(reactionsOn(commentId)).toEqual(["eyes"]);
    expect(botComments()).toEqual([]);
    if (decision.kind !== "run") throw new Error("unreachable");

    // The publish phase, after the suites ran on the pinned SHA: the decision came through a
    // job output, the report from the suites job's bundle.
    const done = await publishCommandRun(
      makeReport({ head: { sha: HEAD } }),
      parseRunDecision(commandOutputs(decision).decision!),
      { client: f.client, log },
    );
    expect(done.published?.errors).toEqual([]);
    expect(done.published?.comment.outcome).toBe("created");
    expect(done.reaction).toBe("rocket");
    expect(done.replyId).toBeUndefined();
    expect(reactionsOn(commentId)).toEqual(["eyes", "rocket"]);
    expect(botComments()).toHaveLength(1);
    expect(botComments()[0]!.body).toContain(HEAD.slice(0, 12));
    expect(botComments()[0]!.body).not.toMatch(/stale/i);
    expect(f.double.checkRuns.map((r) => [r.head_sha, r.conclusion])).toEqual([[HEAD, "success"]]);
    expect(warnings).toEqual([]);
  });

  it("names subjects, and accepts write, maintain and admin alike", async () => {
    for (const login of ["writer", "maintainer", "boss"]) {
      const { payload } = comment("/acceptance run web api", login);
      const d = await handleIssueComment(payload, { client: f.client });
      expect(d).toMatchObject({ kind: "run", subjects: ["web", "api"], requestedBy: login, headSha: HEAD });
    }
  });

  it("marks a fork's head as such, so its code runs only with a read-only token", async () => {
    f.double.seedPull(8, { headSha: HEAD, headRepo: "stranger/app" });
    const commentId = f.double.seedComment(8, "/acceptance run", "maintainer");
    const payload = issueCommentPayload({
      body: "/acceptance run",
      login: "maintainer",
      commentId,
      issue: 8,
    });
    expect(await handleIssueComment(payload, { client: f.client })).toMatchObject({
      kind: "run",
      pr: 8,
      fork: true,
      headRepo: "stranger/app",
    });
  });

  it("reports stale when the PR head moves during the run, and says so in the report comment", async () => {
    const { commentId, payload } = comment("/acceptance run", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    f.double.issues.find((i) => i.number === PR)!.pull!.headSha = MOVED; // a push lands mid-run

    const head = await isHeadStale(
      f.client,
      { owner: "octo-org", repo: "app", number: PR },
      decision.headSha,
    );
    expect(head).toEqual({ stale: true, currentSha: MOVED });
    const done = await publishCommandRun(makeReport({ head: { sha: HEAD } }), decision, { client: f.client });
    expect(done.report?.head).toMatchObject({ sha: HEAD, movedTo: MOVED });

    expect(botComments()).toHaveLength(1);
    expect(botComments()[0]!.body).toMatch(/Stale: the pull request's head moved to `222222222222`/);
    // The check run stays on the commit that was tested, not the one that arrived later.
    expect(f.double.checkRuns.map((r) => r.head_sha)).toEqual([HEAD]);
    expect(reactionsOn(commentId)).toEqual(["eyes", "rocket"]);
  });

  it("reacts 😕 on a failing verdict, and replies once only when no report could be published", async () => {
    const { commentId, payload } = comment("/acceptance run", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    expect(await finishCommand(decision, { verdict: "fail" }, { client: f.client })).toEqual({
      reaction: "confused",
    });
    expect(botComments()).toEqual([]);

    const out = await finishCommand(
      decision,
      {
        verdict: "error",
        failure: "the suites job was cancelled <b>@team</b>",
        runUrl: "https://github.com/octo-org/app/actions/runs/9",
      },
      { client: f.client },
    );
    expect(out.reaction).toBe("confused");
    expect(botComments()).toHaveLength(1);
    const body = botComments()[0]!.body;
    expect(body).toContain(HEAD.slice(0, 12));
    expect(body).toContain("[the workflow run](https://github.com/octo-org/app/actions/runs/9)");
    expect(body).not.toContain("<b>");
    expect(body).not.toMatch(/@team/);
    expect(reactionsOn(commentId)).toEqual(["eyes", "confused"]);
  });

  it("replies once, naming the SHA, when the suites job left no report", async () => {
    const { commentId, payload } = comment("/acceptance run", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    const done = await publishCommandRun(null, decision, {
      client: f.client,
      runUrl: "https://github.com/o/r/actions/runs/3",
    });
    expect(done).toMatchObject({ report: null, reaction: "confused" });
    expect(botComments()).toHaveLength(1);
    expect(botComments()[0]!.body).toMatch(
      /The run on `?<code>111111111111<\/code>`? ended without a report: the suites job produced no report bundle/,
    );
    expect(f.double.checkRuns).toEqual([]);
    expect(reactionsOn(commentId)).toEqual(["eyes", "confused"]);
  });

  it("refuses, with one reply, a command on a closed pull request", async () => {
    f.double.issues.find((i) => i.number === PR)!.state = "closed";
    const { commentId, payload } = comment("/acceptance run", "maintainer");
    const d = await handleIssueComment(payload, { client: f.client });
    expect(d).toMatchObject({ kind: "refused", reason: "closed" });
    expect(botComments()).toHaveLength(1);
    expect(botComments()[0]!.body).toContain("is closed");
    expect(reactionsOn(commentId)).toEqual([]);
  });

  it("still runs when the 👀 reaction cannot be added, and says why in the log", async () => {
    f.double.fail("reactions/create-for-issue-comment", {
      status: 403,
      message: "Resource not accessible by integration",
    });
    const { payload } = comment("/acceptance run", "maintainer");
    expect(await handleIssueComment(payload, { client: f.client, log })).toMatchObject({ kind: "run" });
    expect(warnings.join("\n")).toMatch(/eyes reaction.*pull-requests: write/);
  });
});

describe("an outsider's /acceptance run", () => {
  it("gets exactly one polite refusal and no run, whatever the payload claims", async () => {
    // author_association OWNER in the payload is a claim; the API says read.
    const { commentId, payload } = comment("/acceptance run", "drive-by", { authorAssociation: "OWNER" });
    const d = await handleIssueComment(payload, { client: f.client });

    expect(d).toMatchObject({ kind: "refused", reason: "permission" });
    expect(f.double.ops()).toEqual([
      "repos/get-collaborator-permission-level 200",
      "issues/create-comment 201",
    ]);
    expect(botComments()).toHaveLength(1);
    const reply = botComments()[0]!;
    expect(d).toMatchObject({ replyId: reply.id });
    expect(reply.body).toMatch(/needs write, maintain or admin permission/);
    expect(reply.body).toContain("<code>drive-by</code>");
    expect(reply.body).toContain("<code>read</code>");
    expect(parseCommands(reply.body)).toEqual([]);
    expect(reactionsOn(commentId)).toEqual([]);
    expect(f.double.checkRuns).toEqual([]);
  });

  it("refuses triage, which can comment and label but not push", async () => {
    const { payload } = comment("/acceptance run", "triager");
    expect(await handleIssueComment(payload, { client: f.client })).toMatchObject({ kind: "refused" });
    expect(botComments()[0]!.body).toContain("<code>triage</code>");
  });

  it("treats a 404 from the permission API (no such collaborator) as no permission", async () => {
    f.double.fail("repos/get-collaborator-permission-level", { status: 404 });
    const { payload } = comment("/acceptance run", "ghost-user");
    expect(await handleIssueComment(payload, { client: f.client })).toMatchObject({
      kind: "refused",
      reason: "permission",
    });
    expect(botComments()).toHaveLength(1);
    expect(botComments()[0]!.body).toContain("<code>none</code>");
  });

  it("runs nothing when the permission cannot be read, and says which request failed", async () => {
    f.double.fail("repos/get-collaborator-permission-level", { status: 500, times: 3 });
    const { commentId, payload } = comment("/acceptance run", "maintainer");
    const err = await handleIssueComment(payload, { client: f.client }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect((err as Error).message).toMatch(
      /check maintainer's permission on octo-org\/app: GitHub is failing \(500\)/,
    );
    expect(botComments()).toEqual([]);
    expect(reactionsOn(commentId)).toEqual([]);
  });
});

describe("comments that trigger nothing, with no request at all", () => {
  const silent: Array<[string, () => { payload: Record<string, unknown> }]> = [
    [
      "our own reply (github-actions[bot])",
      () => comment("/acceptance run", "github-actions[bot]", { userType: "Bot" }),
    ],
    ["another app's comment", () => comment("/acceptance run", "renovate[bot]", { userType: "Bot" })],
    ["a bot-named account typed as User", () => comment("/acceptance run", "ci-helper[bot]")],
    ["an edited comment", () => comment("/acceptance run", "maintainer", { action: "edited" })],
    ["a deleted comment", () => comment("/acceptance run", "maintainer", { action: "deleted" })],
    ["a command inside a code block", () => comment("Use:\n```\n/acceptance run\n```", "maintainer")],
    ["a quoted command", () => comment("> /acceptance run\n\nwhy did this fail?", "maintainer")],
    ["an ordinary comment", () => comment("Nice work! Could you rename `x`?", "maintainer")],
    ["a command on a plain issue", () => comment("/acceptance run", "maintainer", { pullRequest: false })],
  ];
  for (const [name, make] of silent) {
    it(name, async () => {
      const { payload } = make();
      const d = await handleIssueComment(payload, { client: f.client });
      expect(d.kind).toBe("ignore");
      expect(f.double.requests).toEqual([]);
      expect(f.client.requests()).toBe(0);
    });
  }
});

describe("help", () => {
  it("answers /acceptance help from anyone with one reply listing the commands and who may use them", async () => {
    const { commentId, payload } = comment("/acceptance help", "drive-by");
    const d = await handleIssueComment(payload, { client: f.client });
    expect(f.double.ops()).toEqual(["issues/create-comment 201"]);
    expect(d).toEqual({ kind: "help", replyId: botComments()[0]!.id });
    const body = botComments()[0]!.body;
    expect(body).toContain("`/acceptance run`");
    expect(body).toContain("write, maintain or admin");
    expect(body).not.toContain("not understood");
    expect(parseCommands(body)).toEqual([]);
    expect(reactionsOn(commentId)).toEqual([]);
  });

  it("answers an unknown command with short help naming it, escaped", async () => {
    const { payload } = comment("/acceptance deploy_<img src=x>", "maintainer");
    const d = await handleIssueComment(payload, { client: f.client });
    expect(d.kind).toBe("help");
    expect(botComments()).toHaveLength(1);
    const body = botComments()[0]!.body;
    expect(body).toContain("not understood (unknown command deploy\\_&lt;img");
    expect(body).not.toContain("<img");
  });

  it("acts on the first command only: one comment, one reply at most", async () => {
    const { payload } = comment("/acceptance help\n/acceptance deploy\n/acceptance run", "drive-by");
    await handleIssueComment(payload, { client: f.client });
    expect(botComments()).toHaveLength(1);
    expect(f.double.ops()).toEqual(["issues/create-comment 201"]);
  });
});

describe("the decision between jobs", () => {
  it("survives the trip through a job output, and a tampered one is refused with the field named", async () => {
    const { payload } = comment("/acceptance run web", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    expect(parseRunDecision(JSON.stringify(decision))).toEqual(decision);
    const tampered = JSON.stringify({ ...decision, headSha: "main" });
    expect(() => parseRunDecision(tampered)).toThrow(UsageError);
    expect(() => parseRunDecision(tampered)).toThrow(/command input: headSha: a full commit SHA/);
    expect(() => parseRunDecision("")).toThrow(/not JSON/);
  });

  it("gives later jobs run=false and nothing else when the command was not accepted", async () => {
    const { payload } = comment("/acceptance run", "drive-by");
    const outputs = commandOutputs(await handleIssueComment(payload, { client: f.client }));
    expect(outputs).toEqual({ run: "false", decision: "", "head-sha": "", pr: "", subjects: "" });
  });

  it("never throws from the publish phase when the token cannot comment: the log says why", async () => {
    const { commentId, payload } = comment("/acceptance run web", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    f.double.fail("issues/create-comment", {
      status: 403,
      message: "Resource not accessible by integration",
      times: 2,
    });
    const done = await publishCommandRun(makeReport({ head: { sha: HEAD } }), decision, {
      client: f.client,
      log,
    });
    expect(done.published?.comment.outcome).toBe("failed");
    expect(done.reaction).toBe("rocket");
    expect(botComments()).toEqual([]);
    expect(warnings.join("\n")).toMatch(/reply to the command: the token lacks `pull-requests: write`/);
    expect(reactionsOn(commentId)).toEqual(["eyes", "rocket"]);
  });

  it("turns a bundle that claims another commit into an error verdict", async () => {
    const { payload } = comment("/acceptance run", "maintainer");
    const decision = (await handleIssueComment(payload, { client: f.client })) as RunDecision;
    const report = applyPinnedHead(makeReport({ head: { sha: MOVED } }), decision, {
      stale: false,
      currentSha: HEAD,
    });
    expect(report.verdict).toBe("error");
    expect(report.head.sha).toBe(HEAD);
    expect(report.errors.map((e) => e.kind)).toEqual(["head-mismatch"]);
  });

  it("rejects a payload that is not an issue_comment event with the field named", async () => {
    await expect(handleIssueComment({ action: "created" }, { client: f.client })).rejects.toThrow(
      /issue_comment event payload: issue: /,
    );
  });
});
