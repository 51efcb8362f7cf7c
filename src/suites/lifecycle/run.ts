// One subject's journey, cases in order: build, create, ready, probes, limits, [containment],
// stop, cleanup. Each case yields one result; a case that cannot run because an earlier one
// failed is a SKIP that says which one.
import path from "node:path";
import { cleanupOwned } from "../../engine/cleanup.js";
import { readBuildContext } from "../../engine/context.js";
import { pollUntil } from "../../engine/deadline.js";
import {
  BuildFailedError,
  type BuildResult,
  type ContainerInspect,
  type DockerEngine,
} from "../../engine/docker.js";
import { OWNER_LABEL, ownedTag, ROLE_LABEL } from "../../engine/ownership.js";
import { errorEvidence, redact } from "../../errors.js";
import type { Subject } from "../../inventory/schema.js";
import type { Logger } from "../../log.js";
import type { CaseResult, CleanupEvidence, Phase, SubjectReport } from "../../report/model.js";
import { terminalSafe } from "../../report/text.js";
import { type CaseId, CONTAINMENT_CASES, type SuiteName } from "../ids.js";
import { planLaunch } from "./create.js";
import { httpRequest } from "./http.js";
import { askInNetns, waitReadyInNetns } from "./netns-http.js";

export interface SubjectRunContext {
  engine: DockerEngine;
  owner: string;
  subject: Subject;
  workspace: string;
  suites: ReadonlySet<SuiteName>;
  severity: (id: CaseId) => "fail" | "warn";
  log: Logger;
  signal: AbortSignal;
  /** Report start, for phase offsets. */
  t0: number;
  removeImages: boolean;
  /** The trusted probe image: HTTP checks of a network "none" subject run from it. */
  probeImage: string;
  /** Runs the containment suite against the running container (injected by the pipeline). */
  containment?: (containerId: string, inspect?: ContainerInspect) => Promise<CaseResult[]>;
}

export interface SubjectOutcome {
  cases: CaseResult[];
  report: SubjectReport;
  cleanup: CleanupEvidence;
}

type Draft = Omit<CaseResult, "id" | "suite" | "subject" | "durationMs" | "severity">;

const LOG_EXCERPT_LINES = 40;
const LOG_EXCERPT_BYTES = 4096;

export async function runSubject(ctx: SubjectRunContext): Promise<SubjectOutcome> {
  const { engine, subject, owner, log } = ctx;
  const cases: CaseResult[] = [];
  const phases: Phase[] = [];
  const report: SubjectReport = { name: subject.name, phases };
  const lifecycle = ctx.suites.has("lifecycle");
  let blockedBy: string | undefined;

  /** Times one case, records it (when its suite was selected) and its phase. */
  const step = async (id: CaseId, phase: string, body: () => Promise<Draft>): Promise<CaseResult> => {
    const started = Date.now();
    let draft: Draft;
    if (ctx.signal.aborted) {
      draft = { status: "error", message: `not run: ${abortReason(ctx.signal)}`, evidence: {} };
    } else if (blockedBy) {
      draft = { status: "skip", message: `not run: ${blockedBy} did not pass`, evidence: {} };
    } else {
      try {
        draft = await body();
      } catch (err) {
        draft = {
          status: "error",
          message: errorEvidence(err).message,
          evidence: { error: errorEvidence(err) },
        };
      }
    }
    const result: CaseResult = {
      id,
      suite: "lifecycle",
      subject: subject.name,
      severity: ctx.severity(id),
      durationMs: Date.now() - started,
      ...draft,
    };
    if (draft.status !== "skip" || !blockedBy)
      phases.push({ name: phase, startMs: started - ctx.t0, durationMs: result.durationMs });
    if (lifecycle) {
      cases.push(result);
      log.info(
        `  ${result.status.toUpperCase().padEnd(5)} ${id} (${result.durationMs} ms)${result.status === "pass" ? "" : ` ${terminalSafe(result.message, 200)}`}`,
      );
    }
    return result;
  };
  const gate = (r: CaseResult) => {
    if (r.status !== "pass" && r.status !== "skip") blockedBy ??= r.id;
  };

  let imageRef: string | undefined;
  let containerId: string | undefined;
  let hostPort: number | undefined;
  let expected: ReturnType<typeof planLaunch>["expected"] | undefined;
  /** The limits case's inspect, handed on to containment so the subject is not inspected twice. */
  let running: ContainerInspect | undefined;
  let cleanup: CleanupEvidence | undefined;
  /** Where a network "none" subject's HTTP checks run from: a probe in its network namespace. */
  const netns = () => ({
    engine,
    owner,
    probeImage: ctx.probeImage,
    containerId: containerId!,
    port: subject.port,
    signal: ctx.signal,
  });

  try {
    gate(
      await step("lifecycle.build", "build", async () => {
        if (subject.image) {
          const info = await engine.inspectImage(subject.image);
          imageRef = info.Id;
          Object.assign(report, { image: subject.image, imageId: info.Id });
          return {
            status: "pass",
            message: `prebuilt ${subject.image}`,
            evidence: { image: subject.image, imageId: info.Id, prebuilt: true },
          };
        }
        const b = subject.build!;
        const contextDir = path.resolve(ctx.workspace, b.context);
        // Decided before any engine call: what is sent, and no symlink escapes the context.
        const context = readBuildContext(contextDir, b.dockerfile, b.context);
        const tag = ownedTag(owner, subject.name);
        let lines = 0;
        let built: BuildResult;
        try {
          built = await engine.build({
            context,
            tag,
            // Each build label is one legacy-builder step (and one intermediate image): only the two
            // ownership needs; the subject is in the tag.
            labels: { [OWNER_LABEL]: owner, [ROLE_LABEL]: "subject" },
            buildArgs: b.args,
            target: b.target,
            timeoutMs: 15 * 60_000,
            signal: ctx.signal,
            onLine: (line) => {
              if (++lines % 20 === 0) log.info(`  build: ${lines} lines of output so far`);
              if (/^Step \d+\/\d+/.test(line)) log.info(`  build: ${terminalSafe(line.trim(), 200)}`);
            },
          });
        } catch (err) {
          if (!(err instanceof BuildFailedError)) throw err;
          report.buildLog = redact(err.log);
          return {
            status: "fail",
            message: terminalSafe(err.message, 300),
            evidence: {
              tag,
              dockerfile: context.dockerfile,
              buildLogTail: redact(err.log.slice(-LOG_EXCERPT_BYTES)),
            },
            remediation: `fix the Dockerfile step that failed (the build log's last lines show it) in ${b.context}/${context.dockerfile}`,
          };
        }
        imageRef = built.imageId;
        Object.assign(report, { image: tag, imageId: built.imageId, buildLog: redact(built.log) });
        return {
          status: "pass",
          message: `built ${tag}`,
          evidence: {
            tag,
            imageId: built.imageId,
            contextFiles: context.files.length,
            dockerfile: context.dockerfile,
          },
        };
      }),
    );

    gate(
      await step("lifecycle.create", "create", async () => {
        const plan = planLaunch(subject, imageRef!, owner, `${owner}-${subject.name}`);
        expected = plan.expected;
        containerId = await engine.createContainer(plan.options, ctx.signal);
        report.containerId = containerId;
        return {
          status: "pass",
          message: "created with hardened launch settings",
          evidence: {
            containerId,
            user: subject.user,
            readOnlyRoot: true,
            capDrop: ["ALL"],
            capAdd: subject.capabilities,
            network: subject.network,
            writableRoots: subject.writableRoots,
          },
        };
      }),
    );

    gate(
      await step("lifecycle.ready", "ready", async () => {
        await engine.start(containerId!, ctx.signal);
        const started = Date.now();
        if (subject.network === "bridge") {
          const info = await engine.inspect(containerId!, ctx.signal);
          const binding = info.NetworkSettings.Ports?.[`${subject.port}/tcp`]?.[0];
          hostPort = binding ? Number(binding.HostPort) : undefined;
          if (!hostPort)
            return {
              status: "fail",
              message: `port ${subject.port}/tcp was not published`,
              evidence: { ports: info.NetworkSettings.Ports },
              remediation: "EXPOSE the declared port and make the subject listen on it",
            };
        }
        // Early exit is noticed by the engine's wait, not by polling inspect.
        let exited: number | undefined;
        const waiting = engine.wait(containerId!, subject.startupTimeoutMs + 60_000, ctx.signal).then(
          (code) => {
            exited = code;
          },
          () => {},
        );
        let attempts = 0;
        let last: { status: number } | undefined;
        const ready =
          subject.network === "none"
            ? await Promise.race([
                waitReadyInNetns(netns(), subject.healthPath, subject.startupTimeoutMs).then((ok) =>
                  ok ? "ready" : undefined,
                ),
                waiting.then(() =>
                  exited === undefined ? new Promise<never>(() => {}) : ("exited" as const),
                ),
              ])
            : await pollUntil(
                async () => {
                  if (exited !== undefined) return "exited" as const;
                  attempts++;
                  const answer = await httpRequest(hostPort!, "GET", subject.healthPath, 2000, ctx.signal);
                  if (answer) last = answer;
                  if (attempts % 20 === 0) {
                    log.info(
                      `  ready: still waiting for GET ${subject.healthPath} (${Math.round((Date.now() - started) / 1000)} s)`,
                    );
                  }
                  return answer?.status === 200 ? ("ready" as const) : undefined;
                },
                {
                  deadlineMs: subject.startupTimeoutMs,
                  initialDelayMs: 20,
                  maxDelayMs: 250,
                  signal: ctx.signal,
                },
              );
        const evidence = {
          attempts,
          waitedMs: Date.now() - started,
          healthPath: subject.healthPath,
          via:
            subject.network === "none" ? "probe in the subject's network namespace" : `127.0.0.1:${hostPort}`,
          lastStatus: last?.status,
        };
        if (ready === "ready") {
          return {
            status: "pass",
            message: `GET ${subject.healthPath} answered 200 after ${evidence.waitedMs} ms`,
            evidence,
          };
        }
        const excerpt = await logExcerpt(engine, containerId!);
        report.logExcerpt = excerpt;
        if (ready === "exited") {
          return {
            status: "fail",
            message: `exited with code ${exited} before becoming ready`,
            evidence: { ...evidence, exitCode: exited, logExcerpt: excerpt },
            remediation:
              "the process exited during start-up: read the log excerpt; check CMD/ENTRYPOINT and that it runs as a non-root user with a read-only root",
          };
        }
        return {
          status: "fail",
          message: `GET ${subject.healthPath} did not answer 200 within ${subject.startupTimeoutMs} ms (last status: ${last?.status ?? "no answer"})`,
          evidence: { ...evidence, logExcerpt: excerpt },
          remediation: `make GET ${subject.healthPath} answer 200 once the service is ready, or raise startupTimeoutMs in the inventory`,
        };
      }),
    );

    await step("lifecycle.probes", "probes", async () => {
      if (subject.probes.length === 0)
        return { status: "skip", message: "no HTTP probes declared", evidence: {} };
      // Network none: one probe container asks them all from inside the subject's network namespace.
      const viaNetns = subject.network === "none" ? await askInNetns(netns(), subject.probes) : undefined;
      const results = await Promise.all(
        subject.probes.map(async (p, i) => {
          const answer = viaNetns
            ? viaNetns[i]
            : await httpRequest(hostPort!, p.method, p.path, 5000, ctx.signal);
          const statusOk = answer?.status === p.expectStatus;
          const bodyOk = p.bodyContains === undefined || (answer?.body.includes(p.bodyContains) ?? false);
          return {
            name: p.name ?? `${p.method} ${p.path}`,
            method: p.method,
            path: p.path,
            expectStatus: p.expectStatus,
            status: answer?.status ?? null,
            bodyContains: p.bodyContains,
            ok: statusOk && bodyOk,
          };
        }),
      );
      const failed = results.filter((r) => !r.ok);
      return failed.length === 0
        ? { status: "pass", message: `${results.length} probe(s) held`, evidence: { probes: results } }
        : {
            status: "fail",
            message: failed
              .map(
                (f) =>
                  `${f.name}: expected ${f.expectStatus}${f.bodyContains ? ` with "${f.bodyContains}"` : ""}, got ${f.status ?? "no answer"}`,
              )
              .join("; "),
            evidence: { probes: results },
            remediation:
              "fix the endpoint, or update the probe's expectStatus/bodyContains in the inventory if the change is intended",
          };
    });

    await step("lifecycle.limits", "limits", async () => {
      const info = await engine.inspect(containerId!, ctx.signal);
      running = info;
      const hc = info.HostConfig as { Memory?: number; PidsLimit?: number; NanoCpus?: number };
      const actual = {
        memoryBytes: hc.Memory ?? 0,
        pidsLimit: hc.PidsLimit ?? 0,
        nanoCpus: hc.NanoCpus ?? 0,
      };
      const diffs = (Object.keys(expected!) as (keyof typeof actual)[]).filter(
        (k) => actual[k] !== expected![k],
      );
      return diffs.length === 0
        ? {
            status: "pass",
            message: "memory, pids and cpu limits read back as requested",
            evidence: { expected, actual },
          }
        : {
            status: "fail",
            message: `limits differ from the request: ${diffs.join(", ")}`,
            evidence: { expected, actual },
            remediation: "the engine did not apply the requested limits: check the engine's cgroup support",
          };
    });

    if (ctx.suites.has("containment") && ctx.containment && containerId && !ctx.signal.aborted) {
      const started = Date.now();
      cases.push(
        ...(await ctx
          .containment(containerId, running)
          .catch((err) => notMeasured(subject.name, "error", err))),
      );
      phases.push({ name: "containment", startMs: started - ctx.t0, durationMs: Date.now() - started });
    } else if (ctx.suites.has("containment")) {
      // Never silent: when the lifecycle suite was not selected its failure would show nowhere else,
      // so the containment cases say ERROR; otherwise they SKIP, naming the case that stopped them.
      const why = ctx.signal.aborted
        ? abortReason(ctx.signal)
        : `${blockedBy ?? "lifecycle.create"} did not pass`;
      cases.push(...notMeasured(subject.name, lifecycle ? "skip" : "error", new Error(why)));
    }

    await step("lifecycle.stop", "stop", async () => {
      const graceSec = Math.ceil(subject.stopTimeoutMs / 1000);
      const before = Date.now();
      await engine.stop(containerId!, graceSec);
      const stopMs = Date.now() - before;
      const state = (await engine.inspect(containerId!)).State;
      const evidence = {
        exitCode: state.ExitCode,
        stopMs,
        graceMs: subject.stopTimeoutMs,
        oomKilled: state.OOMKilled,
      };
      // Killed after the grace period: 137 (SIGKILL), and the stop took the whole grace.
      if (state.ExitCode === 137 && stopMs >= graceSec * 1000 - 100) {
        return {
          status: "fail",
          message: `ignored SIGTERM: killed after the ${graceSec} s grace period`,
          evidence,
          remediation:
            "handle SIGTERM (exec the server as the command so it receives the signal, or trap TERM and exit), or raise stopTimeoutMs",
        };
      }
      return { status: "pass", message: `exited ${state.ExitCode} after SIGTERM in ${stopMs} ms`, evidence };
    });
  } finally {
    // Runs whatever happened above, including cancellation: this subject's objects only.
    const cleanupStarted = Date.now();
    cleanup = await cleanupOwned(
      engine,
      { owner, subject: subject.name },
      {
        trigger: ctx.signal.aborted ? "cancelled" : "subject-end",
        options: { removeImages: ctx.removeImages },
      },
    );
    phases.push({
      name: "cleanup",
      startMs: cleanupStarted - ctx.t0,
      durationMs: Date.now() - cleanupStarted,
    });
    const result: CaseResult = {
      id: "lifecycle.cleanup",
      suite: "lifecycle",
      subject: subject.name,
      severity: ctx.severity("lifecycle.cleanup"),
      durationMs: cleanup.durationMs,
      status: cleanup.completed ? "pass" : "fail",
      message: cleanup.completed
        ? `removed ${cleanup.objects.filter((o) => o.action === "removed" || o.action === "untagged").length} owned object(s); listing again found none left`
        : `owned objects remain: ${cleanup.remaining.map((r) => `${r.kind} ${r.id.slice(0, 19)}`).join(", ") || cleanup.errors.map((e) => e.message).join("; ")}`,
      evidence: { objects: cleanup.objects, verifiedBy: cleanup.verifiedBy, remaining: cleanup.remaining },
      ...(cleanup.completed
        ? {}
        : { remediation: `remove them with: docker-acceptance sweep --owner ${owner}` }),
    };
    if (lifecycle) {
      cases.push(result);
      log.info(`  ${result.status.toUpperCase().padEnd(5)} lifecycle.cleanup (${result.durationMs} ms)`);
    }
  }
  return { cases, report, cleanup };
}

/** The suite could not measure at all (inspect failed, no container): every case says so, none passes. */
function notMeasured(subject: string, status: "skip" | "error", err: unknown): CaseResult[] {
  const evidence = { error: errorEvidence(err) };
  return CONTAINMENT_CASES.map((id) => ({
    id,
    suite: "containment",
    subject,
    status,
    severity: "fail",
    durationMs: 0,
    message: `not measured: ${evidence.error.message}`,
    evidence,
  }));
}

function abortReason(signal: AbortSignal): string {
  const r = signal.reason;
  if (r instanceof DOMException && r.name === "TimeoutError") return "the subject's deadline passed";
  return `run cancelled (${r instanceof Error ? r.message : String(r ?? "signal")})`;
}

async function logExcerpt(engine: DockerEngine, id: string): Promise<string> {
  try {
    const { stdout, stderr } = await engine.logs(id, LOG_EXCERPT_LINES);
    const text = redact(`${stdout}${stderr}`);
    return text.length > LOG_EXCERPT_BYTES ? `…${text.slice(-LOG_EXCERPT_BYTES)}` : text;
  } catch (err) {
    return `(logs unavailable: ${errorEvidence(err).message})`;
  }
}
