// The alignment review on its own (`docker-acceptance align`): text for a terminal, markdown for
// a PR or a file. Paths, titles, authors and notes come from the PR's files, so they are untrusted:
// control characters are stripped for the terminal; markdown goes through report/escape.ts
// (entities, escaped punctuation, defused @mentions: listing a reviewer never pings them).
import { escapeInline, inlineCode } from "../report/escape.js";
import type { AlignmentReport, Finding } from "../report/model.js";
import { terminalSafe } from "../report/text.js";

function where(f: Finding): string {
  return f.path ? `${f.path}${f.line ? `:${f.line}` : ""}` : "";
}

export function renderAlignmentText(r: AlignmentReport): string {
  const out: string[] = [];
  if (!r.configured) {
    out.push("Alignment review: not configured");
    for (const n of r.notes) out.push(`  ${terminalSafe(n, 300)}`);
    return `${out.join("\n")}\n`;
  }
  out.push(`Alignment review: ${terminalSafe(r.source ?? "", 200)}`);
  const tier1 = r.findings.filter((f) => f.tier === 1);
  const tier2 = r.findings.filter((f) => f.tier === 2);
  if (r.openRfcs.length > 0) {
    out.push("", "Open RFCs touched:");
    for (const o of r.openRfcs) {
      out.push(
        `  RFC ${terminalSafe(o.number, 20)} ${terminalSafe(o.title, 120)} (${terminalSafe(o.status, 40)}): ${terminalSafe(o.paths.join(", "), 300)}`,
      );
    }
  }
  out.push("", `Tier 1: fixes required (${tier1.length})`);
  for (const f of tier1) {
    out.push(`  FIX   ${terminalSafe(where(f), 200)}  ${terminalSafe(f.title, 160)}`);
    out.push(`        ${terminalSafe(f.concern, 400)}`);
  }
  out.push("", `Tier 2: alignment discussion (${tier2.length})`);
  for (const f of tier2) {
    out.push(`  ALIGNMENT FLAG  ${terminalSafe(where(f), 200)}  ${terminalSafe(f.title, 160)}`);
    if (f.ref) out.push(`        at stake: ${terminalSafe(f.ref, 80)}`);
    out.push(`        concern: ${terminalSafe(f.concern, 400)}`);
    if (f.reviewers.length > 0)
      out.push(`        suggested reviewers: ${terminalSafe(f.reviewers.join(", "), 200)}`);
  }
  if (r.notes.length > 0) {
    out.push("", "Notes:");
    for (const n of r.notes) out.push(`  - ${terminalSafe(n, 400)}`);
  }
  out.push("", `Summary: ${r.summary}`);
  return `${out.join("\n")}\n`;
}

/** Markdown shaped like the Alignment Review Reports people already read. */
export function renderAlignmentMarkdown(r: AlignmentReport): string {
  const out: string[] = ["## Alignment Review Report", ""];
  if (!r.configured) {
    out.push("_Not configured._", "");
    for (const n of r.notes) out.push(`- ${escapeInline(n, 300)}`);
    return `${out.join("\n")}\n`;
  }
  out.push(`Source: ${escapeInline(r.source ?? "", 200)}`, "", "### Open RFCs Context", "");
  if (r.openRfcs.length === 0) out.push("_No open RFC covers the files this change touches._");
  else {
    out.push("| RFC | Title | Status | Files touched |", "| --- | --- | --- | --- |");
    for (const o of r.openRfcs) {
      out.push(
        `| ${escapeInline(o.number, 20)} | ${escapeInline(o.title, 120)} | ${escapeInline(o.status, 40)} | ${o.paths.map((p) => inlineCode(p, 120)).join(", ")} |`,
      );
    }
  }
  const tier1 = r.findings.filter((f) => f.tier === 1);
  const tier2 = r.findings.filter((f) => f.tier === 2);
  out.push("", "### Tier 1: Fixes Required", "");
  if (tier1.length === 0) out.push("_Nothing to fix._");
  for (const f of tier1) {
    const at = f.path ? ` at ${inlineCode(where(f), 200)}` : "";
    out.push(`- ❌ **${escapeInline(f.title, 160)}**${at}: ${escapeInline(f.concern, 500)}`);
  }
  out.push("", "### Tier 2: Alignment Discussion", "");
  if (tier2.length === 0) out.push("_Nothing to discuss._");
  for (const f of tier2) {
    out.push(`- **ALIGNMENT FLAG**: ${escapeInline(f.title, 160)}`);
    if (f.ref) out.push(`  - **At stake**: ${escapeInline(f.ref, 80)}`);
    out.push(`  - **Concern**: ${escapeInline(f.concern, 500)}`);
    if (f.path) out.push(`  - **Where**: ${inlineCode(where(f), 200)}`);
    if (f.reviewers.length > 0) {
      out.push(`  - **Suggested reviewers**: ${f.reviewers.map((x) => inlineCode(x, 60)).join(", ")}`);
    }
  }
  if (r.notes.length > 0) {
    out.push("", "### Notes", "");
    for (const n of r.notes) out.push(`- ${escapeInline(n, 400)}`);
  }
  out.push("", "### Summary", "", escapeInline(r.summary, 300), "");
  return out.join("\n");
}
