// The check run: created `in_progress` when the run starts (so the PR shows it running), then
// completed with conclusion, title, summary, text and annotations. GitHub takes at most 50
// annotations per request and appends them on each update, so the first 50 ride on the
// completing request and every further 50 cost one more update.
import { plainText } from "../report/escape.js";
import { levelOf, type Report, type Verdict } from "../report/model.js";
import { call, type GitHubClient } from "./client.js";

export const ANNOTATIONS_PER_REQUEST = 50;
/** GitHub's own cap on annotations per check run; beyond it they are dropped with a notice. */
export const MAX_ANNOTATIONS = 1000;

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
}

export interface CheckTarget {
  owner: string;
  repo: string;
  headSha: string;
  name: string;
  detailsUrl?: string;
  externalId?: string;
}

/** The one create call: in progress at the start, or already completed when the start was skipped. */
async function createCheckRun(
  client: GitHubClient,
  t: CheckTarget,
  fields: Omit<
    Parameters<GitHubClient["octokit"]["rest"]["checks"]["create"]>[0] & object,
    "owner" | "repo" | "name" | "head_sha"
  >,
): Promise<number> {
  const res = await call("checks: write", "create the check run", () =>
    client.octokit.rest.checks.create({
      owner: t.owner,
      repo: t.repo,
      name: t.name,
      head_sha: t.headSha,
      ...(t.detailsUrl ? { details_url: t.detailsUrl } : {}),
      ...(t.externalId ? { external_id: t.externalId } : {}),
      ...fields,
    }),
  );
  return res.data.id;
}

export function createInProgressCheckRun(client: GitHubClient, t: CheckTarget): Promise<number> {
  return createCheckRun(client, t, { status: "in_progress", started_at: new Date().toISOString() });
}

export interface CheckResult {
  conclusion: "success" | "neutral" | "failure";
  title: string;
  summary: string;
  text?: string;
  annotations: Annotation[];
}

export function conclusionFor(verdict: Verdict): CheckResult["conclusion"] {
  return verdict === "pass" ? "success" : verdict === "warn" ? "neutral" : "failure";
}

/**
 * Completes the check run `checkRunId`, or creates it completed when the start failed or was
 * skipped. Returns its id and the number of requests made.
 */
export async function completeCheckRun(
  client: GitHubClient,
  t: CheckTarget & { checkRunId?: number },
  r: CheckResult,
): Promise<{ id: number; requests: number; droppedAnnotations: number }> {
  const kept = r.annotations.slice(0, MAX_ANNOTATIONS);
  const batches: Annotation[][] = [];
  for (let i = 0; i < kept.length; i += ANNOTATIONS_PER_REQUEST)
    batches.push(kept.slice(i, i + ANNOTATIONS_PER_REQUEST));
  const output = (annotations: Annotation[] | undefined) => ({
    title: r.title,
    summary: r.summary,
    ...(r.text ? { text: r.text } : {}),
    ...(annotations?.length ? { annotations } : {}),
  });
  const done = {
    status: "completed" as const,
    conclusion: r.conclusion,
    completed_at: new Date().toISOString(),
  };
  let id = t.checkRunId;
  if (id === undefined) {
    id = await createCheckRun(client, t, { ...done, output: output(batches[0]) });
  } else {
    const runId = id;
    await call("checks: write", "complete the check run", () =>
      client.octokit.rest.checks.update({
        owner: t.owner,
        repo: t.repo,
        check_run_id: runId,
        ...done,
        output: output(batches[0]),
      }),
    );
  }
  const runId = id;
  for (const batch of batches.slice(1)) {
    // Title and summary are required with every output; text is not, so it is sent once.
    await call("checks: write", "add check run annotations", () =>
      client.octokit.rest.checks.update({
        owner: t.owner,
        repo: t.repo,
        check_run_id: runId,
        output: { title: r.title, summary: r.summary, annotations: batch },
      }),
    );
  }
  return {
    id: runId,
    requests: Math.max(1, batches.length),
    droppedAnnotations: r.annotations.length - kept.length,
  };
}

/**
 * Annotations point at the file and line a maintainer must change: the Dockerfile line a case
 * names, the inventory line pinning a mismatched artifact, the line an alignment finding or an
 * external linter (on the PR's added lines only) reports. Messages are plain text, not markdown.
 */
export function buildAnnotations(report: Report): Annotation[] {
  const out: Annotation[] = [];
  const add = (
    path: string | undefined,
    line: number | undefined,
    level: Annotation["annotation_level"],
    title: string,
    message: string,
  ) => {
    if (!path || path.startsWith("/") || path.includes("..")) return;
    const l = line && line > 0 ? line : 1;
    out.push({
      path: plainText(path, 500),
      start_line: l,
      end_line: l,
      annotation_level: level,
      title: plainText(title, 255),
      message: plainText(message || title, 4000),
    });
  };
  for (const c of report.cases) {
    if (c.status !== "fail" && c.status !== "error") continue;
    const level = c.status === "fail" && c.severity === "warn" ? "warning" : "failure";
    const msg = c.remediation ? `${c.message}\nFix: ${c.remediation}` : c.message;
    add(c.location?.path, c.location?.line, level, `${c.subject} ${c.id}`, msg);
  }
  const inv = report.inventory;
  for (const a of report.artifacts) {
    if (a.ok) continue;
    const msg = `${a.path}: sha256 is ${a.actual ?? "missing (no such file)"}, pinned ${a.expected}. If the change is intended, run \`docker-acceptance pin\` and commit the inventory.`;
    if (inv && a.line) add(inv.path, a.line, "failure", "Artifact hash mismatch", msg);
    else add(a.path, undefined, "failure", "Artifact hash mismatch", msg);
  }
  for (const f of report.alignment?.findings ?? []) {
    // One annotation per listed place: the finding is one entry, each line still gets its mark.
    const level = levelOf(f) === "blocking" ? "failure" : "notice";
    const places = f.locations.length > 0 ? f.locations : [{ path: f.path, line: f.line }];
    for (const p of places) add(p.path, p.line, level, f.title, f.concern);
  }
  for (const f of report.external.lint?.findings ?? []) {
    if (f.onAddedLine) add(f.path, f.line, "warning", f.rule, f.message);
  }
  return out;
}
