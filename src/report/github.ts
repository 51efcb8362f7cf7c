// What each GitHub surface shows of the one Report: the check run's conclusion, title, summary,
// text and annotations, the comment's and the tracking issue's bodies, the job summary, and the
// digest a comment remembers. Pure renderings; src/github/ only carries them (github/publishers/).
import { createHash } from "node:crypto";
import { escapeInline, plainText } from "./escape.js";
import { renderMarkdown } from "./markdown.js";
import { levelOf, type Report, type Verdict } from "./model.js";

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

export interface CheckRunOutput {
  conclusion: "success" | "neutral" | "failure";
  title: string;
  summary: string;
  text?: string;
  annotations: Annotation[];
}

interface SurfaceOptions {
  checkName: string;
  /** The report was produced by the fork's own workflow: every surface says so on its first line. */
  unverified?: boolean;
}

/** The completed check run: a result the fork produced itself can never turn a check green. */
export function renderCheckRun(report: Report, options: SurfaceOptions): CheckRunOutput {
  const { checkName, unverified } = options;
  return {
    conclusion: unverified && report.verdict === "pass" ? "neutral" : conclusionFor(report.verdict),
    title: unverified ? `UNVERIFIED (fork's own workflow) ${checkTitle(report)}` : checkTitle(report),
    summary: renderMarkdown(report, { target: "check-summary", checkName, unverified }),
    text: renderMarkdown(report, { target: "check-text", checkName, unverified }),
    annotations: buildAnnotations(report),
  };
}

/** A check run the step ended without a report for: why (already redacted, shown escaped) and where to look. */
export function renderAbandonedCheckRun(reason: string, runUrl: string | undefined): CheckRunOutput {
  return {
    conclusion: "failure",
    title: "No report: the step failed before producing one",
    summary: `The step failed before producing a report: ${escapeInline(reason, 1000)}${runUrl ? `\n\nSee the [job log](${runUrl}).` : ""}`,
    annotations: [],
  };
}

/** The sticky comment's body, after its trusted hidden marker (github/comment.ts). */
export function renderCommentBody(report: Report, options: SurfaceOptions & { marker: string }): string {
  return renderMarkdown(report, { target: "comment", ...options });
}

/** The tracking issue's body, after its trusted hidden marker. */
export function renderIssueBody(report: Report, options: { checkName: string; marker: string }): string {
  return renderMarkdown(report, { target: "comment", ...options });
}

/** The tracking issue's title: fixed text around the (sanitised) check name, nothing from the report. */
export function renderIssueTitle(checkName: string): string {
  return `${checkName.replace(/[^A-Za-z0-9 ._/:-]/g, "_").slice(0, 100)}: acceptance run failing`;
}

/** The comment a tracking issue is closed with once the run is green again. */
export function renderIssueClosing(sha: string, runUrl: string | undefined): string {
  const at = /^[0-9a-f]{7,64}$/i.test(sha) ? `\`${sha.slice(0, 12)}\`` : "the latest commit";
  return `✅ Green again at ${at}${runUrl ? ` ([run](${runUrl}))` : ""}. Closing.`;
}

/** The job summary (its own 1 MiB budget). */
export function renderJobSummary(report: Report, options: SurfaceOptions): string {
  return renderMarkdown(report, { target: "job-summary", ...options });
}

export function conclusionFor(verdict: Verdict): CheckRunOutput["conclusion"] {
  return verdict === "pass" ? "success" : verdict === "warn" ? "neutral" : "failure";
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

/** One sentence on what was not sent and why; empty when everything was. */
export function describeDropped(dropped: { cap: number; budget: number }, max?: number): string {
  const parts = [
    dropped.cap > 0
      ? `${dropped.cap} beyond the limit of ${Math.min(max ?? MAX_ANNOTATIONS, MAX_ANNOTATIONS)}${max !== undefined && max < MAX_ANNOTATIONS ? " (input max-annotations)" : " (GitHub's cap per check run)"}`
      : "",
    dropped.budget > 0 ? `${dropped.budget} for lack of GitHub requests left in this run's budget` : "",
  ].filter(Boolean);
  return parts.length ? `Annotations not sent: ${parts.join("; ")}. The report lists every finding.` : "";
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

/**
 * Annotations point at the file and line a maintainer must change: the Dockerfile line a case
 * names, the inventory line pinning a mismatched artifact, the line an alignment finding or an
 * external linter (on the PR's added lines only) reports, and a failing external test where its
 * runner says it is. Messages are plain text, not markdown.
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
  for (const t of report.external.tests?.failures ?? []) {
    // A failing test is this run's news wherever it is: annotated where the runner says it is.
    add(t.path, t.line, "failure", `Test failed: ${t.name}`, t.message);
  }
  for (const f of report.external.lint?.findings ?? []) {
    const level = f.level === "error" ? "failure" : f.level === "note" ? "notice" : "warning";
    if (f.onAddedLine) add(f.path, f.line, level, f.rule, f.message);
  }
  return out;
}
