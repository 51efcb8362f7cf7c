// Shard bundles as `run --shard I/N --out DIR` writes them: each shard holds the subjects the plan
// gives it, the cases it ran, completeness over its own selection and its own cleanup evidence.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ALL_CASES, suiteOf } from "../../src/cases/index.js";
import { loadInventory } from "../../src/inventory/load.js";
import { checkCompleteness } from "../../src/inventory/verify.js";
import { selectSubjects } from "../../src/plan.js";
import { writeBundle } from "../../src/report/bundle.js";
import { type CaseResult, computeVerdict, type Report, reportSchema } from "../../src/report/model.js";
import { makeCase, makeCleanup } from "../helpers/report.js";

export interface ShardSet {
  inventoryPath: string;
  dirs: string[];
  reports: Report[];
}

export interface ShardOptions {
  /** Change a shard's report before it is written (cases, cleanup, errors...). */
  edit?: (report: Report, index: number) => Report;
  /** Keep the edited report's completeness as is, instead of recomputing it from its cases. */
  keepInventory?: boolean;
  root?: string;
}

const runIdOf = (i: number) => `da-${i.toString(16).padStart(32, "0")}`;

export async function writeShardSet(
  inventoryPath: string,
  total: number,
  opts: ShardOptions = {},
): Promise<ShardSet> {
  const loaded = await loadInventory(inventoryPath);
  const root = opts.root ?? mkdtempSync(path.join(tmpdir(), "da-shards-"));
  const dirs: string[] = [];
  const reports: Report[] = [];
  for (let index = 1; index <= total; index++) {
    const subjects = selectSubjects(loaded.inventory.subjects, [], { index, total }).map((s) => s.name);
    const runId = runIdOf(index);
    const cases: CaseResult[] = subjects.flatMap((subject) =>
      ALL_CASES.map((id) => makeCase({ id, suite: suiteOf(id), subject, durationMs: 10 + index })),
    );
    const inventory = checkCompleteness(loaded.inventory, cases, {
      subjects,
      suites: ["lifecycle", "containment"],
      requireComplete: true,
      path: "acceptance/inventory.json",
      sha256: loaded.sha256,
    });
    const cleanup = makeCleanup({
      owner: runId,
      trigger: "run-end",
      objects: subjects.map((s, k) => ({
        kind: "container" as const,
        id: `${index}${k}`.padEnd(64, "c"),
        name: `${runId}-${s}`,
        role: "subject",
        action: "removed" as const,
        reason: `labelled org.docker-acceptance.owner=${runId}`,
      })),
      verifiedBy: [`list containers label=org.docker-acceptance.owner=${runId}`],
    });
    const base = reportSchema.parse({
      schemaVersion: 1,
      tool: { name: "docker-acceptance", version: "0.1.0" },
      runId,
      // Shard i started i seconds after shard 1 and ran for 10 s.
      startedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
      durationMs: 10_000,
      verdict: "pass",
      head: { sha: "a".repeat(40), ref: "refs/pull/7/merge" },
      shard: { index, total },
      subjects: subjects.map((name) => ({
        name,
        image: `docker-acceptance:${runId}-${name}`,
        phases: [{ name: "build", startMs: 100, durationMs: 900 }],
      })),
      cases,
      cleanup,
      inventory,
      artifacts: [],
      alignment: null,
      errors: [],
    });
    let edited = opts.edit ? opts.edit(base, index) : base;
    const sel = edited.inventory?.selected;
    if (sel && !opts.keepInventory) {
      edited = {
        ...edited,
        inventory: checkCompleteness(loaded.inventory, edited.cases, {
          subjects: sel.subjects,
          suites: ["lifecycle", "containment"],
          requireComplete: true,
          path: "acceptance/inventory.json",
          sha256: loaded.sha256,
        }),
      };
    }
    const report = reportSchema.parse({ ...edited, verdict: computeVerdict(edited) });
    const dir = path.join(root, `shard-${index}`);
    await writeBundle(dir, report, { markdown: `# shard ${index}\n` });
    dirs.push(dir);
    reports.push(report);
  }
  return { inventoryPath, dirs, reports };
}

/** Five subjects of unequal weight, both suites pinned: enough for 1..5 shards to differ. */
export function fiveSubjects(): Record<string, unknown>[] {
  return [
    { name: "alpha", image: "alpha:1", weight: 5 },
    { name: "bravo", image: "bravo:1", weight: 3 },
    { name: "charlie", image: "charlie:1", weight: 3 },
    { name: "delta", image: "delta:1" },
    { name: "echo", image: "echo:1" },
  ];
}
