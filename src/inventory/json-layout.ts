// JSON in a file's own layout: the form `init` writes (short lists and small objects on one line,
// the rest one member per line), and keys or items added to existing text with the indentation
// around them, touching nothing else (`init --update`, and the lines a drift fix shows).
import { type JsonPath, jsonPath, type LocatedJson } from "../jsonpos.js";

/** One line at most this long stays on one line. */
const INLINE_WIDTH = 80;

/** What to add to one object (its new keys, in order) or one array (its new items). */
export type Addition = { at: JsonPath; entries: [string, unknown][] } | { at: JsonPath; items: unknown[] };

export interface Insertion {
  /** The text from `start` to `end` is replaced by `text` (start === end: a pure insertion). */
  start: number;
  end: number;
  text: string;
  /** The container the lines go into, as a JSON path ("" for the top level), and its 1-based line. */
  at: string;
  line: number;
  /** The added JSON as a person would type it into that container: no separating comma, unindented. */
  lines: string[];
}

/** `value` as JSON on one line, with a space after each separator. */
function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    if (members.length === 0) return "{}";
    return `{ ${members.map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

const isScalar = (v: unknown) => v === null || typeof v !== "object";

/** Short arrays of scalars and small objects of such values read best on one line. */
function inlines(value: unknown): boolean {
  if (isScalar(value)) return true;
  const members = Array.isArray(value) ? value : Object.values(value as object);
  const flat = members.every((m) => isScalar(m) || (Array.isArray(value) ? false : inlines(m)));
  return flat && compactJson(value).length <= INLINE_WIDTH;
}

/** `value` as pretty JSON whose first line continues a line indented by `indent`, in steps of `unit`. */
export function formatJson(value: unknown, indent = "", unit = "  "): string {
  if (inlines(value)) return compactJson(value);
  const inner = indent + unit;
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => inner + formatJson(v, inner, unit)).join(",\n")}\n${indent}]`;
  }
  const members = Object.entries(value as object).filter(([, v]) => v !== undefined);
  const body = members.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner, unit)}`);
  return `{\n${body.join(",\n")}\n${indent}}`;
}

/** The file's indentation step: the first indented line's leading whitespace (two spaces if none). */
function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}

function indentOfLine(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/**
 * Where and how `add` goes into the text `located` was read from: after the container's last
 * member, in the layout of its members (one per line, or on one line when the container is);
 * an empty container is rewritten whole. Throws when `add.at` is not an object or array there.
 */
export function insertionOf(text: string, located: LocatedJson, add: Addition): Insertion {
  const at = jsonPath(add.at);
  const span = located.spans.get(at);
  const container = valueAt(located.value, add.at);
  const isArray = "items" in add;
  if (!span || (isArray ? !Array.isArray(container) : !isObject(container)))
    throw new Error(`${at || "the top level"} is not ${isArray ? "an array" : "an object"}`);
  const unit = indentUnit(text);
  // indent undefined: on one line, inside a container written on one line.
  const pieces = (indent: string | undefined) => {
    const json = (v: unknown) => (indent === undefined ? compactJson(v) : formatJson(v, indent, unit));
    return "items" in add
      ? add.items.map(json)
      : add.entries.map(([k, v]) => `${JSON.stringify(k)}: ${json(v)}`);
  };
  const lines = pieces("").flatMap((p, i, all) => `${p}${i < all.length - 1 ? "," : ""}`.split("\n"));
  const line = span.line;
  const members = Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container as object);
  const multiline = text.slice(span.start, span.end).includes("\n");
  if (members.length === 0) {
    // `[]` or `{}`: one member per line when the file is laid out that way, else on one line.
    const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
    const outer = indentOfLine(text, span.start);
    const pretty = text.includes("\n");
    const body = pretty
      ? `\n${pieces(outer + unit)
          .map((p) => outer + unit + p)
          .join(",\n")}\n${outer}`
      : isArray
        ? pieces(undefined).join(", ")
        : ` ${pieces(undefined).join(", ")} `;
    return { start: span.start, end: span.end, text: `${open}${body}${close}`, at, line, lines };
  }
  const first = located.spans.get(jsonPath([...add.at, members[0]!]))!;
  const last = located.spans.get(jsonPath([...add.at, members.at(-1)!]))!;
  const ownLines = multiline && text.slice(span.start, first.start).includes("\n");
  const indent = ownLines ? indentOfLine(text, first.start) : undefined;
  const sep = ownLines ? `,\n${indent}` : ", ";
  const inserted = pieces(indent)
    .map((p) => sep + p)
    .join("");
  return { start: last.end, end: last.end, text: inserted, at, line, lines };
}

/** The text with every insertion made (they must not overlap). */
export function applyInsertions(text: string, insertions: readonly Insertion[]): string {
  let out = text;
  for (const i of [...insertions].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, i.start)}${i.text}${out.slice(i.end)}`;
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a JSON path of a parsed document, or undefined. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const seg of path) {
    if (v === null || typeof v !== "object" || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}
