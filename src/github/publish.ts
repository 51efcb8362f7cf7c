// Publishing the one Report where maintainers look: the check run (completed, with annotations),
// the sticky PR comment, and for runs without a PR the tracking issue. The caller has already
// written the bundle files and the job summary, so nothing here can lose the report, and
// nothing here changes the verdict: failures to publish become notices and errors in the
// result, never exceptions.
//
// Requests per run (counted by the client, 40 at most): start the check run (1), list comments
// (1, a second on threads longer than 100 comments, none when the PR was just opened), create or
// update the comment (1), the re-list after creating (1), complete the check run (1), plus one
// per further 50 annotations. A PR's first run (`opened`: no listing) and every run that finds
// its comment on a short thread need 4.
//
// Priorities within that budget: the comment goes first with requests held back for the check
// run's conclusion; the conclusion carries the first 50 annotations; further annotations use only
// what is left (the tracking issue's requests held back), and what was dropped is said in the
// check run's summary and the notices.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorEvidence } from "../errors.js";
import { type Logger, silentLogger } from "../log.js";
import { escapeInline } from "../report/escape.js";
import { renderMarkdown } from "../report/markdown.js";
import type { Report } from "../report/model.js";
import {
  buildAnnotations,
  commentIdOf,
  completeCheckRun,
  conclusionFor,
  createInProgressCheckRun,
  listCheckRuns,
} from "./checks.js";
import { createGitHubClient, type GitHubClient, PublishError } from "./client.js";
import {
  type CommentMode,
  type CommentOnPass,
  type CommentUpdate,
  commentMarker,
  stateMarker,
  upsertStickyComment,
} from "./comment.js";
import type { EventContext } from "./context.js";
import { issueMarker, syncTrackingIssue } from "./issue.js";

export const DEFAULT_CHECK_NAME = "docker-acceptance";

export interface ClientOptions {
  /** GITHUB_TOKEN or another token; without one nothing is posted (a notice says so). */
  token?: string;
  /** Defaults to GITHUB_API_URL. */
  apiUrl?: string;
  /** Reuse one client across startCheckRun and publishReport so the request count is per run. */
  client?: GitHubClient;
  log?: Logger;
  /** Test seam: shortens waits between retries. */
  retryAfterBaseMs?: number;
}

export interface StartCheckRunOptions extends ClientOptions {
  context: EventContext;
  checkName?: string;
  /** This run's external_id (checks.ts externalIdFor): makes the create idempotent. */
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
  if (ctx.readOnly) return { notices: [] }; // publishReport explains the fork case once.
  if (!opts.token && !opts.client) return { notices: ["No GitHub token: no check run is created."] };
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

export interface AbandonCheckRunOptions {
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
      {
        conclusion: "failure",
        title: "No report: the step failed before producing one",
        summary: `The step failed before producing a report: ${escapeInline(opts.reason, 1000)}${ctx.runUrl ? `\n\nSee the [job log](${ctx.runUrl}).` : ""}`,
        annotations: [],
      },
    );
    return undefined;
  } catch (err) {
    return `The in-progress check run could not be completed: ${describe(err)}`;
  }
}

export interface PublishOptions extends ClientOptions {
  context: EventContext;
  checkName?: string;
  /** `always` (default), `on-failure` (create only when failing; an existing comment is still updated), `never`. */
  comment?: CommentMode;
  /** Runs without a PR: open/update a tracking issue on failure, close it when green. */
  issueOnFailure?: boolean;
  /** From startCheckRun; without it the check run is created already completed. */
  checkRunId?: number;
  /** The bundle directory: on a fork PR, event.json is written here for the workflow_run phase. */
  bundleDir?: string;
  /** Login whose comments and issues are ours (see comment.ts); default github-actions[bot]. */
  commentAuthor?: string;
  /** Post the comment at all (the `publish` command turns it off when the PR head moved on). */
  postComment?: boolean;
  /**
   * `fork-unverified`: the report was produced by the fork's own workflow (fork recipe, phase 2).
   * The check run concludes `neutral` at most and every rendering says so on its first line.
   */
  provenance?: Provenance;
  /** `on-change`: leave the comment alone when the report says the same as last time. */
  commentUpdate?: CommentUpdate;
  /** What a passing run does to an earlier failing comment. */
  commentOnPass?: CommentOnPass;
  /** Most annotations to send (at most GitHub's 1,000). */
  maxAnnotations?: number;
  /** This run's external_id (see startCheckRun); the completed check run also remembers the comment's id. */
  externalId?: string;
  /** startCheckRun's error: a missing permission is not asked again, and reported once. */
  startError?: PublishError;
}

export type Provenance = "trusted" | "fork-unverified";

export interface PublishResult {
  commentId?: number;
  checkRunId?: number;
  issueNumber?: number;
  checkRunUrl?: string;
  comment:
    | "created"
    | "updated"
    | "unchanged"
    | "kept"
    | "hidden"
    | "deleted"
    | "skipped"
    | "failed"
    | "not-applicable";
  checkRun: "completed" | "failed" | "skipped";
  issue: "opened" | "updated" | "closed" | "none" | "failed" | "not-applicable";
  /** HTTP requests to GitHub this run made through the client, retries included. */
  requests: number;
  /** Things a maintainer should know (fork PR skipped, permission missing, ...). Never secret. */
  notices: string[];
  errors: Array<{ kind: string; message: string }>;
}

/** Contents of event.json, the fork PR's hand-over to the trusted `publish` phase. */
export interface ForkEvent {
  prNumber: number;
  headSha: string;
  repository: string;
}

export async function publishReport(report: Report, opts: PublishOptions): Promise<PublishResult> {
  const ctx = opts.context;
  const checkName = opts.checkName ?? DEFAULT_CHECK_NAME;
  const result: PublishResult = {
    comment: ctx.pr ? "skipped" : "not-applicable",
    checkRun: "skipped",
    issue: "not-applicable",
    requests: 0,
    notices: [],
    errors: [],
  };

  if (ctx.readOnly && ctx.pr) {
    if (opts.bundleDir) {
      const event: ForkEvent = {
        prNumber: ctx.pr.number,
        headSha: ctx.pr.headSha,
        repository: `${ctx.owner}/${ctx.repo}`,
      };
      await mkdir(opts.bundleDir, { recursive: true });
      await writeFile(path.join(opts.bundleDir, "event.json"), `${JSON.stringify(event, null, 2)}\n`);
    }
    const who =
      ctx.readOnlyReason === "dependabot" ? "Pull request by Dependabot" : "Pull request from a fork";
    result.notices.push(
      `${who}: this run's token is read-only, so the comment and check run are not posted here. ` +
        `Upload the report bundle${opts.bundleDir ? ` together with ${path.join(opts.bundleDir, "event.json")}` : ""} as an artifact; the trusted workflow_run ` +
        'workflow posts it with `docker-acceptance publish` (README, "Fork pull requests").',
    );
    return result;
  }
  if (ctx.readOnly) {
    // Dependabot's push (no pull request): nothing to hand over, nothing this token may post.
    result.notices.push(
      "Run triggered by Dependabot: this run's token is read-only, so no check run or tracking issue is posted. The report files and job summary are complete.",
    );
    return result;
  }
  if (!opts.token && !opts.client) {
    result.notices.push("No GitHub token: nothing posted. The report files and job summary are complete.");
    return result;
  }

  const client = clientFor(opts);
  const failing = report.verdict === "fail" || report.verdict === "error";
  const log = opts.log ?? silentLogger;
  const unverified = opts.provenance === "fork-unverified";
  const target = {
    owner: ctx.owner,
    repo: ctx.repo,
    headSha: ctx.sha,
    name: checkName,
    detailsUrl: ctx.runUrl,
    checkRunId: opts.checkRunId,
    externalId: opts.externalId,
  };
  // A check run the token may not write is not asked for again: one missing permission, one message.
  const checksRefused = opts.startError?.kind === "permission" && opts.checkRunId === undefined;

  if (ctx.pr && opts.postComment !== false) {
    const pr = ctx.pr;
    const marker = commentMarker(checkName);
    const state = { verdict: report.verdict, digest: contentDigest(report) };
    // Requests held back for the conclusion (and its retries) while the comment is posted.
    client.reserve = checksRefused ? 0 : CONCLUSION_RESERVE;
    try {
      const c = await upsertStickyComment(client, {
        owner: ctx.owner,
        repo: ctx.repo,
        issueNumber: pr.number,
        body: renderMarkdown(report, {
          target: "comment",
          checkName,
          marker: marker + stateMarker(state),
          unverified,
        }),
        marker,
        mode: opts.comment ?? "always",
        failing,
        author: opts.commentAuthor,
        mayExist: pr.action !== "opened",
        findKnownId: () => rememberedCommentId(client, target, pr.previousSha ?? pr.headSha),
        update: opts.commentUpdate,
        onPass: opts.commentOnPass,
        state,
      });
      result.comment = c.action;
      result.commentId = c.id;
      const racing = c.removedDuplicates.length - c.retryDuplicates;
      if (c.retryDuplicates > 0) {
        result.notices.push(
          `A retried request had already created the comment (GitHub applied it but its answer was lost); removed the duplicate.`,
        );
      }
      if (racing > 0) {
        result.notices.push(`Another run commented concurrently; kept one comment, removed ${racing}.`);
      }
    } catch (err) {
      result.comment = "failed";
      fail(result, err, log);
    } finally {
      client.reserve = 0;
    }
  }

  if (checksRefused) {
    result.checkRun = "failed";
    fail(result, opts.startError, log);
  } else {
    try {
      // After the completing request: the tracking issue's requests, then retries' headroom.
      const held = (!ctx.pr && opts.issueOnFailure ? ISSUE_RESERVE : 0) + RETRY_HEADROOM;
      const done = await completeCheckRun(
        client,
        { ...target, commentId: result.commentId },
        {
          // A result the fork produced itself can never turn a check green.
          conclusion: unverified && report.verdict === "pass" ? "neutral" : conclusionFor(report.verdict),
          title: unverified ? `UNVERIFIED (fork's own workflow) ${checkTitle(report)}` : checkTitle(report),
          summary: renderMarkdown(report, { target: "check-summary", checkName, unverified }),
          text: renderMarkdown(report, { target: "check-text", checkName, unverified }),
          annotations: buildAnnotations(report),
        },
        { max: opts.maxAnnotations, extraRequests: client.remaining() - 1 - held },
      );
      result.checkRunId = done.id;
      result.checkRunUrl = done.url;
      result.checkRun = "completed";
      if (done.note) result.notices.push(done.note);
    } catch (err) {
      result.checkRun = "failed";
      result.checkRunId = opts.checkRunId;
      fail(result, err, log);
    }
  }

  if (!ctx.pr && opts.issueOnFailure) {
    try {
      const marker = issueMarker(checkName);
      const i = await syncTrackingIssue(client, {
        owner: ctx.owner,
        repo: ctx.repo,
        checkName,
        failing,
        body: renderMarkdown(report, { target: "comment", checkName, marker }),
        sha: ctx.sha,
        runUrl: ctx.runUrl,
        author: opts.commentAuthor,
      });
      result.issue = i.action;
      result.issueNumber = i.number;
    } catch (err) {
      result.issue = "failed";
      fail(result, err, log);
    }
  }

  result.requests = client.requests();
  return result;
}

/** Completing the check run: one request and two retries. */
const CONCLUSION_RESERVE = 3;
/** The tracking issue: up to 3 listings and 2 writes. */
const ISSUE_RESERVE = 5;
const RETRY_HEADROOM = 2;

/**
 * The comment id an earlier run of this check remembered on its check run: on the commit before
 * the push (`synchronize`), else on this head (a re-run). Never throws: without it we list.
 */
async function rememberedCommentId(
  client: GitHubClient,
  t: { owner: string; repo: string; name: string },
  ref: string,
): Promise<number | undefined> {
  try {
    for (const r of await listCheckRuns(client, t, ref)) {
      const id = commentIdOf(r.external_id);
      if (id !== undefined) return id;
    }
  } catch {
    // A missing permission or an outage here only costs the hint.
  }
  return undefined;
}

/**
 * What the comment says, as a digest: verdict, head, every case's outcome and words, pins,
 * completeness, alignment and external findings. Durations and run ids are left out, so a re-run
 * with the same outcome counts as unchanged (`comment-update: on-change`).
 */
export function contentDigest(report: Report): string {
  const content = {
    verdict: report.verdict,
    head: report.head?.sha,
    cases: report.cases.map((c) => [c.subject, c.id, c.status, c.severity, c.message, c.remediation ?? ""]),
    artifacts: report.artifacts.map((a) => [a.path, a.ok, a.actual]),
    complete: report.inventory?.complete,
    alignment: (report.alignment?.findings ?? []).map((f) => [f.tier, f.title, f.path, f.line]),
    external: report.external,
    errors: report.errors.map((e) => [e.kind, e.message]),
  };
  return createHash("sha256").update(JSON.stringify(content)).digest("hex").slice(0, 16);
}

/** The check run title: verdict and counts, no untrusted text. */
export function checkTitle(report: Report): string {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const c of report.cases) {
    if (c.status === "pass") passed++;
    else if (c.status === "skip") skipped++;
    else failed++;
  }
  return `${report.verdict.toUpperCase()}: ${failed} failed, ${passed} passed, ${skipped} skipped`;
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

function describe(err: unknown): string {
  return err instanceof PublishError ? err.message : errorEvidence(err).message;
}

/**
 * Records a publishing failure in `errors` and, for callers that print notices only, `notices`;
 * the action prints each message once (a warning). Not logged here: once is enough.
 */
function fail(result: PublishResult, err: unknown, _log: Logger): void {
  const message = describe(err);
  result.errors.push({ kind: err instanceof PublishError ? err.kind : "publish", message });
  result.notices.push(message);
}
