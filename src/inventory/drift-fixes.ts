// What to do about drift, said once per subject (subjects needing the same change share one fix).
// Cases that ran unpinned get the exact JSON lines that pin them, where they go, and the command
// that writes them (`init --update`, the same plan: ./pins.ts). Pinned cases that did not run, or
// were skipped, keep a fix of their own, and never the suggestion to drop the pin.

import { isSuiteName } from "../cases/index.js";
import type { Report } from "../report/model.js";
import type { Insertion } from "./json-layout.js";
import { DEFAULT_INVENTORY_PATH } from "./path.js";
import { type PinWanted, planPins } from "./pins.js";

type InventoryReport = NonNullable<Report["inventory"]>;
type Drift = InventoryReport["drift"][number];
type Fix = NonNullable<InventoryReport["fixes"]>[number];

interface FixContext {
  /** The inventory file as the report names it. */
  path: string;
  /** Its text, which the lines to add are planned against. */
  text: string;
  /** Subjects the base declares that the change removed. */
  removed: readonly string[];
}

export function driftFixes(drift: readonly Drift[], ctx: FixContext): Fix[] {
  const fixes: Fix[] = [];
  for (const subject of [...new Set(drift.map((d) => d.subject))]) {
    const own = drift.filter((d) => d.subject === subject);
    const unpinned = own.filter((d) => d.unexpected.length > 0);
    if (unpinned.length > 0) fixes.push(unpinnedFix(subject, unpinned, ctx));
    const missing = own.flatMap((d) => d.missing);
    if (missing.length > 0) fixes.push(missingFix(subject, missing, ctx));
    const skipped = own.flatMap((d) => d.skipped);
    if (skipped.length > 0) {
      fixes.push({
        subjects: [subject],
        kind: "skipped",
        problem: `${count(skipped.length, "pinned case")} skipped: ${skipped.join(", ")}`,
        fix: "a pinned case must run, not skip: each skipped case's line says why it could not be measured",
        add: [],
      });
    }
  }
  return mergeAlike(fixes);
}

/** `docker-acceptance init --update`, naming the inventory when it is not the default one. */
function initUpdateCommand(path: string): string {
  const quoted = /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
  return `docker-acceptance init --update${path === DEFAULT_INVENTORY_PATH ? "" : ` --inventory ${quoted}`}`;
}

function unpinnedFix(subject: string, unpinned: Drift[], ctx: FixContext): Fix {
  const total = unpinned.reduce((n, d) => n + d.unexpected.length, 0);
  const bySuite = unpinned.map((d) => `${d.suite} ${d.unexpected.length}`).join(", ");
  const problem = `${count(total, "case")} ran that ${ctx.path} does not pin (${bySuite})`;
  const wanted: PinWanted[] = unpinned.flatMap((d) =>
    isSuiteName(d.suite) ? [{ subject, suite: d.suite, ids: d.unexpected }] : [],
  );
  let insertions: Insertion[] | undefined;
  try {
    insertions = planPins(ctx.text, wanted);
  } catch {
    insertions = undefined; // a text the planner cannot place lines in: say what to pin instead
  }
  const base = { subjects: [subject], kind: "unexpected" as const, problem };
  if (insertions === undefined) {
    const lists = unpinned.map((d) => `${d.unexpected.join(", ")} to suites.${d.suite}.required`);
    return { ...base, fix: `pin them in ${ctx.path}: add ${lists.join("; ")}`, add: [] };
  }
  if (insertions.length === 0) {
    return {
      ...base,
      fix: `${ctx.path} as changed here pins them already, but the base's pins judge this run: they count once the change is merged`,
      add: [],
    };
  }
  return {
    ...base,
    fix: `pin them: \`${initUpdateCommand(ctx.path)}\` adds these lines to ${ctx.path} (or add them by hand)`,
    add: insertions.map((i) => ({ at: i.at, line: i.line, lines: i.lines })),
  };
}

function missingFix(subject: string, missing: string[], ctx: FixContext): Fix {
  const base = { subjects: [subject], kind: "missing" as const, add: [] };
  if (ctx.removed.includes(subject)) {
    return {
      ...base,
      problem: `is declared in the base's inventory but not in this change's: its ${count(missing.length, "pinned case")} did not run`,
      fix: `restore subject "${subject}" in ${ctx.path}; removing a subject fails its own change by design, for a maintainer to merge knowingly`,
    };
  }
  return {
    ...base,
    problem: `${count(missing.length, "pinned case")} did not run: ${missing.join(", ")}`,
    fix: "find in the run's errors why they did not run; a case that no longer applies loses its pin only in a change a maintainer reviews",
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Fixes that say the same for several subjects become one, naming them all. */
function mergeAlike(fixes: Fix[]): Fix[] {
  const byKey = new Map<string, Fix>();
  for (const f of fixes) {
    const key = JSON.stringify([f.kind, f.problem, f.fix, f.add]);
    const same = byKey.get(key);
    if (same) same.subjects.push(...f.subjects);
    else byKey.set(key, { ...f, subjects: [...f.subjects] });
  }
  return [...byKey.values()];
}
