// Which subjects run here: by name, then by shard. Shards are stable across runs and machines
// (a pure function of the inventory) and balanced by declared weight.
import { UsageError } from "./errors.js";
import type { Subject } from "./inventory/schema.js";

export interface Shard {
  index: number;
  total: number;
}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || index < 1 || index > total) {
    throw new UsageError(`--shard ${JSON.stringify(text)}: expected I/N with 1 <= I <= N, such as 1/4`);
  }
  return { index, total };
}

/**
 * Longest-processing-time first: heaviest subject to the lightest shard, ties broken by name and
 * shard number, so every machine computes the same partition.
 */
export function shardSubjects(subjects: readonly Subject[], shard: Shard): Subject[] {
  const loads = Array.from({ length: shard.total }, () => 0);
  const picked: Subject[] = [];
  const order = [...subjects].sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : 1));
  for (const s of order) {
    let best = 0;
    for (let i = 1; i < loads.length; i++) if (loads[i]! < loads[best]!) best = i;
    loads[best]! += s.weight;
    if (best === shard.index - 1) picked.push(s);
  }
  return subjects.filter((s) => picked.includes(s));
}

export function selectSubjects(all: readonly Subject[], names: readonly string[], shard?: Shard): Subject[] {
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new UsageError(
      `--subject ${unknown.join(", ")}: not declared in the inventory (declared: ${all.map((s) => s.name).join(", ")})`,
    );
  }
  const chosen = names.length > 0 ? all.filter((s) => names.includes(s.name)) : [...all];
  return shard ? shardSubjects(chosen, shard) : chosen;
}

/**
 * Runs `work` over `items`, at most `limit` at once. Never throws: each item's outcome, in input order, so one item's failure
 * cannot hide another's result. A `limit` below 1 (or not a number) runs one at a time.
 */
export async function mapSettled<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await work(items[i]!) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  const workers = Math.min(Math.max(1, Math.floor(limit) || 1), items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
