// Completeness: the cases that ran, compared with the pinned cases for every subject x suite the
// run was asked to cover. A required case that did not run (missing), ran but was skipped
// (skipped), or an unpinned case that ran (unexpected) makes the inventory incomplete.
//
// A suite absent from the inventory's `suites` pins no cases: if a run selects it anyway, every
// case it ran is unexpected. Acceptance is only what the maintainers pinned; a suite nobody pinned
// cannot make a run pass, and a pull request cannot add one silently.
//
// Each kind of drift comes with its fix, once per subject (./drift-fixes.ts): for cases that ran
// unpinned, the exact JSON lines that pin them, as `init --update` would write them.

import { ALL_CASES, type SuiteName } from "../cases/index.js";
import type { CaseResult, Report } from "../report/model.js";
import { driftFixes } from "./drift-fixes.js";
import { pinnedCases } from "./reading.js";
import type { Inventory } from "./schema.js";

type InventoryReport = NonNullable<Report["inventory"]>;
type Drift = InventoryReport["drift"][number];

interface CompletenessOptions {
  /** The suites and subjects this run (or shard) was asked to cover. */
  suites: SuiteName[];
  subjects: string[];
  /**
   * Subjects the base's inventory declares that the change removed: judged by the base, they owe
   * their pinned cases like any selected subject (all missing), so deleting a failing subject
   * from the inventory cannot turn a run green.
   */
  removed?: string[];
  /** When false, an incomplete inventory only warns. */
  requireComplete: boolean;
  /** The inventory file as given and the sha256 of its bytes, recorded in the report. */
  path: string;
  sha256: string;
  /**
   * The text of the inventory file a person edits (the change's own), so a fix can name the lines
   * that pin what ran, and where they go. Absent: the fix is worked out from `inventory` alone.
   */
  text?: string;
}

export function checkCompleteness(
  inventory: Inventory,
  cases: CaseResult[],
  opts: CompletenessOptions,
): InventoryReport {
  const pairs: { subject: string; suite: string; pinned: readonly string[] }[] = [];
  const key = (subject: string, suite: string) => `${subject}\u0000${suite}`;
  const known = new Set<string>();
  for (const subject of [...opts.subjects, ...(opts.removed ?? [])]) {
    for (const suite of opts.suites) {
      pairs.push({ subject, suite, pinned: pinnedCases(inventory, suite, subject) ?? [] });
      known.add(key(subject, suite));
    }
  }
  // Cases for a subject or suite outside the selection are unexpected too: nothing pins them here.
  for (const c of cases) {
    if (known.has(key(c.subject, c.suite))) continue;
    pairs.push({ subject: c.subject, suite: c.suite, pinned: [] });
    known.add(key(c.subject, c.suite));
  }

  const drift: Drift[] = [];
  for (const { subject, suite, pinned } of pairs) {
    const ran = cases.filter((c) => c.subject === subject && c.suite === suite);
    const statuses = new Map<string, CaseResult["status"][]>();
    for (const c of ran) statuses.set(c.id, [...(statuses.get(c.id) ?? []), c.status]);
    const missing = pinned.filter((id) => !statuses.has(id));
    const skipped = pinned.filter((id) => statuses.get(id)?.every((s) => s === "skip"));
    const unexpected = [...statuses.keys()].filter((id) => !pinned.includes(id)).sort(byCaseOrder);
    if (missing.length + skipped.length + unexpected.length > 0) {
      drift.push({ subject, suite, missing, unexpected, skipped });
    }
  }
  return {
    path: opts.path,
    sha256: opts.sha256,
    complete: drift.length === 0,
    requireComplete: opts.requireComplete,
    selected: { subjects: [...opts.subjects], suites: [...opts.suites] },
    drift,
    fixes: driftFixes(drift, {
      path: opts.path,
      text: opts.text ?? JSON.stringify(inventory),
      removed: opts.removed ?? [],
    }),
  };
}

/** Known IDs in their canonical order, anything else after them alphabetically. */
function byCaseOrder(a: string, b: string): number {
  const ia = (ALL_CASES as readonly string[]).indexOf(a);
  const ib = (ALL_CASES as readonly string[]).indexOf(b);
  if (ia !== -1 && ib !== -1) return ia - ib;
  if (ia !== -1 || ib !== -1) return ia === -1 ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One line per drifting subject x suite, for logs and errors (the report's own wording). */
export { describeDrift } from "../report/text.js";
