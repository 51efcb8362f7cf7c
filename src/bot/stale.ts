// The report of a command run describes exactly the commit that was accepted. The bundle comes
// from a job that ran the pull request's code, so its claim about which commit it tested is
// checked against the decision, never believed (a missing claim is a mismatch too); and if the
// PR moved on while the suites ran, the report says so instead of passing for code nobody tested.
import type { Report } from "../report/model.js";
import { pinVerifiedHead } from "../report/provenance.js";
import type { RunDecision } from "./decision.js";

export function applyPinnedHead(
  report: Report,
  decision: RunDecision,
  current: { stale: boolean; currentSha: string },
): Report {
  return pinVerifiedHead(
    report,
    decision.headSha,
    "the accepted command",
    current.stale ? current.currentSha : undefined,
  );
}
