// The report of a command run describes exactly the commit that was accepted. In the fork recipe
// the bundle comes from a job that ran untrusted code, so its claim about which commit it tested
// is checked against the decision, never believed; and if the PR moved on while the suites ran,
// the report says so instead of passing for code nobody tested.
import type { Report } from "../report/model.js";
import type { RunDecision } from "./decision.js";

export function applyPinnedHead(
  report: Report,
  decision: RunDecision,
  current: { stale: boolean; currentSha: string },
): Report {
  const head = {
    ...report.head,
    sha: decision.headSha,
    movedTo: current.stale ? current.currentSha : undefined,
  };
  if (report.head.sha === undefined || report.head.sha === decision.headSha) return { ...report, head };
  // A run-level error makes the verdict error whatever the cases said (src/report/model.ts).
  return {
    ...report,
    head,
    verdict: "error",
    errors: [
      ...report.errors,
      {
        kind: "head-mismatch",
        message:
          `the report bundle says it tested ${report.head.sha.slice(0, 40)}, but the accepted command pinned ` +
          `${decision.headSha}: the run did not test the accepted commit (check the workflow's checkout ref)`,
      },
    ],
  };
}
