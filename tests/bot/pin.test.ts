// Attacks on the pinned head (issue #24): the pull request's author watches for a maintainer's
// `/acceptance run` and changes the branch before the accept step reads it. Each attack's goal is
// a run, under the trusted check name, of a commit the maintainer never saw; each test asserts
// that no run is accepted for it, that the maintainer is told why in one reply, and that the reply
// offers the command that names the head (so confirming costs one comment). The GitHub double
// validates every request against GitHub's OpenAPI description; pushes are recorded in its
// repository activity log with GitHub's time, as GitHub records them.
import { describe, expect, it } from "vitest";
import { type BotDecision, commandOutputs, handleIssueComment, parseCommands } from "../../src/bot/index.js";
import { at, HEAD, PR, useBotDouble } from "./fixture.js";
import { issueCommentPayload } from "./payloads.js";

/** The commit the maintainer reviewed, and the attacker's. */
const REVIEWED = HEAD;
const EVIL = "e".repeat(40);
const EARLIER = "a".repeat(40);

const f = useBotDouble();

/** The maintainer comments 30 s ago; the attack lands 20 s later (10 s ago), then the accept step runs. */
function maintainerSays(body = "/acceptance run") {
  return f.comment(body, "maintainer", { at: at(-30) });
}

async function accept(payload: Record<string, unknown>): Promise<BotDecision> {
  return handleIssueComment(payload, { client: f.client, log: f.log });
}

/** Nothing runs, nothing is reacted, and the one reply says `why` and gives the confirming command. */
function expectRefused(d: BotDecision, commentId: number, why: RegExp, head: string | null) {
  expect(d).toMatchObject({ kind: "refused" });
  expect(commandOutputs(d)).toMatchObject({ run: "false", "head-sha": "" });
  expect(f.reactionsOn(commentId)).toEqual([]);
  expect(f.botComments()).toHaveLength(1);
  const reply = f.botComments()[0]!.body;
  expect(reply).toContain(`docker-acceptance:reply-to:${commentId}`);
  expect(reply).toMatch(/^Nothing was run: /m);
  expect(reply).toMatch(why);
  // The reply shows the command only inside a code block: it can never be read as one.
  expect(parseCommands(reply)).toEqual([]);
  if (head) expect(reply).toContain(`\`\`\`\n/acceptance run @${head}`);
  else expect(reply).not.toContain("/acceptance run @");
  return reply;
}

describe("attacks after the maintainer's comment: no run of a commit nobody saw", () => {
  it("(a) a force-push of a new commit 20 s after the comment", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.pushPull(PR, EVIL, { force: true, at: at(-10) });
    const reply = expectRefused(await accept(payload), commentId, /pushed to at .* after your comment/, EVIL);
    expect(reply).toMatch(/Look at what changed since your comment/);
  });

  it("(b) a fast-forward push of one more commit", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.pushPull(PR, EVIL, { at: at(-10) });
    expectRefused(await accept(payload), commentId, /pushed to at .* after your comment/, EVIL);
  });

  it("(c) a force-push back to an older commit that had been the head before (it was pushed long before the comment)", async () => {
    // EVIL was the head two hours ago, then replaced by the reviewed commit an hour ago.
    f.double.pushPull(PR, EVIL, { force: true, at: at(-7200) });
    f.double.pushPull(PR, REVIEWED, { force: true, at: at(-3600) });
    const { commentId, payload } = maintainerSays();
    f.double.pushPull(PR, EVIL, { force: true, at: at(-10) });
    expectRefused(await accept(payload), commentId, /after your comment/, EVIL);
  });

  it("(d) a fast-forward to a descendant that was pushed earlier, then rewound", async () => {
    // The branch had EVIL on top of the reviewed commit, was rewound to it, and is fast-forwarded again.
    f.double.pushPull(PR, EVIL, { at: at(-5400) });
    f.double.pushPull(PR, REVIEWED, { force: true, at: at(-3000) });
    const { commentId, payload } = maintainerSays();
    f.double.pushPull(PR, EVIL, { at: at(-10) });
    expectRefused(await accept(payload), commentId, /after your comment/, EVIL);
  });

  it("(e) the same with [skip ci]: no workflow run or check records the push, and the head's only CI record predates the comment", async () => {
    f.double.pushPull(PR, EVIL, { at: at(-5400) });
    // EVIL's CI ran back then; the push after the comment says [skip ci], so nothing newer exists.
    f.double.checkRuns.push({
      id: 1,
      name: "ci",
      head_sha: EVIL,
      status: "completed",
      conclusion: "success",
      started_at: at(-5390),
      completed_at: at(-5300),
      output: { title: null, summary: null, text: null, annotations: [] },
    });
    f.double.pushPull(PR, REVIEWED, { force: true, at: at(-3000) });
    const { commentId, payload } = maintainerSays();
    f.double.pushPull(PR, EVIL, { at: at(-10) });
    expectRefused(await accept(payload), commentId, /after your comment/, EVIL);
    expect(f.double.checkRuns.map((r) => [r.head_sha, r.started_at < at(-30)])).toEqual([[EVIL, true]]);
  });

  it("(f) the maintainer's comment edited after it was posted (here to name the attacker's commit): refused, and the edit itself starts nothing", async () => {
    const { commentId, payload } = maintainerSays("/acceptance run web");
    f.double.pushPull(PR, EVIL, { force: true, at: at(-10) });
    const posted = f.double.comments.find((c) => c.id === commentId)!;
    posted.body = `/acceptance run @${EVIL} web`;
    posted.updatedAt = at(-5);
    const edited = issueCommentPayload({
      action: "edited",
      body: posted.body,
      login: "maintainer",
      commentId,
      issue: PR,
    });
    expect(await accept(edited)).toMatchObject({ kind: "ignore" });
    expect(f.double.requests).toEqual([]);

    expectRefused(await accept(payload), commentId, /edited after it was posted/, null);
    expect(f.botComments()[0]!.body).toContain("Post the command again in a new comment.");
  });

  it("(f) an edit that leaves the words as they were still counts as an edit (GitHub's updated_at moved)", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.comments.find((c) => c.id === commentId)!.updatedAt = at(-5);
    expectRefused(await accept(payload), commentId, /edited after it was posted/, null);
  });

  it("(f) the PR's title and body rewritten to carry a command and a SHA, and the author's own comment edited into one: nothing of it is read", async () => {
    const { commentId, payload } = maintainerSays();
    const issue = f.double.issues.find((i) => i.number === PR)!;
    issue.title = `/acceptance run @${EVIL}`;
    issue.body = `/acceptance run @${EVIL}\n\nhead: ${EVIL}`;
    const own = f.comment("/acceptance run", "contributor", { action: "edited", at: at(-20) });
    expect(await accept(own.payload)).toMatchObject({ kind: "ignore" });

    expect(await accept(payload)).toMatchObject({ kind: "run", headSha: REVIEWED });
    expect(f.reactionsOn(commentId)).toEqual(["eyes"]);
  });

  it("(g) a push between the accept step's read of the head and its read of the push record", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.beforeRequest("repos/list-activities", () => f.double.pushPull(PR, EVIL, { force: true }));
    // The head read first is the reviewed one; the record shows it moved since the comment.
    expectRefused(await accept(payload), commentId, /after your comment/, REVIEWED);
    expect(f.double.issues.find((i) => i.number === PR)!.pull!.headSha).toBe(EVIL);
  });

  it("(g) a push after the push record was read, before the head is read again", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.beforeRequest("pulls/get", () => f.double.pushPull(PR, EVIL, { force: true }), 2);
    expectRefused(await accept(payload), commentId, /changed while the command was being accepted/, EVIL);
  });

  it("(g) a push between the reads of a command that names the reviewed commit", async () => {
    const { commentId, payload } = maintainerSays(`/acceptance run @${REVIEWED}`);
    f.double.beforeRequest("pulls/get", () => f.double.pushPull(PR, EVIL, { force: true }), 2);
    expectRefused(await accept(payload), commentId, /changed while the command was being accepted/, EVIL);
  });

  it("(g) an edit after the comment was read changes neither the commit nor the subjects the run gets", async () => {
    const { commentId, payload } = maintainerSays("/acceptance run web");
    f.double.beforeRequest("pulls/get", () => {
      const c = f.double.comments.find((x) => x.id === commentId)!;
      c.body = `/acceptance run @${EVIL} api`;
      c.updatedAt = at(0);
    });
    expect(await accept(payload)).toMatchObject({ kind: "run", headSha: REVIEWED, subjects: ["web"] });
  });
});

describe("what the records cannot prove is refused, with the command that names the head", () => {
  it("a push less than a minute before the comment: too close to have been reviewed, and clocks differ", async () => {
    f.double.pushPull(PR, EVIL, { at: at(-70) });
    const { commentId, payload } = maintainerSays();
    expectRefused(await accept(payload), commentId, /less than a minute before your comment/, EVIL);
  });

  it("a push record GitHub will not show (a private fork, a server without it)", async () => {
    f.double.fail("repos/list-activities", { status: 404 });
    const { commentId, payload } = maintainerSays();
    expectRefused(await accept(payload), commentId, /could not be read \(GitHub answered 404/, REVIEWED);
  });

  it("no record of any push to the head branch", async () => {
    f.double.activities.length = 0;
    const { commentId, payload } = maintainerSays();
    expectRefused(await accept(payload), commentId, /has no record of a push/, REVIEWED);
  });

  it("a record that disagrees with the pull request's head (one of them lagging)", async () => {
    // The branch's newest recorded push is EVIL, well before the comment; the PR still shows REVIEWED.
    f.double.activities.push({ ...f.double.activities[0]!, id: 99, after: EVIL, timestamp: at(-1800) });
    const { commentId, payload } = maintainerSays();
    expectRefused(await accept(payload), commentId, /does not show the pull request's head/, REVIEWED);
  });

  it("a command naming a commit that is not the head names the head instead", async () => {
    const { commentId, payload } = maintainerSays(`/acceptance run @${EARLIER}`);
    const reply = expectRefused(
      await accept(payload),
      commentId,
      /names <code>aaaaaaaaaaaa<\/code>/,
      REVIEWED,
    );
    expect(reply).toMatch(/which is not the pull request's head/);
  });

  it("a comment deleted before the accept step read it runs nothing and gets no reply", async () => {
    const { commentId, payload } = maintainerSays();
    f.double.comments.splice(
      f.double.comments.findIndex((c) => c.id === commentId),
      1,
    );
    expect(await accept(payload)).toMatchObject({ kind: "ignore", reason: "comment deleted" });
    expect(f.botComments()).toEqual([]);
  });
});

describe("what runs", () => {
  it("a bare command on a head GitHub records as unchanged since well before the comment", async () => {
    const { commentId, payload } = maintainerSays("/acceptance run api");
    expect(await accept(payload)).toMatchObject({
      kind: "run",
      headSha: REVIEWED,
      subjects: ["api"],
      commentId,
    });
    expect(f.reactionsOn(commentId)).toEqual(["eyes"]);
    expect(f.botComments()).toEqual([]);
  });

  it("a command naming the head's full SHA, with no push record needed (pushed seconds before, record unreadable)", async () => {
    f.double.pushPull(PR, EVIL, { at: at(-35) });
    f.double.fail("repos/list-activities", { status: 404 });
    const { payload } = maintainerSays(`/acceptance run web @${EVIL.toUpperCase()}`);
    expect(await accept(payload)).toMatchObject({ kind: "run", headSha: EVIL, subjects: ["web"] });
    expect(f.double.ops()).not.toContain("repos/list-activities 404");
  });

  it("confirming with the reply's command runs exactly that commit; a push before the confirmation is refused again", async () => {
    const first = maintainerSays("/acceptance run web");
    f.double.pushPull(PR, EVIL, { force: true, at: at(-10) });
    await accept(first.payload);
    const command = /```\n(\/acceptance run [^\n]+)\n```/.exec(f.botComments()[0]!.body)![1]!;
    expect(command).toBe(`/acceptance run @${EVIL} web`);

    const confirmed = f.comment(command, "maintainer");
    expect(await accept(confirmed.payload)).toMatchObject({ kind: "run", headSha: EVIL, subjects: ["web"] });

    const again = f.comment(command, "maintainer");
    f.double.pushPull(PR, "f".repeat(40), { at: at(0) });
    expect(await accept(again.payload)).toMatchObject({ kind: "refused", reason: "not-head" });
  });

  it("a short or malformed SHA is not a commit: help says to name all 40 characters", async () => {
    const { payload } = maintainerSays("/acceptance run @1111111");
    expect(await accept(payload)).toMatchObject({ kind: "help" });
    expect(f.botComments()[0]!.body).toMatch(/not a full commit SHA \(name all 40 characters/);
    expect(f.double.ops()).toEqual(["issues/create-comment 201"]);
  });
});
