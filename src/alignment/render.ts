// The alignment review on its own (`docker-acceptance align`): text for a terminal, markdown for
// a PR or a file. Paths, titles, authors and notes come from the PR's files, so they are untrusted:
// control characters are stripped for the terminal; markdown goes through report/escape.ts
// (entities, escaped punctuation, defused @mentions: listing a reviewer never pings them).
import { escapeInline, inlineCode } from "../report/escape.js";
import type { ExternalResults } from "../report/external.js";
import { formatPlaces, rfcLabel } from "../report/labels.js";
import { type AlignmentReport, type Finding, type FindingLevel, levelOf } from "../report/model.js";
import { terminalSafe } from "../report/text.js";

const BY_LEVEL = (r: AlignmentReport, level: FindingLevel) => r.findings.filter((f) => levelOf(f) === level);

export function renderAlignmentText(report: AlignmentReport): string {
  const out: string[] = [];
  if (!report.configured) {
    out.push("Alignment review: not configured");
    for (const n of report.notes) out.push(`  ${terminalSafe(n, 300)}`);
    return `${out.join("\n")}\n`;
  }
  out.push(`Alignment review: ${terminalSafe(report.source ?? "", 200)}`);
  if (report.openRfcs.length > 0) {
    out.push("", "Open RFCs touched:");
    for (const o of report.openRfcs) {
      out.push(
        `  ${terminalSafe(rfcLabel(o.number, o.title), 140)} (${terminalSafe(o.status, 40)}): ${terminalSafe(o.paths.join(", "), 300)}`,
      );
    }
  }
  const section = (heading: string, tag: string, fs: Finding[]) => {
    out.push("", `${heading} (${fs.length})`);
    for (const f of fs) {
      const ref = f.ref ?? f.rule;
      out.push(`  ${tag}  ${terminalSafe(f.title, 160)}${ref ? ` [${terminalSafe(ref, 80)}]` : ""}`);
      out.push(`        ${terminalSafe(f.concern, 400)}`);
      const at = formatPlaces(f, (p) => terminalSafe(p, 200));
      if (at) out.push(`        at: ${at}`);
      if (f.reviewers.length > 0)
        out.push(`        suggested reviewers: ${terminalSafe(f.reviewers.join(", "), 200)}`);
    }
  };
  section("Tier 1: blocking, fixes required", "FIX", BY_LEVEL(report, "blocking"));
  section("Tier 2: alignment discussion", "ALIGNMENT FLAG", BY_LEVEL(report, "discussion"));
  const advisory = BY_LEVEL(report, "advisory");
  if (advisory.length > 0) section("Advisory notes (never fail)", "NOTE", advisory);
  if (report.clean.length > 0) {
    out.push("", `Checked and clean: ${terminalSafe(report.clean.map((c) => c.title).join("; "), 1200)}`);
  }
  if (report.notes.length > 0) {
    out.push("", "Notes:");
    for (const n of report.notes) out.push(`  - ${terminalSafe(n, 400)}`);
  }
  out.push("", `Summary: ${report.summary}`);
  return `${out.join("\n")}\n`;
}

/** Markdown shaped like the Alignment Review Reports people already read. */
export function renderAlignmentMarkdown(report: AlignmentReport, external: ExternalResults = {}): string {
  const out: string[] = ["## Alignment Review Report", ""];
  if (!report.configured) {
    out.push("_Not configured._", "");
    for (const n of report.notes) out.push(`- ${escapeInline(n, 300)}`);
    return `${out.join("\n")}\n`;
  }
  out.push(`Source: ${escapeInline(report.source ?? "", 200)}`, "");
  out.push(...automatedChecks(report, external));
  out.push("### Open RFCs Context", "");
  if (report.openRfcs.length === 0) out.push("_No open RFC covers the files this change touches._");
  else {
    out.push("| RFC | Title | Status | Files touched |", "| --- | --- | --- | --- |");
    for (const o of report.openRfcs) {
      out.push(
        `| ${escapeInline(o.number, 20)} | ${escapeInline(o.title, 120)} | ${escapeInline(o.status, 40)} | ${o.paths.map((p) => inlineCode(p, 120)).join(", ")} |`,
      );
    }
  }
  out.push("", "### Tier 1: Fixes Required", "");
  const blocking = BY_LEVEL(report, "blocking");
  if (blocking.length === 0) out.push("_Nothing to fix._");
  for (const f of blocking) out.push(alignmentFindingMarkdown(f, "❌"));
  out.push("", "### Tier 2: Alignment Discussion", "");
  const discussion = BY_LEVEL(report, "discussion");
  if (discussion.length === 0) out.push("_Nothing to discuss._");
  for (const f of discussion) out.push(alignmentFindingMarkdown(f, "💬 **ALIGNMENT FLAG**:"));
  const advisory = BY_LEVEL(report, "advisory");
  if (advisory.length > 0) {
    out.push("", "### Advisory", "");
    for (const f of advisory) out.push(alignmentFindingMarkdown(f, "📝"));
  }
  if (report.notes.length > 0) {
    out.push("", "### Notes", "");
    for (const n of report.notes) out.push(`- ${escapeInline(n, 400)}`);
  }
  out.push("", "### Summary", "", escapeInline(report.summary, 300), "");
  return out.join("\n");
}

/** One list item: title, rule, concern, places (collapsed beyond a few), reviewers (never pinged). */
function alignmentFindingMarkdown(finding: Finding, icon: string): string {
  const ref = finding.ref ?? finding.rule;
  const lines = [
    `- ${icon} **${escapeInline(finding.title, 200)}**${ref ? ` (${escapeInline(ref, 80)})` : ""}: ${escapeInline(finding.concern, 600)}`,
  ];
  const at = formatPlaces(finding, (p) => inlineCode(p, 200));
  if (at) lines.push(`  - **Where**: ${at}`);
  if (finding.reviewers.length > 0) {
    lines.push(`  - **Suggested reviewers**: ${finding.reviewers.map((x) => inlineCode(x, 60)).join(", ")}`);
  }
  return lines.join("\n");
}

/** The bots' "Automated Checks": the PR's own tests and linters, then what this review checked. */
function automatedChecks(report: AlignmentReport, external: ExternalResults): string[] {
  const rows: string[] = [];
  if (external.tests) {
    const x = external.tests;
    rows.push(
      `| Tests | ${x.failed ? "❌" : "✅"} ${x.passed} passed, ${x.skipped} skipped, ${x.failed} failed |`,
    );
  }
  if (external.lint) {
    const k = external.lint.findings.length;
    const added = external.lint.findings.filter((f) => f.onAddedLine).length;
    rows.push(
      `| Lint | ${k === 0 ? "✅ PASS" : `⚠️ ${k} finding${k === 1 ? "" : "s"}${added > 0 ? `, ${added} on added lines` : ""}`} |`,
    );
  }
  const n = (l: FindingLevel) => BY_LEVEL(report, l).length;
  rows.push(
    `| Alignment | ${n("blocking") ? "❌" : n("discussion") ? "⚠️" : "✅"} ${escapeInline(report.summary, 300)} |`,
  );
  if (report.clean.length > 0) {
    rows.push(`| Checked and clean | ✅ ${report.clean.map((c) => escapeInline(c.title, 120)).join("; ")} |`);
  }
  return ["### Automated Checks", "", "| Check | Result |", "| --- | --- |", ...rows, ""];
}
