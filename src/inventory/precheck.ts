// The inventory's precompiled check: a run vouches for a valid inventory without loading zod.
// Building the inventory's zod schema (about 500 schema objects) and loading zod cost a run most
// of its start-up CPU before its first engine call, for a file that is almost always valid. The
// plan (./precheck-plan.json) is derived from that same schema by ./precheck-plan.ts (`npm run
// docs` writes it, `docs:check` and tests/inventory/precheck.test.ts fail when it is stale), and
// the refinements are the schema's own functions (./rules.ts, ../checks/rules.ts). What it vouches
// for is exactly what zod returns (defaults, key order, refinements, bounds); anything else (an
// invalid inventory, or a value it cannot vouch for) goes to zod (./validate.ts), which words
// every problem as before.
import * as checkRules from "../checks/rules.js";
import PLAN from "./precheck-plan.json" with { type: "json" };
import * as inventoryRules from "./rules.js";
import type { Inventory } from "./schema.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A check on a value its node has parsed: zod's checks of the kinds the inventory uses. */
export type PlanCheck =
  | { check: "min_length" | "max_length"; n: number }
  | { check: "regex"; source: string; flags: string }
  | { check: "starts_with"; prefix: string }
  | { check: "greater_than" | "less_than"; n: number; inclusive: boolean }
  | { check: "safeint" }
  | { check: "rule"; rule: string; arg?: string };

/** One schema of the inventory, as zod parses it (see parse() for what each kind does). */
export type PlanNode = { checks?: PlanCheck[] } & (
  | { kind: "string" | "number" | "boolean" }
  | { kind: "literal"; values: Json[] }
  | { kind: "array"; element: PlanNode }
  | {
      kind: "object";
      shape: PlanProperty[];
      /** Unknown keys are refused unless "strip". */
      unknownKeys?: "strip";
    }
  | { kind: "record"; key: PlanNode; value: PlanNode }
  | { kind: "union"; options: PlanNode[] }
  | { kind: "tagged"; tag: string; options: { values: Json[]; node: PlanNode }[] }
  | { kind: "optional"; inner: PlanNode; innerDefaulted?: true }
  | { kind: "default" | "prefault"; inner: PlanNode; value: Json }
);

/**
 * The plan as written (./precheck-plan.json): a node used in several places (a bounded string, a
 * request path) is written once in `shared` and referred to as `{ "ref": index }`.
 */
export interface PlanFile {
  shared: (PlanNode | PlanRef)[];
  root: PlanNode | PlanRef;
}
export type PlanRef = { ref: number };

/** The plan's tree, each reference replaced by the node it names (shared, not copied). */
function linkPlan(file: PlanFile): PlanNode {
  const linked = new Map<number, PlanNode>();
  const link = (n: PlanNode | PlanRef): PlanNode => {
    if ("ref" in n) {
      if (!linked.has(n.ref)) linked.set(n.ref, link(file.shared[n.ref]!));
      return linked.get(n.ref)!;
    }
    switch (n.kind) {
      case "array":
        n.element = link(n.element);
        break;
      case "object":
        for (const p of n.shape) p.node = link(p.node);
        break;
      case "record":
        n.key = link(n.key);
        n.value = link(n.value);
        break;
      case "union":
        n.options = n.options.map(link);
        break;
      case "tagged":
        for (const o of n.options) o.node = link(o.node);
        break;
      case "optional":
      case "default":
      case "prefault":
        n.inner = link(n.inner);
        break;
    }
    return n;
  };
  return link(file.root);
}

/** The committed plan, linked on first use (nothing is done at load). */
let root: PlanNode | undefined;

/** An object's key: zod's `optin` (absence allowed, or filled in) and `optout` (absence kept). */
export interface PlanProperty {
  key: string;
  node: PlanNode;
  optin?: "optional" | "defaulted";
  optout?: "optional";
}

/** The functions the schema refines with, by name: what a "rule" check calls. */
export const RULES: Record<string, (value: never, ctx: checkRules.RuleContext, arg?: string) => void> =
  Object.fromEntries(
    Object.entries({ ...checkRules, ...inventoryRules }).filter(([, v]) => typeof v === "function"),
  ) as never;

/** Parsed (zod's output), not parsed (zod fails here too), or not vouched for (ask zod). */
type Outcome = { value: unknown } | "fails" | "unsure";

/**
 * The inventory zod would return for this JSON value, or undefined when the precompiled check does
 * not vouch for it: then zod decides (and words the problems).
 */
export function precheckInventory(value: unknown): Inventory | undefined {
  root ??= linkPlan(PLAN as unknown as PlanFile);
  const out = parse(root, value);
  return typeof out === "object" ? (out.value as Inventory) : undefined;
}

/** `node` applied to `v` (undefined: the key is absent), then the node's own checks. */
export function parse(node: PlanNode, v: unknown): Outcome {
  const out = parseKind(node, v);
  if (typeof out !== "object" || !node.checks) return out;
  for (const c of node.checks) {
    const passed = holds(c, out.value);
    if (passed !== true) return passed === false ? "fails" : "unsure";
  }
  return out;
}

function parseKind(node: PlanNode, v: unknown): Outcome {
  switch (node.kind) {
    case "string":
      return typeof v === "string" ? { value: v } : "fails";
    case "number": // zod's number refuses NaN and the infinities (JSON has neither)
      return typeof v === "number" && Number.isFinite(v) ? { value: v } : "fails";
    case "boolean":
      return typeof v === "boolean" ? { value: v } : "fails";
    case "literal":
      return node.values.includes(v as Json) ? { value: v } : "fails";
    case "array":
      return Array.isArray(v) ? parseArray(node.element, v) : "fails";
    case "object":
      return whenObject(v, (o) => parseObject(node, o));
    case "record":
      return whenObject(v, (o) => parseRecord(node, o));
    case "union":
      return parseUnion(node.options, v);
    case "tagged":
      // zod's discriminated union: the option the tag names, or no option at all.
      return whenObject(v, (o) => {
        const option = node.options.find((opt) => opt.values.includes(o[node.tag] as Json));
        return option ? parse(option.node, o) : "fails";
      });
    case "optional":
      // Absence stays absence, unless the inner schema fills it in (a default under .optional()).
      return v === undefined && !node.innerDefaulted ? { value: undefined } : parse(node.inner, v);
    case "default": {
      // zod returns the default for an absent value without parsing it.
      if (v === undefined) return { value: structuredClone(node.value) };
      const out = parse(node.inner, v);
      return typeof out === "object" && out.value === undefined
        ? { value: structuredClone(node.value) }
        : out;
    }
    case "prefault": // the default is parsed, as if it had been written
      return parse(node.inner, v === undefined ? structuredClone(node.value) : v);
  }
}

/**
 * Not an object (null and arrays are not): zod fails too. An object JSON does not make (another
 * prototype, or an own "__proto__", which zod's object and record treat apart) is left to zod.
 */
function whenObject(v: unknown, then: (o: Record<string, unknown>) => Outcome): Outcome {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "fails";
  const proto = Object.getPrototypeOf(v);
  if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(v, "__proto__")) return "unsure";
  return then(v as Record<string, unknown>);
}

function parseArray(element: PlanNode, v: unknown[]): Outcome {
  const value: unknown[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const out = parse(element, v[i]);
    if (typeof out !== "object") return out;
    value[i] = out.value;
  }
  return { value };
}

/** zod's object: the shape's keys in order (handlePropertyResult), then unknown keys. */
function parseObject(node: Extract<PlanNode, { kind: "object" }>, v: Record<string, unknown>): Outcome {
  const value: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const { key, node: field, optin, optout } of node.shape) {
    known.add(key);
    const present = key in v;
    // An optional key left out contributes nothing, whatever its schema makes of undefined.
    if (!present && optin === "optional" && optout === "optional") continue;
    const out = parse(field, v[key]);
    if (typeof out !== "object") {
      if (!present && optin !== undefined && optout === "optional") continue;
      return out;
    }
    if (!present && optin === undefined) return "fails"; // a required key
    if (out.value !== undefined) value[key] = out.value;
    else if (present || (optin === "defaulted" && optout !== "optional")) value[key] = undefined;
  }
  if (node.unknownKeys !== "strip") for (const key in v) if (!known.has(key)) return "fails";
  return { value };
}

/** zod's record with a string key schema: every own key and its value, in the object's order. */
function parseRecord(node: Extract<PlanNode, { kind: "record" }>, v: Record<string, unknown>): Outcome {
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const k = parse(node.key, key);
    if (typeof k !== "object") return k;
    const out = parse(node.value, v[key]);
    if (typeof out !== "object") return out;
    value[k.value as string] = out.value;
  }
  return { value };
}

/** zod's union: the first option that parses (an option it cannot vouch for leaves it to zod). */
function parseUnion(options: PlanNode[], v: unknown): Outcome {
  for (const option of options) {
    const out = parse(option, v);
    if (out !== "fails") return out;
  }
  return "fails";
}

/** Whether a check holds (as zod's check of that kind decides), or undefined: not vouched for. */
function holds(c: PlanCheck, v: unknown): boolean | undefined {
  switch (c.check) {
    case "min_length":
      return lengthOf(v as string | unknown[], c.n, "min") >= c.n;
    case "max_length":
      return lengthOf(v as string | unknown[], c.n, "max") <= c.n;
    case "regex": {
      const re = regexOf(c);
      re.lastIndex = 0;
      return re.test(v as string);
    }
    case "starts_with":
      return (v as string).startsWith(c.prefix);
    case "greater_than":
      return c.inclusive ? (v as number) >= c.n : (v as number) > c.n;
    case "less_than":
      return c.inclusive ? (v as number) <= c.n : (v as number) < c.n;
    case "safeint":
      return Number.isSafeInteger(v);
    case "rule":
      return ruleHolds(c.rule, v, c.arg);
  }
}

/** The schema's own refinement; one that throws is zod's to report. */
function ruleHolds(name: string, v: unknown, arg: string | undefined): boolean | undefined {
  const fn = RULES[name];
  if (!fn) return undefined;
  let issues = 0;
  try {
    fn(v as never, { addIssue: () => issues++ }, arg);
  } catch {
    return undefined;
  }
  return issues === 0;
}

/**
 * zod counts a string's length in code points, and only where the count can decide (a string of
 * n UTF-16 units has between n/2 and n code points); an array's is its length.
 */
function lengthOf(v: string | unknown[], bound: number, side: "min" | "max"): number {
  const units = v.length;
  if (typeof v !== "string") return units;
  const decides = side === "max" ? units > bound : units >= bound && units < bound * 2;
  return decides ? codePoints(v) : units;
}

function codePoints(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

const regexes = new Map<PlanCheck, RegExp>();
function regexOf(c: Extract<PlanCheck, { check: "regex" }>): RegExp {
  const re = regexes.get(c) ?? new RegExp(c.source, c.flags);
  regexes.set(c, re);
  return re;
}
