// The check run's transport: created `in_progress` when the run starts (so the PR shows it running),
// then completed with the output report/github.ts renders (conclusion, title, summary, text,
// annotations). GitHub takes at most 50 annotations per request and appends them on each update,
// so the first 50 ride on the completing request and every further 50 cost one more update.
import { type Annotation, type CheckRunOutput, describeDropped, MAX_ANNOTATIONS } from "../report/github.js";
import { call, type GitHubClient, toPublishError } from "./client.js";

const ANNOTATIONS_PER_REQUEST = 50;
export interface CheckTarget {
  owner: string;
  repo: string;
  headSha: string;
  name: string;
  detailsUrl?: string;
  externalId?: string;
}

/** The external_id a completed check run carries: this run's, plus the comment it posted. */
function withCommentId(externalId: string, commentId: number | undefined): string {
  return commentId === undefined ? externalId : `${externalId}:c${commentId}`;
}

/** The comment id a check run remembered in its external_id, if any. */
export function commentIdOf(externalId: string | null | undefined): number | undefined {
  const m = /^da:[^:]+:[^:]+:c(\d+)$/.exec(externalId ?? "");
  return m ? Number(m[1]) : undefined;
}

interface ListedCheckRun {
  id: number;
  status: string;
  external_id: string | null;
  html_url: string | null;
}

/** Check runs named `target.name` on `ref`, newest first (one page: a commit rarely has 100 of one name). */
export async function listCheckRuns(
  client: GitHubClient,
  target: Pick<CheckTarget, "owner" | "repo" | "name">,
  ref: string,
): Promise<ListedCheckRun[]> {
  const res = await call("checks: write", "list the commit's check runs", () =>
    client.octokit.rest.checks.listForRef({
      owner: target.owner,
      repo: target.repo,
      ref,
      check_name: target.name,
      filter: "all",
      per_page: 100,
    }),
  );
  return res.data.check_runs as ListedCheckRun[];
}

/** This run's check runs (by external_id), newest first. */
async function findOwn(client: GitHubClient, t: CheckTarget): Promise<ListedCheckRun[]> {
  const runs = await listCheckRuns(client, t, t.headSha);
  return runs.filter((r) => r.external_id === t.externalId || r.external_id?.startsWith(`${t.externalId}:`));
}

/**
 * The one create call: in progress at the start, or already completed when the start was skipped.
 * Idempotent: Octokit's blind retry is off for it; after a 5xx or a network failure the run's
 * own check run is looked up by external_id, and created again only when GitHub has none.
 */
async function createCheckRun(
  client: GitHubClient,
  t: CheckTarget,
  fields: Omit<
    Parameters<GitHubClient["octokit"]["rest"]["checks"]["create"]>[0] & object,
    "owner" | "repo" | "name" | "head_sha"
  >,
): Promise<CheckRunRef> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await client.octokit.rest.checks.create({
        owner: t.owner,
        repo: t.repo,
        name: t.name,
        head_sha: t.headSha,
        ...(t.detailsUrl ? { details_url: t.detailsUrl } : {}),
        ...(t.externalId ? { external_id: t.externalId } : {}),
        ...fields,
        request: { retries: 0 },
      });
      return { id: res.data.id, url: res.data.html_url ?? undefined };
    } catch (err) {
      const e = toPublishError(err, "checks: write", "create the check run");
      if (!t.externalId || (e.kind !== "server" && e.kind !== "network") || attempt > CREATE_RETRIES) throw e;
      const [own] = await findOwn(client, t);
      if (own) return { id: own.id, url: own.html_url ?? undefined, found: true };
    }
  }
}

const CREATE_RETRIES = 2;

interface CheckRunRef {
  id: number;
  url?: string;
  /** True when the create's answer was lost and the check run was found by its external_id. */
  found?: boolean;
}

export function createInProgressCheckRun(client: GitHubClient, target: CheckTarget): Promise<CheckRunRef> {
  return createCheckRun(client, target, { status: "in_progress", started_at: new Date().toISOString() });
}

interface AnnotationLimits {
  /** The most annotations to send (input `max-annotations`); GitHub keeps at most 1,000. */
  max?: number;
  /** Update requests the budget allows after the completing one (each carries 50 more). */
  extraRequests?: number;
}

interface AnnotationPlan {
  batches: Annotation[][];
  /** Left out by `max` (or GitHub's 1,000) and by the request budget. */
  dropped: { cap: number; budget: number };
}

/** Which annotations go out: the first 50 ride on the completing request, each further 50 cost one. */
function planAnnotations(all: Annotation[], limits: AnnotationLimits = {}): AnnotationPlan {
  const cap = Math.max(0, Math.min(limits.max ?? MAX_ANNOTATIONS, MAX_ANNOTATIONS));
  const capped = all.slice(0, cap);
  const extra = Math.max(0, limits.extraRequests ?? Number.POSITIVE_INFINITY);
  const batches: Annotation[][] = [];
  for (let i = 0; i < capped.length && batches.length <= extra; i += ANNOTATIONS_PER_REQUEST)
    batches.push(capped.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const sent = batches.reduce((n, b) => n + b.length, 0);
  return { batches, dropped: { cap: all.length - capped.length, budget: capped.length - sent } };
}

/**
 * Completes the check run `checkRunId`, or creates it completed when the start failed or was
 * skipped. The completing request carries the conclusion and the first 50 annotations; further
 * batches follow only as far as `limits` allow, and what was left out is said in the summary.
 */
export async function completeCheckRun(
  client: GitHubClient,
  target: CheckTarget & { checkRunId?: number; commentId?: number },
  rendered: CheckRunOutput,
  limits: AnnotationLimits = {},
): Promise<{ id: number; url?: string; requests: number; dropped: AnnotationPlan["dropped"]; note: string }> {
  const { batches, dropped } = planAnnotations(rendered.annotations, limits);
  const note = describeDropped(dropped, limits.max);
  const summary =
    note && Buffer.byteLength(rendered.summary) + note.length + 2 <= SUMMARY_BYTES
      ? `${rendered.summary}\n\n${note}`
      : rendered.summary;
  const output = (annotations: Annotation[] | undefined) => ({
    title: rendered.title,
    summary,
    ...(rendered.text ? { text: rendered.text } : {}),
    ...(annotations?.length ? { annotations } : {}),
  });
  const done = {
    status: "completed" as const,
    conclusion: rendered.conclusion,
    completed_at: new Date().toISOString(),
  };
  let ref: CheckRunRef;
  if (target.checkRunId === undefined) {
    // Created completed (the start was skipped or failed): it remembers the comment's id as well.
    const externalId = target.externalId && withCommentId(target.externalId, target.commentId);
    ref = await createCheckRun(client, { ...target, externalId }, { ...done, output: output(batches[0]) });
  } else {
    const runId = target.checkRunId;
    const res = await call("checks: write", "complete the check run", () =>
      client.octokit.rest.checks.update({
        owner: target.owner,
        repo: target.repo,
        check_run_id: runId,
        ...done,
        // The comment's id, remembered for the next run (see comment.ts).
        ...(target.externalId && target.commentId !== undefined
          ? { external_id: withCommentId(target.externalId, target.commentId) }
          : {}),
        output: output(batches[0]),
      }),
    );
    ref = { id: runId, url: res.data.html_url ?? undefined };
  }
  const runId = ref.id;
  for (const batch of batches.slice(1)) {
    // Title and summary are required with every output; text is not, so it is sent once.
    await call("checks: write", "add check run annotations", () =>
      client.octokit.rest.checks.update({
        owner: target.owner,
        repo: target.repo,
        check_run_id: runId,
        output: { title: rendered.title, summary, annotations: batch },
      }),
    );
  }
  return { id: runId, url: ref.url, requests: Math.max(1, batches.length), dropped, note };
}

const SUMMARY_BYTES = 65_535;

/**
 * Completes this run's check runs still in progress (the post step: main was killed, or its
 * create was applied twice). Returns how many it completed.
 */
export async function completeLeftInProgress(
  client: GitHubClient,
  target: CheckTarget & { externalId: string },
  summary: string,
): Promise<number> {
  const open = (await findOwn(client, target)).filter((r) => r.status !== "completed");
  for (const r of open) {
    await call("checks: write", "complete a check run left in progress", () =>
      client.octokit.rest.checks.update({
        owner: target.owner,
        repo: target.repo,
        check_run_id: r.id,
        status: "completed",
        conclusion: "cancelled",
        completed_at: new Date().toISOString(),
        output: { title: "The step ended before completing this check run", summary },
      }),
    );
  }
  return open.length;
}
