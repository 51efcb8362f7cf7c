// What a run reads off a parsed inventory: a subject's readiness strategy, the cases pinned for
// it, a case's severity. Plain functions over the parsed value, apart from the zod schema (./schema.ts),
// which a run whose inventory the precompiled check vouched for never builds (./precheck.ts).
import type { SUITES } from "../cases/suites.js";
import type { Inventory, Readiness, Subject } from "./schema.js";

/** The subject's readiness strategy: declared, else GET healthPath (default /health) answers 200. */
export function readinessOf(subject: Subject): Readiness {
  return subject.readiness ?? { type: "http", path: subject.healthPath ?? "/health", expectStatus: 200 };
}

/**
 * The case IDs pinned for one subject in one suite: its override, else the suite's required list;
 * undefined when the inventory does not pin the suite at all.
 */
export function pinnedCases(
  inv: Inventory,
  suite: (typeof SUITES)[number],
  subject: string,
): string[] | undefined {
  const req = inv.suites[suite];
  if (!req) return undefined;
  return req.subjects[subject] ?? req.required;
}
