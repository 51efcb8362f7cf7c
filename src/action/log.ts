// The Actions log people follow: live progress comes from the pipeline through `actionsLogger`
// (one group per subject, build and readiness progress); after the run, one group per subject and
// suite with one line per case, and a last line naming the verdict and where the report is.
import * as core from "@actions/core";
import type { Logger } from "../log.js";
import type { CaseResult, Report } from "../report/model.js";
import { formatDuration, terminalSafe } from "../report/text.js";
import { byAttention, countCases } from "../report/verdict.js";

/**
 * Workflow commands (`::error::`, `::add-mask::`, `::stop-commands::`) are parsed from any log
 * line. Untrusted text in a line starting with `::` could issue them, so such lines are defused.
 */
export function logSafe(text: string): string {
  // The runner reads `::command::` after leading white space as .NET's TrimStart sees it (which
  // also trims U+0085, absent from JavaScript's \s), and the legacy `##[command]` anywhere.
  return text.replace(/^([\s\u0085]*)::/gm, "$1: :").replace(/##\[/g, "#\u200b#[");
}

export const actionsLogger: Logger = {
  info: (message) => core.info(logSafe(message)),
  warn: (message) => core.warning(logSafe(message)),
  error: (message) => core.error(logSafe(message)),
  group: (title, body) => core.group(logSafe(title), body),
};

const LABEL = { pass: "PASS", fail: "FAIL", skip: "SKIP", error: "ERROR" } as const;

/** `FAIL  containment.user          12ms  runs as uid 0` (untrusted message made one safe line). */
export function caseLine(result: CaseResult): string {
  const warn = result.status === "fail" && result.severity === "warn" ? " (warn)" : "";
  const msg = result.message ? `  ${terminalSafe(result.message, 200)}` : "";
  return logSafe(
    `${LABEL[result.status].padEnd(5)} ${result.id.padEnd(32)} ${formatDuration(result.durationMs).padStart(7)}${warn}${msg}`,
  );
}

/** Groups of the report's cases by subject, then suite, in the report's order of subjects. */
export function resultGroups(report: Report): Array<{ title: string; lines: string[] }> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    const key = `${c.subject}\u0000${c.suite}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.entries()].map(([key, cases]) => {
    const [subject = "", suite = ""] = key.split("\u0000");
    const n = countCases(cases);
    const counts = [
      `${n.passed} passed`,
      n.failed ? `${n.failed} failed` : "",
      n.errored ? `${n.errored} errored` : "",
      n.skipped ? `${n.skipped} skipped` : "",
    ]
      .filter(Boolean)
      .join(", ");
    // FAIL and ERROR first inside a group too: a skip never hides a failure.
    const sorted = [...cases].sort(byAttention);
    return {
      title: logSafe(`${terminalSafe(subject, 80)} · ${suite}: ${counts}`),
      lines: sorted.flatMap((c) => {
        const fix =
          c.remediation && c.status !== "pass"
            ? [`      fix: ${logSafe(terminalSafe(c.remediation, 300))}`]
            : [];
        return [caseLine(c), ...fix];
      }),
    };
  });
}

/** Prints the result groups, run-level errors, the cleanup line and the final line. */
export async function logResults(report: Report, reportDir: string): Promise<void> {
  for (const g of resultGroups(report)) {
    await core.group(g.title, async () => {
      for (const line of g.lines) core.info(line);
    });
  }
  for (const e of report.errors) core.error(logSafe(`${e.kind}: ${terminalSafe(e.message, 500)}`));
  const c = report.cleanup;
  if (c) {
    const removed = c.objects.filter((o) => o.action === "removed" || o.action === "untagged").length;
    core.info(
      c.completed
        ? `cleanup: removed ${removed} owned object(s) of ${c.owner}; listing again found none left`
        : `cleanup: INCOMPLETE for ${c.owner}, ${c.remaining.length} object(s) remain (the post step retries)`,
    );
  }
  core.info(finalLine(report, reportDir));
}

function finalLine(report: Report, reportDir: string): string {
  const n = countCases(report.cases);
  const errored = n.errored ? `, ${n.errored} errored` : "";
  return `docker-acceptance: ${report.verdict.toUpperCase()} (${n.passed} passed, ${n.failed} failed${errored}, ${n.skipped} skipped of ${n.total}); report: ${reportDir}/report.md (report.json, junit.xml, SHA256SUMS beside it)`;
}
