// Judgement: each case's grader (graders/, keyed by the case's id) run over the collected
// evidence. A grader never touches the subject. A case the probe could not observe is SKIP with the
// reason, never PASS; a failure provable from inspect alone is FAIL whether or not the probe saw anything.

import { CONTAINMENT_SUITE, remediationOf } from "../../cases/index.js";
import type { CaseResult } from "../../report/model.js";
import type { ContainmentEvidence, GradeTarget, Outcome } from "./evidence.js";
import { GRADERS } from "./graders/index.js";

/** One CaseResult per containment case, in the catalogue's order. */
export function gradeContainment(
  evidence: ContainmentEvidence,
  target: GradeTarget,
  collectMs = 0,
): CaseResult[] {
  const cases = CONTAINMENT_SUITE.cases;
  return cases.map(({ id }) => {
    const started = performance.now();
    let out: Outcome;
    try {
      out = GRADERS[id](evidence, target);
    } catch (err) {
      out = { status: "error", message: `grader failed: ${(err as Error).message}`, evidence: {} };
    }
    // A case left unobserved because the report did not verify is an error, not a quiet skip.
    if (out.status === "skip" && "error" in evidence.probe && evidence.probe.unverified)
      out = { ...out, status: "error" };
    out = distrusted(id, out, evidence);
    return {
      id,
      suite: "containment",
      subject: target.subject,
      status: out.status,
      severity: "fail",
      // Evidence is collected once for all cases: each carries an equal share of that time plus its
      // own judgement, so the suite's durations add up to the time it took (JUnit sums them).
      durationMs: Math.round((collectMs / cases.length + performance.now() - started) * 100) / 100,
      message: out.message,
      evidence: out.evidence,
      ...(out.status === "pass" ? {} : { remediation: remediationOf(id, "inventory") }),
    };
  });
}

/**
 * Cases whose pass rests on what a subject that was not frozen could watch and race: the write
 * probes make files it can see appear (inotify) before the next place is probed.
 */
const RACEABLE = new Set(["containment.writable_roots"]);

/** A pass the freeze did not cover is an ERROR saying why; a thaw that failed is in every case. */
function distrusted(id: string, out: Outcome, ev: ContainmentEvidence): Outcome {
  const thaw = ev.thawError ? { thawError: ev.thawError } : {};
  if (out.status === "pass" && RACEABLE.has(id) && ev.freeze && !ev.freeze.held) {
    return {
      status: "error",
      message: `${out.message}; but ${ev.freeze.reason}, so the subject could watch the write probes and race them: not a pass`,
      evidence: { ...out.evidence, freeze: ev.freeze, ...thaw },
    };
  }
  return ev.thawError ? { ...out, evidence: { ...out.evidence, ...thaw } } : out;
}
