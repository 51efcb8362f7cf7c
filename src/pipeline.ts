// The flow (docs/architecture.md): inventory -> plan -> engine -> suites -> cleanup -> verify -> report.
// Doors (CLI, action main) parse their inputs, call runPipeline, then render and publish. This
// module is what a run needs before its first engine call (the inventory, the plan, the engine's
// ping); the rest of the flow is src/pipeline-run.ts, loaded while the engine answers the ping.
import path from "node:path";
import { SUITES, type SuiteName } from "./cases/suites.js";
import { newRunId } from "./engine/ownership.js";
import { createEngine } from "./engine/select.js";
import { ConfigError, type ConfigProblem } from "./errors.js";
import { judgeAtBase } from "./inventory/base.js";
import { loadInventory } from "./inventory/load.js";
import type { Inventory, Subject } from "./inventory/schema.js";
import { unsetSecretProblems } from "./inventory/secrets.js";
import type { RunOptions } from "./pipeline-run.js";
import { selectSubjects } from "./plan.js";
import type { Report } from "./report/model.js";
import { DEFAULT_PROBE_IMAGE } from "./suites/containment/probe-image.js";
import { checkLaunchSpec, LaunchSpecError } from "./suites/lifecycle/create.js";

/** Throws ConfigError/UsageError before any engine call; otherwise always returns a Report. */
export async function runPipeline(opts: RunOptions): Promise<Report> {
  const t0 = Date.now();
  const owner = opts.runId ?? newRunId();
  const { loaded, judged, subjects, review } = await prepareRun(opts);
  const engine = opts.engine ?? createEngine();
  // The first engine call goes out before the rest of the run is loaded, which then compiles while
  // the engine answers. Its refusal is handled here only so that it cannot count as unhandled while
  // the import is read; runSubjects awaits the same promise, where a dead engine fails the run.
  const ping = (async () => engine.ping())();
  ping.catch(() => undefined);
  // The trusted probe's image goes next, answered (or pulled) while the rest of the run loads:
  // it must be there before any subject starts. Its failure is the run's, where it is awaited.
  const probeImage = opts.probeImage ?? DEFAULT_PROBE_IMAGE;
  const probeReady = needsProbe(opts.suites?.length ? opts.suites : SUITES, subjects)
    ? engine.ensureImage(probeImage, undefined, opts.signal)
    : Promise.resolve();
  probeReady.catch(() => undefined);
  // Node reads and compiles an import()ed module before import() returns: one turn of the event
  // loop first lets the ping's request leave, so that compiling overlaps the engine's answer.
  await new Promise((resolve) => setImmediate(resolve));
  const { runFromPing } = await import("./pipeline-run.js");
  return runFromPing({
    opts,
    t0,
    owner,
    loaded,
    judged,
    subjects,
    review,
    engine,
    ping,
    probeImage,
    probeReady,
  });
}

/**
 * Whether a run needs the trusted probe: every suite but the lifecycle observes the subject with
 * it (src/suites/runtime.ts), and a subject without a network is waited on through it.
 */
function needsProbe(suites: readonly SuiteName[], subjects: readonly Subject[]): boolean {
  return suites.some((s) => s !== "lifecycle") || subjects.some((s) => s.network === "none");
}

type Review = typeof import("./alignment/index.js");

/**
 * Everything decided before any engine call: the inventory (its trust-bearing parts judged at the
 * PR's base), the subjects of this shard, and the alignment config (loaded only when asked for: it
 * brings the YAML parser, and start-up time is a budget). Throws on bad input.
 */
async function prepareRun(opts: RunOptions) {
  const inventoryFile = path.resolve(opts.workspace, opts.inventoryPath);
  // A run builds from the inventory's paths: each must be there before any engine call.
  const loaded = await loadInventory(inventoryFile, { workspace: opts.workspace, existing: true });
  // What judges the PR comes from its base (src/inventory/base.ts), never from the PR.
  const judged = await judgeAtBase(opts.workspace, loaded, opts.judgeAt);
  const subjects = selectSubjects(judged.inventory.subjects, opts.subjects ?? [], opts.shard);
  refuseUnenforceable(judged.inventory, inventoryFile);
  // The build secrets this run's subjects are granted (by the base, in a pull request) must be set.
  const unset = unsetSecretProblems(
    judged.inventory,
    loaded,
    judged.environment,
    subjects,
    judged.trust.inventoryFrom?.slice(0, 12),
  );
  if (unset.length > 0) throw new ConfigError(unset, inventoryFile);
  const review: Review | undefined = opts.alignment ? await import("./alignment/index.js") : undefined;
  if (opts.alignment && review) {
    // A broken alignment config is a configuration error: reported before any engine call.
    await review.loadAlignmentConfig(
      path.resolve(opts.workspace, opts.alignment.configPath ?? review.DEFAULT_CONFIG_PATH),
    );
  }
  return { loaded, judged, subjects, review };
}

/** Every declared subject, not only this shard's: the same inventory fails the same way everywhere. */
function refuseUnenforceable(inv: Inventory, file: string): void {
  const problems: ConfigProblem[] = [];
  inv.subjects.forEach((subject, i) => {
    try {
      checkLaunchSpec(subject);
    } catch (err) {
      if (!(err instanceof LaunchSpecError)) throw err;
      problems.push({ path: `subjects[${i}].${err.field}`, message: err.reason, fix: err.fix });
    }
  });
  if (problems.length > 0) throw new ConfigError(problems, file);
}
