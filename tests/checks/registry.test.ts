// The recipe for a new check kind (issue #28; docs/architecture.md, "A check kind"): one module in
// src/checks/kinds/ calling defineKind with its rank, and its test. In a copy of the tree a
// throwaway kind's module is added and `npm run docs` run: the list of kinds
// (src/checks/kinds/index.ts) has it at its rank, and only the generated files changed; the copy's
// inventory schema accepts it and the structure check passes. The list is the one list of kinds: a
// kind in it is accepted by the inventory's schema, shown in the JSON Schema, and run by
// lifecycle.ready and lifecycle.probes, with no other file touched (proven in process, the list
// mocked with one more entry).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import type { CheckKind } from "../../src/checks/kind.js";
import { newRunId } from "../../src/engine/ownership.js";
import { READ_ENVIRONMENT } from "../../src/inventory/environment.js";
import { silentLogger } from "../../src/log.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";
import { bundleAndRun, copyTree, runIn } from "../helpers/tree-copy.js";

const KINDS = "../../src/checks/kinds/index.js";

/** Ready (and held) when the subject's stdout has printed `word`: a kind no release has. */
async function throwawayKind(): Promise<{ kind: CheckKind; runs: string[] }> {
  const { defineKind, eachProbe, pollReady } = await import("../../src/checks/kind.js");
  const runs: string[] = [];
  const said = async (
    t: { engine: { logs(id: string): Promise<{ stdout: string }> }; containerId: string },
    word: string,
  ) => (await t.engine.logs(t.containerId)).stdout.includes(word);
  const kind = defineKind({
    type: "says",
    rank: 60,
    readiness: {
      schema: z
        .object({ type: z.literal("says"), word: z.string().max(64) })
        .strict()
        .describe("stdout says word"),
      listed: '"says"',
      describe: (r) => `stdout says ${r.word}`,
      async wait(r, t) {
        runs.push(`wait ${r.word} offline=${t.offline}`);
        const { ready, attempts } = await pollReady(t, () => said(t, r.word));
        return { ready, attempts, via: "the subject's stdout" };
      },
    },
    probe: {
      schema: z
        .object({ type: z.literal("says"), word: z.string().max(64) })
        .strict()
        .describe("stdout said word"),
      listed: '"says"',
      checkAll: eachProbe(async (p, t) => {
        runs.push(`probe ${p.word}`);
        const ok = await said(t, p.word);
        return { name: `says ${p.word}`, type: "says", ok, expected: p.word, got: ok ? p.word : "not said" };
      }),
    },
  });
  return { kind: kind as CheckKind, runs };
}

async function withThrowaway() {
  vi.resetModules();
  const made = await throwawayKind();
  vi.doMock(KINDS, async (real: () => Promise<{ CHECK_KINDS: readonly CheckKind[] }>) => ({
    CHECK_KINDS: [...(await real()).CHECK_KINDS, made.kind],
  }));
  return made;
}

const subjectJson = {
  name: "svc",
  image: MEMORY_BASE,
  network: "none",
  command: ["sh", "-c", "echo booting; echo listening; sleep 3600"],
  readiness: { type: "says", word: "listening" },
  probes: [
    { type: "says", word: "booting" },
    { type: "log", pattern: "^listen" },
    { type: "says", word: "crashed" },
  ],
  startupTimeoutMs: 2000,
};

afterEach(() => {
  vi.doUnmock(KINDS);
  vi.resetModules();
});

describe("a kind added to the registry list", () => {
  it("is refused by the schema while it is not listed (the test below can fail)", async () => {
    vi.resetModules();
    const { subjectSchema } = await import("../../src/inventory/schema.js");
    expect(subjectSchema.safeParse(subjectJson).success).toBe(false);
  });

  it("is accepted by the inventory's schema and named in its JSON Schema", async () => {
    await withThrowaway();
    const { subjectSchema, inventorySchema } = await import("../../src/inventory/schema.js");
    const parsed = subjectSchema.parse(subjectJson);
    expect(parsed.readiness).toEqual({ type: "says", word: "listening" });
    expect(parsed.probes[0]).toEqual({ type: "says", word: "booting" });
    // Unknown keys are still refused: the kind's own strict schema applies.
    expect(
      subjectSchema.safeParse({ ...subjectJson, readiness: { type: "says", word: "x", more: 1 } }).success,
    ).toBe(false);
    const json = JSON.stringify(z.toJSONSchema(inventorySchema, { io: "input" }));
    expect(json).toContain(
      'readiness strategy: \\"http\\" (default, GET /health), \\"tcp\\", \\"healthcheck\\", \\"log\\", \\"delay\\" or \\"says\\"',
    );
    expect(json).toContain("stdout said word");
  });

  it("is run by lifecycle.ready (its description in the verdict) and by lifecycle.probes, in declared order", async () => {
    const { runs } = await withThrowaway();
    const { subjectSchema } = await import("../../src/inventory/schema.js");
    const { planLaunch } = await import("../../src/suites/lifecycle/create.js");
    const { startAndWaitReady } = await import("../../src/suites/lifecycle/ready.js");
    const { checkProbes } = await import("../../src/suites/lifecycle/probes.js");
    const engine = memoryEngine();
    const owner = newRunId();
    const subject = subjectSchema.parse(subjectJson);
    const plan = planLaunch(subject, MEMORY_BASE, owner, "svc", { user: "", volumes: [] });
    const id = await engine.create(plan.spec);
    const ctx = {
      engine,
      owner,
      subject,
      workspace: "/",
      log: silentLogger,
      signal: AbortSignal.timeout(20_000),
      probeImage: MEMORY_BASE,
      environment: READ_ENVIRONMENT,
    };
    const ready = await startAndWaitReady(ctx, id);
    expect(ready.draft.status, ready.draft.message).toBe("pass");
    expect(ready.draft.message).toMatch(/^ready: stdout says listening after \d+ ms$/);
    expect(ready.draft.evidence.via).toBe("the subject's stdout");
    const probes = await checkProbes(ctx, id, ready.hostPort);
    expect(probes.status).toBe("fail");
    expect((probes.evidence.probes as { name: string; ok: boolean }[]).map((p) => [p.name, p.ok])).toEqual([
      ["says booting", true],
      ["log /^listen/", true],
      ["says crashed", false],
    ]);
    expect(probes.message).toBe("says crashed: expected crashed, got not said");
    expect(runs).toEqual(["wait listening offline=true", "probe booting", "probe crashed"]);
  });
});

/** Rank 35: between healthcheck (30) and log (40). Ready when the subject's stdout says `word`. */
const NEW_KIND = `// A throwaway check kind: the kind recipe's test adds it to a copy of the tree.
import * as z from "zod";
import { defineKind, pollReady } from "../kind.js";

export const saysKind = defineKind({
  type: "says",
  rank: 35,
  readiness: {
    schema: z
      .object({ type: z.literal("says"), word: z.string().max(64) })
      .strict()
      .describe("stdout says word"),
    listed: '"says"',
    describe: (readiness) => \`stdout says \${readiness.word}\`,
    async wait(readiness, target) {
      const { ready, attempts } = await pollReady(target, async () =>
        (await target.engine.logs(target.containerId)).stdout.includes(readiness.word),
      );
      return { ready, attempts, via: "the subject's stdout" };
    },
  },
});
`;

/**
 * What `npm run docs` regenerates from the new module: the list of kinds, the inventory's JSON
 * Schema and the check precompiled from it (what vouches for a valid inventory at start-up).
 */
const KIND_GENERATED = [
  "src/checks/kinds/index.ts",
  "acceptance/inventory.schema.json",
  "src/inventory/precheck-plan.json",
];

describe("a new check kind is its module (and its test)", () => {
  let copy: string;
  const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8");
  beforeAll(() => {
    copy = copyTree("da-kind-recipe-");
    writeFileSync(path.join(copy, "src/checks/kinds/says.ts"), NEW_KIND);
    runIn(copy, ["scripts/docs.mjs"]);
  }, 120_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("npm run docs lists it at its rank; only the generated files change", () => {
    const list = read(copy, "src/checks/kinds/index.ts");
    expect(list).toContain('import { saysKind } from "./says.js";');
    expect(list).toContain(
      "export const CHECK_KINDS = [httpKind, tcpKind, healthcheckKind, saysKind, logKind, delayKind] as const;",
    );
    const others = [
      "src/cases/containment/index.ts",
      "src/cases/lifecycle/index.ts",
      "src/cases/ids.ts",
      "src/suites/containment/graders/index.ts",
      "src/github/publishers/index.ts",
      "src/engine/provider-names.ts",
      "src/engine/providers/implementations.ts",
      "acceptance/report.schema.json",
      "action.yml",
      "README.md",
      "docs/architecture.md",
    ];
    const changed = [...KIND_GENERATED, ...others].filter((f) => read(copy, f) !== read(REPO_ROOT, f));
    expect(changed).toEqual(KIND_GENERATED);
    expect(read(copy, "acceptance/inventory.schema.json")).toContain(
      'readiness strategy: \\"http\\" (default, GET /health), \\"tcp\\", \\"healthcheck\\", \\"says\\", \\"log\\" or \\"delay\\"',
    );
    expect(runIn(copy, ["scripts/docs.mjs", "--check"])).toMatch(/in sync/);
  });

  it("the copy's inventory schema accepts it", async () => {
    const probe = `import { subjectSchema } from "./src/inventory/schema.js";
const subject = { name: "svc", image: "x", readiness: { type: "says", word: "up" } };
console.log(JSON.stringify(subjectSchema.parse(subject).readiness));`;
    expect(JSON.parse(await bundleAndRun(copy, probe))).toEqual({ type: "says", word: "up" });
  }, 60_000);

  it("the structure check passes with it", () => {
    expect(runIn(copy, [path.join(copy, "scripts/check-structure.mjs"), "--root", copy])).toMatch(
      /0 new or grown, 0 fixed but still listed/,
    );
  }, 60_000);

  it("npm run docs refuses a kind without its rank, naming the file", () => {
    const file = path.join(copy, "src/checks/kinds/says.ts");
    try {
      writeFileSync(file, NEW_KIND.replace("  rank: 35,\n", ""));
      expect(() => runIn(copy, ["scripts/docs.mjs", "--check"])).toThrow(
        /src\/checks\/kinds\/says\.ts: saysKind needs a rank/,
      );
    } finally {
      writeFileSync(file, NEW_KIND);
    }
  }, 60_000);
});
