// The precompiled check (src/inventory/precheck.ts) against zod, the schema it is derived from:
// for every inventory in the repository (this one's, the init drafts of the fixture repositories,
// the realistic fixtures' subjects, one that uses every field and kind) and for thousands of
// systematic mutations of each (each bound just inside and just outside, in UTF-16 units and in
// code points, every key absent, unknown keys, wrong types, each refinement tripped), what it
// vouches for is exactly zod's output (the same values, the same keys in the same order), and it
// vouches for everything zod accepts; the load path's result and its problems equal the zod
// path's. And the committed plan is the one derived from the schema now.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { init } from "../../src/commands/init.js";
import { parseInventoryText } from "../../src/inventory/load.js";
import { type PlanNode, parse, precheckInventory } from "../../src/inventory/precheck.js";
import { derivePrecheckPlan, precheckPlanText } from "../../src/inventory/precheck-plan.js";
import { BOUNDS } from "../../src/inventory/rules.js";
import { inventorySchema } from "../../src/inventory/schema.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { commandLine } from "../helpers/cli.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { repoCopy } from "../init/repos.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Path = (string | number)[];
const ABSENT = Symbol("absent");

/** Equal as zod's output is read: the same values, the same own keys in the same order. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b))
    return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i]) &&
    ka.every((k) => sameValue((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]))
  );
}

const ALL_CASES = {
  lifecycle: { required: ["lifecycle.build", "lifecycle.stop"], subjects: { api: ["lifecycle.build"] } },
  containment: { required: ["containment.user"] },
};

/** One inventory that uses every field, every readiness strategy and every probe kind. */
const EVERYTHING: Json = {
  $schema: "./inventory.schema.json",
  description: "every field",
  schemaVersion: 1,
  subjects: [
    {
      name: "api",
      description: "built",
      build: {
        context: "svc",
        dockerfile: "docker/Dockerfile",
        args: { BASE: "debian:12", EMPTY: "" },
        target: "app",
        builder: "legacy",
        secrets: { npm_token: "NPM_TOKEN" },
        timeoutMs: 60000,
      },
      port: 8000,
      readiness: { type: "http", path: "/ready", expectStatus: 204 },
      probes: [
        { path: "/", bodyContains: "ok" },
        { type: "http", name: "head", method: "HEAD", path: "/x%20y", expectStatus: 404 },
        { type: "tcp", name: "port", send: "PING\r\n", expect: "PONG" },
        { type: "healthcheck", name: "image's" },
        { type: "log", name: "started", pattern: "^listening on \\d+$" },
      ],
      user: "10001:10001",
      init: true,
      relax: ["read-only-root"],
      writableRoots: ["/tmp"],
      network: "none",
      limits: { memory: 268435456, pids: 4096, cpus: 64 },
      capabilities: ["NET_BIND_SERVICE"],
      allowedHostPaths: [{ path: "/srv/data", readOnly: false }, { path: "/srv/ro" }],
      env: { A: "1", B: "x".repeat(100) },
      command: ["serve", "--port", "8000"],
      startupTimeoutMs: 600000,
      stopTimeoutMs: 1,
      weight: 0.5,
    },
    { name: "web", image: "ghcr.io/acme/web:1.2@sha256:" + "a".repeat(64), imageId: "env:WEB_IMAGE_ID" },
    { name: "db", image: "redis:7", readiness: { type: "tcp" }, limits: { memory: "1GiB" } },
    { name: "hc", image: "sha256:" + "b".repeat(64), readiness: { type: "healthcheck" } },
    { name: "log", image: "busybox", readiness: { type: "log", pattern: "ready" }, healthPath: undefined },
    {
      name: "slow",
      image: "busybox",
      readiness: { type: "delay", ms: 600000 },
      imageId: "sha256:" + "c".repeat(64),
    },
    { name: "short", image: "busybox", healthPath: "/h" },
  ] as Json[],
  suites: ALL_CASES,
  artifacts: [{ path: "svc/Dockerfile", sha256: "d".repeat(64) }],
  severity: { "containment.user": "warn", "lifecycle.stop": "fail" },
  probeImage: "ignored",
};

/** The realistic fixtures' subjects, each an inventory of its own. */
function realisticInventories(): Json[] {
  const fixtures = JSON.parse(
    readFileSync(path.join(REPO_ROOT, "acceptance/fixtures/realistic/realistic.json"), "utf8"),
  );
  return (fixtures.cases as { name: string; image: string; subject: Record<string, Json> }[]).map((c) => ({
    schemaVersion: 1,
    subjects: [{ name: c.name, image: `docker-acceptance/${c.image}:local`, ...c.subject }],
  }));
}

async function initDrafts(): Promise<string[]> {
  const drafts: string[] = [];
  for (const repo of ["web-app", "go-service", "compose-stack"]) {
    const ws = repoCopy(repo);
    await init(...commandLine("init", ["--workspace", ws]), () => undefined);
    drafts.push(readFileSync(path.join(ws, "acceptance/inventory.json"), "utf8"));
  }
  return drafts;
}

// ---- mutations, driven by the plan: each node's checks say where its bounds are ----

function resized(v: string, n: number): string {
  return v.length >= n ? v.slice(0, n) : v + (v.at(-1) ?? "a").repeat(n - v.length);
}

/** Values at a node: its bounds just inside and just outside, and the values its rules refuse. */
function boundaryValues(node: PlanNode, v: unknown): unknown[] {
  const out: unknown[] = [];
  for (const c of node.checks ?? []) {
    if ((c.check === "min_length" || c.check === "max_length") && typeof v === "string") {
      for (const n of [c.n - 1, c.n, c.n + 1].filter((n) => n >= 0)) out.push(resized(v, n));
      // n code points in n + 1 UTF-16 units, and n + 1 code points: zod counts code points.
      if (c.n >= 1)
        out.push(
          `😀${resized(v, c.n - 1)}`,
          `😀${resized(v, c.n)}`,
          "😀".repeat(c.n),
          `\ud800${resized(v, c.n - 1)}`,
        );
    }
    if ((c.check === "min_length" || c.check === "max_length") && Array.isArray(v)) {
      const item = v[0] ?? "x";
      for (const n of [c.n - 1, c.n, c.n + 1].filter((n) => n >= 0))
        out.push(Array.from({ length: n }, () => item));
    }
    if ((c.check === "greater_than" || c.check === "less_than") && typeof v === "number")
      out.push(c.n, c.n - 1, c.n + 1, c.n - 0.5, c.n + 0.5);
    if (c.check === "safeint" && typeof v === "number") out.push(v + 0.5, 2 ** 53, -(2 ** 53), 2 ** 53 - 1);
    if (c.check === "regex" && typeof v === "string")
      out.push(`${v} `, ` ${v}`, v.toUpperCase(), `${v}\n`, "");
    if (c.check === "starts_with" && typeof v === "string") out.push(v.slice(c.prefix.length), `x${v}`);
    if (c.check === "rule") out.push(...(RULE_BREAKERS[c.rule]?.(v) ?? []));
  }
  return out;
}

/** For each refinement, values it refuses (and some it accepts), from the value in place. */
const RULE_BREAKERS: Record<string, (v: unknown) => unknown[]> = {
  relPathRule: () => ["../x", "/abs", "a\0b", "C:\\x", "a/../../b", "a\\..\\..\\b", "."],
  sha256Rule: (v) => [String(v).toUpperCase(), "e".repeat(63), "g".repeat(64)],
  caseIdRule: () => ["lifecycle.build", "containment.user", "lifecycle.boot", "nope"],
  memoryRule: () => ["8g", "9g", "8GiB", "8193m", 8 * 1024 ** 3, 8 * 1024 ** 3 + 1, " 1g ", "1.5g"],
  imageRefRule: () => [
    "UPPER:tag",
    "a".repeat(500),
    "busybox",
    "sha256:" + "f".repeat(64),
    "a//b",
    "host:99999/x",
  ],
  imageIdVariableRule: () => ["env:GITHUB_TOKEN", "env:RUNNER_TEMP", "env:MINE"],
  secretVariableRule: () => ["ACTIONS_RUNTIME_TOKEN", "INPUT_X", "MINE"],
  requestPathRule: () => ["/a b", "/%zz", "/%2", "/é", "/ok%20"],
  logPatternRule: () => ["(", "a".repeat(1000), "a".repeat(1001), "(?=x)", "\\"],
  mapSizeRule: (v) => [entries(v, BOUNDS.mapEntries), entries(v, BOUNDS.mapEntries + 1)],
  secretsSizeRule: (v) => [entries(v, BOUNDS.secrets), entries(v, BOUNDS.secrets + 1)],
  severityRule: (v) => [{ ...(v as object), "lifecycle.nope": "warn" }, { "containment.usr": "fail" }],
  buildRule: (v) => [
    { ...(v as object), dockerfile: "../../Dockerfile" },
    { ...(v as object), dockerfile: "/abs" },
  ],
  subjectRule: (v) => {
    const s = v as Record<string, unknown>;
    return [
      { ...s, image: "busybox", build: { context: "." } },
      { ...s, image: undefined, build: undefined },
      { ...s, readiness: { type: "tcp" }, healthPath: "/h" },
      { ...s, imageId: "sha256:" + "0".repeat(64), image: undefined, build: { context: "." } },
    ];
  },
  inventoryRule: (v) => {
    const inv = v as Record<string, Json[]>;
    const subjects = inv.subjects ?? [];
    return [
      { ...inv, subjects: [...subjects, subjects[0]] },
      {
        ...inv,
        artifacts: [
          { path: "a", sha256: "0".repeat(64) },
          { path: "./a", sha256: "1".repeat(64) },
        ],
      },
      {
        ...inv,
        suites: { lifecycle: { required: ["lifecycle.build", "lifecycle.build"], subjects: { ghost: [] } } },
      },
    ];
  },
};

function entries(v: unknown, n: number): Record<string, string> {
  const first = Object.entries((v as Record<string, string>) ?? {})[0];
  const value = first?.[1] ?? "X";
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`K${i}`, value]));
}

const WRONG_TYPES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  "",
  "x",
  [],
  {},
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

/** Every mutation of `v` at and below `path`: [where, the new value, or ABSENT]. */
function* mutations(node: PlanNode, v: unknown, at: Path): Generator<[Path, unknown]> {
  for (const w of WRONG_TYPES) yield [at, w];
  for (const w of boundaryValues(node, v)) yield [at, w];
  switch (node.kind) {
    case "literal":
      for (const w of node.values) yield [at, w];
      yield [at, "not-a-member"];
      break;
    case "optional":
    case "default":
    case "prefault":
      if (v !== undefined) yield* mutations(node.inner, v, at);
      else for (const w of boundaryValues(node.inner, "x")) yield [at, w];
      break;
    case "array":
      if (Array.isArray(v))
        for (const [i, item] of v.slice(0, 2).entries()) yield* mutations(node.element, item, [...at, i]);
      break;
    case "object":
      if (v && typeof v === "object" && !Array.isArray(v)) {
        for (const p of node.shape) {
          const here = [...at, p.key];
          if (p.key in v) {
            yield [here, ABSENT];
            yield* mutations(p.node, (v as Record<string, unknown>)[p.key], here);
          } else
            for (const w of [...WRONG_TYPES.slice(1, 7), ...boundaryValues(p.node, "x")]) yield [here, w];
        }
        yield [[...at, "unknownKey"], 1];
        yield [[...at, "constructor"], {}];
      }
      break;
    case "record":
      if (v && typeof v === "object" && !Array.isArray(v)) {
        for (const [k, item] of Object.entries(v).slice(0, 2)) {
          yield* mutations(node.value, item, [...at, k]);
          yield [[...at, `${k} with space`], item];
          yield [[...at, "k".repeat(BOUNDS.textChars + 1)], item];
        }
        yield [[...at, "123"], "x"];
        yield [[...at, ""], "x"];
      }
      break;
    case "union":
      for (const o of node.options) yield* mutations(o, v, at);
      break;
    case "tagged": {
      const tag = (v as Record<string, unknown> | undefined)?.[node.tag];
      for (const o of node.options) {
        if (o.values.includes(tag as Json)) yield* mutations(o.node, v, at);
        else for (const t of o.values) yield [[...at, node.tag], t];
      }
      yield [[...at, node.tag], ABSENT];
      break;
    }
  }
}

function applied(root: unknown, at: Path, w: unknown): unknown {
  if (at.length === 0) return w === ABSENT ? undefined : w;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let o = copy;
  for (const seg of at.slice(0, -1)) o = o[seg] as Record<string | number, unknown>;
  const last = at.at(-1)!;
  if (w === ABSENT) delete o[last];
  else if (last === "constructor" || last === "__proto__")
    Object.defineProperty(o, last, { value: w, enumerable: true, writable: true, configurable: true });
  else o[last] = w;
  return copy;
}

/** What each side makes of a value: zod's output or its failure, and the precompiled check's. */
function compare(value: unknown): { vouched: boolean; valid: boolean; same: boolean } {
  const fast = precheckInventory(value);
  const slow = inventorySchema.safeParse(value);
  return {
    vouched: fast !== undefined,
    valid: slow.success,
    same: fast === undefined ? !slow.success : slow.success && sameValue(fast, slow.data),
  };
}

const plan = derivePrecheckPlan();
let corpus: { name: string; value: unknown }[] = [];

beforeAll(async () => {
  const texts = [
    {
      name: "acceptance/inventory.json",
      text: readFileSync(path.join(REPO_ROOT, "acceptance/inventory.json"), "utf8"),
    },
    ...(await initDrafts()).map((text, i) => ({ name: `init draft ${i}`, text })),
  ];
  corpus = [
    ...texts.map((t) => ({ name: t.name, value: JSON.parse(t.text) })),
    ...realisticInventories().map((value, i) => ({ name: `realistic fixture ${i}`, value })),
    { name: "every field", value: JSON.parse(JSON.stringify(EVERYTHING)) },
  ];
}, 60_000);

describe("the precompiled inventory check", () => {
  it("is the plan derived from the schema now (npm run docs writes it)", () => {
    const committed = readFileSync(path.join(REPO_ROOT, "src/inventory/precheck-plan.json"), "utf8");
    expect(committed, "run `npm run docs` and commit src/inventory/precheck-plan.json").toBe(
      precheckPlanText(),
    );
  });

  it("vouches for every inventory of the repository, with exactly zod's output", () => {
    expect(corpus.length).toBeGreaterThan(30);
    for (const { name, value } of corpus) {
      expect(compare(value), name).toEqual({ vouched: true, valid: true, same: true });
    }
  });

  for (const jitless of [true, false]) {
    describe(`against zod ${jitless ? "without" : "with"} its JIT`, () => {
      let before: boolean | undefined;
      beforeAll(() => {
        before = z.config().jitless;
        z.config({ jitless });
      });
      afterAll(() => {
        z.config({ jitless: before });
      });

      it("agrees on every systematic mutation of every inventory: vouches exactly for what zod accepts, as zod returns it", () => {
        let total = 0;
        let valid = 0;
        const disagreements: string[] = [];
        for (const { name, value } of corpus) {
          const seen = new Set<string>();
          for (const [at, w] of mutations(plan, value, [])) {
            const key = `${JSON.stringify(at)}=${w === ABSENT ? "absent" : JSON.stringify(w)}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const r = compare(applied(value, at, w));
            total++;
            if (r.valid) valid++;
            if (!r.same || r.vouched !== r.valid)
              disagreements.push(`${name}: ${key.slice(0, 200)} ${JSON.stringify(r)}`);
          }
        }
        expect(disagreements.slice(0, 20)).toEqual([]);
        // Enough of both sides to mean something.
        expect(total).toBeGreaterThan(5000);
        expect(valid).toBeGreaterThan(500);
        expect(total - valid).toBeGreaterThan(2000);
      });
    });
  }

  it("leaves to zod what JSON.parse-like input it cannot vouch for: an own __proto__ key", () => {
    const inv = corpus[0]!.value as Record<string, unknown>;
    for (const at of [
      ["__proto__"],
      ["subjects", 0, "__proto__"],
      ["subjects", 0, "build", "args", "__proto__"],
    ]) {
      const value = applied(inv, at, { polluted: true });
      expect(precheckInventory(value)).toBeUndefined();
    }
  });
});

describe("each kind of schema and check it knows, on schemas of its own (what the inventory does not reach)", () => {
  const schemas: [string, z.ZodType][] = [
    ["a default under optional", z.object({ a: z.number().default(1).optional(), b: z.string().optional() })],
    ["a default that parses to undefined", z.object({ a: z.string().optional().default("d") })],
    ["an object that strips unknown keys", z.object({ a: z.string() })],
    ["a number (neither NaN nor infinite)", z.number()],
    ["exclusive and inclusive bounds", z.number().gt(1).lt(5)],
    ["safe integers without another bound", z.number().int()],
    ["lengths of lists", z.array(z.boolean()).min(1).max(2)],
    ["a global regex (lastIndex)", z.array(z.string().regex(/a/g))],
    ["a prefault", z.object({ l: z.object({ x: z.number().default(2) }).prefault({}) })],
    ["literals of each type", z.union([z.literal(1), z.literal(true), z.literal("a"), z.literal(null)])],
    ["a union of objects", z.union([z.object({ a: z.string() }).strict(), z.object({ b: z.number() })])],
  ];
  const values: unknown[] = [
    undefined,
    null,
    0,
    1,
    1.5,
    2,
    5,
    4.999,
    2 ** 53,
    -(2 ** 53),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    "",
    "a",
    "ba",
    "aa",
    true,
    false,
    [],
    [true],
    [true, false],
    [true, true, true],
    ["a", "a", "a"],
    ["b"],
    {},
    { a: "x" },
    { a: 1 },
    { b: 2 },
    { a: "x", extra: 1 },
    { l: {} },
    { l: { x: 3 } },
    { l: { x: "3" } },
    { a: undefined },
    { b: "x" },
  ];
  for (const [name, schema] of schemas)
    it(name, () => {
      const plan = derivePrecheckPlan(schema);
      for (const v of values) {
        const fast = parse(plan, v);
        const slow = schema.safeParse(v);
        const agree =
          typeof fast === "object" ? slow.success && sameValue(fast.value, slow.data) : !slow.success;
        expect(agree, `${JSON.stringify(v)}: ${JSON.stringify(fast)}`).toBe(true);
      }
    });

  it("refuses to express what it does not know, naming where", () => {
    expect(() => derivePrecheckPlan(z.object({ a: z.string().transform((s) => s.length) }))).toThrow(
      /cannot express a schema of type "pipe" at inventory\.a/,
    );
    expect(() => derivePrecheckPlan(z.object({ a: z.string().refine((s) => s !== "x") }))).toThrow(
      /a refinement written inline/,
    );
    expect(() => derivePrecheckPlan(z.string().email())).toThrow(/string format "email"/);
    expect(() => derivePrecheckPlan(z.object({}).loose())).toThrow(/keeps unknown keys/);
  });

  it("hands out a fresh default each time: one result changed leaves the next alone", () => {
    const inv = { schemaVersion: 1, subjects: [{ name: "a", image: "busybox" }] };
    const first = precheckInventory(inv)!;
    first.subjects[0]!.writableRoots.push("/changed");
    expect(precheckInventory(inv)!.subjects[0]!.writableRoots).toEqual(["/tmp", "/dev/shm"]);
  });
});

describe("loading through the precompiled check", () => {
  it("gives parseInventory's result, or its very problems, for every mutation of this repository's inventory", async () => {
    const file = "acceptance/inventory.json";
    const original = readFileSync(path.join(REPO_ROOT, file), "utf8");
    const texts = [original, `${original.slice(0, -3)}, "severity": {} }`, "{", "[]", "{}"];
    for (const [at, w] of mutations(plan, JSON.parse(original), [])) {
      const v = applied(JSON.parse(original), at, w);
      if (v !== undefined) texts.push(JSON.stringify(v, null, 2));
    }
    let loaded = 0;
    for (const text of texts) {
      const opts = { workspace: REPO_ROOT, existing: true };
      const slow = (() => {
        try {
          return { ok: parseInventory(file, text, opts) };
        } catch (err) {
          return { err: (err as Error).message };
        }
      })();
      const fast = await parseInventoryText(file, text, opts).then(
        (ok) => ({ ok }),
        (err: Error) => ({ err: err.message }),
      );
      if ("ok" in slow) loaded++;
      expect("ok" in fast && "ok" in slow ? sameValue(fast.ok, slow.ok) : fast, text.slice(0, 300)).toEqual(
        "ok" in fast && "ok" in slow ? true : slow,
      );
    }
    expect(loaded).toBeGreaterThan(50);
  });
});
