// The two ends of a command run as the action's doors call them (docs/commands.md):
//  - accept (`mode: command`): the decision, and the step outputs later jobs read (./outputs.ts);
//  - publish (`mode: publish` with the `command` input): pin the report to the accepted SHA,
//    mark it stale if the PR moved on, update the one report comment and check run, then
//    finish the command with 🚀 or 😕 (and a reply only if no report could be posted).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { UsageError } from "../errors.js";
import type { GitHubClient } from "../github/client.js";
import { type PublishOptions, type PublishResult, publishReport } from "../github/publish.js";
import type { Logger } from "../log.js";
import type { Report } from "../report/model.js";
import { type PublishingOptions, publishingOptions } from "../request/publishing.js";
import { commandEventContext, type RunDecision } from "./decision.js";
import { finishCommand, isHeadStale, type Reaction, reactionFor } from "./handle.js";
import { applyPinnedHead } from "./stale.js";

/** The webhook payload the runner saved at GITHUB_EVENT_PATH. */
export function readEventPayload(file: string | undefined): unknown {
  if (!file)
    throw new UsageError("GITHUB_EVENT_PATH is not set: the command step runs only in GitHub Actions");
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(
      `GITHUB_EVENT_PATH ${file}: cannot read the event payload (${(err as Error).message})`,
    );
  }
}

/**
 * The suites job's guard: the workspace must be checked out at the accepted SHA, or the run
 * would test (and the report would describe) some other commit. Returns the SHA.
 */
export async function assertWorkspaceAt(workspace: string, decision: RunDecision): Promise<string> {
  let head: string;
  try {
    const { stdout } = await promisify(execFile)("git", ["rev-parse", "HEAD"], { cwd: workspace });
    head = stdout.trim();
  } catch (err) {
    throw new UsageError(
      `${workspace}: not a git checkout (${(err as Error).message.split("\n")[0]}) ` +
        `(fix: check out the accepted commit first: actions/checkout with ref: ${decision.headSha})`,
    );
  }
  if (head !== decision.headSha) {
    throw new UsageError(
      `${workspace} is at ${head}, but the command accepted ${decision.headSha} ` +
        "(fix: in the suites job, check out the accept job's `head-sha` output as `ref:`, as docs/workflows/acceptance-commands.yml does)",
    );
  }
  return head;
}

interface PublishCommandOptions
  extends Pick<PublishOptions, "checkName" | "commentAuthor" | "checkRunId" | "externalId"> {
  /** The publishers' options (src/request/publishing.ts); their defaults when absent. */
  publishing?: PublishingOptions;
  client: GitHubClient;
  runUrl?: string;
  log?: Logger;
}

interface PublishCommandResult {
  /** The report as published (pinned head, stale mark); null when there was none. */
  report: Report | null;
  published?: PublishResult;
  reaction: Reaction;
  replyId?: number;
}

/** Publishes a command run's report (or its absence) and finishes the command. */
export async function publishCommandRun(
  report: Report | null,
  decision: RunDecision,
  opts: PublishCommandOptions,
): Promise<PublishCommandResult> {
  const deps = { client: opts.client, log: opts.log };
  if (report === null) {
    const done = await finishCommand(
      decision,
      { verdict: "error", failure: "the suites job produced no report bundle", runUrl: opts.runUrl },
      deps,
    );
    return { report: null, ...done };
  }
  const head = await isHeadStale(
    opts.client,
    { owner: decision.owner, repo: decision.repo, number: decision.pr },
    decision.headSha,
  );
  const pinned = applyPinnedHead(report, decision, head);
  const published = await publishReport(pinned, {
    client: opts.client,
    log: opts.log,
    context: commandEventContext(decision, opts.runUrl),
    checkName: opts.checkName,
    commentAuthor: opts.commentAuthor,
    checkRunId: opts.checkRunId,
    externalId: opts.externalId,
    publishing: opts.publishing ?? publishingOptions(),
  });
  // The report comment is the command's answer; only if it could not be posted do we reply.
  const failure =
    published.comment.outcome === "failed"
      ? `the report comment could not be posted (${published.errors.map((e) => e.message).join("; ") || "see the job log"})`
      : undefined;
  const outcome = { verdict: pinned.verdict, failure, runUrl: opts.runUrl };
  try {
    return { report: pinned, published, ...(await finishCommand(decision, outcome, deps)) };
  } catch (err) {
    // The reply failed the way the comment did (same token, same permission): the job log and
    // summary still have the report, and the reaction below was already attempted.
    opts.log?.warn(`docker-acceptance bot: ${(err as Error).message}`);
    return { report: pinned, published, reaction: reactionFor(pinned.verdict) };
  }
}
