// The pipeline from its first engine call on (src/pipeline.ts decides everything before it): the
// suites per subject, the run-wide cleanup, artifacts, the alignment review, the one Report. A
// module of its own so that none of this is loaded, or compiled, before the engine is asked: its
// import starts once the ping is on its way, and the engine's answer is awaited only here.
import { availableParallelism } from "node:os";
import path from "node:path";
import type { AlignmentSource, PullRequestMeta } from "./alignment/index.js";
import { type CaseId, SUITES, type SuiteName } from "./cases/index.js";
import { cleanupOwned, mergeCleanup } from "./engine/cleanup.js";
import type { Engine } from "./engine/select.js";
import { errorEvidence } from "./errors.js";
import type { JudgeAt, JudgedInventory } from "./inventory/base.js";
import type { EnvironmentAccess } from "./inventory/environment.js";
import { verifyArtifacts } from "./inventory/hashes.js";
import type { LoadedInventory } from "./inventory/load.js";
import type { Inventory } from "./inventory/schema.js";
import { checkCompleteness } from "./inventory/verify.js";
import { type Logger, prefixedLogger } from "./log.js";
import { mapSettled, type Shard } from "./plan.js";
import { buildPreflight } from "./preflight/index.js";
import type { CaseResult, CleanupEvidence, Report, SubjectReport } from "./report/model.js";
import { terminalSafe } from "./report/text.js";
import type { BuildGate } from "./suites/lifecycle/case.js";
import { inventorySource } from "./suites/lifecycle/locate.js";
import { runSubject, subjectDeadline } from "./suites/lifecycle/run.js";
import type { Observer, ObservingSuite, SuiteRun, SuiteRuntime } from "./suites/runtime.js";
import { TOOL_VERSION } from "./version.js";

export interface RunOptions {
  workspace: string;
  inventoryPath: string;
  subjects?: string[];
  suites?: SuiteName[];
  shard?: Shard;
  probeImage?: string;
  removeImages?: boolean;
  requireComplete?: boolean;
  parallelism?: number;
  log: Logger;
  signal: AbortSignal;
  runId?: string;
  head?: Report["head"];
  engine?: Engine;
  /**
   * The PR's base, where the inventory's trust-bearing parts are read (or why it is not at hand);
   * absent outside pull requests: the checkout's inventory is the maintainer's own.
   */
  judgeAt?: JudgeAt;
  /** The alignment review of the change under test; absent: not run (report.alignment null). */
  alignment?: { source: AlignmentSource; configPath?: string; rulesFrom?: string; pull?: PullRequestMeta };
  /**
   * Handed a provisional report the moment the run is cancelled, before its cleanup: the door keeps
   * it, so a run whose cleanup outlasts the hard exit (or the runner's SIGKILL) still leaves one.
   */
  onCancelled?: (provisional: Report) => Promise<void>;
}

type Subject = Inventory["subjects"][number];
type Review = typeof import("./alignment/index.js");

/** What src/pipeline.ts settled before the first engine call, and that call itself. */
interface Prepared {
  opts: RunOptions;
  t0: number;
  owner: string;
  loaded: LoadedInventory;
  judged: JudgedInventory;
  subjects: Subject[];
  review: Review | undefined;
  engine: Engine;
  /** The engine's ping, already sent (its rejection is handled: it is awaited in runSubjects). */
  ping: Promise<unknown>;
  /** The trusted probe's image (never the inventory's). */
  probeImage: string;
  /** Its presence on the engine, asked for after the ping when the run needs it (handled as the ping is). */
  probeReady: Promise<unknown>;
}

/**
 * How each registered suite runs (src/suites/runtime.ts): the lifecycle drives each subject's life
 * (runSubject), the others observe the subject while it runs. A registered suite without an entry
 * does not compile.
 */
const SUITE_RUNTIMES: Record<SuiteName, SuiteRuntime> = {
  lifecycle: { role: "drives" },
  containment: {
    role: "observes",
    load: async () => (await import("./suites/containment/index.js")).CONTAINMENT_RUNTIME,
  },
};

/** The report's schema (zod): what only the report's assembly needs, loaded with the observing suites. */
const reportModel = () => import("./report/model.js");

/** Build, start-up and stop have their own timeouts; this bounds a subject as a whole. */
const SUBJECT_SLACK_MS = 17 * 60_000;

/** The run from the ping on; always returns a Report (errors of the run are in it). */
export async function runFromPing(prepared: Prepared): Promise<Report> {
  const { opts, t0, owner, loaded, judged, subjects, review, engine, ping, probeImage, probeReady } =
    prepared;
  const errors: Report["errors"] = [];
  const trust = {
    ...judged.trust,
    probeImage,
    notes: [...ignoredProbeImage(loaded.inventory, probeImage), ...judged.trust.notes],
  };
  const inv = judged.inventory;
  // Pinned artifacts and the alignment review need nothing from the engine: they run alongside.
  const artifacts = verifyArtifacts(opts.workspace, inv, judged.pinsText);
  const alignment = startAlignment(opts, review, errors);
  const suites = new Set<SuiteName>(opts.suites?.length ? opts.suites : SUITES);
  const { signal } = opts;
  const results: Results = { cases: [], subjectReports: [], cleanups: [] };
  const assemble = async (cleanup: CleanupEvidence | null, extra: Partial<Report> = {}): Promise<Report> =>
    (await reportModel()).assembleReport({
      runId: owner,
      startedMs: t0,
      head: opts.head ?? {},
      ...(opts.shard ? { shard: opts.shard } : {}),
      subjects: results.subjectReports,
      cases: results.cases,
      inventory: checkCompleteness(inv, results.cases, {
        suites: [...suites],
        subjects: subjects.map((s) => s.name),
        // Without a subject filter the base's whole list is owed (by the first shard, once).
        removed: !opts.subjects?.length && (opts.shard?.index ?? 1) === 1 ? judged.removed : [],
        requireComplete: opts.requireComplete !== false,
        path: opts.inventoryPath,
        sha256: loaded.sha256,
        // The change's own file: a drift fix names the lines to add there.
        text: loaded.text,
      }),
      errors,
      cleanup,
      trust,
      ...extra,
    });
  const provisional = keepOnCancel(opts, owner, (cancelled) =>
    assemble(null, { errors: [...errors, cancelled] }),
  );
  try {
    const environment = judged.environment;
    const sources = { path: repoRelative(opts.workspace, loaded.path), text: loaded.text };
    await runSubjects(
      { opts, engine, ping, probeReady, owner, inv, subjects, suites, probeImage, t0, sources, environment },
      results,
      errors,
    );
  } catch (err) {
    errors.push(errorEvidence(err));
  } finally {
    results.cleanups.push(await sweepRun(engine, owner, opts));
  }
  if (signal.aborted)
    errors.push({
      kind: "cancelled",
      message: `run cancelled (${String(signal.reason ?? "signal")}); cleanup ran`,
    });
  // The provisional report is on disk before the final one replaces it.
  provisional.done();
  await provisional.kept();
  return assemble(
    runCleanup(results.cleanups, signal.aborted ? String(signal.reason ?? "cancelled") : "run-end"),
    { artifacts: await artifacts, alignment: await alignment },
  );
}

/**
 * On cancellation, the report as it stands (the subjects finished so far, no cleanup yet) goes to
 * the door's onCancelled at once. `kept` settles once it is kept (or could not be); `done` ends the
 * watch, so a signal after the run never writes a provisional report over the final one.
 */
function keepOnCancel(
  opts: RunOptions,
  owner: string,
  assemble: (cancelled: Report["errors"][number]) => Promise<Report>,
): { kept: () => Promise<void>; done: () => void } {
  const { signal, onCancelled } = opts;
  let kept: Promise<void> = Promise.resolve();
  const keep = () => {
    if (!onCancelled) return;
    const cancelled = {
      kind: "cancelled",
      message: `run cancelled (${String(signal.reason ?? "signal")}); this report was written when the signal arrived, before cleanup. If it is the report the run left, its cleanup did not finish: run \`docker-acceptance sweep --owner ${owner}\``,
    };
    kept = assemble(cancelled)
      .then(onCancelled)
      .catch((err: unknown) =>
        opts.log.warn(`the provisional report could not be kept: ${terminalSafe(String(err), 600)}`),
      );
  };
  if (signal.aborted) keep();
  else signal.addEventListener("abort", keep, { once: true });
  return { kept: () => kept, done: () => signal.removeEventListener("abort", keep) };
}

/** The run-wide sweep: probes, the host reference, anything a cancelled subject left behind. */
async function sweepRun(engine: Engine, owner: string, opts: RunOptions): Promise<CleanupEvidence> {
  await engine.settle();
  return cleanupOwned(
    engine,
    { owner },
    {
      trigger: opts.signal.aborted ? String(opts.signal.reason ?? "cancelled") : "run-end",
      options: { removeImages: opts.removeImages !== false },
    },
  );
}

/** The alignment review, started alongside the suites; its failure is a run error, never a throw. */
function startAlignment(
  opts: RunOptions,
  review: Review | undefined,
  errors: Report["errors"],
): Promise<Report["alignment"]> {
  if (!opts.alignment || !review) return Promise.resolve(null);
  return review
    .runAlignment({
      workspace: opts.workspace,
      configPath: opts.alignment.configPath,
      source: opts.alignment.source,
      rulesFrom: opts.alignment.rulesFrom,
      pull: opts.alignment.pull,
    })
    .catch((err: unknown) => {
      errors.push(errorEvidence(err));
      return null;
    });
}

interface RunContext {
  opts: RunOptions;
  /** The first engine call, made before this module loaded: awaited before anything else is asked. */
  ping: Promise<unknown>;
  /** The trusted probe's image on the engine, asked for right after the ping (when needed). */
  probeReady: Promise<unknown>;
  /** Whether the inventory's references to the environment are read (src/inventory/environment.ts). */
  environment: EnvironmentAccess;
  engine: Engine;
  owner: string;
  inv: Inventory;
  subjects: Subject[];
  suites: Set<SuiteName>;
  probeImage: string;
  t0: number;
  /** The inventory file as read, for the subjects' lines (failing cases point at them). */
  sources: { path: string | undefined; text: string };
  /** The build pre-flight, once the run has one (a subject to build). */
  buildPreflight?: Promise<BuildGate>;
  /** Said by a build whose first step is under way (CaseContext.engineBusy). */
  engineBusy?: () => void;
}

interface Results {
  cases: CaseResult[];
  subjectReports: SubjectReport[];
  cleanups: CleanupEvidence[];
}

/** Each subject's observers, from the selected observing suites started once for the run. */
type Observers = (subject: Subject) => Observer[];

/** Every subject through its suites, several at once; what each produced lands in `into`. */
async function runSubjects(ctx: RunContext, into: Results, errors: Report["errors"]): Promise<void> {
  const { opts, engine, owner, subjects, suites, probeImage } = ctx;
  const { log, signal } = opts;
  // The ping's answer also says which engine answers (hence its facts and builder), so nothing
  // else is asked before the run starts; a dead engine fails the ping with its own message.
  await ctx.ping;
  // BuildKit's session code loads while the engine answers the calls below, not at the first build.
  if (subjects.some((s) => s.build && s.build.builder !== "legacy")) engine.prepareBuild?.();
  // Before the first build, once (src/preflight/): started now, alongside what follows, and
  // awaited by each build. Prebuilt images run nothing of the pull request's before they are judged.
  const buildPreflight = subjects.some((s) => s.build) ? startPreflight(ctx) : undefined;
  const observing = SUITES.filter((s) => suites.has(s)).flatMap((s) => {
    const runtime = SUITE_RUNTIMES[s];
    return runtime.role === "observes" ? [{ suite: s, runtime }] : [];
  });
  // Nothing is measured without the trusted probe (nor is a network-none subject's readiness):
  // it must be here before any subject starts.
  await ctx.probeReady;
  const later = laterCode(observing, { engine, owner, probeImage, signal });
  // With nothing to build there is no request to keep the loading from: it starts at once.
  if (!buildPreflight) later.load();
  const run = buildPreflight ? { ...ctx, buildPreflight, engineBusy: later.load } : ctx;
  const severity = severityOf(run.inv);
  const observers: Observers = (subject) =>
    later.observers(subject).map((observer) => withSeverity(observer, severity));
  const parallelism = opts.parallelism ?? availableParallelism();
  log.info(
    `docker-acceptance ${TOOL_VERSION}: run ${owner}, ${subjects.length} subject(s), suites ${[...suites].join(", ")}, parallelism ${parallelism}`,
  );
  // Several subjects at once: each line says whose it is (groups would interleave).
  const concurrent = Math.min(parallelism, subjects.length) > 1;
  const outcomes = await mapSettled(subjects, parallelism, (subject) => {
    const own = concurrent ? prefixedLogger(log, subject.name) : log;
    return own.group(`subject ${subject.name}`, () =>
      runSubject(subjectContext(run, subject, own, severity, observers(subject))),
    );
  });
  // One subject's crash never hides another's results; it becomes a run error naming it.
  outcomes.forEach((o, i) => {
    if (o.status === "rejected") {
      errors.push({
        ...errorEvidence(o.reason),
        message: `subject ${subjects[i]!.name}: ${errorEvidence(o.reason).message}`,
      });
      return;
    }
    into.cases.push(...o.value.cases);
    into.subjectReports.push(o.value.report);
    if (o.value.cleanup) into.cleanups.push(o.value.cleanup);
  });
}

/** What one subject's run is handed: its own deadline, its log, and the suites that observe it. */
function subjectContext(
  run: RunContext,
  subject: Subject,
  log: Logger,
  severity: (id: CaseId) => "fail" | "warn",
  observers: Observer[],
): Parameters<typeof runSubject>[0] {
  const { opts, engine, owner, probeImage } = run;
  const { signal } = opts;
  return {
    engine,
    owner,
    subject,
    workspace: opts.workspace,
    suites: run.suites,
    severity,
    log,
    // One subject's deadline never cuts another's: each gets its own, joined to the run's.
    signal: AbortSignal.any([
      signal,
      subjectDeadline(subject.startupTimeoutMs + subject.stopTimeoutMs + SUBJECT_SLACK_MS),
    ]),
    t0: run.t0,
    removeImages: opts.removeImages !== false,
    probeImage,
    observers,
    inventorySource: inventorySource(run.sources.path, run.sources.text, subject.name),
    environment: run.environment,
    ...(run.buildPreflight ? { buildPreflight: run.buildPreflight } : {}),
    ...(run.engineBusy ? { engineBusy: run.engineBusy } : {}),
  };
}

/**
 * What a run needs only once its subjects are under way: the observing suites' code (containment)
 * and the report's schema (zod), about 20 ms to load. `load` starts loading it, and each observing
 * suite's run-wide start (containment's host reference) once its code is in: on the first build's
 * first step, when the engine has work in hand and the loading delays no request, or at once when
 * nothing is built. An observation that comes first asks for it itself.
 */
function laterCode(
  observing: { suite: SuiteName; runtime: Extract<SuiteRuntime, { role: "observes" }> }[],
  run: SuiteRun,
): { load: () => void; observers: (subject: Subject) => Observer[] } {
  let started: Promise<ReturnType<ObservingSuite["start"]>[]> | undefined;
  const start = () =>
    (started ??= Promise.all([
      Promise.all(observing.map(({ runtime }) => runtime.load())),
      reportModel(),
    ]).then(([suites]) => suites.map((s) => s.start(run))));
  return {
    load: () => void start().catch(() => undefined), // an observation that needs it says why
    observers: (subject) =>
      observing.map(({ suite }, i) => ({
        suite,
        observe: async (...args) => (await start())[i]!(subject).observe(...args),
      })),
  };
}

/** The build pre-flight, said once in the log when it refuses every build. */
function startPreflight(run: RunContext): Promise<BuildGate> {
  const { engine, owner, probeImage, opts } = run;
  const gate = buildPreflight({ engine, owner, probeImage, signal: opts.signal });
  void gate.then((g) => {
    if (g.refused) opts.log.warn(`no subject is built: ${terminalSafe(g.refused.message, 600)}`);
  });
  return gate;
}

/** A path inside the workspace, repository-relative with `/`; undefined outside it. */
function repoRelative(workspace: string, file: string): string | undefined {
  const rel = path.relative(path.resolve(workspace), path.resolve(workspace, file));
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : undefined;
}

/** An observer whose cases carry the inventory's severity for them. */
function withSeverity(o: Observer, severity: (id: CaseId) => "fail" | "warn"): Observer {
  return {
    suite: o.suite,
    observe: async (id, inspect, settling) =>
      (await o.observe(id, inspect, settling)).map((r) => ({ ...r, severity: severity(r.id as CaseId) })),
  };
}

/**
 * The probe measures the subject, so the PR must not choose it: the inventory's `probeImage` is
 * never used, and the report says so when it names another image than the one that ran.
 */
function ignoredProbeImage(inv: Inventory, used: string): string[] {
  if (!inv.probeImage || inv.probeImage === used) return [];
  return [
    `The inventory's probeImage ${JSON.stringify(inv.probeImage.slice(0, 200))} was ignored: the probe image comes only from the probe-image input (--probe-image) or the built-in default pinned by digest, never from a file in the pull request. The probe ran ${used}.`,
  ];
}

/**
 * Every object any cleanup touched, but judged by the last, run-wide sweep: its listing is the
 * proof. A subject whose own removal failed transiently still shows it in its lifecycle.cleanup.
 */
function runCleanup(parts: CleanupEvidence[], trigger: string): CleanupEvidence | null {
  const merged = mergeCleanup(parts, trigger);
  const final = parts.at(-1);
  return merged && final ? { ...merged, completed: final.completed, remaining: final.remaining } : merged;
}

function severityOf(inv: Inventory): (id: CaseId) => "fail" | "warn" {
  return (id) => inv.severity[id] ?? "fail";
}
