// One subject's journey, cases in order: build, create, ready, probes, limits, [the observing
// suites: containment], stop, cleanup. Each case is a module of its own; this file only orders them, times them and
// records them. A case that cannot run because an earlier one failed is a SKIP that says which.

import { CASES_BY_SUITE, type CaseId, fillCli, type SuiteName } from "../../cases/index.js";
import { cleanupOwned } from "../../engine/cleanup.js";
import type { ContainerView, ImageHealthcheck, LaunchSpec } from "../../engine/provider.js";
import { readBack } from "../../engine/readback.js";
import { errorEvidence } from "../../errors.js";
import type { CaseResult, CleanupEvidence, Phase, SubjectReport } from "../../report/model.js";
import { terminalSafe } from "../../report/text.js";
import type { Observer } from "../runtime.js";
import { buildSubject } from "./build.js";
import type { CaseContext, Draft } from "./case.js";
import { type LaunchPlan, needsUserLookup, nothingToRun, planLaunch, stopSignalRefused } from "./create.js";
import { checkLimits } from "./limits.js";
import { type DockerfileSource, type InventorySource, locateCase } from "./locate.js";
import { outputBlock } from "./progress.js";
import { reproduceImage } from "./reproduce.js";
import { stopSubject } from "./stop.js";
import { ownershipMatters, resolveUser } from "./user.js";

interface SubjectRunContext extends CaseContext {
  suites: ReadonlySet<SuiteName>;
  severity: (caseId: CaseId) => "fail" | "warn";
  /** Report start, for phase offsets. */
  t0: number;
  removeImages: boolean;
  /** The selected suites that observe the running subject (containment), from the pipeline. */
  observers: readonly Observer[];
  /** The subject's entry in the inventory, repository-relative: where failing cases point. */
  inventorySource?: InventorySource;
}

interface SubjectOutcome {
  cases: CaseResult[];
  report: SubjectReport;
  /** Absent only if the cleanup itself could not run (it never throws, so: never in practice). */
  cleanup?: CleanupEvidence;
}

/**
 * The readiness wait and the probes, with the check kinds and their schemas (zod): loaded once a
 * build has its first step under way (or when first needed), not before the first build request.
 */
let checking: Promise<[typeof import("./ready.js"), typeof import("./probes.js")]> | undefined;
const loadChecks = () => (checking ??= Promise.all([import("./ready.js"), import("./probes.js")]));

export async function runSubject(ctx: SubjectRunContext): Promise<SubjectOutcome> {
  const run = new SubjectRun(ctx);
  const { engine, signal, log } = ctx;
  const engineBusy = () => {
    void loadChecks();
    ctx.engineBusy?.();
  };
  try {
    run.gate(
      await run.step("lifecycle.build", "build", async () => {
        const built = await buildSubject({ ...ctx, engineBusy });
        run.imageId = built.imageId;
        run.builtImages = built.intermediateImages;
        run.dockerfile = built.dockerfile;
        Object.assign(run.report, built.report);
        return built.draft;
      }),
    );
    // A subject created with a setting the engine ignored still runs, so containment measures
    // what it really got: only a subject that was not created stops the cases after it.
    const created = await run.step("lifecycle.create", "create", () => run.create());
    if (!run.containerId) run.gate(created);
    run.gate(
      await run.step("lifecycle.ready", "ready", async () => {
        const [{ startAndWaitReady }] = await loadChecks();
        const ready = await startAndWaitReady(ctx, run.containerId!);
        ({ hostPort: run.hostPort, inspect: run.running } = ready);
        if (ready.logExcerpt !== undefined) run.report.logExcerpt = ready.logExcerpt;
        return ready.draft;
      }),
    );
    await run.step("lifecycle.probes", "probes", async () => {
      const [, { checkProbes }] = await loadChecks();
      return checkProbes(ctx, run.containerId!, run.hostPort, run.healthcheck);
    });
    await run.step("lifecycle.limits", "limits", async () => {
      run.running ??= await engine.inspect(run.containerId!, signal); // limits are fixed at create
      return checkLimits(run.running, run.expected!);
    });
    for (const observer of ctx.observers) await run.observe(observer);
    await run.step("lifecycle.stop", "stop", () => stopSubject(ctx, run.containerId!, run.stopSignal));
  } finally {
    // Runs whatever happened above, cancellation included: this subject's objects only.
    await run.step("lifecycle.cleanup", "cleanup", () => run.cleanUp(), true);
  }
  const { report, cleanup } = run;
  const cases = run.cases.map((c) => run.located(c));
  if (report.reproduce && cases.some((c) => c.status === "fail" || c.status === "error"))
    log.info(`  reproduce: ${terminalSafe(report.reproduce, 4000)}`);
  return { cases, report, cleanup };
}

/** One subject's run in progress: what its cases found so far, and what the next ones need. */
class SubjectRun {
  readonly cases: CaseResult[] = [];
  readonly phases: Phase[] = [];
  readonly report: SubjectReport;
  /** Whether the lifecycle suite was selected (its cases are recorded only then). */
  readonly lifecycle: boolean;
  blockedBy: string | undefined;
  blockedMessage: string | undefined;
  imageId: string | undefined;
  containerId: string | undefined;
  hostPort: number | undefined;
  expected: LaunchPlan["expected"] | undefined;
  /** The signal the engine stops the subject with (the image's STOPSIGNAL, else SIGTERM). */
  stopSignal: string | undefined;
  /** The image's HEALTHCHECK, held by lifecycle.probes when the inventory does not name it. */
  healthcheck: ImageHealthcheck | undefined;
  /** The inspect that saw the subject ready, read by limits and handed on to containment. */
  running: ContainerView | undefined;
  cleanup: CleanupEvidence | undefined;
  /** What the observing suites left under way (their probes' removals): awaited before cleanup. */
  readonly settling: Promise<void>[] = [];
  /** Untagged images the build created (legacy builder): cleanup removes them by ID. */
  builtImages: string[] = [];
  /** The Dockerfile the build read, for pointing failures at its lines. */
  dockerfile: DockerfileSource | undefined;

  constructor(readonly ctx: SubjectRunContext) {
    this.report = { name: ctx.subject.name, phases: this.phases };
    this.lifecycle = ctx.suites.has("lifecycle");
  }

  /** Times one case, records it (when its suite was selected) and its phase. */
  async step(id: CaseId, phase: string, body: () => Promise<Draft>, always = false): Promise<CaseResult> {
    const { ctx } = this;
    const started = Date.now();
    let draft: Draft;
    if (ctx.signal.aborted && !always) {
      draft = { status: "error", message: `not run: ${abortReason(ctx.signal)}`, evidence: {} };
    } else if (this.blockedBy && !always) {
      draft = { status: "skip", message: `not run: ${this.blockedBy} did not pass`, evidence: {} };
    } else {
      draft = await body().catch((err: unknown) => ({
        status: "error" as const,
        message: errorEvidence(err).message,
        evidence: { error: errorEvidence(err) },
      }));
      this.phases.push({ name: phase, startMs: started - ctx.t0, durationMs: Date.now() - started });
    }
    const result: CaseResult = {
      id,
      suite: "lifecycle",
      subject: ctx.subject.name,
      severity: ctx.severity(id),
      durationMs: Date.now() - started,
      ...(await withCli(draft, ctx.engine)),
    };
    if (this.lifecycle) {
      this.cases.push(result);
      ctx.log.info(caseLine(result));
      if (result.status === "fail" && typeof result.evidence.logExcerpt === "string")
        ctx.log.info(excerptLines(result.evidence.logExcerpt));
    }
    return result;
  }

  /** A failing case with the place to change (a Dockerfile or inventory line); others as they are. */
  located(c: CaseResult): CaseResult {
    if (c.status !== "fail" && c.status !== "error") return c;
    const sources = { dockerfile: this.dockerfile, inventory: this.ctx.inventorySource };
    const location = locateCase(c, this.ctx.subject, sources);
    return location ? { ...c, location } : c;
  }

  /** Build, create and ready gate everything after them; a failed probe or limit does not. */
  gate(r: CaseResult): void {
    if (r.status !== "pass" && r.status !== "skip") {
      this.blockedBy ??= r.id;
      this.blockedMessage ??= r.message;
    }
  }

  /** lifecycle.create: the hardened launch, created (again, for a user given by name) and read back. */
  async create(): Promise<Draft> {
    const { engine, subject, owner, signal } = this.ctx;
    const imageId = this.imageId!;
    // The image's whole runtime configuration: what a plain run takes from it, the launch does too.
    const image = await engine.inspectImage(imageId);
    const imageVolumes = image.volumes;
    this.healthcheck = image.healthcheck;
    const name = `${owner}-${subject.name}`;
    let plan = planLaunch(subject, imageId, owner, name, image);
    const refused = nothingToRun(plan);
    if (refused) return refused;
    try {
      this.containerId = await engine.create(plan.spec, signal);
    } catch (err) {
      const refusedSignal = stopSignalRefused(plan, err);
      if (refusedSignal) return refusedSignal;
      throw err;
    }
    if (
      needsUserLookup(subject, plan.user.value) &&
      (await ownershipMatters(engine, this.containerId, Object.keys(plan.spec.tmpfs)))
    ) {
      // A user by name whose writable roots it must own: its ids live in the image's /etc/passwd.
      // Read them from the created container, then create it again with roots that user owns.
      const ids = await resolveUser(engine, this.containerId, plan.user.value);
      if (ids) {
        await engine.removeContainer(this.containerId);
        this.containerId = undefined;
        plan = planLaunch(subject, imageId, owner, name, { ...image, ids });
        this.containerId = await engine.create(plan.spec, signal);
      }
    }
    const containerId = this.containerId;
    this.expected = plan.expected;
    this.stopSignal = plan.spec.stop?.signal;
    this.report.reproduce = await engine.reproduce(plan.spec, reproduceImage(subject));
    this.report.containerId = containerId;
    const { failed, notReadBack } = await readBackDraft(this.ctx, containerId, plan.spec);
    if (failed) return failed;
    const unread = Object.keys(notReadBack);
    const blind = unread.length
      ? `; not readable on this engine (measured by containment): ${unread.join(", ")}`
      : "";
    const relaxed = plan.relaxed.length ? `; relaxed by the inventory: ${plan.relaxed.join(", ")}` : "";
    const stop = plan.runtime.stopSignal;
    return {
      status: "pass",
      message: `created as ${JSON.stringify(plan.user.value || "(image default: root)")} from the ${plan.user.from}, init ${subject.init ? "on" : "off"}, stop signal ${stop.value} from the ${stop.from}${relaxed}${blind}`,
      evidence: {
        runtime: plan.runtime,
        ...(unread.length ? { notReadBack } : {}),
        containerId,
        user: plan.user.value,
        userFrom: plan.user.from,
        init: subject.init,
        readOnlyRoot: !plan.relaxed.includes("read-only-root"),
        noNewPrivileges: !plan.relaxed.includes("no-new-privileges"),
        relaxed: plan.relaxed,
        capDrop: ["ALL"],
        capAdd: subject.capabilities,
        network: subject.network,
        writableRoots: subject.writableRoots,
        imageVolumes,
      },
    };
  }

  /**
   * An observing suite (containment) on the started subject. A subject that crashed is still
   * graded: inspect alone proves some cases (a root user, a privileged launch); whatever needs the
   * running process says it could not be observed.
   */
  async observe(observer: Observer): Promise<void> {
    const { ctx, containerId } = this;
    const { subject, signal } = ctx;
    const { suite } = observer;
    if (containerId && !signal.aborted) {
      const started = Date.now();
      const measured = await observer
        .observe(containerId, this.running, this.settling)
        .catch((err) => notMeasured(suite, subject.name, "error", err));
      // On a subject that never became ready, what could not be observed is skipped because of
      // that earlier failure: one line each, no fix of its own (the failure above has the fix).
      this.cases.push(...(this.blockedBy ? measured.map(withoutFixWhenSkipped) : measured));
      this.phases.push({ name: suite, startMs: started - ctx.t0, durationMs: Date.now() - started });
      return;
    }
    // Never silent: when the lifecycle suite was not selected its failure shows nowhere else,
    // so the suite's cases say ERROR; otherwise they SKIP, naming the case that stopped them.
    const why = signal.aborted
      ? abortReason(signal)
      : blockedWhy(this.blockedBy, this.lifecycle, this.blockedMessage);
    const skipped = notMeasured(suite, subject.name, this.lifecycle ? "skip" : "error", new Error(why));
    this.cases.push(...skipped);
    for (const r of skipped) ctx.log.info(caseLine(r));
  }

  /**
   * lifecycle.cleanup: this subject's objects only, removed from what the run knows it created
   * and proven by listing (whatever that listing finds besides is removed and listed again).
   */
  async cleanUp(): Promise<Draft> {
    const { engine, owner, subject, signal } = this.ctx;
    // An engine may refuse to remove a subject whose namespaces a probe still joins.
    await Promise.allSettled(this.settling);
    this.cleanup = await cleanupOwned(
      engine,
      {
        owner,
        subject: subject.name,
        builtImages: this.builtImages,
        knownContainers: this.containerId ? [this.containerId] : [],
      },
      {
        trigger: signal.aborted ? "cancelled" : "subject-end",
        options: { removeImages: this.ctx.removeImages },
      },
    );
    return cleanupDraft(this.cleanup, owner);
  }
}

/** A create-time draft failing the case when the engine did not apply a hardened setting. */
async function readBackDraft(
  ctx: CaseContext,
  id: string,
  asked: LaunchSpec,
): Promise<{ failed?: Draft; notReadBack: Record<string, string> }> {
  const facts = await ctx.engine.facts();
  const all = readBack(asked, await ctx.engine.inspect(id, ctx.signal));
  // What the engine applies but cannot show: said as such (containment measures it), not as ignored.
  const notReadBack = Object.fromEntries(
    all.flatMap((d) => (facts.unreadable?.[d.setting] ? [[d.setting, facts.unreadable[d.setting]!]] : [])),
  );
  const deviations = all.filter((d) => !notReadBack[d.setting]);
  if (deviations.length === 0) return { notReadBack };
  const fixes = [...new Set(deviations.map((d) => facts.remediation[d.setting]).filter(Boolean))];
  const failed: Draft = {
    status: "fail",
    message: `${facts.name} did not apply ${deviations.map((d) => `${facts.fieldNames?.[d.setting] ?? d.setting} (asked ${d.asked}, got ${d.got})`).join("; ")}`,
    evidence: { containerId: id, engine: facts.name, deviations, notReadBack },
    remediation:
      fixes.join(" ") ||
      `the engine accepted these settings and did not apply them; run the subject on an engine that does`,
  };
  return { failed, notReadBack };
}

/** One line per case as it finishes; a case skipped because of an earlier one gets no fix. */
function caseLine(r: CaseResult): string {
  const note = r.status === "pass" ? "" : ` ${terminalSafe(r.message, 200)}`;
  return `  ${r.status.toUpperCase().padEnd(5)} ${r.id} (${r.durationMs} ms)${note}`;
}

const TERMINAL_EXCERPT_LINES = 15;

/** The subject's last log lines, each made terminal-safe, as one block (written at once). */
function excerptLines(excerpt: string): string {
  return outputBlock("log (last lines)", excerpt, TERMINAL_EXCERPT_LINES);
}

function cleanupDraft(cleanup: CleanupEvidence, owner: string): Draft {
  const evidence = { objects: cleanup.objects, verifiedBy: cleanup.verifiedBy, remaining: cleanup.remaining };
  if (cleanup.completed) {
    const removed = cleanup.objects.filter((o) => o.action === "removed" || o.action === "untagged").length;
    return {
      status: "pass",
      message: `removed ${removed} owned object(s); listing again found none left`,
      evidence,
    };
  }
  const left = [
    ...cleanup.remaining.map((r) => `${r.kind} ${r.id.slice(0, 19)}`),
    ...cleanup.objects
      .filter((o) => o.action === "failed" && !cleanup.remaining.some((r) => r.id === o.id))
      .map((o) => `${o.kind} ${o.tag ?? o.id.slice(0, 19)} (${o.error?.message ?? "removal failed"})`),
  ].join(", ");
  return {
    status: "fail",
    message: `owned objects remain: ${left || cleanup.errors.map((e) => e.message).join("; ")}`,
    evidence,
    remediation: `remove them with: docker-acceptance sweep --owner ${owner}`,
  };
}

/** The suite could not measure at all (inspect failed, no container): every case says so, none passes. */
function notMeasured(
  suite: SuiteName,
  subject: string,
  status: "skip" | "error",
  err: unknown,
): CaseResult[] {
  const evidence = { error: errorEvidence(err) };
  return CASES_BY_SUITE[suite].map((id) => ({
    id,
    suite,
    subject,
    status,
    severity: "fail",
    durationMs: 0,
    message: `not measured: ${evidence.error.message}`,
    evidence,
  }));
}

/** A draft whose fix shows an engine CLI command (`{cli}`), said for the engine that ran. */
async function withCli(draft: Draft, engine: SubjectRunContext["engine"]): Promise<Draft> {
  if (!draft.remediation?.includes("{cli}")) return draft;
  return { ...draft, remediation: fillCli(draft.remediation, await engine.facts().catch(() => undefined)) };
}

function withoutFixWhenSkipped(r: CaseResult): CaseResult {
  if (r.status !== "skip") return r;
  const { remediation: _, ...rest } = r;
  return rest;
}

/**
 * Why an observing suite's cases did not run. With the lifecycle suite not selected its failure shows
 * nowhere else, so the reason carries what happened (e.g. the crash), not only the case ID.
 */
function blockedWhy(blockedBy: string | undefined, lifecycle: boolean, message?: string): string {
  const id = blockedBy ?? "lifecycle.create";
  return lifecycle || !message ? `${id} did not pass` : `${id} did not pass: ${message}`;
}

/** The reason a subject's own deadline aborts with, told apart from a deadline of the whole run. */
class SubjectDeadline extends Error {
  constructor(readonly ms: number) {
    super(
      `the subject's deadline passed (${ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`})`,
    );
  }
}

/** A signal that aborts with SubjectDeadline after `durationMs` (its timer keeps no process alive). */
export function subjectDeadline(durationMs: number): AbortSignal {
  const c = new AbortController();
  setTimeout(() => c.abort(new SubjectDeadline(durationMs)), durationMs).unref();
  return c.signal;
}

/** Why a subject's work was cut: its own deadline, the whole run's, or the run's cancellation. */
export function abortReason(signal: AbortSignal): string {
  const r = signal.reason;
  if (r instanceof SubjectDeadline) return r.message;
  if (r instanceof DOMException && r.name === "TimeoutError") return "the run's deadline passed";
  return `run cancelled (${r instanceof Error ? r.message : String(r ?? "signal")})`;
}
