// `init --update`: what an existing inventory lacks, added in its own layout. Pins of every current
// case for every subject (in the list each subject's pins live in) and the subjects found since,
// appended; nothing is removed or reordered, every other byte stays. The result must load.

import { CASES_BY_SUITE, SUITES } from "../../cases/index.js";
import { applyInsertions, type Insertion, insertionOf } from "../../inventory/json-layout.js";
import { type PinWanted, planPins } from "../../inventory/pins.js";
import { parseInventory } from "../../inventory/validate.js";
import { jsonPath, locateJson } from "../../jsonpos.js";
import { printable } from "../verify.js";
import type { Draft } from "./draft.js";

interface UpdatePlan {
  text: string;
  insertions: Insertion[];
  /** What was added, where, as lines a person reads. */
  summary: string;
}

export function planUpdate(file: string, text: string, draft: Draft, workspace: string): UpdatePlan {
  const { inventory } = parseInventory(file, text, { workspace });
  // One image is one subject: the same context, Dockerfile and target found again is not added twice.
  const buildKey = (b: { context: string; dockerfile?: string; target?: string }) =>
    JSON.stringify([b.context, b.dockerfile ?? "Dockerfile", b.target ?? ""]);
  const names = new Set(inventory.subjects.map((s) => s.name));
  const builds = new Set(inventory.subjects.flatMap((s) => (s.build ? [buildKey(s.build)] : [])));
  const added = draft.subjects.filter((s) => !names.has(s.name) && !builds.has(buildKey(s.build)));
  const insertions: Insertion[] = [];
  if (added.length > 0)
    insertions.push(insertionOf(text, locateJson(text), { at: ["subjects"], items: added }));
  const wanted: PinWanted[] = [...names, ...added.map((s) => s.name)].flatMap((subject) =>
    SUITES.map((suite) => ({ subject, suite, ids: CASES_BY_SUITE[suite] as readonly string[] })),
  );
  insertions.push(...planPins(text, wanted));
  const out = applyInsertions(text, insertions);
  parseInventory(file, out, { workspace }); // never write an inventory that would not load
  const summary = insertions
    .map((i) => {
      const what =
        i.at === jsonPath(["subjects"]) ? `subject(s) ${added.map((s) => s.name).join(", ")}` : "case pins";
      const where = i.at ? `at the end of ${i.at} (line ${i.line})` : "at the end of the top level";
      return `  ${what} ${where}:\n${i.lines.map((l) => `    ${printable(l)}`).join("\n")}\n`;
    })
    .join("");
  return { text: out, insertions, summary };
}
