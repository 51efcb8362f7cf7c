// Reads and validates the inventory. Every problem names the file, the line, the JSON path, what
// was expected and the fix; all problems are reported at once; nothing here touches the engine.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { patternProblem } from "../checks/pattern.js";
import { ConfigError, type ConfigProblem } from "../errors.js";
import {
  JSON_MAX_DEPTH,
  JsonDepthError,
  JsonSyntaxError,
  jsonPath,
  locateJson,
  nearestLine,
  type Span,
} from "../jsonpos.js";
import { realOrSelf, workspaceProblems } from "./paths.js";
import { type Inventory, inventorySchema } from "./schema.js";
import { closest } from "./suggest.js";

export { resolveInWorkspace } from "./paths.js";
export { jsonPath };

/**
 * Largest inventory file read (bytes). This repository's is 2 KB; a thousand subjects fit in
 * 1 MiB. Past it the file is refused before it is parsed, so a pull request cannot make the
 * run spend its memory and time on the file that describes it.
 */
export const INVENTORY_MAX_BYTES = 1024 * 1024;

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
  /**
   * Every path must also be there, of the right kind (a run about to build from them): a
   * missing context, Dockerfile or pinned file is a configuration error, not a build failure.
   */
  existing?: boolean;
}

export async function loadInventory(file: string, opts: LoadOptions = {}): Promise<LoadedInventory> {
  const workspace = opts.workspace ?? process.cwd();
  const text = await readInventoryFile(file, workspace);
  const loaded = parseInventory(file, text, { ...opts, workspace });
  await checkPatterns(loaded);
  return loaded;
}

/**
 * The inventory's text. The path is the workflow's, but the file at it is the pull request's: a
 * symbolic link it commits is followed only within the workspace (a link to a JSON file of the
 * runner would have its values quoted in the problems, one to /dev/zero read until memory runs
 * out), and only a regular file within INVENTORY_MAX_BYTES is read, opened without blocking (a
 * FIFO would be waited on for ever). An inventory given outside the workspace is nobody's link.
 */
async function readInventoryFile(file: string, workspace: string): Promise<string> {
  const root = realOrSelf(path.resolve(workspace));
  const given = path.resolve(file);
  const real = realOrSelf(given);
  const refuse = (message: string, fix: string) => new ConfigError([{ path: "", message, fix }], file);
  // Named inside the workspace (as written, before any link is followed): it must stay inside.
  const named = isWithin(path.resolve(workspace), given) || isWithin(root, given);
  if (named && !isWithin(root, real)) {
    throw refuse(
      `resolves outside the workspace (through a symbolic link, to ${real})`,
      "commit the inventory itself, not a link to a file outside the repository",
    );
  }
  let fh: FileHandle;
  try {
    fh = await open(given, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw refuse(`cannot read the inventory (${code})`, INVENTORY_MISSING_FIX);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw refuse("is not a regular file", "make the inventory a plain JSON file");
    if (st.size > INVENTORY_MAX_BYTES) throw tooLargeProblem(file, st.size);
    return await fh.readFile("utf8");
  } finally {
    await fh.close();
  }
}

const INVENTORY_MISSING_FIX =
  "`docker-acceptance init` writes one from the repository's Dockerfiles, or pass --inventory PATH";

const isWithin = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * Every log pattern compiles for the linear-time matcher (../checks/pattern.ts), checked here rather
 * than in the schema so that the matcher loads only for an inventory that declares a pattern.
 */
async function checkPatterns(loaded: LoadedInventory): Promise<void> {
  const at: (string | number)[][] = [];
  loaded.inventory.subjects.forEach((s, i) => {
    if (s.readiness?.type === "log") at.push(["subjects", i, "readiness", "pattern"]);
    s.probes.forEach((p, j) => {
      if (p.type === "log") at.push(["subjects", i, "probes", j, "pattern"]);
    });
  });
  if (at.length === 0) return;
  const spans = locateJson(loaded.text).spans;
  const problems: ConfigProblem[] = [];
  for (const p of at) {
    const source = valueAt(loaded.inventory, p) as string;
    const message = await patternProblem(source);
    if (message === undefined) continue;
    problems.push({
      path: jsonPath(p),
      line: spans.get(jsonPath(p))?.line,
      message,
      fix: /lookaround|backreference/.test(message)
        ? "match the line without it (a log pattern is tested against each line on its own)"
        : "escape special characters such as ( [ . with a backslash",
    });
  }
  if (problems.length > 0) throw new ConfigError(problems, loaded.path);
}

/**
 * Validates inventory text. Without a workspace only the lexical path rules apply (no "..", not
 * absolute); with one, pinned paths that exist must also resolve inside it (no symlink escapes).
 */
export function parseInventory(file: string, text: string, opts: LoadOptions = {}): LoadedInventory {
  const located = locateInventory(file, text);
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
    problems.push(...workspaceProblems(parsed.data, opts.workspace, spans, opts.existing === true));
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

function tooLargeProblem(file: string, bytes: number): ConfigError {
  return new ConfigError(
    [
      {
        path: "",
        message: `is ${bytes} bytes; at most ${INVENTORY_MAX_BYTES} (1 MiB) are read`,
        fix: "describe fewer subjects per inventory (one inventory per service group), or remove what the schema does not need",
      },
    ],
    file,
  );
}

/** The JSON with its positions, or a ConfigError: too large, too deep, or not JSON. */
function locateInventory(file: string, text: string): ReturnType<typeof locateJson> {
  const bytes = Buffer.byteLength(text);
  if (bytes > INVENTORY_MAX_BYTES) throw tooLargeProblem(file, bytes);
  try {
    return locateJson(text, JSON_MAX_DEPTH);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const deep = err instanceof JsonDepthError;
    const problem = {
      path: "",
      line: err.line,
      message: deep ? `${err.message}; an inventory needs at most 7` : `not valid JSON: ${err.message}`,
      fix: deep
        ? "remove the extra nesting: see inventory.schema.json for each field's shape"
        : "fix the JSON syntax",
    };
    throw new ConfigError([problem], file);
  }
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
