// Whom the subject probe runs as, known before any probe: the subject's processes' ids and
// permitted capabilities as this tool's own /proc shows them, where the tool sees the subject's
// init at the host PID the engine gave (on a runner the action runs on the engine's host, in its
// PID namespace; the process there is the subject's when its cgroup names the container). Only a
// choice, never evidence: the
// probe's own report is the evidence, and a probe whose credentials its report disputes runs again
// as the report says (./credentials.ts). Elsewhere (a remote engine, the tool in a container, a
// /proc that hides other users' processes) the probe measures them itself, as before.
import { readdirSync, readFileSync } from "node:fs";
import type { ProcessEvidence } from "./evidence.js";

/** The most threads read: a choice needs the common case, not every process of a fork bomb. */
const MAX_TASKS = 256;

/** The status fields the choice reads. */
const FIELDS = new Set(["Uid", "Gid", "CapPrm"]);

type ProcessStatus = Pick<ProcessEvidence, "pid" | "status">;

/**
 * Every thread of the subject's init process (its host PID, from the engine's inspect) and of its
 * descendants (the kernel keeps credentials per thread: a thread may hold what its leader dropped),
 * read from this tool's /proc when the process the tool sees at that PID is the container's (its
 * cgroup names `containerId`: the tool shares the host's PID namespace, and the PID was not
 * reused); undefined otherwise.
 */
export function hostProcesses(rootPid: number, containerId: string): ProcessStatus[] | undefined {
  if (!(rootPid > 0) || !/^[0-9a-f]{64}$/.test(containerId)) return undefined;
  const cgroup = read(`/proc/${rootPid}/cgroup`) ?? "";
  if (!cgroup.includes(containerId)) return undefined;
  const found: ProcessStatus[] = [];
  const seen = new Set<number>();
  const queue = [rootPid];
  while (queue.length > 0 && found.length < MAX_TASKS) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const tasks = threadsOf(pid);
    if (tasks.length === 0 && pid === rootPid) return undefined;
    for (const tid of tasks.slice(0, MAX_TASKS - found.length)) {
      const text = read(`/proc/${pid}/task/${tid}/status`);
      if (text === undefined) continue; // exited meanwhile
      found.push({ pid: Number(tid), status: statusFields(text) });
      // A thread that forks is its child's parent.
      for (const child of (read(`/proc/${pid}/task/${tid}/children`) ?? "").split(/\s+/))
        if (/^\d+$/.test(child)) queue.push(Number(child));
    }
  }
  return found;
}

/** The kernel's own "Key:\tvalue" lines; a process name cannot add one (the kernel escapes it). */
function statusFields(text: string): Record<string, string> {
  const status: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    const key = line.slice(0, colon);
    if (colon > 0 && FIELDS.has(key)) status[key] = line.slice(colon + 1).trim();
  }
  return status;
}

/** A process's threads (its leader first among them); none when it is gone. */
function threadsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/**
 * A /proc file, read at once (the kernel makes it as it is read: no disk to wait on, so no reason to
 * queue behind a busy thread pool); undefined when it is gone or not readable.
 */
function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
