// The terminal rendering of the one Report: compact, one line per case, failures with their
// remediation, the cleanup line and the verdict last (the line people read). Untrusted text is
// stripped of control characters so a subject's log cannot drive the terminal (ANSI escapes).
import type { CaseResult, Report } from "./model.js";
import { byAttention, countCases } from "./verdict.js";

type Drift = NonNullable<Report["inventory"]>["drift"][number];

const STATUS_LABEL = { pass: "PASS", fail: "FAIL", skip: "SKIP", error: "ERROR" } as const;

/** Removes C0/C1 control characters (ESC included) and folds newlines, for one-line output. */
export function terminalSafe(text: string, max = 300): string {
  const flat = text.replace(/\r?\n|\r/g, " ⏎ ").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function formatDuration(durationMs: number): string {
  if (durationMs < 1000) return `${Math.round(durationMs)}ms`;
  if (durationMs < 60_000) return `${(durationMs / 1000).toFixed(1)}s`;
  const m = Math.floor(durationMs / 60_000);
  const s = Math.round((durationMs % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, "0")}s`;
}

function caseLine(c: CaseResult, idWidth: number): string {
  const label = STATUS_LABEL[c.status].padEnd(5);
  const warn = c.status === "fail" && c.severity === "warn" ? " (warn)" : "";
  const msg = c.message ? `  ${terminalSafe(c.message, 160)}` : "";
  return `${label} ${`${c.subject} ${c.id}`.padEnd(idWidth)} ${formatDuration(c.durationMs).padStart(7)}${warn}${msg}`;
}

const EXCERPT_LINES = 10;

/** A failed case's log excerpt (readiness, stop), its last lines, each made terminal-safe. */
function excerptLines(c: CaseResult): string[] {
  const excerpt = c.evidence.logExcerpt;
  if (typeof excerpt !== "string" || !excerpt.trim()) return [];
  const lines = excerpt.split(/\r?\n/).filter((l) => l.trim());
  return [
    "    log (last lines):",
    ...lines.slice(-EXCERPT_LINES).map((l) => `      | ${terminalSafe(l, 200)}`),
  ];
}

export function renderText(report: Report): string {
  const out: string[] = [];
  // Failures first; within a status, by subject, then in the order the cases ran (sort is stable).
  const cases = [...report.cases].sort((a, b) => byAttention(a, b) || a.subject.localeCompare(b.subject));
  const idWidth = Math.min(60, Math.max(0, ...cases.map((c) => c.subject.length + 1 + c.id.length)));
  for (const c of cases) out.push(caseLine(c, idWidth));

  const attention = cases.filter((c) => c.status === "fail" || c.status === "error");
  if (attention.length > 0) {
    out.push("", "Fixes required:");
    for (const c of attention) {
      const where = c.location
        ? ` (${terminalSafe(c.location.path, 200)}${c.location.line ? `:${c.location.line}` : ""})`
        : "";
      out.push(
        `  - ${terminalSafe(c.subject, 80)} ${c.id}${where}: ${terminalSafe(c.message || c.status, 300)}`,
      );
      if (c.remediation) out.push(`    fix: ${terminalSafe(c.remediation, 500)}`);
      out.push(...excerptLines(c));
    }
    // One line per failing subject: the launch to paste and try by hand.
    const failing = new Set(attention.map((c) => c.subject));
    const lines = report.subjects.filter((s) => failing.has(s.name) && s.reproduce);
    if (lines.length > 0) out.push("", "Reproduce by hand:");
    for (const s of lines) out.push(`  - ${terminalSafe(s.name, 80)}: ${terminalSafe(s.reproduce!, 4000)}`);
  }

  const badArtifacts = report.artifacts.filter((a) => !a.ok);
  for (const a of badArtifacts) {
    out.push(
      `  - artifact ${terminalSafe(a.path, 200)}: expected sha256 ${a.expected.slice(0, 12)}…, got ${a.actual ? `${a.actual.slice(0, 12)}…` : "missing file"}`,
    );
  }
  if (report.inventory && !report.inventory.complete) out.push(...driftLines(report.inventory));
  for (const e of report.errors)
    out.push(`  - error (${terminalSafe(e.kind, 40)}): ${terminalSafe(e.message, 300)}`);

  out.push("", cleanupLine(report));
  const n = countCases(report.cases);
  const sha = report.head.sha ? ` at ${report.head.sha.slice(0, 12)}` : "";
  out.push(
    `Verdict: ${report.verdict.toUpperCase()}  ${n.passed} passed, ${n.failed} failed, ${n.skipped} skipped${n.errored ? `, ${n.errored} errored` : ""} of ${n.total}${sha} in ${formatDuration(report.durationMs)}`,
  );
  return `${out.join("\n")}\n`;
}

/** The inventory's drift: once per subject, with its fix and the exact lines that pin what ran. */
function driftLines(inv: NonNullable<Report["inventory"]>): string[] {
  const fails = inv.requireComplete
    ? "the run fails until it is fixed"
    : "a warning: require-complete is off";
  const out = ["", `Inventory drift in ${terminalSafe(inv.path, 200)} (${fails}):`];
  // A report written before fixes were recorded: its drift, one line per subject x suite.
  if (!inv.fixes) {
    for (const d of inv.drift) out.push(`  - ${terminalSafe(describeDrift(d), 1000)}`);
    return out;
  }
  for (const f of inv.fixes) {
    out.push(`  - ${terminalSafe(f.subjects.join(", "), 200)}: ${terminalSafe(f.problem, 1000)}`);
    out.push(`    fix: ${terminalSafe(f.fix, 500)}`);
    for (const a of f.add) {
      const where = a.at
        ? `at the end of ${terminalSafe(a.at, 200)} (line ${a.line})`
        : "at the end of the top level";
      out.push(`      ${where}:`, ...a.lines.map((l) => `        ${terminalSafe(l, 300)}`));
    }
  }
  return out;
}

function cleanupLine(report: Report): string {
  const c = report.cleanup;
  if (!c) return "Cleanup: not run";
  const count = (a: string) => c.objects.filter((o) => o.action === a).length;
  const removed = count("removed") + count("untagged");
  const retained = count("retained");
  const failed = count("failed");
  const state = c.completed ? "verified" : `NOT verified (${c.remaining.length} owned object(s) remain)`;
  const verified = c.verifiedBy.length ? ` by ${terminalSafe(c.verifiedBy.join(", "), 200)}` : "";
  return `Cleanup: ${removed} removed, ${retained} retained, ${failed} failed; ${state}${c.completed ? verified : ""}`;
}

/** One subject x suite's drift from its pins, in one line. */
export function describeDrift(drift: Drift): string {
  const parts = [
    drift.missing.length ? `missing ${drift.missing.join(", ")}` : "",
    drift.skipped.length ? `skipped ${drift.skipped.join(", ")}` : "",
    drift.unexpected.length ? `unexpected ${drift.unexpected.join(", ")}` : "",
  ].filter(Boolean);
  return `${drift.subject} / ${drift.suite}: ${parts.join("; ")}`;
}
