// Publishing the one Report where maintainers look: the job summary, the sticky PR comment, the
// check run (completed, with annotations) and for runs without a PR the tracking issue, each a
// publisher in ./publishers/ run from one list. The caller has already written the bundle files,
// so nothing here can lose the report, and nothing here changes the verdict: failures to publish
// become notices and errors in the result, never exceptions. Renderings: report/github.ts.
//
// Requests per run (counted by the client, 40 at most): start the check run (1), list comments
// (1, a second on threads longer than 100 comments, none when the PR was just opened), create or
// update the comment (1), the re-list after creating (1, a second when more than 100 comments
// are of the last ten minutes), complete the check run (1), plus one
// per further 50 annotations. A PR's first run (`opened`: no listing) and every run that finds
// its comment on a short thread need 4. On a long thread with ours buried in the middle, the id
// the last publication remembered on its check run is read (the previous head's, this head's,
// else the PR's newest commits': a command or fork publication knows no previous head); when
// nothing remembers it, up to 8 pages in between are listed, newest first (comment.ts).
//
// Priorities within that budget: the comment goes first with requests held back for the check
// run's conclusion; the conclusion carries the first 50 annotations; further annotations use only
// what is left (the tracking issue's requests held back), and what was dropped is said in the
// check run's summary and the notices.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { silentLogger } from "../log.js";
import { renderAbandonedCheckRun } from "../report/github.js";
import type { Report } from "../report/model.js";
import { checkRunSkipped } from "./check-run-gate.js";
import { completeCheckRun, createInProgressCheckRun } from "./checks.js";
import { createGitHubClient, type GitHubClient, PublishError } from "./client.js";
import type { EventContext } from "./context.js";
import type { PublishedSlices, PublishingOptions, PublishResult } from "./publishers/gathered.js";
import { PUBLISHERS } from "./publishers/index.js";
import { describeError as describe, recordFailure } from "./publishers/result.js";
import type { ClientOptions, PublisherOutcome, PublishRun, PublishSurroundings } from "./publishers/types.js";

export type { PublishingOptions, PublishResult } from "./publishers/gathered.js";

/** One publishing: its surroundings, the client, and every publisher's options (publishingOptions). */
export interface PublishOptions extends PublishSurroundings, ClientOptions {
  /** Every publisher's options, parsed (src/request/publishing.ts fills in the defaults). */
  publishing: PublishingOptions;
}

export const DEFAULT_CHECK_NAME = "docker-acceptance";

interface StartCheckRunOptions extends ClientOptions {
  context: EventContext;
  checkName?: string;
  /** This run's external_id (check-run-gate.ts externalIdFor): makes the create idempotent. */
  externalId?: string;
}

export interface StartCheckRunResult {
  checkRunId?: number;
  checkRunUrl?: string;
  client?: GitHubClient;
  notices: string[];
  /** Why the start failed; publishReport does not repeat a call that failed for want of a permission. */
  error?: PublishError;
}

/** Creates the `in_progress` check run at the start of a run. Never throws. */
export async function startCheckRun(opts: StartCheckRunOptions): Promise<StartCheckRunResult> {
  const ctx = opts.context;
  const skipped = checkRunSkipped(ctx, opts.token, opts.client);
  if (skipped) return skipped;
  const client = clientFor(opts);
  try {
    const ref = await createInProgressCheckRun(client, {
      owner: ctx.owner,
      repo: ctx.repo,
      headSha: ctx.sha,
      name: opts.checkName ?? DEFAULT_CHECK_NAME,
      detailsUrl: ctx.runUrl,
      externalId: opts.externalId,
    });
    return { checkRunId: ref.id, checkRunUrl: ref.url, client, notices: [] };
  } catch (err) {
    // Reported once, by publishReport (or by the caller when no report follows).
    const error = err instanceof PublishError ? err : new PublishError(describe(err), "network");
    return { client, notices: [], error };
  }
}

interface AbandonCheckRunOptions {
  client: GitHubClient;
  context: EventContext;
  checkRunId: number;
  checkName?: string;
  /** Why no report was made (already redacted): shown escaped in the check run's summary. */
  reason: string;
}

/**
 * Completes a check run that startCheckRun left `in_progress` when the step then ended without
 * a report (bad input, a missing shard, an engine failure): otherwise it spins on the pull
 * request until GitHub gives up on it. Never throws; returns a notice when it could not.
 */
export async function abandonCheckRun(opts: AbandonCheckRunOptions): Promise<string | undefined> {
  const ctx = opts.context;
  try {
    await completeCheckRun(
      opts.client,
      {
        owner: ctx.owner,
        repo: ctx.repo,
        headSha: ctx.sha,
        name: opts.checkName ?? DEFAULT_CHECK_NAME,
        checkRunId: opts.checkRunId,
      },
      renderAbandonedCheckRun(opts.reason, ctx.runUrl),
    );
    return undefined;
  } catch (err) {
    return `The in-progress check run could not be completed: ${describe(err)}`;
  }
}

/** Contents of event.json, the fork PR's hand-over to the trusted `publish` phase. */
interface ForkEvent {
  prNumber: number;
  headSha: string;
  repository: string;
}

/**
 * Publishes the report to every target in PUBLISHERS that applies, in order. The remote ones need
 * an event context and a token that may write: on a fork or Dependabot PR (read-only token) the
 * hand-over for the trusted workflow_run phase is written instead, and a notice says why.
 */
export async function publishReport(report: Report, opts: PublishOptions): Promise<PublishResult> {
  const result = { requests: 0, notices: [] as string[], errors: [] as PublishResult["errors"] };
  const slices: Record<string, PublisherOutcome> = {};
  const client = (await mayWrite(opts, result)) ? clientFor(opts) : undefined;
  const run = publishRun(report, opts, client, slices, result);
  const own = opts.publishing as never;
  for (const p of PUBLISHERS) slices[p.name] = p.initial(run);
  const due = PUBLISHERS.filter((p) => (!p.remote || run.client) && p.applies(run, own));
  for (const [i, p] of due.entries()) {
    const held = due.slice(i + 1).reduce((n, later) => n + later.reserve(run, own), 0);
    slices[p.name] = await p.publish(run, own, held);
  }
  result.requests = run.client?.requests() ?? 0;
  return { ...(slices as PublishedSlices), ...result };
}

function publishRun(
  report: Report,
  opts: PublishOptions,
  client: GitHubClient | undefined,
  results: Record<string, PublisherOutcome>,
  said: Pick<PublishResult, "notices" | "errors">,
): PublishRun {
  // Without a context there is no client, and only the local publishers (which never read ctx) run.
  const ctx = opts.context as EventContext;
  const checkName = opts.checkName ?? DEFAULT_CHECK_NAME;
  return {
    report,
    opts,
    ctx,
    checkName,
    client,
    results,
    failing: report.verdict === "fail" || report.verdict === "error",
    unverified: opts.provenance === "fork-unverified",
    target: {
      owner: ctx?.owner,
      repo: ctx?.repo,
      headSha: ctx?.sha,
      name: checkName,
      detailsUrl: ctx?.runUrl,
      checkRunId: opts.checkRunId,
      externalId: opts.externalId,
    },
    // A check run the token may not write is not asked for again: one missing permission, one message.
    checksRefused: opts.startError?.kind === "permission" && opts.checkRunId === undefined,
    log: opts.log ?? silentLogger,
    notice: (message) => said.notices.push(message),
    failed: (err) => recordFailure(said, err),
  };
}

/** Whether this run may post to GitHub; when not, the notice that says why (and a fork's hand-over). */
async function mayWrite(opts: PublishOptions, result: { notices: string[] }): Promise<boolean> {
  const ctx = opts.context;
  if (!ctx) {
    result.notices.push(
      "Not in a GitHub Actions event context (GITHUB_REPOSITORY unset): nothing published.",
    );
    return false;
  }
  if (ctx.readOnly && ctx.pr) {
    await handOverFork(ctx, opts.bundleDir, result);
    return false;
  }
  if (ctx.readOnly) {
    // Dependabot's push (no pull request): nothing to hand over, nothing this token may post.
    result.notices.push(
      "Run triggered by Dependabot: this run's token is read-only, so no check run or tracking issue is posted. The report files and job summary are complete.",
    );
    return false;
  }
  if (!opts.token && !opts.client) {
    result.notices.push("No GitHub token: nothing posted. The report files and job summary are complete.");
    return false;
  }
  return true;
}

/** A fork's (or Dependabot's) PR: event.json beside the bundle, for the trusted publish phase. */
async function handOverFork(ctx: EventContext, bundleDir: string | undefined, result: { notices: string[] }) {
  const pr = ctx.pr!;
  if (bundleDir) {
    const event: ForkEvent = {
      prNumber: pr.number,
      headSha: pr.headSha,
      repository: `${ctx.owner}/${ctx.repo}`,
    };
    await mkdir(bundleDir, { recursive: true });
    await writeFile(path.join(bundleDir, "event.json"), `${JSON.stringify(event, null, 2)}\n`);
  }
  const who = ctx.readOnlyReason === "dependabot" ? "Pull request by Dependabot" : "Pull request from a fork";
  result.notices.push(
    `${who}: this run's token is read-only, so the comment and check run are not posted here. ` +
      `Upload the report bundle${bundleDir ? ` together with ${path.join(bundleDir, "event.json")}` : ""} as an artifact; the trusted workflow_run ` +
      'workflow posts it with `docker-acceptance publish` (README, "Fork pull requests").',
  );
}

function clientFor(opts: ClientOptions): GitHubClient {
  return (
    opts.client ??
    createGitHubClient({
      token: opts.token ?? "",
      baseUrl: opts.apiUrl,
      log: opts.log,
      retryAfterBaseMs: opts.retryAfterBaseMs,
    })
  );
}
