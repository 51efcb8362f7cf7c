// The one request both doors are parsed into: each option's raw value (an input's text, a flag's
// value or values) into its typed value, by the option table (options.ts), and one wording of
// every mistake, naming the input or the flag that carried it and what it accepts.
// The action reads every input through it (src/action/inputs.ts); every CLI command reads its flags
// through it (src/cli/parse.ts); the commands' usage lines and `--help` list the options from it; a
// test holds action.yml to it. Plain functions, not a schema library: the action reads its inputs
// before its first engine call, and loading and building schemas was most of its start-up.
import { UsageError } from "../errors.js";
import type { ValueOf } from "../option.js";
import { parseShard } from "../plan.js";
import { REQUEST_OPTIONS, type RequestKey, type RequestOption } from "./options.js";

type Raw = string | readonly string[] | boolean | undefined;

/** The parsed request of these options, typed by each option's kind. */
export type RequestOf<K extends RequestKey> = { -readonly [P in K]: ValueOf<(typeof REQUEST_OPTIONS)[P]> };

/** A comma- or newline-separated input, or a repeated flag, as one list. */
const listOf = (raw: string | readonly string[] | boolean) =>
  (typeof raw === "string" ? raw.split(/[\n,]/) : typeof raw === "boolean" ? [] : raw)
    .map((s) => s.trim())
    .filter(Boolean);

/** One option's value, or what is wrong with it: its message and the offending value. */
type Parsed = { value: unknown } | { problem: string; value: string };

/** What an input (text) or a flag (text, or a list when repeated) may carry. */
function isRaw(raw: unknown): raw is Raw {
  return (
    raw === undefined ||
    typeof raw === "string" ||
    typeof raw === "boolean" ||
    (Array.isArray(raw) && raw.every((s) => typeof s === "string"))
  );
}

/** One option from its raw text to its typed value. */
function parseOption(o: RequestOption, raw: Raw): Parsed {
  const given =
    typeof raw === "string" ? raw.trim() !== "" : typeof raw === "boolean" || (raw?.length ?? 0) > 0;
  const value = given ? raw : o.default;
  switch (o.kind) {
    case "string":
      return { value: oneOf(value) || (o.default ?? "") };
    case "list":
      return { value: listOf(value ?? []) };
    case "switch":
      return { value: raw === true || raw === "true" };
    case "enum-list":
    case "path-list":
    case "capability-list":
      return eachOf(value, listRule(o));
    default:
      return checkOne(oneOf(value), scalarRule(o));
  }
}

/** What a value must be, what is said when it is not, and what it becomes. */
interface Rule {
  ok: (v: string) => boolean;
  problem: string;
  out?: (v: string) => unknown;
}

/** One value: a repeated flag's last; a switch's as text. */
function oneOf(value: Raw): string | undefined {
  if (typeof value === "boolean") return String(value);
  return typeof value === "string" ? value.trim() : value?.at(-1)?.trim();
}

function checkOne(one: string | undefined, rule: Rule): Parsed {
  if (one === undefined) return { value: undefined };
  return rule.ok(one) ? { value: (rule.out ?? String)(one) } : { problem: rule.problem, value: one };
}

function eachOf(value: Raw, rule: Rule): Parsed {
  const items = listOf(value ?? []);
  const bad = items.find((v) => !rule.ok(v));
  return bad === undefined ? { value: items.map(rule.out ?? String) } : { problem: rule.problem, value: bad };
}

/** The rule of an option that takes one value. */
function scalarRule(
  o: Extract<RequestOption, { kind: "enum" | "duration" | "boolean" | "int" | "shard" }>,
): Rule {
  switch (o.kind) {
    case "enum":
      return {
        ok: (v) => o.values.includes(v),
        problem: o.problem ?? `is not one of ${o.values.join(", ")}`,
      };
    case "duration":
      return {
        ok: (v) => /^\d+(s|m|h|d)$/.test(v),
        problem: "is not a duration such as 30m, 6h or 2d",
        out: (v) => Number(v.slice(0, -1)) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[v.slice(-1) as "s"],
      };
    case "boolean":
      return {
        ok: (v) => ["true", "yes", "1", "false", "no", "0"].includes(v.toLowerCase()),
        problem: "is not a boolean (true or false)",
        out: (v) => ["true", "yes", "1"].includes(v.toLowerCase()),
      };
    case "int":
      return {
        ok: (v) =>
          Number.isInteger(Number(v)) && Number(v) >= o.min && (o.max === undefined || Number(v) <= o.max),
        problem:
          o.max === undefined
            ? `is not a whole number >= ${o.min}`
            : `is not a whole number from ${o.min} to ${o.max}`,
        out: Number,
      };
    case "shard":
      return {
        ok: (v) => /^(\d+)\/(\d+)$/.test(v) && shardOk(v),
        problem: "is not I/N with 1 <= I <= N, such as 1/4",
        out: parseShard,
      };
  }
}

/** The rule of each item of an option that takes a list. */
function listRule(o: Extract<RequestOption, { kind: "enum-list" | "path-list" | "capability-list" }>): Rule {
  switch (o.kind) {
    case "enum-list":
      return { ok: (v) => o.values.includes(v), problem: `is not ${o.values.join(" or ")}` };
    case "path-list":
      return {
        ok: (v) => v.startsWith("/") && !/\s/.test(v),
        problem: "is not an absolute path inside the container without spaces, such as /tmp",
      };
    case "capability-list":
      return {
        ok: (v) => /^(CAP_)?[A-Z_]+$/i.test(v),
        problem: "is not a capability name such as NET_BIND_SERVICE",
        out: (v) => v.toUpperCase().replace(/^CAP_/, ""),
      };
  }
}

function shardOk(v: string): boolean {
  try {
    parseShard(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses raw values (input text or flag values, by field) into the request; the first mistake, in
 * the order of `keys`, is a UsageError naming where it came from:
 * `input fail-on: "sometimes" is not one of fail, warn, never` or `--network "host": is not one of
 * any, none, bridge`. A field whose value is undefined is left out unless `raw` names it.
 */
export function parseRequest<K extends RequestKey>(
  raw: Partial<Record<K, Raw>>,
  keys: readonly K[],
  door: "input" | "flag",
): RequestOf<K> {
  const request: Record<string, unknown> = {};
  for (const k of keys) {
    const o: RequestOption = REQUEST_OPTIONS[k];
    const given: unknown = raw[k];
    const parsed: Parsed = isRaw(given) ? parseOption(o, given) : { problem: "Invalid input", value: "" };
    if ("problem" in parsed) {
      // A value of no kind an input or a flag carries names none (as the schema this replaced did).
      const shown = isRaw(given) ? JSON.stringify(parsed.value) : "undefined";
      throw new UsageError(
        door === "input"
          ? `input ${o.input}: ${shown} ${parsed.problem}`
          : `--${o.flag} ${shown}: ${parsed.problem}`,
      );
    }
    if (parsed.value !== undefined) request[k] = parsed.value;
    else if (k in raw) request[k] = undefined;
  }
  return request as RequestOf<K>;
}

export { REQUEST_OPTIONS, type RequestKey };
