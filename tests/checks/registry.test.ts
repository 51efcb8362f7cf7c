// The check-kind registry (src/checks/kinds/index.ts) is the one list of kinds: a kind added to
// it is accepted by the inventory's schema, shown in the JSON Schema, and run by lifecycle.ready
// and lifecycle.probes, with no other file touched. Proven with a throwaway kind added to the
// list here (the module is mocked with one more entry, as a new kind's one line would add).
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import type { CheckKind } from "../../src/checks/kind.js";
import { newRunId } from "../../src/engine/ownership.js";
import { READ_ENVIRONMENT } from "../../src/inventory/environment.js";
import { silentLogger } from "../../src/log.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

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
