// Which commit an accepted command runs: only one the maintainer saw (docs/commands.md, "The
// pinned head"). An issue_comment carries no head SHA, and the accept job starts seconds after
// the comment, time enough for the author to push; so the head read now is pinned only when
//  - the command names it (`/acceptance run @<sha>`): the maintainer said which commit; or
//  - GitHub's own record of pushes to the head branch (src/bot/pushes.ts) shows its last change
//    came well before the comment and left it at the head read now.
// Anything else is refused with the reason and the command that names the head, so confirming
// costs one comment; a wrong pin would run code nobody reviewed under the trusted check name.
// The head is read again after every other read, so a push while this runs is a refusal too.
import { call, type GitHubClient, toPublishError } from "../github/client.js";
import { lastPush } from "./pushes.js";

export interface PullRef {
  owner: string;
  repo: string;
  number: number;
}

/**
 * How much older than the comment the last push must be. GitHub stamps comments and pushes on
 * different services, and no one reviews a push in less than a minute.
 */
const PUSH_MARGIN_MS = 60_000;

/** The pull request as the accept step read it. */
interface PullHead {
  sha: string;
  baseSha: string;
  state: string;
  /** `owner/name`; null when the head repository was deleted. */
  headRepo: string | null;
  headRef: string;
}

type Unproven = "no-repo" | "unreadable" | "no-record" | "disagree" | "too-close";

/** Why nothing runs. `head` is the PR's head as read (full SHA, from GitHub). */
export type Refusal =
  | { reason: "closed" }
  | { reason: "edited" }
  | { reason: "not-head"; head: string; named: string }
  /** `pushedAt` absent: the head moved while the accept step was reading. */
  | { reason: "moved"; head: string; commentedAt: string; pushedAt?: string }
  | {
      reason: "unproven";
      head: string;
      commentedAt: string;
      why: Unproven;
      pushedAt?: string;
      status?: number;
    };

type Pin =
  | { kind: "pinned"; pull: PullHead; by: "named" | "unmoved" }
  | { kind: "refused"; refusal: Refusal }
  /** The comment is gone: its author took it back before it was accepted. */
  | { kind: "deleted" };

/**
 * `comment.body` is the body the webhook delivered (as written when posted); `named` the SHA the
 * command names, if any.
 */
export async function pinReviewedHead(
  client: GitHubClient,
  pullRef: PullRef,
  comment: { id: number; body: string },
  named?: string,
): Promise<Pin> {
  const posted = await readComment(client, pullRef, comment.id);
  if (!posted) return { kind: "deleted" };
  // Edited since it was posted: what it says now is not what asked for the run, and an edit may
  // be a retraction. GitHub keeps created_at and sets updated_at on every edit.
  if (posted.updatedAt !== posted.createdAt || posted.body !== comment.body) {
    return refused({ reason: "edited" });
  }
  const pull = await readPull(client, pullRef);
  if (pull.state !== "open") return refused({ reason: "closed" });
  const refusal = named
    ? named === pull.sha
      ? undefined
      : ({ reason: "not-head", head: pull.sha, named } as const)
    : await unmovedSince(client, pull, posted.createdAt);
  if (refusal) return refused(refusal);
  const again = await readPull(client, pullRef);
  if (again.sha !== pull.sha || again.state !== "open") {
    return refused({ reason: "moved", head: again.sha, commentedAt: posted.createdAt });
  }
  return { kind: "pinned", pull, by: named ? "named" : "unmoved" };
}

/** Undefined when GitHub's push record proves the head has not moved since `commentedAt`. */
async function unmovedSince(
  client: GitHubClient,
  pull: PullHead,
  commentedAt: string,
): Promise<Refusal | undefined> {
  const unproven = (why: Unproven, more: { pushedAt?: string; status?: number } = {}): Refusal => ({
    reason: "unproven",
    head: pull.sha,
    commentedAt,
    why,
    ...more,
  });
  if (!pull.headRepo) return unproven("no-repo");
  const [owner = "", repo = ""] = pull.headRepo.split("/");
  const last = await lastPush(client, { owner, repo, branch: pull.headRef });
  if (last.kind === "unreadable") return unproven("unreadable", { status: last.status });
  if (last.kind === "none") return unproven("no-record");
  const pushed = Date.parse(last.at);
  const commented = Date.parse(commentedAt);
  if (!(pushed < commented)) return { reason: "moved", head: pull.sha, commentedAt, pushedAt: last.at };
  // The record and the pull request must agree on the head: one of them lagging is not proof.
  if (last.afters.some((sha) => sha !== pull.sha)) return unproven("disagree", { pushedAt: last.at });
  if (commented - pushed < PUSH_MARGIN_MS) return unproven("too-close", { pushedAt: last.at });
  return undefined;
}

const refused = (refusal: Refusal): Pin => ({ kind: "refused", refusal });

async function readComment(
  client: GitHubClient,
  pr: PullRef,
  commentId: number,
): Promise<{ body: string; createdAt: string; updatedAt: string } | null> {
  try {
    const res = await client.octokit.rest.issues.getComment({
      owner: pr.owner,
      repo: pr.repo,
      comment_id: commentId,
    });
    return { body: res.data.body ?? "", createdAt: res.data.created_at, updatedAt: res.data.updated_at };
  } catch (err) {
    if (typeof err === "object" && err !== null && "status" in err && err.status === 404) return null;
    throw toPublishError(err, "pull-requests: read", `read comment ${commentId}`);
  }
}

export async function readPull(client: GitHubClient, pullRef: PullRef): Promise<PullHead> {
  const res = await call("pull-requests: read", `read pull request #${pullRef.number}`, () =>
    client.octokit.rest.pulls.get({ owner: pullRef.owner, repo: pullRef.repo, pull_number: pullRef.number }),
  );
  const { head, base, state } = res.data;
  return {
    sha: head.sha,
    baseSha: base.sha,
    state,
    headRepo: head.repo?.full_name ?? null,
    headRef: head.ref,
  };
}
