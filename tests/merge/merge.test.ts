// Merging shard bundles: one report over the union, and every way a set of bundles can be wrong
// (tampered, missing, duplicated, from another inventory or split) is refused with its name.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALL_CASES } from "../../src/cases/index.js";
import { runCommandLine } from "../../src/cli/main.js";
import { verifyBundleAgainst } from "../../src/commands/verify.js";
import { ConfigError } from "../../src/errors.js";
import { mergeBundles } from "../../src/merge.js";
import { writeInventory } from "../helpers/inventory.js";
import { fiveSubjects, writeShardSet } from "./shards.js";

const inventoryPath = writeInventory(fiveSubjects());
const mergeError = async (p: Promise<unknown>): Promise<ConfigError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
};

describe("mergeBundles: a complete set", () => {
  it("holds every subject, case and cleanup object of every shard, complete and passing", async () => {
    const set = await writeShardSet(inventoryPath, 3);
    const merged = await mergeBundles(set.dirs, { inventoryPath });

    expect(merged.subjects.map((s) => s.name).sort()).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    expect(merged.cases).toHaveLength(5 * ALL_CASES.length);
    expect(merged.shard).toBeUndefined();
    expect(merged.verdict).toBe("pass");
    expect(merged.inventory).toMatchObject({ complete: true, drift: [] });
    expect(merged.inventory?.selected?.subjects.sort()).toEqual([
      "alpha",
      "bravo",
      "charlie",
      "delta",
      "echo",
    ]);
    // Each shard's cleanup evidence survives, including what proved it.
    expect(merged.cleanup?.objects).toHaveLength(5);
    expect(merged.cleanup?.completed).toBe(true);
    for (const r of set.reports) expect(merged.cleanup?.verifiedBy).toContain(r.cleanup?.verifiedBy[0]);
    // The timeline spans every shard: shard 3 started 2 s after shard 1 and ran 10 s.
    expect(merged.startedAt).toBe(set.reports[0]!.startedAt);
    expect(merged.durationMs).toBe(12_000);
    const shard3Subject = set.reports[2]!.subjects[0]!.name;
    expect(merged.subjects.find((s) => s.name === shard3Subject)?.phases[0]?.startMs).toBe(2100);
  });

  it("gives the same report for the same bundles in any order, and differs for other runs", async () => {
    const set = await writeShardSet(inventoryPath, 2);
    const a = await mergeBundles(set.dirs);
    const b = await mergeBundles([...set.dirs].reverse());
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.runId).toMatch(/^da-[0-9a-f]{32}$/);
    expect(set.reports.map((r) => r.runId)).not.toContain(a.runId);
  });

  it("merges a single unsharded bundle as 1/1", async () => {
    const set = await writeShardSet(inventoryPath, 1, {
      edit: (r) => ({ ...r, shard: undefined }),
    });
    const merged = await mergeBundles(set.dirs, { inventoryPath });
    expect(merged.subjects).toHaveLength(5);
    expect(merged.verdict).toBe("pass");
  });
});

describe("mergeBundles: results are judged over the union", () => {
  it("a failing case in one shard fails the merged verdict and keeps its remediation", async () => {
    const set = await writeShardSet(inventoryPath, 3, {
      edit: (r, i) =>
        i !== 2
          ? r
          : {
              ...r,
              cases: r.cases.map((c, k) =>
                k === 0 ? { ...c, status: "fail", remediation: "add USER 65532" } : c,
              ),
            },
    });
    const merged = await mergeBundles(set.dirs, { inventoryPath });
    expect(merged.verdict).toBe("fail");
    const failed = merged.cases.filter((c) => c.status === "fail");
    expect(failed).toEqual([expect.objectContaining({ remediation: "add USER 65532" })]);
    expect(failed[0]!.subject).toBe(set.reports[1]!.subjects[0]!.name);
  });

  it("a case one shard did not run makes the merged inventory incomplete, naming subject and case", async () => {
    const set = await writeShardSet(inventoryPath, 2, {
      edit: (r, i) => (i === 2 ? { ...r, cases: r.cases.filter((c) => c.id !== "containment.seccomp") } : r),
    });
    const subject = set.reports[1]!.subjects[0]!.name;
    for (const opts of [{ inventoryPath }, {}]) {
      const merged = await mergeBundles(set.dirs, opts);
      expect(merged.verdict).toBe("fail");
      expect(merged.inventory?.complete).toBe(false);
      expect(merged.inventory?.drift).toContainEqual({
        subject,
        suite: "containment",
        missing: ["containment.seccomp"],
        unexpected: [],
        skipped: [],
      });
    }
  });

  it("a shard that claims completeness its cases do not show is judged by its cases, given the inventory", async () => {
    const set = await writeShardSet(inventoryPath, 2, {
      keepInventory: true,
      edit: (r, i) => (i === 1 ? { ...r, cases: r.cases.filter((c) => c.id !== "lifecycle.stop") } : r),
    });
    expect(set.reports[0]!.inventory?.complete).toBe(true);
    const merged = await mergeBundles(set.dirs, { inventoryPath });
    expect(merged.inventory?.complete).toBe(false);
    expect(merged.inventory?.drift.map((d) => d.missing)).toEqual(
      set.reports[0]!.subjects.map(() => ["lifecycle.stop"]),
    );
  });

  it("a shard whose leftovers were not removed makes cleanup incomplete; its leftovers are listed", async () => {
    const leftover = { kind: "container" as const, id: "f".repeat(64) };
    const set = await writeShardSet(inventoryPath, 3, {
      edit: (r, i) =>
        i === 1 && r.cleanup
          ? { ...r, cleanup: { ...r.cleanup, completed: false, remaining: [leftover] } }
          : r,
    });
    const merged = await mergeBundles(set.dirs);
    expect(merged.cleanup).toMatchObject({ completed: false, remaining: [leftover] });
    expect(merged.verdict).toBe("fail");
  });

  it("run-level errors keep which shard they came from", async () => {
    const set = await writeShardSet(inventoryPath, 2, {
      edit: (r, i) => (i === 2 ? { ...r, errors: [{ kind: "unreachable", message: "engine gone" }] } : r),
    });
    const merged = await mergeBundles(set.dirs);
    expect(merged.errors).toEqual([{ kind: "unreachable", message: "shard 2/2: engine gone" }]);
    expect(merged.verdict).toBe("error");
  });
});

describe("mergeBundles: a wrong set is refused, naming the bundle", () => {
  it("a tampered bundle", async () => {
    const set = await writeShardSet(inventoryPath, 3);
    const file = path.join(set.dirs[1]!, "report.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"status": "pass"', '"status": "fail"'));
    const err = await mergeError(mergeBundles(set.dirs));
    expect(err.file).toBe(set.dirs[1]);
    expect(err.message).toContain("report.json: does not verify (hash)");
  });

  it("a missing shard", async () => {
    const set = await writeShardSet(inventoryPath, 4);
    const err = await mergeError(mergeBundles([set.dirs[0]!, set.dirs[2]!]));
    expect(err.message).toContain("shard 2/4 is missing");
    expect(err.message).toContain("shard 4/4 is missing");
  });

  it("a duplicated shard, naming both copies", async () => {
    const set = await writeShardSet(inventoryPath, 2);
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "da-dup-")), "again");
    cpSync(set.dirs[0]!, copy, { recursive: true });
    const err = await mergeError(mergeBundles([...set.dirs, copy]));
    expect(err.file).toBe(copy);
    expect(err.message).toContain(`${set.dirs[0]} is also shard 1/2`);
  });

  it("shards of different inventories", async () => {
    const a = await writeShardSet(inventoryPath, 2);
    const other = writeInventory([...fiveSubjects(), { name: "foxtrot", image: "foxtrot:1" }]);
    const b = await writeShardSet(other, 2);
    const err = await mergeError(mergeBundles([a.dirs[0]!, b.dirs[1]!]));
    expect(err.file).toBe(b.dirs[1]);
    expect(err.message).toContain("shards from different inventories");
  });

  it("shards of different splits", async () => {
    const a = await writeShardSet(inventoryPath, 2);
    const b = await writeShardSet(inventoryPath, 3);
    const err = await mergeError(mergeBundles([a.dirs[0]!, b.dirs[1]!]));
    expect(err.file).toBe(b.dirs[1]);
    expect(err.message).toContain("is shard 2/3, but");
  });

  it("an inventory file other than the one the shards ran against", async () => {
    const set = await writeShardSet(inventoryPath, 2);
    const other = writeInventory(fiveSubjects().slice(1));
    const err = await mergeError(mergeBundles(set.dirs, { inventoryPath: other }));
    expect(err.message).toContain(`but ${other} has sha256`);
  });

  it("a shard that covered other subjects than the plan gives it", async () => {
    const set = await writeShardSet(inventoryPath, 2, {
      // Shard 1 claims it was asked to cover only part of its subjects.
      edit: (r, i) =>
        i === 1 && r.inventory
          ? {
              ...r,
              inventory: {
                ...r.inventory,
                selected: {
                  subjects: r.inventory.selected!.subjects.slice(1),
                  suites: r.inventory.selected!.suites,
                },
              },
            }
          : r,
    });
    const err = await mergeError(mergeBundles(set.dirs, { inventoryPath }));
    expect(err.message).toMatch(/shard 1\/2\) covered .* but the plan assigns it/);
  });
});

describe("merge command", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes one merged bundle that verifies against the inventory, and exits by the verdict", async () => {
    const set = await writeShardSet(inventoryPath, 3);
    const out = path.join(mkdtempSync(path.join(tmpdir(), "da-merged-")), "merged");
    let stdout = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const code = await runCommandLine("merge", [
      ...set.dirs,
      "--out",
      out,
      "--inventory",
      inventoryPath,
      "--format",
      "json",
    ]);
    vi.restoreAllMocks();

    expect(code).toBe(0);
    expect(JSON.parse(stdout).subjects).toHaveLength(5);
    const v = await verifyBundleAgainst(out, { inventoryPath });
    expect(v.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(v.report?.inventory?.complete).toBe(true);
    expect(readFileSync(path.join(out, "report.md"), "utf8")).toContain("alpha");
  });

  it("refuses to write the merged bundle over a shard", async () => {
    const set = await writeShardSet(inventoryPath, 1);
    await expect(runCommandLine("merge", [set.dirs[0]!, "--out", set.dirs[0]!])).rejects.toThrow(
      /is also a shard bundle/,
    );
    await expect(runCommandLine("merge", [set.dirs[0]!])).rejects.toThrow(/--out DIR is required/);
  });
});
