// Derives the precompiled check's plan (./precheck-plan.json, read by ./precheck.ts) from the
// inventory's zod schema: `npm run docs` writes it, `docs:check` and
// tests/inventory/precheck.test.ts fail when the committed plan is not this function's output.
// It reads zod's own definitions (what each schema is, its checks, which keys may be absent), and
// refuses what it does not know how to express, naming the schema's place: a new kind of schema
// or check is taught to ./precheck.ts first (and to the test that holds the two equal), never
// approximated.
import type * as z from "zod";
import { ruleOf } from "../checks/fields.js";
import {
  type PlanCheck,
  type PlanFile,
  type PlanNode,
  type PlanProperty,
  type PlanRef,
  RULES,
} from "./precheck.js";
import { inventorySchema } from "./schema.js";

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions, read as data
type Def = { type: string; checks?: { _zod: { def: any } }[] } & Record<string, any>;
interface Internals {
  def: Def;
  traits: Set<string>;
  optin?: "optional" | "defaulted";
  optout?: "optional";
  values?: Set<unknown>;
  propValues?: Record<string, Set<unknown>>;
}
const internals = (s: unknown) => (s as { _zod: Internals })._zod;

/** The plan of `schema` (the inventory's by default). */
export function derivePrecheckPlan(schema: z.ZodType = inventorySchema): PlanNode {
  return planOf(schema, "inventory");
}

/** The plan as committed: JSON, one key per line, a newline at the end, repeated nodes shared. */
export function precheckPlanText(schema?: z.ZodType): string {
  return `${JSON.stringify(sharedNodes(derivePrecheckPlan(schema)), null, 1)}\n`;
}

/**
 * Each node written more than once (as JSON, longer than a reference to it) goes into `shared`,
 * in the order first met, and is referred to by its index: the plan is loaded at every run's
 * start-up, so it is kept small.
 */
function sharedNodes(root: PlanNode): PlanFile {
  const seen = new Map<string, number>();
  const count = (n: PlanNode) => {
    const key = JSON.stringify(n);
    seen.set(key, (seen.get(key) ?? 0) + 1);
    childrenOf(n).forEach(count);
  };
  count(root);
  const shared: PlanNode[] = [];
  const index = new Map<string, number>();
  const share = (n: PlanNode): PlanNode | PlanRef => {
    const rebuilt = withChildren(n, share);
    const key = JSON.stringify(n);
    if ((seen.get(key) ?? 0) < 2 || key.length <= 40) return rebuilt;
    if (!index.has(key)) index.set(key, shared.push(rebuilt as PlanNode) - 1);
    return { ref: index.get(key)! };
  };
  const top = share(root);
  return { shared, root: top };
}

function childrenOf(n: PlanNode): PlanNode[] {
  switch (n.kind) {
    case "array":
      return [n.element];
    case "object":
      return n.shape.map((p) => p.node);
    case "record":
      return [n.key, n.value];
    case "union":
      return n.options;
    case "tagged":
      return n.options.map((o) => o.node);
    case "optional":
    case "default":
    case "prefault":
      return [n.inner];
    default:
      return [];
  }
}

/** The node with each child replaced by `f` of it (a new object; the tree is not changed). */
function withChildren(n: PlanNode, f: (child: PlanNode) => PlanNode | PlanRef): PlanNode {
  const g = f as (child: PlanNode) => PlanNode;
  switch (n.kind) {
    case "array":
      return { ...n, element: g(n.element) };
    case "object":
      return { ...n, shape: n.shape.map((p) => ({ ...p, node: g(p.node) })) };
    case "record":
      return { ...n, key: g(n.key), value: g(n.value) };
    case "union":
      return { ...n, options: n.options.map(g) };
    case "tagged":
      return { ...n, options: n.options.map((o) => ({ ...o, node: g(o.node) })) };
    case "optional":
    case "default":
    case "prefault":
      return { ...n, inner: g(n.inner) };
    default:
      return n;
  }
}

class Unsupported extends Error {
  constructor(at: string, what: string) {
    super(
      `the inventory's precompiled check (src/inventory/precheck.ts) cannot express ${what} at ${at}: teach it there and in tests/inventory/precheck.test.ts, or write the rule with rule() (src/checks/fields.ts)`,
    );
  }
}

function planOf(schema: unknown, at: string): PlanNode {
  const zod = internals(schema);
  const checks = (zod.def.checks ?? []).map((c) => checkOf(c, at));
  const node = kindOf(zod, at);
  return checks.length > 0 ? { ...node, checks } : node;
}

function kindOf(zod: Internals, at: string): PlanNode {
  const { def } = zod;
  if (def.coerce) throw new Unsupported(at, "a coercing schema");
  switch (def.type) {
    case "string":
    case "number":
    case "boolean":
      return { kind: def.type };
    case "literal":
    case "enum":
      return { kind: "literal", values: jsonValues([...(zod.values ?? [])], at) };
    case "array":
      return { kind: "array", element: planOf(def.element, `${at}[]`) };
    case "object":
      return objectOf(def, at);
    case "record": {
      const key = planOf(def.keyType, `${at} (its keys)`);
      // zod takes a record whose key schema lists its values (an enum) another way.
      if (key.kind !== "string" || internals(def.keyType).values)
        throw new Unsupported(at, "a record whose keys are not plain strings");
      return { kind: "record", key, value: planOf(def.valueType, `${at}.*`) };
    }
    case "union":
      return unionOf(zod, at);
    case "optional":
      return {
        kind: "optional",
        inner: planOf(def.innerType, at),
        ...(internals(def.innerType).optin === "defaulted" ? { innerDefaulted: true as const } : {}),
      };
    case "default":
    case "prefault":
      return { kind: def.type, inner: planOf(def.innerType, at), value: defaultOf(def, at) };
    default:
      throw new Unsupported(at, `a schema of type "${def.type}"`);
  }
}

function objectOf(def: Def, at: string): PlanNode {
  const catchall = def.catchall ? internals(def.catchall).def.type : undefined;
  if (catchall !== undefined && catchall !== "never")
    throw new Unsupported(at, "an object that keeps unknown keys");
  const shape: PlanProperty[] = Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => {
    const { optin, optout } = internals(field);
    return {
      key,
      node: planOf(field, `${at}.${key}`),
      ...(optin ? { optin } : {}),
      ...(optout ? { optout } : {}),
    };
  });
  return { kind: "object", shape, ...(catchall === "never" ? {} : { unknownKeys: "strip" as const }) };
}

function unionOf(zod: Internals, at: string): PlanNode {
  const { def, traits } = zod;
  const options = def.options as unknown[];
  if (traits.has("$ZodDiscriminatedUnion")) {
    if (def.unionFallback)
      throw new Unsupported(at, "a discriminated union that falls back to trying each option");
    const tag = def.discriminator as string;
    return {
      kind: "tagged",
      tag,
      options: options.map((o, i) => ({
        values: jsonValues([...(internals(o).propValues?.[tag] ?? [])], `${at} (option ${i}'s ${tag})`),
        node: planOf(o, at),
      })),
    };
  }
  if (traits.has("$ZodXor") || def.inclusive === false) throw new Unsupported(at, "an exclusive union");
  return { kind: "union", options: options.map((o, i) => planOf(o, `${at} (option ${i})`)) };
}

/** A check zod runs after the schema's own parse, as ./precheck.ts decides it. */
function checkOf(check: { _zod: { def: Record<string, unknown> } }, at: string): PlanCheck {
  const def = check._zod.def;
  switch (def.check) {
    case "min_length":
      return { check: "min_length", n: def.minimum as number };
    case "max_length":
      return { check: "max_length", n: def.maximum as number };
    case "greater_than":
    case "less_than":
      if (typeof def.value !== "number") throw new Unsupported(at, `a ${def.check} check on a non-number`);
      return { check: def.check, n: def.value, inclusive: def.inclusive === true };
    case "number_format":
      if (def.format !== "safeint") throw new Unsupported(at, `the number format "${String(def.format)}"`);
      return { check: "safeint" };
    case "string_format":
      if (def.format === "regex") {
        const re = def.pattern as RegExp;
        return { check: "regex", source: re.source, flags: re.flags };
      }
      if (def.format === "starts_with") return { check: "starts_with", prefix: def.prefix as string };
      throw new Unsupported(at, `the string format "${String(def.format)}"`);
    case "custom":
      return ruleCheck(check, at);
    default:
      throw new Unsupported(at, `a "${String(def.check)}" check`);
  }
}

/** A refinement: one rule() made, whose function is a named rule of RULES. */
function ruleCheck(check: object, at: string): PlanCheck {
  const made = ruleOf(check);
  if (!made) throw new Unsupported(at, "a refinement written inline (.refine, .superRefine)");
  const name = Object.keys(RULES).find((n) => RULES[n] === made.fn);
  if (!name)
    throw new Unsupported(
      at,
      "a rule that is not exported from src/inventory/rules.ts or src/checks/rules.ts (RULES)",
    );
  return { check: "rule", rule: name, ...(made.arg === undefined ? {} : { arg: made.arg }) };
}

/** A default as JSON: it must read the same twice (a function's varying value cannot be precompiled). */
function defaultOf(def: Def, at: string) {
  const first = JSON.stringify(def.defaultValue);
  if (first === undefined || first !== JSON.stringify(def.defaultValue))
    throw new Unsupported(at, "a default that is not a fixed JSON value");
  return JSON.parse(first);
}

function jsonValues(values: unknown[], at: string) {
  for (const v of values)
    if (v !== null && !["string", "number", "boolean"].includes(typeof v))
      throw new Unsupported(at, `the value ${String(v)} (not a JSON scalar)`);
  return values as (string | number | boolean | null)[];
}
