// From a PR comment to a decision: ignore it, reply (help or refusal), or run on a pinned head.
// Cheap first: everything decidable from the payload (not a new comment, not a PR, a bot, no
// command) is decided with no request at all, since every comment on every PR starts this
// workflow. Only then do we ask the API who the commenter is and which head they saw (pin.ts).
import { UsageError } from "../errors.js";
import { call, type GitHubClient, toPublishError } from "../github/client.js";
import { type Logger, silentLogger } from "../log.js";
import type { Verdict } from "../report/model.js";
import { type RunDecision, runDecisionSchema } from "./decision.js";
import { type IssueCommentEvent, isBot, issueCommentEventSchema } from "./event.js";
import { type Command, parseCommands } from "./parse.js";
import { type PullRef, pinReviewedHead, type Refusal, readPull } from "./pin.js";
import {
  ALLOWED_PERMISSIONS,
  renderClosed,
  renderHelp,
  renderNotPinned,
  renderRefusal,
  renderRunFailure,
} from "./replies.js";

export type { PullRef } from "./pin.js";

export type BotDecision =
  | { kind: "ignore"; reason: string }
  | { kind: "refused"; replyId: number; reason: "permission" | Refusal["reason"] }
  | { kind: "help"; replyId: number }
  | RunDecision;

export interface BotDeps {
  client: GitHubClient;
  log?: Logger;
}

export type Reaction = "eyes" | "rocket" | "confused";

export async function handleIssueComment(event: unknown, deps: BotDeps): Promise<BotDecision> {
  const e = readEvent(event);
  const ignore = (reason: string): BotDecision => {
    deps.log?.info(`docker-acceptance bot: ignoring comment ${e.comment.id}: ${reason}`);
    return { kind: "ignore", reason };
  };
  // An edited comment is not a new request: re-running on edits would let anyone who can edit
  // an old maintainer comment (its author, or a later typo fix) start runs again.
  if (e.action !== "created") return ignore(`comment ${e.action}, only new comments count`);
  if (!e.issue.pull_request) return ignore("not a pull request");
  // Our own replies and other apps' comments never trigger anything, whatever they contain.
  if (isBot(e.comment.user) || (e.sender && isBot(e.sender))) return ignore("written by a bot");
  const command = parseCommands(e.comment.body ?? "")[0];
  if (!command) return ignore("no command");

  const pr = { owner: e.repository.owner.login, repo: e.repository.name, number: e.issue.number };
  const reply = (body: string) =>
    postReply(deps.client, { owner: pr.owner, repo: pr.repo, issueNumber: pr.number }, body);
  if (command.kind === "help") {
    return { kind: "help", replyId: await reply(renderHelp(e.comment.id, command.problem)) };
  }
  const asked = { id: e.comment.id, body: e.comment.body ?? "", login: e.comment.user!.login };
  const outcome = await acceptRun(deps, pr, asked, command);
  if (outcome.kind !== "refused") return outcome.kind === "deleted" ? ignore("comment deleted") : outcome;
  return { kind: "refused", reason: outcome.reason, replyId: await reply(outcome.body) };
}

type Accepted =
  | RunDecision
  | { kind: "refused"; reason: "permission" | Refusal["reason"]; body: string }
  | { kind: "deleted" };

/** A run command from a person: their permission, then the head they saw, pinned, and 👀. */
async function acceptRun(
  deps: BotDeps,
  pr: PullRef,
  asked: { id: number; body: string; login: string },
  command: Extract<Command, { kind: "run" }>,
): Promise<Accepted> {
  const log = deps.log ?? silentLogger;
  const permission = await readPermission(deps.client, pr.owner, pr.repo, asked.login);
  if (!permission.allowed) {
    log.info(`docker-acceptance bot: ${asked.login} has ${permission.name}; refusing /acceptance run`);
    return {
      kind: "refused",
      reason: "permission",
      body: renderRefusal(asked.id, asked.login, permission.name),
    };
  }
  const pin = await pinReviewedHead(deps.client, pr, asked, command.sha);
  if (pin.kind === "deleted") return pin;
  if (pin.kind === "refused") {
    const { refusal } = pin;
    log.info(`docker-acceptance bot: not running: ${refusal.reason}`);
    const body =
      refusal.reason === "closed"
        ? renderClosed(asked.id, pr.number)
        : renderNotPinned(asked.id, refusal, command.subjects);
    return { kind: "refused", reason: refusal.reason, body };
  }
  const baseRepo = `${pr.owner}/${pr.repo}`;
  const headRepo = pin.pull.headRepo ?? baseRepo;
  const decision = runDecisionSchema.parse({
    kind: "run",
    owner: pr.owner,
    repo: pr.repo,
    pr: pr.number,
    headSha: pin.pull.sha,
    baseSha: /^[0-9a-f]{40}$/.test(pin.pull.baseSha) ? pin.pull.baseSha : undefined,
    headRepo,
    // A head repository that is gone is nobody's here: treated as a fork's.
    fork: pin.pull.headRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
    subjects: command.subjects,
    commentId: asked.id,
    requestedBy: asked.login,
    reactionTarget: { owner: pr.owner, repo: pr.repo, commentId: asked.id },
  });
  await react(deps, decision.reactionTarget, "eyes");
  log.info(
    `docker-acceptance bot: ${asked.login} (${permission.name}) accepted; running on ${decision.headSha} ` +
      (pin.by === "named"
        ? "(named in the command)"
        : "(unchanged since the comment, by GitHub's push record)") +
      (decision.fork ? ` from fork ${headRepo}` : ""),
  );
  return decision;
}

export interface CommandOutcome {
  verdict: Verdict;
  /** Set when the run ended without a published report: the one reply the command gets. */
  failure?: string;
  /** Link to the workflow run, for that reply. */
  runUrl?: string;
}

/** 🚀 when the verdict is pass or warn, 😕 when fail or error; a reply only if no report was published. */
export async function finishCommand(
  decision: RunDecision,
  outcome: CommandOutcome,
  deps: BotDeps,
): Promise<{ reaction: Reaction; replyId?: number }> {
  const reaction = reactionFor(outcome.verdict);
  await react(deps, decision.reactionTarget, reaction);
  if (outcome.failure === undefined) return { reaction };
  const body = renderRunFailure(decision.commentId, decision.headSha, outcome.failure, outcome.runUrl);
  const replyId = await postReply(
    deps.client,
    { owner: decision.owner, repo: decision.repo, issueNumber: decision.pr },
    body,
  );
  return { reaction, replyId };
}

export function reactionFor(verdict: Verdict): Reaction {
  return verdict === "pass" || verdict === "warn" ? "rocket" : "confused";
}

/** Reads the PR again: stale when its head is no longer the SHA the run used. */
export async function isHeadStale(
  client: GitHubClient,
  pullRef: PullRef,
  headSha: string,
): Promise<{ stale: boolean; currentSha: string }> {
  const pull = await readPull(client, pullRef);
  return { stale: pull.sha !== headSha, currentSha: pull.sha };
}

// ---------------------------------------------------------------------------------------------

function readEvent(event: unknown): IssueCommentEvent {
  const parsed = issueCommentEventSchema.safeParse(event);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "(payload)";
  throw new UsageError(
    `issue_comment event payload: ${field}: ${issue?.message ?? "invalid"} ` +
      "(fix: call the bot only on issue_comment events, with GITHUB_EVENT_PATH's payload)",
  );
}

type Permission = { allowed: boolean; name: string };

/**
 * The commenter's permission as the API reports it. `role_name` distinguishes maintain and
 * triage (which `permission` folds into write and read); custom roles fall back to their base.
 */
async function readPermission(
  client: GitHubClient,
  owner: string,
  repo: string,
  username: string,
): Promise<Permission> {
  try {
    const res = await client.octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
    const role = res.data.role_name;
    const base = res.data.permission;
    const allowed = [role, base].some((p) => (ALLOWED_PERMISSIONS as readonly string[]).includes(p));
    return { allowed, name: (ALLOWED_PERMISSIONS as readonly string[]).includes(role) ? role : role || base };
  } catch (err) {
    // 404: not a collaborator (or no such user). Anything else is a real failure: run nothing.
    if (typeof err === "object" && err !== null && "status" in err && err.status === 404) {
      return { allowed: false, name: "none" };
    }
    throw toPublishError(err, "pull-requests: read", `check ${username}'s permission on ${owner}/${repo}`);
  }
}

async function postReply(
  client: GitHubClient,
  where: { owner: string; repo: string; issueNumber: number },
  body: string,
): Promise<number> {
  const res = await call("pull-requests: write", "reply to the command", () =>
    client.octokit.rest.issues.createComment({
      owner: where.owner,
      repo: where.repo,
      issue_number: where.issueNumber,
      body,
    }),
  );
  return res.data.id;
}

/** Reactions are feedback, not results: a failure to add one is logged, never fatal. */
async function react(deps: BotDeps, target: RunDecision["reactionTarget"], content: Reaction): Promise<void> {
  try {
    await deps.client.octokit.rest.reactions.createForIssueComment({
      owner: target.owner,
      repo: target.repo,
      comment_id: target.commentId,
      content,
    });
  } catch (err) {
    const e = toPublishError(err, "pull-requests: write", `add the ${content} reaction to the command`);
    (deps.log ?? silentLogger).warn(e.message);
  }
}
