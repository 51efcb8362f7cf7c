// Whether Docker's OOM killer verdict can be read from inspect alone. Docker sets OOMKilled from
// two events that race (the task's exit and the kernel's OOM notice); when the exit is handled
// first, inspect reads false although the engine logs an "oom" event for the container. So a
// SIGKILL under a memory limit is confirmed from the engine's events: the stream followed from
// before the start (./events.ts), or, for a container this engine did not start, its event log.
import { readFileSync } from "node:fs";
import os from "node:os";
import type Docker from "dockerode";
import { sleep } from "../../deadline.js";
import type { ContainerInspect } from "./translate.js";

/** How long past the exit an OOM notice may still arrive on an idle engine, and how often to look. */
const OOM_NOTICE_MS = 2000;
/** The notice comes through the same engine as every answer: a slower engine's comes later. */
const NOTICE_PER_CALL = 20;
const MAX_NOTICE_MS = 30_000;
/** How long a notice is waited for once the kernel counted an OOM kill while the container ran. */
const COUNTED_NOTICE_MS = 10_000;
const OOM_POLL_MS = 200;

/**
 * How long after a SIGKILLed container's exit its OOM notice is waited for: OOM_NOTICE_MS on an
 * idle engine, plus NOTICE_PER_CALL times the engine's measured time per call (the notice is
 * queued like any answer), at most MAX_NOTICE_MS. Measured under scripts/stress.sh: docs/benchmarks.md.
 */
export function noticeWindowMs(perCallMs: number | undefined, killsSince?: number): number {
  const window = Math.min(MAX_NOTICE_MS, Math.round(OOM_NOTICE_MS + NOTICE_PER_CALL * (perCallMs ?? 0)));
  // The host's kernel counted an OOM kill while it ran, so the engine's notice may well be on its
  // way: a loaded engine was seen to send it later than the window above (load average 12), so it
  // gets longer. Not longer still: a kill as the container starts gets no notice at all.
  return killsSince !== undefined && killsSince > 0 ? Math.max(window, COUNTED_NOTICE_MS) : window;
}

/**
 * The kernel's count of OOM kills since boot (/proc/vmstat, Linux 4.13+), when the engine runs on
 * this kernel (its release and memory are this host's): undefined elsewhere or unreadable. Docker
 * watches a container's OOM notices only once its start returns, so a kill within the first
 * milliseconds leaves no "oom" event and inspect reads false (reproduced on 20.10: 2 in 16 subjects
 * that allocate past their limit at once); the kernel's own count still moves.
 */
export function hostOomKills(
  host: { kernelVersion?: string; memoryBytes: number } | undefined,
): number | undefined {
  if (!host || host.kernelVersion !== os.release() || host.memoryBytes !== os.totalmem()) return undefined;
  try {
    const m = /^oom_kill (\d+)$/m.exec(readFileSync("/proc/vmstat", "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Stopped by SIGKILL under a memory limit and not marked OOM-killed: the notice may be late. */
export function unconfirmedKill(doc: ContainerInspect): boolean {
  const s = doc.State;
  return !!s && !s.Running && s.ExitCode === 137 && !s.OOMKilled && (doc.HostConfig?.Memory ?? 0) > 0;
}

/**
 * Whether the engine logged "oom" for this run of the container, in its event log, waiting up to
 * `windowMs` past its exit: for a container whose events were not followed from its start.
 */
export async function oomEventLogged(
  docker: Docker,
  doc: ContainerInspect,
  signal: AbortSignal,
  windowMs = OOM_NOTICE_MS,
): Promise<boolean> {
  const since = Math.floor(Date.parse(doc.State.StartedAt) / 1000);
  const settled = Date.parse(doc.State.FinishedAt) + windowMs;
  for (;;) {
    const stream = await docker.getEvents({
      since,
      // Now, to the millisecond: the engine answers what it has logged and ends the stream.
      until: Date.now() / 1000,
      filters: { type: ["container"], container: [doc.Id], event: ["oom"] },
      abortSignal: signal,
    } as Docker.GetEventsOptions);
    if ((await readAll(stream)).trim()) return true;
    const left = settled - Date.now();
    if (!(left > 0)) return false;
    await sleep(Math.min(OOM_POLL_MS, left), signal);
  }
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.on("data", (chunk: Buffer | string) => {
      text += chunk.toString();
    });
    stream.on("end", () => resolve(text));
    stream.on("error", reject);
  });
}
