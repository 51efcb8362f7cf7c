// What a publisher may believe of a report bundle it did not produce: nothing it cannot check.
// Both publish paths (the fork recipe's phase 2 and the command recipe's publish job) take the
// head from the commit they verified themselves and the verdict from the cases, never from the
// bundle's own `head` or `verdict` fields (docs/security.md).
import { computeVerdict, type Report } from "./model.js";

/**
 * The report as published: head = `sha` (verified by `verifiedBy`), the bundle's claim only
 * compared with it. A claim that is missing or names another commit is a run-level error, so
 * the verdict becomes `error` whatever the cases say. The verdict is always recomputed.
 */
export function pinVerifiedHead(report: Report, sha: string, verifiedBy: string, movedTo?: string): Report {
  const claimed = report.head.sha;
  const head = movedTo ? { sha, movedTo } : { sha };
  const mismatch =
    claimed === sha
      ? []
      : [
          {
            kind: "head-mismatch",
            message:
              claimed === undefined
                ? `the report bundle names no head commit, so nothing shows it tested ${sha} (the commit ${verifiedBy} names)`
                : `the report bundle claims it tested ${describeClaim(claimed)}, but ${verifiedBy} names ${sha}: the run did not test that commit (check the workflow's checkout ref)`,
          },
        ];
  const pinned = { ...report, head, errors: [...report.errors, ...mismatch] };
  return { ...pinned, verdict: computeVerdict(pinned) };
}

/** The bundle's claim, shown only as a short hex string (it is untrusted text). */
function describeClaim(claimed: string): string {
  return /^[0-9a-f]{7,64}$/i.test(claimed) ? `commit ${claimed.slice(0, 40)}` : "another commit";
}
