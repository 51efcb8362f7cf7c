// The plan: which subjects a shard runs (stable, balanced, complete, disjoint), and bounded
// parallelism that never loses a result or leaves work running.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import type { Subject } from "../../src/inventory/schema.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { mapSettled, parseShard, selectSubjects, shardSubjects } from "../../src/plan.js";
import { ALL_PINNED } from "../helpers/inventory.js";

function subjects(spec: [name: string, weight?: number][]): Subject[] {
  const text = JSON.stringify({
    schemaVersion: 1,
    subjects: spec.map(([name, weight]) => ({ name, image: `${name}:1`, ...(weight ? { weight } : {}) })),
    suites: ALL_PINNED,
  });
  return parseInventory("inventory.json", text).inventory.subjects;
}

const names = (ss: Subject[]) => ss.map((s) => s.name);
const load = (ss: Subject[]) => ss.reduce((n, s) => n + s.weight, 0);

describe("parseShard", () => {
  it("reads I/N", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, total: 4 });
    expect(parseShard(" 1/1 ")).toEqual({ index: 1, total: 1 });
  });
  it.each(["0/2", "3/2", "1/0", "1-2", "a/b", "", "1/2/3"])("refuses %j with the expected form", (text) => {
    expect(() => parseShard(text)).toThrow(UsageError);
    expect(() => parseShard(text)).toThrow(/expected I\/N with 1 <= I <= N/);
  });
});

describe("shardSubjects", () => {
  const many = subjects(
    Array.from(
      { length: 23 },
      (_, i) => [`env-${String(i).padStart(2, "0")}`, (i % 5) + 1] as [string, number],
    ),
  );

  it("splits every subject into exactly one shard", () => {
    for (const total of [1, 2, 3, 4, 7, 23, 30]) {
      const parts = Array.from({ length: total }, (_, i) =>
        names(shardSubjects(many, { index: i + 1, total })),
      );
      const all = parts.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(names(many).sort());
    }
  });

  it("gives the same shards whatever order the subjects are declared in", () => {
    const reversed = [...many].reverse();
    const shuffled = [...many].sort((a, b) => (a.name.slice(-1) < b.name.slice(-1) ? -1 : 1));
    for (let index = 1; index <= 4; index++) {
      const expected = names(shardSubjects(many, { index, total: 4 })).sort();
      expect(names(shardSubjects(reversed, { index, total: 4 })).sort()).toEqual(expected);
      expect(names(shardSubjects(shuffled, { index, total: 4 })).sort()).toEqual(expected);
    }
  });

  it("balances by declared weight: shard loads differ by at most the heaviest subject", () => {
    const heaviest = Math.max(...many.map((s) => s.weight));
    for (const total of [2, 3, 4, 5]) {
      const loads = Array.from({ length: total }, (_, i) =>
        load(shardSubjects(many, { index: i + 1, total })),
      );
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(heaviest);
    }
  });

  it("puts a heavy subject alone rather than pairing it", () => {
    const ss = subjects([
      ["big", 10],
      ["a", 1],
      ["b", 1],
      ["c", 1],
    ]);
    expect(names(shardSubjects(ss, { index: 1, total: 2 }))).toEqual(["big"]);
    expect(names(shardSubjects(ss, { index: 2, total: 2 }))).toEqual(["a", "b", "c"]);
  });

  it("balances by count when no weights are declared, and leaves extra shards empty", () => {
    const ss = subjects([["a"], ["b"], ["c"], ["d"], ["e"]]);
    expect([1, 2].map((index) => shardSubjects(ss, { index, total: 2 }).length).sort()).toEqual([2, 3]);
    expect(shardSubjects(ss, { index: 7, total: 7 })).toEqual([]);
  });
});

describe("selectSubjects", () => {
  const ss = subjects([["web"], ["api"], ["worker"]]);
  it("selects by name, keeping declaration order, then shards the selection", () => {
    expect(names(selectSubjects(ss, ["worker", "web"]))).toEqual(["web", "worker"]);
    const shards = [1, 2].map((index) => names(selectSubjects(ss, ["worker", "web"], { index, total: 2 })));
    expect(shards.flat().sort()).toEqual(["web", "worker"]);
  });
  it("names an unknown subject and lists the declared ones", () => {
    expect(() => selectSubjects(ss, ["wbe"])).toThrow(
      /--subject wbe: not declared in the inventory \(declared: web, api, worker\)/,
    );
  });
});

describe("mapSettled", () => {
  /** A task that finishes when released; records how many ran at once. */
  function gate() {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const releases = new Map<number, () => void>();
    const run = (i: number, fail = false) => {
      running++;
      peak = Math.max(peak, running);
      started.push(i);
      return new Promise<number>((resolve, reject) => {
        releases.set(i, () => {
          running--;
          fail ? reject(new Error(`item ${i} failed`)) : resolve(i * 10);
        });
      });
    };
    const flush = () => new Promise((r) => setImmediate(r));
    return { run, releases, started, peak: () => peak, flush };
  }

  it("never runs more than the limit at once, and keeps results in input order", async () => {
    const g = gate();
    const done = mapSettled([0, 1, 2, 3, 4], 2, (i) => g.run(i));
    await g.flush();
    expect(g.started).toEqual([0, 1]);
    // Finishing out of order frees a slot for the next item; results still follow the input.
    for (const i of [1, 0, 3, 2, 4]) {
      await g.flush();
      g.releases.get(i)?.();
    }
    await g.flush();
    for (const i of [2, 3, 4]) g.releases.get(i)?.();
    expect((await done).map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([0, 10, 20, 30, 40]);
    expect(g.peak()).toBe(2);
  });

  it("a failure does not stop or hide the other items", async () => {
    const g = gate();
    const done = mapSettled([0, 1, 2], 2, (i) => g.run(i, i === 0));
    await g.flush();
    g.releases.get(0)!();
    await g.flush();
    expect(g.started).toEqual([0, 1, 2]);
    g.releases.get(1)!();
    g.releases.get(2)!();
    const results = await done;
    expect(results[0]).toMatchObject({ status: "rejected", reason: new Error("item 0 failed") });
    expect(results.slice(1)).toEqual([
      { status: "fulfilled", value: 10 },
      { status: "fulfilled", value: 20 },
    ]);
  });

  it("a limit that is not a whole number >= 1 runs one at a time instead of nothing", async () => {
    for (const limit of [0, -3, Number.NaN]) {
      const results = await mapSettled([1, 2, 3], limit, async (i) => i + 1);
      expect(results.map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([2, 3, 4]);
    }
    expect(await mapSettled([], 4, async () => 1)).toEqual([]);
  });
});
