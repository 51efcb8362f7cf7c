// The one markdown renderer. Every GitHub surface (PR comment, check run summary and text, job
// summary) and report.md are cuts of the same document, each held to its own size budget:
// GitHub rejects a check summary over 65,535 bytes and a comment over 65,536 characters, and a
// rejected post loses the report. Over budget we degrade in named steps (collapse passing
// detail, trim logs, drop the per-case table, cap long lists) and say so in the output.
// All text from the report is untrusted and passes through ./escape.ts.

import { SUITES } from "../cases/suites.js";
import {
  escapeInline,
  escapeInlineWithCode,
  htmlText,
  inlineCode,
  mermaidLabel,
  preBlock,
} from "./escape.js";
import { formatPlaces, rfcLabel } from "./labels.js";
import { byAttention, type CaseResult, countCases, levelOf, type Report } from "./model.js";
import { formatDuration } from "./text.js";

export type MarkdownTarget = "comment" | "check-summary" | "check-text" | "job-summary" | "file";

interface MarkdownOptions {
  target: MarkdownTarget;
  /** Shown in the headline; defaults to "docker-acceptance". */
  checkName?: string;
  /** A trusted hidden marker (see github/comment.ts) put on the first line, for finding the comment again. */
  marker?: string;
  /**
   * The report was produced by the fork's own workflow (fork recipe): the first line says so, a
   * pass is never shown as a green tick, and a caution says how to get a trusted result.
   */
  unverified?: boolean;
}

/** GitHub's limits: check output fields in bytes, comment bodies in characters, job summary 1 MiB. */
export const BUDGETS: Record<MarkdownTarget, { limit: number; unit: "bytes" | "chars" } | null> = {
  comment: { limit: 65_536, unit: "chars" },
  "check-summary": { limit: 65_535, unit: "bytes" },
  "check-text": { limit: 65_535, unit: "bytes" },
  "job-summary": { limit: 1_048_576, unit: "bytes" },
  file: null,
};

const TARGET_WORDS: Record<MarkdownTarget, string> = {
  comment: "the 65,536-character PR comment limit",
  "check-summary": "the 65,535-byte check run summary limit",
  "check-text": "the 65,535-byte check run text limit",
  "job-summary": "the 1 MiB job summary limit",
  file: "",
};

/** Size as the target's limit counts it. UTF-16 length over-counts characters, which is the safe side. */
export function measure(text: string, unit: "bytes" | "chars"): number {
  return unit === "bytes" ? Buffer.byteLength(text, "utf8") : text.length;
}

/** What each degradation level gives up, in order. */
const STEPS = [
  "passing detail collapsed",
  "logs trimmed",
  "per-case table and logs dropped",
  "long lists capped",
  "reduced to headline and summary",
] as const;

interface Detail {
  level: number;
  /** Lines kept per log excerpt. */
  logLines: number;
  logLineLength: number;
  /** Items kept per list (Tier 1, Tier 2, cleanup objects). */
  listCap: number;
}

function detailFor(level: number): Detail {
  return {
    level,
    logLines: level >= 2 ? 30 : 200,
    logLineLength: level >= 2 ? 200 : 400,
    listCap: level >= 5 ? 5 : level >= 4 ? 20 : Number.POSITIVE_INFINITY,
  };
}

export function renderMarkdown(report: Report, opts: MarkdownOptions): string {
  const budget = BUDGETS[opts.target];
  if (!budget) return render(report, opts, detailFor(0));
  // Leave room for the shortening note itself.
  const room = budget.limit - 400;
  for (let level = 0; level <= STEPS.length; level++) {
    const out = render(report, opts, detailFor(level));
    if (measure(out, budget.unit) <= room) return out;
  }
  // Only reachable with pathological inputs (thousands of subjects): cut on a line boundary.
  const minimal = render(report, opts, detailFor(STEPS.length));
  return hardCut(minimal, room, budget.unit);
}

function hardCut(text: string, room: number, unit: "bytes" | "chars"): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    const n = measure(line, unit) + 1;
    if (size + n > room - 200) break;
    kept.push(line);
    size += n;
  }
  kept.push(
    "",
    "> [!WARNING]",
    "> Cut at the size limit. The full report is report.json in the run's artifacts.",
    "",
  );
  return kept.join("\n");
}

// ---------------------------------------------------------------------------------------------

const VERDICT_ICON = { pass: "✅", warn: "⚠️", fail: "❌", error: "💥" } as const;
const STATUS_ICON = { pass: "✅", fail: "❌", skip: "⏭️", error: "💥" } as const;

function render(report: Report, opts: MarkdownOptions, d: Detail): string {
  const t = opts.target;
  const parts: string[] = [];
  if (opts.marker) parts.push(opts.marker);
  parts.push(headline(report, opts.checkName, opts.unverified));
  if (d.level > 0) parts.push(shortenedNote(t, d.level));

  if (t === "check-text") {
    // The check run's text carries the long-form detail; the summary carries the decisions.
    if (d.level < 5) parts.push(gantt(report));
    if (d.level < 3) parts.push(caseTable(report, d, false), logs(report, d));
    return finish(parts);
  }

  parts.push(automatedChecks(report, d));
  parts.push(tier1(report, d));
  parts.push(tier2(report, d));
  if (d.level < 5) parts.push(cleanup(report, d));
  parts.push(summary(report, opts.unverified));
  if (t === "job-summary" || t === "file") {
    if (d.level < 5) parts.push(gantt(report));
  }
  if (t !== "check-summary" && d.level < 3) parts.push(caseTable(report, d, true), logs(report, d));
  return finish(parts);
}

function finish(parts: string[]): string {
  return `${parts.filter((p) => p !== "").join("\n")}\n`;
}

function shortenedNote(target: MarkdownTarget, level: number): string {
  const steps = STEPS.slice(0, level).join(", ");
  return `> [!NOTE]\n> Shortened to fit ${TARGET_WORDS[target]}: ${steps}. The full report is report.json and report.md in the run's artifacts.\n`;
}

function shortSha(sha: string | undefined): string | undefined {
  if (!sha) return undefined;
  return /^[0-9a-f]{7,64}$/i.test(sha) ? `\`${sha.slice(0, 12)}\`` : inlineCode(sha, 40);
}

/** A fork's claimed pass or warn gets a question mark, never a green tick. */
function verdictIcon(report: Report, unverified?: boolean): string {
  return unverified && (report.verdict === "pass" || report.verdict === "warn")
    ? "❔"
    : VERDICT_ICON[report.verdict];
}

const UNVERIFIED_CAUTION = [
  "> [!CAUTION]",
  "> This result was produced by the pull request's own workflow (phase 1 of the fork recipe), which the fork's author controls: its cases, logs and verdict can be fabricated. It never counts as a passing check. Never make this check required.",
  "> For a trusted result, a maintainer comments `/acceptance run` on the pull request (the command recipe, docs/commands.md).",
  "",
].join("\n");

function headline(report: Report, checkName?: string, unverified?: boolean): string {
  const n = countCases(report.cases);
  const name = escapeInline(checkName ?? "docker-acceptance", 100);
  const counts = [`${n.passed} passed`, `${n.failed} failed`, `${n.skipped} skipped`];
  if (n.errored) counts.push(`${n.errored} errored`);
  const facts = [`**${counts.join(" · ")}** of ${n.total} cases`];
  const sha = shortSha(report.head.sha);
  if (sha) facts.push(`head ${sha}`);
  facts.push(formatDuration(report.durationMs));
  if (report.shard) facts.push(`shard ${report.shard.index}/${report.shard.total}`);
  const moved = shortSha(report.head.movedTo);
  // A command run pins the head it accepted; if the PR moved on, the result is for older code.
  const stale = moved
    ? `\n> [!WARNING]\n> Stale: the pull request's head moved to ${moved} during this run, so this report does not cover the latest commits.\n`
    : "";
  if (unverified) {
    return `## ${verdictIcon(report, true)} Unverified, produced by the fork's own workflow · ${name}: ${report.verdict.toUpperCase()}\n\n${UNVERIFIED_CAUTION}\n${facts.join(" · ")}\n${stale}${trustNotes(report)}`;
  }
  return `## ${VERDICT_ICON[report.verdict]} ${name}: ${report.verdict.toUpperCase()}\n\n${facts.join(" · ")}\n${stale}${trustNotes(report)}`;
}

/** What judged the run, where the PR could have chosen it: visible, under the headline. */
function trustNotes(report: Report): string {
  const notes = report.trust?.notes ?? [];
  if (notes.length === 0) return "";
  return `\n> [!WARNING]\n${notes
    .slice(0, 10)
    .map((n) => `> ${escapeInline(n, 400)}`)
    .join("\\\n")}\n`;
}

/** Subject names in report order, then any that only appear in cases. */
function subjectOrder(report: Report): string[] {
  const names = report.subjects.map((s) => s.name);
  for (const c of report.cases) if (!names.includes(c.subject)) names.push(c.subject);
  return names;
}

/** Registered suites in registry order, then any other a case names: no case's suite goes unlisted. */
function suiteOrder(report: Report): string[] {
  return [...new Set<string>([...SUITES, ...report.cases.map((c) => c.suite)])];
}

function automatedChecks(report: Report, d: Detail): string {
  const rows = [
    ...caseRows(report, d),
    ...runRows(report),
    ...externalRows(report),
    ...alignmentRows(report),
  ];
  if (rows.length === 0) return "### Automated Checks\n\n_No checks ran._\n";
  return [
    "### Automated Checks",
    "",
    "| Check | Result |",
    "| --- | --- |",
    ...rows,
    "",
    ...externalItems(report, d),
  ].join("\n");
}

/** One row per suite × subject with cases (at most the detail's cap, then how many more). */
function caseRows(report: Report, d: Detail): string[] {
  const rows: string[] = [];
  let groups = 0;
  const subjects = subjectOrder(report);
  for (const suite of suiteOrder(report)) {
    for (const subject of subjects) {
      const cases = report.cases.filter((c) => c.suite === suite && c.subject === subject);
      if (cases.length === 0) continue;
      groups++;
      if (groups > d.listCap * 5) continue;
      const n = countCases(cases);
      const bad = n.failed + n.errored;
      const warnOnly = cases.every(
        (c) => c.status !== "error" && (c.status !== "fail" || c.severity === "warn"),
      );
      const icon = bad === 0 ? (n.skipped ? "⚠️" : "✅") : warnOnly ? "⚠️" : "❌";
      const extra = [bad ? `${bad} failed` : "", n.skipped ? `${n.skipped} skipped` : ""].filter(Boolean);
      rows.push(
        `| ${suite} · ${escapeInline(subject, 80)} | ${icon} ${n.passed}/${n.total} passed${extra.length ? ` (${extra.join(", ")})` : ""} |`,
      );
    }
  }
  if (groups > d.listCap * 5)
    rows.push(`| … | ${groups - d.listCap * 5} more subject × suite rows in report.json |`);
  return rows;
}

/** The rows for what is not a case but decides the verdict: inventory completeness, artifact pins, cleanup. */
function runRows(report: Report): string[] {
  const rows: string[] = [];
  const inv = report.inventory;
  if (inv) {
    const count = (k: "missing" | "unexpected" | "skipped") => inv.drift.reduce((a, x) => a + x[k].length, 0);
    const drift = (["missing", "unexpected", "skipped"] as const)
      .filter((k) => count(k) > 0)
      .map((k) => `${count(k)} ${k}`)
      .join(", ");
    const result = inv.complete
      ? `✅ complete (${inlineCode(inv.path, 100)}, sha256 \`${inv.sha256.replace(/[^0-9a-f]/gi, "").slice(0, 12)}\`)`
      : `${inv.requireComplete ? "❌" : "⚠️"} incomplete: ${drift} pinned case(s) (${inlineCode(inv.path, 100)})`;
    rows.push(`| Inventory completeness | ${result} |`);
  }
  if (report.artifacts.length > 0) {
    const bad = report.artifacts.filter((a) => !a.ok).length;
    rows.push(
      `| Artifact verification | ${bad === 0 ? "✅" : "❌"} ${report.artifacts.length - bad}/${report.artifacts.length} match their pinned sha256 |`,
    );
  }
  const c = report.cleanup;
  if (c) {
    rows.push(
      `| Cleanup | ${c.completed ? "✅ verified by listing" : `❌ ${c.remaining.length} owned object(s) remain`} |`,
    );
  }
  return rows;
}

/** The rows for results of earlier steps: JUnit counts and SARIF findings. */
function externalRows(report: Report): string[] {
  const rows: string[] = [];
  const ext = report.external;
  if (ext.tests) {
    const x = ext.tests;
    rows.push(
      `| Tests | ${x.failed ? "❌" : "✅"} Tests: ${x.passed} passed, ${x.skipped} skipped, ${x.failed} failed |`,
    );
  }
  if (ext.lint) {
    const k = ext.lint.findings.length;
    rows.push(`| Lint | ${k === 0 ? "✅ Lint: PASS" : `⚠️ Lint: ${k} finding${k === 1 ? "" : "s"}`} |`);
  }
  return rows;
}

/** The alignment review's row, and what it checked and found clean. */
function alignmentRows(report: Report): string[] {
  const rows: string[] = [];
  const al = report.alignment;
  if (al?.configured) {
    const n = (l: string) => al.findings.filter((f) => levelOf(f) === l).length;
    rows.push(
      `| Alignment | ${n("blocking") ? "❌" : n("discussion") ? "⚠️" : "✅"} ${n("blocking")} blocking, ${n("discussion")} for discussion, ${n("advisory")} advisory |`,
    );
    if (al.clean.length > 0) {
      rows.push(
        `| Alignment: checked and clean | ✅ ${al.clean
          .slice(0, 20)
          .map((c) => escapeInline(c.title, 120))
          .join("; ")}${al.clean.length > 20 ? ` and ${al.clean.length - 20} more` : ""} |`,
      );
    }
  } else if (al) {
    rows.push(
      al.summary.startsWith("not run")
        ? `| Alignment | ➖ ${escapeInline(al.summary, 200)} |`
        : "| Alignment | ➖ not configured (no alignment config in the repository) |",
    );
  }
  return rows;
}

/** External items listed per surface at most (the counts above cover them all). */
const EXTERNAL_LISTED = 30;

/**
 * Each failing test by name with its message, and each lint finding by rule, as test reporters
 * list them. Their text comes from files the pull request's own tests can write: escaped, bounded.
 */
function externalItems(report: Report, d: Detail): string[] {
  const cap = Math.min(d.listCap, EXTERNAL_LISTED);
  const out: string[] = [];
  const failures = report.external.tests?.failures ?? [];
  if (failures.length > 0) {
    const items = failures.map(
      (f) =>
        `❌ ${inlineCode(f.name, 200)}: ${escapeInline(f.message, 300)}${location(f.path, f.line)} (${inlineCode(f.file, 100)})`,
    );
    out.push(
      "**Failing tests**",
      "",
      ...listOf(items, cap, report.external.tests!.failed, "failing tests"),
      "",
    );
  }
  const findings = report.external.lint?.findings ?? [];
  if (findings.length > 0) {
    const icon = { error: "❌", warning: "⚠️", note: "📝" } as const;
    const items = findings.map(
      (f) =>
        `${icon[f.level ?? "warning"]} ${inlineCode(f.rule, 100)}${location(f.path || undefined, f.line)}: ${escapeInline(f.message, 300)}`,
    );
    out.push("**Lint findings**", "", ...listOf(items, cap, findings.length, "lint findings"), "");
  }
  return out;
}

/** A capped numbered list of `total` items (more than listed when only some were kept). */
function listOf(items: string[], cap: number, total: number, noun: string): string[] {
  const shown = items.slice(0, cap).map((s, i) => `${i + 1}. ${s}`);
  if (total > shown.length)
    shown.push(`\n_… and ${total - shown.length} more ${noun} in report.json and the files named._`);
  return shown;
}

function location(path: string | undefined, line: number | undefined): string {
  if (!path) return "";
  return ` at ${inlineCode(`${path}${line ? `:${line}` : ""}`, 200)}`;
}

/** A capped numbered list: items beyond the cap are counted, never silently dropped. */
function list(items: string[], cap: number, noun: string): string[] {
  const shown = items.slice(0, cap).map((s, i) => `${i + 1}. ${s}`);
  if (items.length > shown.length)
    shown.push(`\n_… and ${items.length - shown.length} more ${noun} in report.json._`);
  return shown;
}

function caseItem(c: CaseResult, icon: string): string {
  const head = `${icon} **${escapeInline(c.subject, 80)}** · ${inlineCode(c.id, 80)}: ${escapeInlineWithCode(c.message || c.status, 500)}${location(c.location?.path, c.location?.line)}`;
  // A trailing backslash is a hard line break: the fix gets its own line inside the list item.
  return c.remediation ? `${head}\\\n   **Fix:** ${escapeInlineWithCode(c.remediation, 600)}` : head;
}

function sortedCases(report: Report): CaseResult[] {
  return [...report.cases].sort((a, b) => byAttention(a, b) || a.subject.localeCompare(b.subject));
}

function tier1(report: Report, d: Detail): string {
  const items: string[] = [];
  for (const c of sortedCases(report)) {
    if (c.status === "error") items.push(caseItem(c, "💥"));
    else if (c.status === "fail" && c.severity === "fail") items.push(caseItem(c, "❌"));
  }
  const invPath = report.inventory?.path;
  for (const a of report.artifacts.filter((x) => !x.ok)) {
    const got = a.actual ? `\`${a.actual.replace(/[^0-9a-f]/gi, "").slice(0, 12)}…\`` : "no such file";
    items.push(
      `❌ artifact ${inlineCode(a.path, 200)}: expected sha256 \`${a.expected.replace(/[^0-9a-f]/gi, "").slice(0, 12)}…\`, got ${got}${a.line && invPath ? location(invPath, a.line) : ""}\\\n   **Fix:** if the change is intended, run \`docker-acceptance pin\` and commit the inventory; otherwise restore the file.`,
    );
  }
  const inv = report.inventory;
  if (inv && !inv.complete && inv.requireComplete && inv.fixes) {
    for (const f of inv.fixes) if (f.kind !== "skipped") items.push(driftFixItem(f));
  } else if (inv && !inv.complete && inv.requireComplete) {
    // A report written before fixes were recorded: its drift, one item per subject x suite.
    for (const x of inv.drift) {
      if (x.missing.length === 0 && x.unexpected.length === 0) continue;
      const what = [
        x.missing.length ? `missing ${x.missing.map((m) => inlineCode(m, 80)).join(", ")}` : "",
        x.unexpected.length ? `unexpected ${x.unexpected.map((m) => inlineCode(m, 80)).join(", ")}` : "",
      ].filter(Boolean);
      items.push(
        `❌ inventory **${escapeInline(x.subject, 80)}** / ${escapeInline(x.suite, 40)}: ${what.join("; ")}${location(inv.path, undefined)}\\\n   **Fix:** run the missing cases, or update the pinned case list if the change is intended.`,
      );
    }
  }
  const c = report.cleanup;
  if (c && !c.completed) {
    items.push(
      `❌ cleanup left ${c.remaining.length} owned object(s) behind\\\n   **Fix:** run \`docker-acceptance sweep --owner ${report.runId.replace(/[^a-z0-9-]/gi, "")}\` on the runner.`,
    );
  }
  for (const e of report.errors)
    items.push(`💥 ${escapeInline(e.kind, 60)}: ${escapeInline(e.message, 600)}`);
  for (const f of [...(report.trust?.findings ?? []), ...(report.alignment?.findings ?? [])]) {
    if (levelOf(f) === "blocking") items.push(findingItem(f, "❌"));
  }
  const body = items.length ? list(items, d.listCap, "items to fix") : ["_Nothing to fix._"];
  return ["### Tier 1: Fixes Required", "", ...body, ""].join("\n");
}

type DriftFix = NonNullable<NonNullable<Report["inventory"]>["fixes"]>[number];

/** One subject's drift (or several subjects', when the fix is the same) with the lines that pin it. */
function driftFixItem(f: DriftFix): string {
  const who = f.subjects.map((s) => `**${escapeInline(s, 80)}**`).join(", ");
  const head = `❌ inventory ${who}: ${escapeInlineWithCode(f.problem, 600)}\\\n   **Fix:** ${escapeInlineWithCode(f.fix, 600)}`;
  // A <pre> block inside the list item: indented past the item's marker, after a blank line.
  const blocks = f.add.map((a) => {
    const where = a.at
      ? `at the end of ${inlineCode(a.at, 200)} (line ${a.line})`
      : "at the end of the top level";
    const pre = preBlock(a.lines.join("\n"), { maxLines: 200, maxLineLength: 300 }).trimEnd();
    return `\n\n    ${where}:\n\n${pre
      .split("\n")
      .map((l) => `    ${l}`)
      .join("\n")}`;
  });
  return head + blocks.join("");
}

function findingItem(f: NonNullable<Report["alignment"]>["findings"][number], icon: string): string {
  const who = f.reviewers.length
    ? ` · reviewers: ${f.reviewers.map((r) => escapeInline(r, 60)).join(", ")}`
    : "";
  const label = f.ref ?? f.rule;
  const ref = label ? ` (${escapeInline(label, 80)})` : "";
  const at = formatPlaces(f, (p) => inlineCode(p, 200));
  return `${icon} **${escapeInline(f.title, 200)}**${ref}: ${escapeInline(f.concern, 600)}${at ? ` at ${at}` : ""}${who}`;
}

function tier2(report: Report, d: Detail): string {
  const items: string[] = [];
  for (const f of report.alignment?.findings ?? []) {
    if (levelOf(f) === "discussion") items.push(findingItem(f, "💬 ALIGNMENT FLAG:"));
    else if (levelOf(f) === "advisory") items.push(findingItem(f, "📝 Note:"));
  }
  let consequences = 0;
  for (const c of sortedCases(report)) {
    if (c.status === "fail" && c.severity === "warn") items.push(caseItem(c, "⚠️"));
    // A case that did not run because an earlier one failed is that failure's echo, not news.
    else if (c.status === "skip" && /^not (run|measured): .* did not pass$/.test(c.message)) consequences++;
    else if (c.status === "skip") items.push(`${caseItem(c, "⏭️")}\\\n   Skipped: needs a human look.`);
  }
  if (consequences > 0) {
    items.push(
      `⏭️ ${consequences} case(s) did not run because an earlier case failed (Tier 1); they run again once it passes.`,
    );
  }
  const inv = report.inventory;
  if (inv && !inv.complete && !inv.requireComplete) {
    items.push(`⚠️ inventory incomplete (completeness not required here)${location(inv.path, undefined)}`);
  }
  const lines = ["### Tier 2: Alignment Discussion", ""];
  const al = report.alignment;
  if (al?.summary) lines.push(escapeInline(al.summary, 1000), "");
  lines.push(...(items.length ? list(items, d.listCap, "items to discuss") : ["_Nothing to discuss._"]));
  for (const note of (al?.notes ?? []).slice(0, d.listCap)) lines.push(`- ${escapeInline(note, 300)}`);
  if (al?.openRfcs.length) {
    lines.push("", "**Open RFCs Context** (open RFCs whose paths this change touches):", "");
    const rfcs = al.openRfcs.map(
      (r) =>
        `${escapeInline(rfcLabel(r.number, r.title), 180)} (${escapeInline(r.status, 40)}) · ${r.paths
          .slice(0, 5)
          .map((p) => inlineCode(p, 120))
          .join(", ")}`,
    );
    lines.push(...list(rfcs, d.listCap, "open RFCs"));
  }
  lines.push("");
  return lines.join("\n");
}

function cleanup(report: Report, d: Detail): string {
  const c = report.cleanup;
  if (!c) return "### Cleanup\n\n_Cleanup did not run._\n";
  const by = (a: string) => c.objects.filter((o) => o.action === a);
  const removed = by("removed").length + by("untagged").length;
  const retained = by("retained");
  const failed = by("failed");
  const lines = [
    "### Cleanup",
    "",
    `Owner ${inlineCode(c.owner, 60)} · trigger ${escapeInline(c.trigger, 40)} · ${removed} removed, ${retained.length} retained, ${failed.length} failed · ${formatDuration(c.durationMs)}`,
    "",
    c.completed
      ? `✅ Verified by listing again: nothing labelled with the owner, and no image tagged for it, is left (${c.verifiedBy.length} listing${c.verifiedBy.length === 1 ? "" : "s"}, in the details below).`
      : `❌ Not verified: ${c.remaining.length} owned object(s) remain: ${c.remaining
          .slice(0, 20)
          .map((r) => `${r.kind} ${inlineCode(r.id.slice(0, 19), 24)}`)
          .join(", ")}`,
    "",
  ];
  const obj = (o: (typeof c.objects)[number]) =>
    `${o.kind} ${inlineCode(o.tag ?? o.name ?? o.id.slice(0, 19), 120)}${o.role ? ` (${escapeInline(o.role, 30)})` : ""}: ${escapeInline(o.reason, 300)}${o.error ? ` (${escapeInline(o.error.message, 300)})` : ""}`;
  if (retained.length) lines.push("Retained:", ...retained.slice(0, d.listCap).map((o) => `- ${obj(o)}`), "");
  if (failed.length)
    lines.push("Failed to remove:", ...failed.slice(0, d.listCap).map((o) => `- ${obj(o)}`), "");
  for (const e of c.errors.slice(0, d.listCap))
    lines.push(`- 💥 ${escapeInline(e.kind, 40)}: ${escapeInline(e.message, 300)}`);
  if (d.level === 0 && c.objects.length + c.verifiedBy.length > 0) {
    lines.push(
      "<details><summary>Every object this run owned, and the listings that proved it gone</summary>",
      "",
    );
    if (c.objects.length > 0) {
      lines.push(
        "| Kind | Object | Action | Why |",
        "| --- | --- | --- | --- |",
        ...c.objects.map(
          (o) =>
            `| ${o.kind} | ${inlineCode(o.tag ?? o.name ?? o.id.slice(0, 19), 120)} | ${escapeInline(o.action, 20)} | ${escapeInline(o.reason, 200)} |`,
        ),
        "",
      );
    }
    lines.push(...c.verifiedBy.map((v) => `- ${inlineCode(v, 300)}`), "", "</details>", "");
  }
  return lines.join("\n");
}

function summary(report: Report, unverified?: boolean): string {
  const n = countCases(report.cases);
  return [
    "### Summary",
    "",
    "| Verdict | Passed | Failed | Skipped | Errored | Total | Duration |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    `| ${verdictIcon(report, unverified)} ${report.verdict.toUpperCase()}${unverified ? " (unverified)" : ""} | ${n.passed} | ${n.failed} | ${n.skipped} | ${n.errored} | ${n.total} | ${formatDuration(report.durationMs)} |`,
    "",
  ].join("\n");
}

function caseTable(report: Report, d: Detail, collapsed: boolean): string {
  const cases = sortedCases(report);
  const shown = d.level >= 1 ? cases.filter((c) => c.status !== "pass") : cases;
  const hidden = cases.length - shown.length;
  const rows = shown.map(
    (c) =>
      `| ${STATUS_ICON[c.status]} | ${escapeInline(c.subject, 80)} | ${inlineCode(c.id, 80)} | ${formatDuration(c.durationMs)} | ${escapeInline(c.message, 200)} |`,
  );
  const table = ["| | Subject | Case | Duration | Message |", "| --- | --- | --- | --- | --- |", ...rows];
  const note = hidden ? [`\n_${hidden} passing case(s) not listed._`] : [];
  const title = `All ${cases.length} cases with durations`;
  if (!collapsed) return [`### ${title}`, "", ...table, ...note, ""].join("\n");
  return [`<details><summary>${title}</summary>`, "", ...table, ...note, "", "</details>", ""].join("\n");
}

function logs(report: Report, d: Detail): string {
  const failing = new Set(
    report.cases.filter((c) => c.status === "fail" || c.status === "error").map((c) => c.subject),
  );
  const out: string[] = [];
  for (const s of report.subjects) {
    // Passing subjects' logs are the first detail to go.
    if (d.level >= 1 && !failing.has(s.name)) continue;
    for (const [label, text] of [
      ["Build log", s.buildLog],
      ["Log excerpt", s.logExcerpt],
    ] as const) {
      if (!text) continue;
      out.push(
        `<details><summary>${label}: ${htmlText(s.name, 80)}</summary>`,
        "",
        preBlock(text, { maxLines: d.logLines, maxLineLength: d.logLineLength }),
        "</details>",
        "",
      );
    }
  }
  return out.join("\n");
}

/**
 * Where the time went: one gantt section per subject, one bar per phase, in milliseconds from
 * the report's start. GitHub renders mermaid blocks in check run text and markdown files.
 */
function gantt(report: Report): string {
  const subjects = report.subjects.filter((s) => s.phases.length > 0);
  if (subjects.length === 0) return "";
  const lines = [
    "### Where the time went",
    "",
    "```mermaid",
    "gantt",
    "  dateFormat x",
    "  axisFormat %M:%S",
  ];
  for (const s of subjects.slice(0, 50)) {
    lines.push(`  section ${mermaidLabel(s.name)}`);
    for (const p of s.phases.slice(0, 20)) {
      const start = Math.max(0, Math.round(p.startMs));
      const end = start + Math.max(1, Math.round(p.durationMs));
      lines.push(
        `  ${mermaidLabel(p.name, 30)} ${formatDuration(p.durationMs).replace(/[^0-9a-z.]/g, "")} :${start}, ${end}`,
      );
    }
  }
  lines.push("```", "");
  return lines.join("\n");
}
