// The report's verdict, counts and reading order: what the doors need of a Report while it is
// being made (the job log's lines, a signal's exit), apart from the zod schemas in ./model.ts, so
// that start-up does not build the report's schema before the run has anything to report. It
// reads only the fields it names (./model.ts's types have them), so it imports nothing of the model.

export const VERDICTS = ["pass", "warn", "fail", "error"] as const;
type Verdict = (typeof VERDICTS)[number];

/** What a verdict, a count and the reading order read of a case. */
interface CaseOutcome {
  status: "pass" | "fail" | "skip" | "error";
  severity: "fail" | "warn";
}

/** What a verdict reads of a report. */
interface VerdictInputs {
  cases: readonly CaseOutcome[];
  artifacts: readonly { ok: boolean }[];
  inventory: { complete: boolean; requireComplete: boolean } | null;
  errors: readonly unknown[];
  cleanup: { completed: boolean } | null;
  alignment?: { findings: readonly FindingTier[] } | null;
}

/** blocking: Tier 1, fails the run; discussion: Tier 2; advisory: a note that never fails. */
export const FINDING_LEVELS = ["blocking", "discussion", "advisory"] as const;
export type FindingLevel = (typeof FINDING_LEVELS)[number];

/** What a finding's level is read from. */
interface FindingTier {
  tier: 1 | 2;
  level?: FindingLevel;
}

/** A finding's level; reports written before levels existed have only a tier. */
export function levelOf(finding: FindingTier): FindingLevel {
  return finding.level ?? (finding.tier === 1 ? "blocking" : "discussion");
}

/**
 * Verdict rules: any error -> error; a failed `fail`-severity case, a blocking alignment finding, a
 * hash mismatch, an incomplete inventory (when required) or failed cleanup -> fail; skips and `warn` failures -> warn.
 */
export function computeVerdict(report: VerdictInputs): Verdict {
  if (report.errors.length > 0 || report.cases.some((c) => c.status === "error")) return "error";
  const failed =
    report.cases.some((c) => c.status === "fail" && c.severity === "fail") ||
    (report.alignment?.findings.some((f) => levelOf(f) === "blocking") ?? false) ||
    report.artifacts.some((a) => !a.ok) ||
    (report.inventory?.requireComplete === true && !report.inventory.complete) ||
    (report.cleanup !== null && !report.cleanup.completed);
  if (failed) return "fail";
  const warned =
    report.cases.some((c) => c.status === "skip" || (c.status === "fail" && c.severity === "warn")) ||
    (report.inventory !== null && !report.inventory.complete);
  return warned ? "warn" : "pass";
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  total: number;
}

export function countCases(cases: readonly Pick<CaseOutcome, "status">[]): Counts {
  const c = { passed: 0, failed: 0, skipped: 0, errored: 0, total: cases.length };
  for (const x of cases) {
    if (x.status === "pass") c.passed++;
    else if (x.status === "fail") c.failed++;
    else if (x.status === "skip") c.skipped++;
    else c.errored++;
  }
  return c;
}

/** FAIL and ERROR first, then SKIP, then PASS: a skip never hides a failure. */
export function byAttention(first: Pick<CaseOutcome, "status">, second: Pick<CaseOutcome, "status">): number {
  const rank = { error: 0, fail: 1, skip: 2, pass: 3 } as const;
  return rank[first.status] - rank[second.status];
}
