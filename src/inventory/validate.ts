// The inventory validated by its zod schema (./schema.ts): every problem names the file, the line,
// the JSON path, what was expected and the fix, all at once. A run reaches this module only when the
// precompiled check (./precheck.ts) cannot vouch for its inventory, that is when the file has a
// problem to report (./load.ts); the commands that write inventories (init, pin) parse with it.
import type { z } from "zod";
import type { ConfigProblem } from "../errors.js";
import { jsonPath, nearestLine, type Span, valueAt } from "../jsonpos.js";
import { inventorySchema } from "./schema.js";
import { closest } from "./suggest.js";
import {
  duplicateProblems,
  type LoadedInventory,
  type LoadOptions,
  loadedInventory,
  locateInventory,
} from "./text.js";

/**
 * Validates inventory text. Without a workspace only the lexical path rules apply (no "..", not
 * absolute); with one, pinned paths that exist must also resolve inside it (no symlink escapes).
 */
export function parseInventory(file: string, text: string, opts: LoadOptions = {}): LoadedInventory {
  const located = locateInventory(file, text);
  const problems = duplicateProblems(located);
  const parsed = inventorySchema.safeParse(located.value);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      problems.push(...toProblems(issue, located.value, located.spans));
  return loadedInventory(file, text, located, problems, parsed.success ? parsed.data : undefined, opts);
}

// ---- zod issues -> problems a person can act on ----

function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

const TYPE_NAMES: Record<string, string> = {
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
};

type MakeProblem = (message: string, fix?: string, p?: readonly PropertyKey[]) => ConfigProblem;

/** A problem at a path (the issue's own by default), on the line of its nearest located ancestor. */
function problemMaker(at: readonly PropertyKey[], spans: Map<string, Span>): MakeProblem {
  return (message, fix, p = at) => ({
    path: jsonPath(p),
    line: nearestLine(spans, p),
    message,
    ...(fix ? { fix } : {}),
  });
}

function toProblems(issue: z.core.$ZodIssue, root: unknown, spans: Map<string, Span>): ConfigProblem[] {
  const at = issue.path as PropertyKey[];
  const problem = problemMaker(at, spans);
  const value = valueAt(root, at);
  const got = `got ${shown(value)}`;

  switch (issue.code) {
    case "custom":
      return [problem(issue.message, (issue.params as { fix?: string } | undefined)?.fix)];
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKeyProblem(at, key, root, problem));
    case "invalid_type":
      return [invalidTypeProblem(issue, at, value, problem)];
    case "invalid_value": {
      const options = issue.values.map((v) => shown(v));
      if (options.length === 1) return [problem(`expected ${options[0]}, ${got}`, `set it to ${options[0]}`)];
      const near = typeof value === "string" ? closest(value, issue.values.map(String)) : undefined;
      return [
        problem(
          `expected one of ${options.join(", ")}, ${got}`,
          near ? `did you mean "${near}"?` : "use one of the listed values",
        ),
      ];
    }
    case "invalid_format": {
      const expected =
        issue.format === "starts_with" && "prefix" in issue
          ? `a string starting with "${String(issue.prefix)}"`
          : issue.message;
      return [problem(`expected ${expected}, ${got}`, "correct the value")];
    }
    case "too_small":
    case "too_big": {
      // A list or a long string is counted, not quoted.
      const size = Array.isArray(value)
        ? `got ${value.length} item(s)`
        : typeof value === "string" && issue.origin === "string"
          ? `got ${value.length} character(s)`
          : got;
      return [problem(`expected ${boundOf(issue)}, ${size}`, "correct the value")];
    }
    case "invalid_union":
      return [problem(`${issue.message}, ${got}`, "see the field's description in inventory.schema.json")];
    default:
      return [problem(issue.message)];
  }
}

function unknownKeyProblem(
  at: readonly PropertyKey[],
  key: string,
  root: unknown,
  problem: MakeProblem,
): ConfigProblem {
  const known = knownKeys(at, root);
  const near = closest(key, known);
  return problem(
    `unknown key "${key}"; expected one of ${known.join(", ")}`,
    near ? `did you mean "${near}"?` : "remove it; no other keys are accepted here",
    [...at, key],
  );
}

function invalidTypeProblem(
  issue: z.core.$ZodIssueInvalidType,
  at: readonly PropertyKey[],
  value: unknown,
  problem: MakeProblem,
): ConfigProblem {
  const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
  if (value === undefined) {
    const key = String(at.at(-1) ?? "");
    return problem(`missing required key "${key}"; expected ${expected}`, `add "${key}"`);
  }
  const fix =
    issue.expected === "number" && typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)
      ? `write ${value} without quotes`
      : `use ${expected}`;
  return problem(`expected ${expected}, got ${kindOf(value)} (${shown(value)})`, fix);
}

/** "at least 1 item(s)", "a number less than 5": what a size or range issue expected. */
function boundOf(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === "too_small";
  const bound = String(small ? issue.minimum : issue.maximum);
  const cmp = small
    ? issue.inclusive
      ? "at least"
      : "more than"
    : issue.inclusive
      ? "at most"
      : "less than";
  if (issue.origin === "array") return `${cmp} ${bound} item(s)`;
  if (issue.origin === "string") return `${cmp} ${bound} character(s)`;
  return `a number ${cmp} ${bound}`;
}

/**
 * The keys the schema accepts at a JSON path (zod reports only the unknown ones). Under a union
 * (a probe, a readiness strategy) they are the keys of the options the value's `type` selects.
 */
function knownKeys(at: readonly PropertyKey[], root: unknown): string[] {
  let def = defOf(inventorySchema);
  for (let n = 0; n < at.length; n++) {
    def = unwrap(optionFor(unwrap(def), valueAt(root, at.slice(0, n))));
    const seg = at[n]!;
    const next =
      def?.type === "object"
        ? (def.shape as Record<string, unknown>)[String(seg)]
        : def?.type === "array"
          ? def.element
          : def?.type === "record"
            ? def.valueType
            : undefined;
    def = defOf(next);
  }
  def = unwrap(def);
  const options = def?.type === "union" ? unionOptions(def, valueAt(root, at)) : [def];
  return [...new Set(options.flatMap((o) => (o?.type === "object" ? Object.keys(o.shape as object) : [])))];
}

/** A union's option for `value`: the one its `type` names, when exactly one does. */
function optionFor(def: Def | undefined, value: unknown): Def | undefined {
  if (def?.type !== "union") return def;
  const options = unionOptions(def, value);
  return options.length === 1 ? options[0] : def;
}

/** The union's object options whose `type` accepts the value's (all of them when none does). */
function unionOptions(def: Def, value: unknown): (Def | undefined)[] {
  const all = (def.options as unknown[]).map((o) => unwrap(defOf(o)));
  const type = (value as { type?: unknown } | undefined)?.type;
  const literal = (o: Def | undefined) =>
    unwrap(defOf((o?.shape as Record<string, unknown> | undefined)?.type));
  const accepting = all.filter((o) => {
    const l = literal(o);
    return type === undefined
      ? l === undefined || l.type !== "literal"
      : (l?.values as unknown[] | undefined)?.includes(type);
  });
  return accepting.length > 0 ? accepting : all;
}

type Def = Record<string, unknown> & { type?: string };
function defOf(s: unknown): Def | undefined {
  return (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}
function unwrap(def: Def | undefined): Def | undefined {
  while (def && ["optional", "default", "prefault", "nullable", "pipe"].includes(def.type ?? "")) {
    def = defOf(def.type === "pipe" ? def.in : def.innerType);
  }
  return def;
}
