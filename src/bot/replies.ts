// The bot's replies. Each is short, names no one with an @-mention, escapes everything a
// commenter wrote, and shows commands only inside code, so a reply quoted back (or posted by a
// user token, whose comments do trigger workflows) can never be read as a command itself.
import { escapeInline, inlineCode } from "../report/escape.js";

/** First line of every reply: lets a reader (or a later clean-up) tell our replies apart. */
export function replyMarker(commentId: number): string {
  return `<!-- docker-acceptance:reply-to:${commentId} -->`;
}

export const ALLOWED_PERMISSIONS = ["write", "maintain", "admin"] as const;

const COMMANDS = [
  "| Command | What it does | Who |",
  "| --- | --- | --- |",
  "| `/acceptance run` | runs every subject's lifecycle and containment suites on the PR's current head commit | write, maintain or admin |",
  "| `/acceptance run api web` | runs only the named subjects (inventory names) | write, maintain or admin |",
  "| `/acceptance help` | this message | anyone |",
].join("\n");

export function renderHelp(commentId: number, problem?: string): string {
  const lead = problem
    ? `That command was not understood (${escapeInline(problem, 120)}). Commands go at the start of a line:`
    : "Commands go at the start of a line of a pull request comment:";
  return [
    replyMarker(commentId),
    lead,
    "",
    COMMANDS,
    "",
    "A run uses the head commit read when the command is accepted (👀); the report comment names it, " +
      "and 🚀 or 😕 on the command tells how it ended. Commands in code blocks or quotes are ignored. " +
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

export function renderClosed(commentId: number, pr: number): string {
  return [
    replyMarker(commentId),
    `Pull request #${pr} is closed, so nothing was run. Reopen it and comment the run command again.`,
    "",
  ].join("\n");
}

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
