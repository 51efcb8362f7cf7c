// The bot's replies. Each is short, names no one with an @-mention, escapes everything a
// commenter wrote, and shows commands only inside code, so a reply quoted back (or posted by a
// user token, whose comments do trigger workflows) can never be read as a command itself.
import { escapeInline, inlineCode } from "../report/escape.js";
import type { Refusal } from "./pin.js";

/** First line of every reply: lets a reader (or a later clean-up) tell our replies apart. */
function replyMarker(commentId: number): string {
  return `<!-- docker-acceptance:reply-to:${commentId} -->`;
}

export const ALLOWED_PERMISSIONS = ["write", "maintain", "admin"] as const;

const COMMANDS = [
  "| Command | What it does | Who |",
  "| --- | --- | --- |",
  "| `/acceptance run` | runs every subject's lifecycle and containment suites on the head commit you saw when commenting | write, maintain or admin |",
  "| `/acceptance run @<sha>` | runs them on that commit (its full SHA), if it is the PR's head | write, maintain or admin |",
  "| `/acceptance run api web` | runs only the named subjects (inventory names; `@<sha>` may go with them) | write, maintain or admin |",
  "| `/acceptance help` | this message | anyone |",
].join("\n");

export function renderHelp(commentId: number, problem?: string): string {
  const lead = problem
    ? `That command was not understood (${escapeInline(problem, 200)}). Commands go at the start of a line:`
    : "Commands go at the start of a line of a pull request comment:";
  return [
    replyMarker(commentId),
    lead,
    "",
    COMMANDS,
    "",
    "A run uses the head commit as it was when you commented: if GitHub's record of pushes cannot show " +
      "that it has not changed since, nothing runs and the reply gives the command naming the head. " +
      "👀 means accepted; the report comment names the commit, and 🚀 or 😕 on the command tells how it ended. " +
      "Commands in code blocks or quotes, and edited comments, are ignored. " +
      "Pull requests from forks run with a read-only token.",
    "",
  ].join("\n");
}

export function renderRefusal(commentId: number, login: string, permission: string): string {
  return [
    replyMarker(commentId),
    `Thanks, ${inlineCode(login, 60)}. Starting a run needs write, maintain or admin permission on this ` +
      `repository, and GitHub reports ${inlineCode(permission, 30)} for your account, so nothing was run. ` +
      "A maintainer can review the change and comment the run command to start the suites.",
    "",
  ].join("\n");
}

export function renderClosed(commentId: number, pullNumber: number): string {
  return [
    replyMarker(commentId),
    `Pull request #${pullNumber} is closed, so nothing was run. Reopen it and comment the run command again.`,
    "",
  ].join("\n");
}

/**
 * Why a run command was not run on the head, and (when the head is known) the command that
 * names it, so a maintainer who has seen that commit confirms with one comment.
 */
export function renderNotPinned(
  commentId: number,
  refusal: Exclude<Refusal, { reason: "closed" }>,
  subjects: string[],
): string {
  const lines = [replyMarker(commentId), `Nothing was run: ${notPinnedBecause(refusal)}.`, ""];
  if (refusal.reason === "edited") {
    lines.push("Post the command again in a new comment.", "");
    return lines.join("\n");
  }
  const head = /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(refusal.head) ? refusal.head : undefined;
  if (!head) return lines.join("\n");
  const review = refusal.reason === "moved" ? "Look at what changed since your comment; if" : "If";
  lines.push(
    `A run under the trusted check name is only ever on a commit you have seen. The pull request's head is ` +
      `${inlineCode(head.slice(0, 12), 20)}. ${review} that is the commit you reviewed, comment this ` +
      "(at the start of a line) to run it:",
    "",
    "```",
    ["/acceptance run", `@${head}`, ...subjects].join(" "),
    "```",
    "",
  );
  return lines.join("\n");
}

function notPinnedBecause(r: Exclude<Refusal, { reason: "closed" }>): string {
  const at = (iso: string | undefined) => inlineCode(iso ?? "an unknown time", 40);
  switch (r.reason) {
    case "edited":
      return "this comment was edited after it was posted, so what it says now is not what asked for the run";
    case "not-head":
      return `the command names ${inlineCode(r.named.slice(0, 12), 20)}, which is not the pull request's head`;
    case "moved":
      return r.pushedAt
        ? `the head branch was pushed to at ${at(r.pushedAt)}, after your comment (${at(r.commentedAt)}), so its head is not the commit you saw`
        : "the pull request's head changed while the command was being accepted";
    case "unproven":
      return `${UNPROVEN[r.why](r, at)}, so it cannot be shown that the head is the commit you saw when commenting`;
  }
}

const UNPROVEN: Record<
  Extract<Refusal, { reason: "unproven" }>["why"],
  (r: Extract<Refusal, { reason: "unproven" }>, at: (iso?: string) => string) => string
> = {
  "no-repo": () =>
    "the pull request's head repository no longer exists, so its record of pushes cannot be read",
  unreadable: (r) =>
    `GitHub's record of pushes to the head branch could not be read (${r.status ? `GitHub answered ${r.status}` : "no answer"}; ` +
    "a private fork's is not readable from here)",
  "no-record": () => "GitHub has no record of a push to the head branch",
  disagree: (r, at) =>
    `GitHub's newest record of a push to the head branch (${at(r.pushedAt)}) does not show the pull request's head`,
  "too-close": (r, at) =>
    `the head branch was pushed to at ${at(r.pushedAt)}, less than a minute before your comment (${at(r.commentedAt)})`,
};

/** The one reply a run may make: only when it ended without a published report. */
export function renderRunFailure(
  commentId: number,
  headSha: string,
  problem: string,
  runUrl?: string,
): string {
  const where = runUrl && /^https:\/\/[^\s<>()]+$/.test(runUrl) ? ` See [the workflow run](${runUrl}).` : "";
  return [
    replyMarker(commentId),
    `The run on ${inlineCode(headSha.slice(0, 12), 20)} ended without a report: ${escapeInline(problem, 300)}.${where}`,
    "",
  ].join("\n");
}
