// Reads and validates the inventory. Every problem names the file, the line, the JSON path, what
// was expected and the fix; all problems are reported at once; nothing here touches the engine.
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { ConfigError, type ConfigProblem, readUserFile } from "../errors.js";
import { JsonSyntaxError, jsonPath, locateJson, type Span } from "../jsonpos.js";
import { type Inventory, inventorySchema, relPathProblem } from "./schema.js";
import { closest } from "./suggest.js";

export { jsonPath };

export interface LoadedInventory {
  path: string;
  /** sha256 of the file's exact bytes: what the report records and `verify` compares. */
  sha256: string;
  text: string;
  inventory: Inventory;
}

export interface LoadOptions {
  /** The repository root that pinned paths are relative to (default: the current directory). */
  workspace?: string;
}

export async function loadInventory(file: string, opts: LoadOptions = {}): Promise<LoadedInventory> {
  const text = await readUserFile(
    file,
    "the inventory",
    "`docker-acceptance init` writes one from the repository's Dockerfiles, or pass --inventory PATH",
  );
  return parseInventory(file, text, { workspace: opts.workspace ?? process.cwd() });
}

/**
 * Validates inventory text. Without a workspace only the lexical path rules apply (no "..", not
 * absolute); with one, pinned paths that exist must also resolve inside it (no symlink escapes).
 */
export function parseInventory(file: string, text: string, opts: LoadOptions = {}): LoadedInventory {
  let located: ReturnType<typeof locateJson>;
  try {
    located = locateJson(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    throw new ConfigError(
      [{ path: "", line: err.line, message: `not valid JSON: ${err.message}`, fix: "fix the JSON syntax" }],
      file,
    );
  }
  const { value, spans } = located;
  const problems: ConfigProblem[] = located.duplicates.map((d) => ({
    path: jsonPath(d.path),
    line: d.line,
    message: `duplicate key "${String(d.path.at(-1))}" (also on line ${d.firstLine}); JSON keeps only the last`,
    fix: "remove one of them",
  }));
  const parsed = inventorySchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(...toProblems(issue, value, spans));
  } else if (opts.workspace) {
    problems.push(...workspaceProblems(parsed.data, opts.workspace, spans));
  }
  if (problems.length > 0 || !parsed.success) {
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    throw new ConfigError(problems, file);
  }
  return {
    path: file,
    sha256: createHash("sha256").update(text).digest("hex"),
    text,
    inventory: parsed.data,
  };
}

/** Pinned paths that exist must stay inside the workspace once symbolic links are resolved. */
function workspaceProblems(inv: Inventory, workspace: string, spans: Map<string, Span>): ConfigProblem[] {
  const root = realOrSelf(path.resolve(workspace));
  const checks: { at: (string | number)[]; rel: string }[] = [
    ...inv.subjects.flatMap((s, i) =>
      s.build ? [{ at: ["subjects", i, "build", "context"], rel: s.build.context }] : [],
    ),
    ...inv.artifacts.map((a, i) => ({ at: ["artifacts", i, "path"], rel: a.path })),
  ];
  const problems: ConfigProblem[] = [];
  for (const { at, rel } of checks) {
    const real = realOrSelf(path.resolve(root, rel));
    if (real === root || real.startsWith(root + path.sep)) continue;
    problems.push({
      path: jsonPath(at),
      line: spans.get(jsonPath(at))?.line,
      message: `"${rel}" resolves outside the workspace (through a symbolic link, to ${real})`,
      fix: "point it at a real file or directory inside the repository",
    });
  }
  return problems;
}

/** The real path, resolving links in the deepest existing ancestor when `p` itself is missing. */
function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // Missing paths are reported where they are used (artifact verification, build), but a
    // missing file under a linked directory must still be seen to be outside.
    const parent = path.dirname(p);
    return parent === p ? p : path.join(realOrSelf(parent), path.basename(p));
  }
}

/** Re-checks a path before it is read: the lexical rule, then the resolved location. */
export function resolveInWorkspace(workspace: string, rel: string): string | undefined {
  if (relPathProblem(rel)) return undefined;
  const root = realOrSelf(path.resolve(workspace));
  const real = realOrSelf(path.resolve(root, rel));
  return real === root || real.startsWith(root + path.sep) ? real : undefined;
}

// ---- zod issues -> problems a person can act on ----

function valueAt(root: unknown, p: readonly PropertyKey[]): unknown {
  let v = root;
  for (const seg of p) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

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
  const lineOf = (p: readonly PropertyKey[]): number | undefined => {
    for (let n = p.length; n >= 0; n--) {
      const span = spans.get(jsonPath(p.slice(0, n)));
      if (span) return span.line;
    }
    return undefined;
  };
  return (message, fix, p = at) => ({ path: jsonPath(p), line: lineOf(p), message, ...(fix ? { fix } : {}) });
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
      return issue.keys.map((key) => unknownKeyProblem(at, key, problem));
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
    case "too_big":
      return [problem(`expected ${boundOf(issue)}, ${got}`, "correct the value")];
    case "invalid_union":
      return [problem(`${issue.message}, ${got}`, "see the field's description in inventory.schema.json")];
    default:
      return [problem(issue.message)];
  }
}

function unknownKeyProblem(at: readonly PropertyKey[], key: string, problem: MakeProblem): ConfigProblem {
  const known = knownKeys(at);
  const near = closest(key, known);
  return problem(
    `unknown key "${key}"; expected one of ${known.join(", ")}`,
    near ? `rename it to "${near}"` : "remove it; no other keys are accepted here",
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

/** The keys the schema accepts at a JSON path (zod reports only the unknown ones). */
function knownKeys(at: readonly PropertyKey[]): string[] {
  let def = defOf(inventorySchema);
  for (const seg of at) {
    def = unwrap(def);
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
  return def?.type === "object" ? Object.keys(def.shape as object) : [];
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
