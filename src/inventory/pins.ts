// Where a subject's case IDs are pinned in an inventory's text, and the JSON that pins more: one
// plan, which `init --update` writes and a drift fix shows line for line. It only ever adds: a
// pin is removed by a maintainer, never by a tool.

import { ALL_CASES, type SuiteName } from "../cases/index.js";
import { type JsonPath, locateJson } from "../jsonpos.js";
import { type Addition, type Insertion, insertionOf, isObject, valueAt } from "./json-layout.js";

/** Case IDs of one suite that should be pinned for one subject. */
export interface PinWanted {
  subject: string;
  suite: SuiteName;
  ids: readonly string[];
}

/**
 * The list a subject's cases of a suite are pinned in: its own under `suites.<suite>.subjects`
 * when the inventory gives it one (that list replaces `required` for it), else `required`.
 */
function pinListPath(root: unknown, suite: SuiteName, subject: string): JsonPath {
  const own = valueAt(root, ["suites", suite, "subjects", subject]);
  return Array.isArray(own) ? ["suites", suite, "subjects", subject] : ["suites", suite, "required"];
}

const caseOrder = (a: string, b: string) =>
  (ALL_CASES as readonly string[]).indexOf(a) - (ALL_CASES as readonly string[]).indexOf(b);

/**
 * The insertions that pin every wanted ID not pinned yet: items appended to a list that exists,
 * else the missing part (a suite's `{ "required": [...] }`, or `"suites"` itself) added where the
 * file stops having it. Empty when everything wanted is pinned already.
 */
export function planPins(text: string, wanted: readonly PinWanted[]): Insertion[] {
  const located = locateJson(text);
  const root = located.value;
  const lists = new Map<string, { at: JsonPath; ids: string[] }>();
  for (const w of wanted) {
    const at = pinListPath(root, w.suite, w.subject);
    const have = valueAt(root, at);
    const pinned = Array.isArray(have) ? have : [];
    const entry = lists.get(at.join("\0")) ?? { at, ids: [] };
    for (const id of w.ids) if (!pinned.includes(id) && !entry.ids.includes(id)) entry.ids.push(id);
    lists.set(at.join("\0"), entry);
  }
  const additions: Addition[] = [];
  for (const { at, ids } of lists.values()) {
    if (ids.length === 0) continue;
    ids.sort(caseOrder);
    if (Array.isArray(valueAt(root, at))) additions.push({ at, items: ids });
    else addEntry(additions, root, at, ids);
  }
  return additions.map((a) => insertionOf(text, located, a));
}

/**
 * Adds `ids` as the list at `at`, which the text lacks: as a new key of the deepest object on the
 * way that exists, its value the rest of the path; additions to the same object are merged.
 */
function addEntry(additions: Addition[], root: unknown, at: JsonPath, ids: string[]): void {
  let n = at.length - 1;
  while (n > 0 && !isObject(valueAt(root, at.slice(0, n)))) n--;
  const parent = at.slice(0, n);
  let value: unknown = ids;
  for (let k = at.length - 1; k > n; k--) value = { [String(at[k])]: value };
  const key = String(at[n]);
  const same = additions.find(
    (a): a is Extract<Addition, { entries: unknown }> =>
      "entries" in a && a.at.join("\0") === parent.join("\0"),
  );
  if (!same) {
    additions.push({ at: parent, entries: [[key, value]] });
    return;
  }
  const existing = same.entries.find(([k]) => k === key);
  if (existing) existing[1] = deepMerge(existing[1], value);
  else same.entries.push([key, value]);
}

function deepMerge(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out;
}
