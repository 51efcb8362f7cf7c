// Shard bundles -> one report. Each bundle is verified from its bytes first (a bundle travels as a
// workflow artifact, so nothing in it is trusted before its hashes and schema check out); then the
// set is checked as a whole: one inventory, one shard total, every shard exactly once, every
// subject in one shard only. The merged report recomputes what depends on the whole (completeness,
// cleanup, verdict) instead of trusting any shard's summary of itself. A flow beside the pipeline
// (it reads the inventory and the plan), so it sits here and not in report/.
import { createHash } from "node:crypto";
import path from "node:path";
import { SUITES } from "./cases/index.js";
import { mergeCleanup } from "./engine/cleanup.js";
import { ConfigError, type ConfigProblem, UsageError } from "./errors.js";
import { type JudgeAt, judgeAtBase } from "./inventory/base.js";
import { loadInventory } from "./inventory/load.js";
import type { Subject } from "./inventory/schema.js";
import { checkCompleteness } from "./inventory/verify.js";
import { shardSubjects } from "./plan.js";
import { verifyBundle } from "./report/bundle.js";
import { assembleReport, type CleanupEvidence, type Report } from "./report/model.js";

interface MergeOptions {
  /**
   * The inventory the shards ran against. With it, every shard's recorded digest must equal this
   * file's, each shard must hold exactly the subjects the plan assigns it, and completeness is
   * recomputed from the merged cases. Without it, only the shards' own records are compared.
   */
  inventoryPath?: string;
  /** Workspace the inventory's paths are relative to (default: the current directory). */
  workspace?: string;
  /** A pull request's base: completeness is judged by the required cases there (src/inventory/base.ts). */
  judgeAt?: JudgeAt;
}

interface Shard {
  dir: string;
  index: number;
  total: number;
  report: Report;
}

/** A problem with one bundle or with the set; `file` names the bundle directory. */
function problem(file: string, message: string, fix: string): ConfigError {
  return new ConfigError([{ path: "", message, fix }], file);
}

/**
 * Verifies every bundle, checks that they form one complete set of shards of one run plan, and
 * returns the merged report. Throws ConfigError naming the offending bundle directory (or the
 * missing shard) and the fix; never returns a report built from a bundle that did not verify.
 */
export async function mergeBundles(dirs: readonly string[], opts: MergeOptions = {}): Promise<Report> {
  if (dirs.length === 0) throw new UsageError("merge needs at least one BUNDLE_DIR");
  const shards: Shard[] = [];
  for (const dir of dirs) shards.push(await verifiedShard(dir));
  checkOnePlan(shards);
  const ordered = everyShardOnce(shards, dirs.length);
  checkSubjectsOnce(ordered);
  return combine(ordered, opts);
}

/**
 * One bundle on its own. Completeness is left out on purpose: a shard that ran incompletely is a
 * legitimate (failing) result to merge, and completeness is recomputed over the union.
 */
async function verifiedShard(dir: string): Promise<Shard> {
  const v = await verifyBundle(dir);
  const broken = v.checks.filter((c) => c.status === "fail" && c.check !== "completeness");
  if (broken.length > 0 || !v.report) {
    throw new ConfigError(
      broken.map((c) => ({
        path: c.file ?? "",
        message: `does not verify (${c.check}): ${c.detail}`,
        fix: "re-download the shard's artifact, or re-run that shard; a bundle must not be edited",
      })),
      dir,
    );
  }
  const shard = v.report.shard ?? { index: 1, total: 1 };
  if (shard.index > shard.total) {
    throw problem(
      dir,
      `claims to be shard ${shard.index}/${shard.total}`,
      "re-run that shard with --shard I/N, 1 <= I <= N",
    );
  }
  return { dir, ...shard, report: v.report };
}

/** The set is one plan: one split, one inventory, one commit. */
function checkOnePlan(shards: readonly Shard[]): void {
  const first = shards[0]!;
  for (const s of shards) {
    if (s.total !== first.total) {
      throw problem(
        s.dir,
        `is shard ${s.index}/${s.total}, but ${first.dir} is shard ${first.index}/${first.total}: shards of different splits`,
        "merge the bundles of one matrix run only (every shard given the same N in --shard I/N)",
      );
    }
    const a = first.report.inventory?.sha256 ?? null;
    const b = s.report.inventory?.sha256 ?? null;
    if (a !== b) {
      throw problem(
        s.dir,
        `ran against inventory ${b ?? "(none recorded)"}, but ${first.dir} ran against ${a ?? "(none recorded)"}: shards from different inventories`,
        "merge the bundles of one matrix run only, or re-run the stale shards",
      );
    }
    if (first.report.head.sha && s.report.head.sha && first.report.head.sha !== s.report.head.sha) {
      throw problem(
        s.dir,
        `was run on commit ${s.report.head.sha}, but ${first.dir} on ${first.report.head.sha}: shards of different commits`,
        "merge the bundles of one matrix run only",
      );
    }
  }
}

/** Every shard of the split exactly once; the shards in index order. */
function everyShardOnce(shards: readonly Shard[], given: number): Shard[] {
  const total = shards[0]!.total;
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const twin = byIndex.get(s.index);
    if (twin) {
      throw problem(
        s.dir,
        `is shard ${s.index}/${s.total} again (${twin.dir} is also shard ${s.index}/${s.total}): duplicated shard`,
        "pass each shard's bundle once; if a shard was re-run, keep only the newest bundle",
      );
    }
    byIndex.set(s.index, s);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new ConfigError(
      missing.map((i) => ({
        path: "",
        message: `shard ${i}/${total} is missing: no bundle given for it`,
        fix: `download shard ${i}'s bundle artifact and pass its directory (or re-run that shard if it failed to upload)`,
      })),
      `merge of ${given} bundle(s)`,
    );
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Each subject in one shard only. */
function checkSubjectsOnce(ordered: readonly Shard[]): void {
  const owners = new Map<string, Shard>();
  for (const s of ordered) {
    for (const subj of s.report.subjects) {
      const other = owners.get(subj.name);
      if (other) {
        throw problem(
          s.dir,
          `reports subject "${subj.name}", which ${other.dir} also reports: a subject belongs to one shard`,
          "merge the bundles of one matrix run only (the same inventory and --shard N everywhere)",
        );
      }
      owners.set(subj.name, s);
    }
  }
}

async function combine(shards: Shard[], opts: MergeOptions): Promise<Report> {
  const reports = shards.map((s) => s.report);
  const starts = reports.map((r) => Date.parse(r.startedAt));
  const t0 = Math.min(...starts);
  const end = Math.max(...reports.map((r, i) => starts[i]! + r.durationMs));
  const label = (s: Shard) => `shard ${s.index}/${s.total}`;
  const runId = mergedRunId(reports);

  // Phases are relative to their report's start: shift them onto the merged timeline.
  const subjects = shards.flatMap((s, i) =>
    s.report.subjects.map((subj) => ({
      ...subj,
      phases: subj.phases.map((p) => ({ ...p, startMs: p.startMs + (starts[i]! - t0) })),
    })),
  );
  const cases = reports.flatMap((r) => r.cases);
  const errors = shards.flatMap((s) =>
    s.report.errors.map((e) => ({ kind: e.kind, message: `${label(s)}: ${e.message}` })),
  );

  const cleanupParts = reports.map((r) => r.cleanup).filter((c): c is CleanupEvidence => c !== null);
  const triggers = [...new Set(cleanupParts.map((c) => c.trigger))].join(", ");
  const merged = mergeCleanup(cleanupParts, triggers);
  // Every shard's leftovers, not only the last one's: the shards cleaned up on different machines.
  const cleanup = merged && {
    ...merged,
    owner: runId,
    remaining: cleanupParts.flatMap((c) => c.remaining),
  };

  const seenArtifacts = new Set<string>();
  const artifacts = reports
    .flatMap((r) => r.artifacts)
    .filter((a) => {
      const key = JSON.stringify([a.path, a.expected, a.actual]);
      const fresh = !seenArtifacts.has(key);
      seenArtifacts.add(key);
      return fresh;
    });

  const inventory = await mergedInventory(shards, cases, opts);
  return assembleReport({
    tool: reports[0]!.tool,
    runId,
    startedMs: t0,
    endedMs: end,
    head: reports[0]!.head,
    subjects,
    cases,
    artifacts,
    inventory,
    errors,
    cleanup,
    alignment: reports.find((r) => r.alignment !== null)?.alignment ?? null,
    trust: reports.find((r) => r.trust !== null)?.trust ?? null,
    external: mergeExternal(reports),
  });
}

/** Deterministic: merging the same bundles twice gives the same run id (and the same bundle). */
function mergedRunId(reports: Report[]): string {
  const h = createHash("sha256");
  for (const r of reports) h.update(`${r.runId}\n`);
  return `da-${h.digest("hex").slice(0, 32)}`;
}

async function mergedInventory(
  shards: Shard[],
  cases: Report["cases"],
  opts: MergeOptions,
): Promise<Report["inventory"]> {
  const recorded = shards.map((s) => s.report.inventory);
  if (recorded.every((r) => r === null)) {
    if (opts.inventoryPath) {
      throw problem(
        shards[0]!.dir,
        `records no inventory, so it cannot be checked against ${opts.inventoryPath}`,
        "merge bundles written by `docker-acceptance run --inventory PATH --out DIR`, or leave out --inventory",
      );
    }
    return null;
  }
  const invs = recorded.filter((r): r is NonNullable<typeof r> => r !== null);
  const selected = mergedSelection(shards, invs, cases);
  if (!opts.inventoryPath) return recordedTogether(invs, selected);
  return judgedAgain(shards, cases, invs, selected, opts.inventoryPath, opts);
}

type RecordedInventory = NonNullable<Report["inventory"]>;

/** The subjects the shards ran, and the suites selected. */
function mergedSelection(shards: Shard[], invs: RecordedInventory[], cases: Report["cases"]) {
  const subjects = shards.flatMap(
    (s) => s.report.inventory?.selected?.subjects ?? s.report.subjects.map((x) => x.name),
  );
  // Older bundles may not record their selection: the suites their cases belong to stand in.
  const recordedSuites = invs.flatMap((r) => r.selected?.suites ?? []);
  const suites = SUITES.filter(
    (s) => recordedSuites.includes(s) || (recordedSuites.length === 0 && cases.some((c) => c.suite === s)),
  );
  return { subjects, suites };
}

/** Without an inventory to read: what the shards recorded, together. */
function recordedTogether(
  invs: RecordedInventory[],
  selected: ReturnType<typeof mergedSelection>,
): RecordedInventory {
  const base = invs[0]!;
  // Subjects are disjoint across shards, so the union's drift is the shards' drifts together.
  const drift = invs.flatMap((r) => r.drift);
  return {
    path: base.path,
    sha256: base.sha256,
    complete: drift.length === 0 && invs.every((r) => r.complete),
    requireComplete: invs.some((r) => r.requireComplete),
    selected,
    drift,
    fixes: invs.flatMap((r) => r.fixes ?? []),
  };
}

/**
 * With the inventory at hand: the one the shards ran (by its digest), each shard holding what the
 * plan gives it, and completeness judged again over the merged cases, at the PR's base.
 */
async function judgedAgain(
  shards: Shard[],
  cases: Report["cases"],
  invs: RecordedInventory[],
  selected: ReturnType<typeof mergedSelection>,
  inventoryPath: string,
  opts: MergeOptions,
): Promise<RecordedInventory> {
  const base = invs[0]!;
  const loaded = await loadInventory(inventoryPath, { workspace: opts.workspace });
  if (loaded.sha256 !== base.sha256) {
    throw problem(
      shards[0]!.dir,
      `ran against inventory sha256 ${base.sha256}, but ${inventoryPath} has sha256 ${loaded.sha256}`,
      "check out the commit the shards ran on, or re-run the shards against this inventory",
    );
  }
  const chosen = loaded.inventory.subjects.filter((s) => selected.subjects.includes(s.name));
  checkShardPlan(shards, chosen, inventoryPath);
  // The required cases at the PR's base, as each shard's own run judged them.
  const judged = await judgeAtBase(opts.workspace ?? process.cwd(), loaded, opts.judgeAt);
  const all = chosen.length === loaded.inventory.subjects.length;
  return checkCompleteness(judged.inventory, cases, {
    subjects: chosen.map((s) => s.name),
    removed: all ? judged.removed : [],
    suites: selected.suites,
    requireComplete: invs.some((r) => r.requireComplete),
    path: base.path,
    sha256: base.sha256,
    text: loaded.text,
  });
}

/**
 * Each shard must hold exactly what the plan gives it: a shard that quietly ran fewer subjects
 * would otherwise shrink what "complete" is judged over.
 */
function checkShardPlan(shards: Shard[], chosen: Subject[], inventoryPath: string): void {
  const problems: ConfigProblem[] = [];
  for (const s of shards) {
    const expected = shardSubjects(chosen, s).map((x) => x.name);
    const actual = s.report.inventory?.selected?.subjects ?? s.report.subjects.map((x) => x.name);
    if (expected.join("\n") !== [...actual].sort(byOrder(expected)).join("\n")) {
      problems.push({
        path: "",
        message: `${s.dir} (shard ${s.index}/${s.total}) covered ${actual.join(", ") || "no subjects"}, but the plan assigns it ${expected.join(", ") || "no subjects"}`,
        fix: "run every shard from the same inventory and the same --subject selection",
      });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems, path.resolve(inventoryPath));
}

function byOrder(order: string[]): (a: string, b: string) => number {
  const rank = (x: string) => {
    const i = order.indexOf(x);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  return (a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function mergeExternal(reports: Report[]): Report["external"] {
  const tests = reports.map((r) => r.external.tests).filter((t) => t !== undefined);
  const lint = reports.map((r) => r.external.lint).filter((l) => l !== undefined);
  return {
    ...(tests.length > 0
      ? {
          tests: {
            passed: tests.reduce((n, t) => n + t.passed, 0),
            skipped: tests.reduce((n, t) => n + t.skipped, 0),
            failed: tests.reduce((n, t) => n + t.failed, 0),
            files: [...new Set(tests.flatMap((t) => t.files))],
          },
        }
      : {}),
    ...(lint.length > 0
      ? {
          lint: {
            findings: lint.flatMap((l) => l.findings),
            files: [...new Set(lint.flatMap((l) => l.files))],
          },
        }
      : {}),
  };
}
