// The subject probe: as whom it runs, and how often. Its credentials are a choice made before any
// probe reads anything (the subject's processes as the host's /proc shows them, else the launch's
// numeric user) and bounded by the launch and the probe ceiling (./credentials.ts); its report is
// the evidence, and a report whose processes call for other credentials than the probe held makes
// it run again as they call for. Its first run can be created from the inspect that saw the subject
// ready, while the subject freezes: it runs only when the frozen inspect calls for that very launch.
import type { Engine, PreparedProbe } from "../../engine/provider.js";
import { runPrepared, runProbe } from "../../engine/trusted-probe.js";
import { EngineError, errorEvidence, ProbeOverrunError } from "../../errors.js";
import { type Credentials, launchCredentials, measuredCredentials, sameCredentials } from "./credentials.js";
import type { ReachAsks } from "./engine-reach.js";
import type { ContainmentEvidence, ProcessEvidence } from "./evidence.js";
import { hostProcesses } from "./host-procs.js";
import type { InspectEvidence } from "./inspect.js";
import { type ProbeLaunch, ProbeParseError, parseProbeOutput, probeOptions } from "./probe.js";

/** What the subject probe reads, whoever it runs as. */
type SubjectLaunch = Omit<ProbeLaunch, "uid" | "gid" | "caps" | "mode">;

/** What probing a subject needs of the suite's options. */
interface SubjectProbeOptions {
  engine: Engine;
  owner: string;
  probeImage: string;
  census?: () => Promise<Map<string, ProcessEvidence[]>>;
  signal?: AbortSignal;
  /** Probe removals under way, awaited by the caller after the thaw. */
  removals?: Promise<void>[];
}

/** A subject probe created ahead of the freeze, for the launch `key` and credentials `creds`. */
export interface EarlyProbe {
  key: string;
  creds: Credentials;
  probe: PreparedProbe;
}

/** The subject's part of its probe's launch, from one inspect of it. */
export function subjectLaunch(
  inspect: InspectEvidence,
  rootPid: number,
  target: { writableRoots: string[] },
  reach?: ReachAsks,
): SubjectLaunch {
  return {
    subjectId: inspect.id,
    rootPid,
    match: matchFor(inspect.modes.pid),
    writableRoots: target.writableRoots,
    existsPaths: [
      ...new Set([
        ...inspect.defaults.maskedPaths,
        ...(inspect.maskedPaths ?? []),
        ...inspect.defaults.readonlyPaths,
        ...(inspect.readonlyPaths ?? []),
      ]),
    ],
    ...(reach ? { reach } : {}),
  };
}

/**
 * Creates the first probe for `launch` (read from an inspect taken before the freeze), so its
 * creation overlaps the pause; undefined when no credentials are known yet or the engine refused.
 */
export async function prepareEarly(
  launch: SubjectLaunch,
  inspect: InspectEvidence,
  opts: SubjectProbeOptions,
): Promise<EarlyProbe | undefined> {
  const creds = await firstCredentials(inspect, launch.rootPid);
  if (!creds) return undefined;
  const spec = probeOptions(opts.owner, opts.probeImage, { ...launch, ...creds });
  const probe = await opts.engine.prepareProbe(spec, opts.signal).catch(() => undefined);
  return probe && { key: launchKey(launch), creds, probe };
}

/**
 * The subject's processes read, every read before any write. Frozen, the subject cannot watch one
 * probe's writes before the next reads it: the full probe runs at once, and its report is kept
 * when the processes it read call for exactly what it held; otherwise it runs again as they call
 * for (without asking the engine again: the first report's asks are kept). Not frozen, the
 * processes are measured first (no writes), then one full probe, which asks.
 */
export async function probeSubject(
  inspect: InspectEvidence,
  launch: SubjectLaunch,
  frozen: boolean,
  opts: SubjectProbeOptions,
  early?: Promise<EarlyProbe | undefined>,
): Promise<ContainmentEvidence["probe"]> {
  const ahead = await takeEarly(early, launch, opts);
  const first = ahead?.creds ?? (frozen ? await firstCredentials(inspect, launch.rootPid) : undefined);
  if (first && frozen) {
    let report: ContainmentEvidence["probe"] | undefined;
    try {
      report = await fullProbe(launch, first, opts, ahead?.probe);
    } catch (err) {
      // One that ran out of time would run out again, the subject frozen as long once more.
      if (err instanceof ProbeOverrunError) return { error: err.message };
    }
    if (report && !("error" in report) && report.processes.length > 0) {
      const wanted = measuredCredentials(report.processes, inspect);
      const held = { uid: first.uid, gid: first.gid, caps: report.held ?? first.caps };
      if (!wanted || sameCredentials(wanted, held)) return report;
      const { reach, ...read } = launch;
      const again = await fullProbe(read, wanted, opts);
      return "error" in again || !report.reach ? again : { ...again, reach: report.reach };
    }
  } else if (ahead) {
    opts.removals?.push(ahead.probe.discard());
  }
  const measured = await measureProcesses(inspect, launch, opts);
  if (measured.length === 0) return { error: "no subject process visible to the probe" };
  const creds = measuredCredentials(measured, inspect);
  if (!creds) {
    return {
      error: `could not resolve user ${JSON.stringify(inspect.user)} to a uid:gid (no subject process visible)`,
    };
  }
  return fullProbe(launch, creds, opts);
}

/** The probe made ahead, when it was made for exactly this launch; otherwise it is removed. */
async function takeEarly(
  early: Promise<EarlyProbe | undefined> | undefined,
  launch: SubjectLaunch,
  opts: SubjectProbeOptions,
): Promise<EarlyProbe | undefined> {
  const made = await early;
  if (!made) return undefined;
  if (made.key === launchKey(launch)) return made;
  opts.removals?.push(made.probe.discard());
  return undefined;
}

/** Whom the first probe runs as: the subject's processes as the host shows them, else the launch's user. */
async function firstCredentials(inspect: InspectEvidence, rootPid: number): Promise<Credentials | undefined> {
  const processes = hostProcesses(rootPid, inspect.id);
  return (
    (processes?.length ? measuredCredentials(processes, inspect) : undefined) ?? launchCredentials(inspect)
  );
}

/** The processes' ids before any write: from the host's /proc, one census of many, or an ids probe. */
async function measureProcesses(
  inspect: InspectEvidence,
  launch: SubjectLaunch,
  opts: SubjectProbeOptions,
): Promise<Pick<ProcessEvidence, "status">[]> {
  const onHost = hostProcesses(launch.rootPid, inspect.id);
  if (onHost?.length) return onHost;
  const counted = (await opts.census?.().catch(() => undefined))?.get(inspect.id);
  return counted?.length ? counted : idsProbe(launch, opts);
}

/** The processes' status as the host shows them, read as nobody holding nothing: whom to probe as. */
async function idsProbe(launch: SubjectLaunch, opts: SubjectProbeOptions): Promise<ProcessEvidence[]> {
  const { reach, ...read } = launch;
  const spec = probeOptions(opts.owner, opts.probeImage, {
    ...read,
    caps: [],
    uid: 65534,
    gid: 65534,
    mode: "ids",
  });
  const run = await runProbe(opts.engine, spec, opts.signal, undefined, opts.removals);
  return parseProbeOutput(verifiedRun(run), 65534, 65534).processes;
}

/** A probe's report, when the probe ran to its end (exit 0): a probe that did not is not evidence. */
function verifiedRun(run: { stdout: string; stderr: string; exitCode: number }): string {
  if (run.exitCode !== 0) {
    const stderr = run.stderr.trim().slice(0, 300);
    throw new ProbeParseError(
      `the probe did not complete (exit ${run.exitCode}${stderr ? `: ${stderr}` : ""})`,
    );
  }
  return run.stdout;
}

async function fullProbe(
  launch: SubjectLaunch,
  creds: Credentials,
  opts: SubjectProbeOptions,
  prepared?: PreparedProbe,
): Promise<ContainmentEvidence["probe"]> {
  let run: Awaited<ReturnType<typeof runProbe>>;
  try {
    run = prepared
      ? await runPrepared(prepared, opts.signal, opts.removals)
      : await runProbe(
          opts.engine,
          probeOptions(opts.owner, opts.probeImage, { ...launch, ...creds }),
          opts.signal,
          undefined,
          opts.removals,
        );
  } catch (err) {
    // An engine that will not launch the probe in the subject's network still gets it read, as
    // before the asks joined it: without them, the asks' evidence saying why. Refused (an engine
    // may not start a container joined to one that itself joins a third: "generating dependency
    // graph") or failed (no reason recorded, after the provider's own second try) alike.
    const refused = err instanceof EngineError && (err.kind === "engine" || err.kind === "fault");
    if (!launch.reach || !refused) throw err;
    // Joined by its path, the same network may be allowed where the join by container was not.
    if (!launch.netByPath) return fullProbe({ ...launch, netByPath: true }, creds, opts);
    const { reach, ...read } = launch;
    const without = await fullProbe(read, creds, opts);
    const why = `the engine did not launch the probe in the subject's network (${errorEvidence(err).message})`;
    return "error" in without ? without : { ...without, reach: { error: why } };
  }
  try {
    return parseProbeOutput(verifiedRun(run), creds.uid, creds.gid);
  } catch (err) {
    const stderr = run.stderr.trim().slice(0, 300);
    const why = run.exitCode === 0 && stderr ? ` (${stderr})` : "";
    return {
      error: `${(err as Error).message}${why}`,
      ...(err instanceof ProbeParseError ? { unverified: true } : {}),
    };
  }
}

/** Which processes of the namespace the probe reads are the subject's, from its pid-namespace mode. */
function matchFor(pidMode: string): ProbeLaunch["match"] {
  if (pidMode === "host") return "tree";
  if (pidMode.startsWith("container:")) return "cgroup";
  return "ns";
}

/** A launch as a comparable text (its fields come from the engine's inspect and the host's facts). */
function launchKey(launch: SubjectLaunch): string {
  return JSON.stringify(launch);
}
