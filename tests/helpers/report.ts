// Report objects for tests, built through the real schema: a fixture the schema rejects fails here,
// so tests never drift from what the pipeline can actually produce.

import { ALL_CASES, type CaseId, suiteOf } from "../../src/cases/index.js";
import {
  type CaseResult,
  type CleanupEvidence,
  caseResultSchema,
  computeVerdict,
  type Report,
  reportSchema,
} from "../../src/report/model.js";

export const TEST_RUN_ID = "da-0123456789abcdef0123456789abcdef";

/** One case result; defaults to a passing `lifecycle.build` for subject "web". */
export function makeCase(over: Partial<CaseResult> = {}): CaseResult {
  const id = over.id ?? "lifecycle.build";
  return caseResultSchema.parse({
    id,
    suite: (ALL_CASES as readonly string[]).includes(id) ? suiteOf(id as CaseId) : "lifecycle",
    subject: "web",
    status: "pass",
    severity: "fail",
    durationMs: 25,
    message: "",
    evidence: {},
    ...over,
  });
}

/** Every known case, passing, for one subject: what a complete run of both suites looks like. */
export function allCases(subject = "web", over: Partial<CaseResult> = {}): CaseResult[] {
  return ALL_CASES.map((id) => makeCase({ id, subject, ...over }));
}

export function makeCleanup(over: Partial<CleanupEvidence> = {}): CleanupEvidence {
  return {
    owner: TEST_RUN_ID,
    startedAt: "2025-01-01T00:00:10.000Z",
    durationMs: 700,
    trigger: "end-of-run",
    objects: [
      {
        kind: "container",
        id: "c".repeat(64),
        role: "subject",
        action: "removed",
        reason: "owned by this run",
      },
    ],
    completed: true,
    verifiedBy: ["containers", "images"],
    remaining: [],
    errors: [],
    ...over,
  };
}

/**
 * A whole report; defaults: subject "web" passing every case of both suites, cleanup completed,
 * no inventory. The verdict is computed from the parts unless `verdict` is given.
 */
export function makeReport(over: Partial<Report> = {}): Report {
  const base = {
    schemaVersion: 1,
    tool: { name: "docker-acceptance", version: "0.1.0" },
    runId: TEST_RUN_ID,
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: 12_345,
    head: { sha: "a".repeat(40), ref: "refs/pull/7/merge" },
    subjects: [{ name: "web", image: `docker-acceptance:${TEST_RUN_ID}`, phases: [] }],
    cases: allCases("web"),
    cleanup: makeCleanup(),
    inventory: null,
    artifacts: [],
    alignment: null,
    external: {},
    errors: [],
    ...over,
  };
  const verdict = over.verdict ?? computeVerdict(reportSchema.parse({ ...base, verdict: "pass" }));
  return reportSchema.parse({ ...base, verdict });
}
