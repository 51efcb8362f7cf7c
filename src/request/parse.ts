// The one request both doors are parsed into: one zod schema built on first use from the option
// table (options.ts), and one wording of every mistake, naming the input or the flag that
// carried it and what it accepts.
// The action reads every input through it (src/action/inputs.ts); every CLI command reads its flags
// through it (src/cli/parse.ts); the commands' usage lines and `--help` list the options from it; a
// test holds action.yml to it.
import * as z from "zod";
import { UsageError } from "../errors.js";
import type { ValueOf } from "../option.js";
import { parseShard } from "../plan.js";
import { REQUEST_OPTIONS, type RequestKey, type RequestOption } from "./options.js";

// Every schema of ours parses a handful of documents per run: zod's JIT (code generated on an
// object schema's first parse) costs more at start-up than it ever saves. Set before any parse.
z.config({ jitless: true });

type Raw = string | readonly string[] | boolean | undefined;

/** The parsed request of these options, typed by each option's kind. */
export type RequestOf<K extends RequestKey> = { -readonly [P in K]: ValueOf<(typeof REQUEST_OPTIONS)[P]> };

/** A comma- or newline-separated input, or a repeated flag, as one list. */
const listOf = (raw: string | readonly string[] | boolean) =>
  (typeof raw === "string" ? raw.split(/[\n,]/) : typeof raw === "boolean" ? [] : raw)
    .map((s) => s.trim())
    .filter(Boolean);

/** What an input (text) or a flag (text, or a list when repeated) carries: built once, on first use. */
let rawText:
  | z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>, z.ZodBoolean]>>
  | undefined;
const textSchema = () => (rawText ??= z.union([z.string(), z.array(z.string()), z.boolean()]).optional());

/** The zod schema of one option: from its raw text (an input, a flag) to its typed value. */
function fieldSchema(o: RequestOption): z.ZodType {
  const text = textSchema();
  const given = (raw: Raw) =>
    typeof raw === "string" ? raw.trim() !== "" : typeof raw === "boolean" || (raw?.length ?? 0) > 0;
  const value = (raw: Raw) => (given(raw) ? raw : o.default);
  const one = (raw: Raw) => {
    const v = value(raw);
    if (typeof v === "boolean") return String(v);
    return typeof v === "string" || v === undefined ? v?.trim() : v.at(-1)?.trim();
  };
  const check = <T>(ok: (v: string) => boolean, problem: string, out: (v: string) => T) =>
    text.transform((raw, ctx) => {
      const v = one(raw);
      if (v === undefined) return undefined;
      if (!ok(v)) {
        ctx.issues.push({ code: "custom", message: problem, input: v, params: { value: v } });
        return z.NEVER;
      }
      return out(v);
    });
  const eachOf = (ok: (v: string) => boolean, problem: string, out = (v: string) => v) =>
    text.transform((raw, ctx) => {
      const items = listOf(value(raw) ?? []);
      const bad = items.find((v) => !ok(v));
      if (bad === undefined) return items.map(out);
      ctx.issues.push({ code: "custom", message: problem, input: bad, params: { value: bad } });
      return z.NEVER;
    });
  return kindSchema(o, check, eachOf, one, value);
}

type Check = <T>(ok: (v: string) => boolean, problem: string, out: (v: string) => T) => z.ZodType;
type EachOf = (ok: (v: string) => boolean, problem: string, out?: (v: string) => string) => z.ZodType;

function kindSchema(
  o: RequestOption,
  check: Check,
  eachOf: EachOf,
  one: (r: Raw) => string | undefined,
  value: (r: Raw) => Raw,
): z.ZodType {
  const text = textSchema();
  switch (o.kind) {
    case "string":
      return text.transform((raw) => one(raw) || (o.default ?? ""));
    case "list":
      return text.transform((raw) => listOf(value(raw) ?? []));
    case "enum":
      return check(
        (v) => o.values.includes(v),
        o.problem ?? `is not one of ${o.values.join(", ")}`,
        (v) => v,
      );
    case "enum-list":
      return eachOf((v) => o.values.includes(v), `is not ${o.values.join(" or ")}`);
    case "switch":
      return text.transform((raw) => raw === true || raw === "true");
    case "duration":
      return check(
        (v) => /^\d+(s|m|h|d)$/.test(v),
        "is not a duration such as 30m, 6h or 2d",
        (v) => Number(v.slice(0, -1)) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[v.slice(-1) as "s"],
      );
    case "boolean":
      return check(
        (v) => ["true", "yes", "1", "false", "no", "0"].includes(v.toLowerCase()),
        "is not a boolean (true or false)",
        (v) => ["true", "yes", "1"].includes(v.toLowerCase()),
      );
    case "int":
      return check(
        (v) =>
          Number.isInteger(Number(v)) && Number(v) >= o.min && (o.max === undefined || Number(v) <= o.max),
        o.max === undefined
          ? `is not a whole number >= ${o.min}`
          : `is not a whole number from ${o.min} to ${o.max}`,
        Number,
      );
    case "shard":
      return check(
        (v) => /^(\d+)\/(\d+)$/.test(v) && shardOk(v),
        "is not I/N with 1 <= I <= N, such as 1/4",
        parseShard,
      );
    case "path-list":
      return eachOf(
        (v) => v.startsWith("/") && !/\s/.test(v),
        "is not an absolute path inside the container without spaces, such as /tmp",
      );
    case "capability-list":
      return eachOf(
        (v) => /^(CAP_)?[A-Z_]+$/i.test(v),
        "is not a capability name such as NET_BIND_SERVICE",
        (v) => v.toUpperCase().replace(/^CAP_/, ""),
      );
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

const schemas = new Map<RequestKey, z.ZodType>();
/** The schema of these options, built on first use (building zod schemas is start-up time). */
function requestSchema<K extends RequestKey>(keys: readonly K[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const k of keys) {
    if (!schemas.has(k)) schemas.set(k, fieldSchema(REQUEST_OPTIONS[k]));
    shape[k] = schemas.get(k)!;
  }
  return z.object(shape);
}

/**
 * Parses raw values (input text or flag values, by field) into the request; a mistake is a
 * UsageError naming where it came from: `input fail-on: "sometimes" is not one of fail, warn, never`
 * or `--network "host": is not one of any, none, bridge`.
 */
export function parseRequest<K extends RequestKey>(
  raw: Partial<Record<K, Raw>>,
  keys: readonly K[],
  door: "input" | "flag",
): RequestOf<K> {
  const parsed = requestSchema(keys).safeParse(raw);
  if (parsed.success) return parsed.data as RequestOf<K>;
  const issue = parsed.error.issues[0]!;
  const o: RequestOption = REQUEST_OPTIONS[issue.path[0] as RequestKey];
  const shown = JSON.stringify((issue as { params?: { value?: string } }).params?.value);
  throw new UsageError(
    door === "input"
      ? `input ${o.input}: ${shown} ${issue.message}`
      : `--${o.flag} ${shown}: ${issue.message}`,
  );
}

export { REQUEST_OPTIONS, type RequestKey };
