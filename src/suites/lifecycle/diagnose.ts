// What happened to a subject that stopped running: read from the engine's state after the fact
// (exit code, signal, OOM kill, how long it ran), never from whichever poll noticed first, and
// the known causes its log names turned into the fix that addresses them.

import os from "node:os";
import path from "node:path";
import type { ContainerState, Engine } from "../../engine/provider.js";
import { errorEvidence, redact } from "../../errors.js";
import { EXCERPT_BYTES } from "./case.js";

const LOG_EXCERPT_LINES = 40;

export interface ExitFacts {
  exitCode: number;
  signal?: string;
  oomKilled: boolean;
  /** Killed by SIGKILL on an engine whose `oomKilled: false` proves nothing: most likely OOM-killed. */
  oomUnreported?: true;
  /** Why its exit's cause cannot be established (its OOM verdict unread, the engine gone meanwhile). */
  causeUnknown?: string;
  /** How long the process ran, from the engine's StartedAt/FinishedAt. */
  ranMs?: number;
  startedAt?: string;
  finishedAt?: string;
  restartCount: number;
  /** The engine's own error (e.g. the executable was not found). */
  engineError?: string;
}

/**
 * The facts of a container that is not running, from its inspect document. `reportsOomKills`
 * false (the engine's facts): a SIGKILL nobody sent is most likely the OOM killer's, and is said so.
 */
export function exitFacts(state: ContainerState, reportsOomKills = true): ExitFacts {
  const started = parseTime(state.startedAt);
  const finished = parseTime(state.finishedAt);
  // A process that exits as it starts can be recorded finishing before its start was (the engine
  // stamps StartedAt after the start returns): it ran for no measurable time, not an unknown one.
  const ranMs = started > 0 && finished > 0 ? Math.max(0, finished - started) : undefined;
  const signal = state.exitCode > 128 ? signalName(state.exitCode - 128) : undefined;
  return {
    exitCode: state.exitCode,
    ...(signal ? { signal } : {}),
    oomKilled: state.oomKilled,
    ...(signal === "SIGKILL" && !state.oomKilled && !reportsOomKills ? { oomUnreported: true as const } : {}),
    ...(state.causeUnknown && !state.oomKilled ? { causeUnknown: state.causeUnknown } : {}),
    ...(ranMs !== undefined ? { ranMs } : {}),
    ...(state.startedAt !== undefined ? { startedAt: state.startedAt } : {}),
    ...(state.finishedAt !== undefined ? { finishedAt: state.finishedAt } : {}),
    restartCount: state.restartCount,
    ...(state.error ? { engineError: state.error } : {}),
  };
}

/** exitFacts as the engine that ran it reports them (its facts say whether OOM kills are reported). */
export async function exitFactsOn(engine: Engine, state: ContainerState): Promise<ExitFacts> {
  return exitFacts(state, (await engine.facts().catch(() => undefined))?.reportsOomKills);
}

/** The engine's RFC 3339 times carry nanoseconds, which Date.parse does not read: keep milliseconds. */
export function parseTime(t: string | undefined): number {
  return Date.parse((t ?? "").replace(/(\.\d{3})\d+/, "$1"));
}

function signalName(n: number): string {
  const name = Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0];
  return name ?? `signal ${n}`;
}

/**
 * "exited with code 1 after 0.3 s", "was killed by SIGKILL (exit 137)", "was OOM-killed". When the
 * engine's times do not give the run time, `observedMs` (start request to exit seen) bounds it.
 */
export function describeExit(f: ExitFacts, observedMs?: number): string {
  const after =
    f.ranMs !== undefined
      ? ` after ${formatMs(f.ranMs)}`
      : observedMs !== undefined
        ? ` within ${formatMs(observedMs)} of its start`
        : "";
  const restarts = f.restartCount > 0 ? ` (restarted ${f.restartCount} time(s))` : "";
  if (f.oomKilled) return `was OOM-killed (exit ${f.exitCode})${after}${restarts}`;
  if (f.oomUnreported)
    return `was killed by SIGKILL (exit ${f.exitCode})${after}${restarts}, most likely by the kernel's OOM killer (this engine does not report OOM kills)`;
  if (f.causeUnknown)
    return `${f.signal ? `was killed by ${f.signal}` : "exited"} (exit ${f.exitCode})${after}${restarts}, for a cause not established: ${f.causeUnknown}`;
  if (f.signal) return `was killed by ${f.signal} (exit ${f.exitCode})${after}${restarts}`;
  return `exited with code ${f.exitCode}${after}${restarts}`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A cause the log names, with the fix that addresses it. */
export interface KnownCause {
  cause: string;
  fix: string;
  line: string;
}

const PATH_IN_LINE = /(?:["'`(]|\s|^)(\/[^\s"'`():,]+)/;

/**
 * The first known cause in the log: writes refused under the read-only root or to a directory the
 * user does not own, a low port refused without NET_BIND_SERVICE, a port already in use.
 */
export function knownCause(log: string, writableRoots: readonly string[]): KnownCause | undefined {
  const lines = log.split(/\r?\n/).filter((l) => l.trim());
  for (const line of lines) {
    const bind = lowPortRefused(line);
    if (bind) return bind;
  }
  for (const line of lines) {
    if (/address already in use|EADDRINUSE/i.test(line)) {
      return {
        cause: "the port is already in use inside the container",
        fix: "make only one process listen on the port (check for a second server started by the entrypoint), or change the port in the image and the inventory",
        line,
      };
    }
  }
  for (const line of lines) {
    const readOnly = /read-only file system|EROFS/i.test(line);
    const denied = /permission denied|EACCES/i.test(line);
    if (!readOnly && !denied) continue;
    const where = PATH_IN_LINE.exec(line)?.[1];
    if (!where) continue;
    const dir = writableRoots.some((r) => where === r || where.startsWith(`${r}/`))
      ? where
      : path.posix.dirname(where);
    if (readOnly) {
      return {
        cause: `${where} is on the read-only root filesystem`,
        fix: `allot ${dir} in writableRoots (the launch mounts a tmpfs there the subject's user can write), or make the process write under an allotted root such as /tmp`,
        line,
      };
    }
    return {
      cause: `the subject's user may not write ${where}`,
      fix: `allot ${dir} in writableRoots, or chown that path to the image's USER in the Dockerfile`,
      line,
    };
  }
  return undefined;
}

function lowPortRefused(line: string): KnownCause | undefined {
  if (!/permission denied|EACCES|operation not permitted/i.test(line)) return undefined;
  if (!/bind|listen/i.test(line)) return undefined;
  const port = /:(\d{1,5})\b/.exec(line)?.[1];
  if (port !== undefined && Number(port) >= 1024) return undefined;
  return {
    cause: `binding the low port${port ? ` ${port}` : ""} needs NET_BIND_SERVICE`,
    fix: 'allow NET_BIND_SERVICE (inventory: "capabilities": ["NET_BIND_SERVICE"]), or listen on a port above 1023',
    line,
  };
}

/**
 * "exec /entrypoint.sh: no such file or directory" (the OCI runtime's words, the same on every
 * engine measured) when the file is there is the most confusing crash a user meets: the kernel
 * could not find what the file names as its interpreter. The file is read from the container to say which: a `#!` line
 * ending in a carriage return (a script saved with Windows line endings), an interpreter the image
 * lacks, or a dynamically linked program whose loader (libc) the image lacks. Undefined when the
 * log says nothing of the kind or the file cannot be read as one.
 */
export async function missingInterpreter(
  engine: Engine,
  id: string,
  log: string,
): Promise<KnownCause | undefined> {
  const line = log.split(/\r?\n/).find((l) => EXEC_ENOENT.test(l));
  const file = line && EXEC_ENOENT.exec(line)?.[1];
  if (!line || !file) return undefined;
  const head = await engine.readFile(id, file, 256).catch(() => undefined);
  if (!head) return undefined;
  if (head.subarray(0, 4).equals(ELF_MAGIC))
    return {
      cause: `${file} is a dynamically linked program whose loader (the libc it was linked against) is not in the image`,
      fix: "link it statically (Go: CGO_ENABLED=0), or build FROM a base image with the libc it was linked against",
      line,
    };
  const shebang = head.toString("latin1").split("\n")[0]!;
  if (!shebang.startsWith("#!")) return undefined;
  if (shebang.endsWith("\r"))
    return {
      cause: `${file} has Windows (CRLF) line endings, so its interpreter is read as "${shebang.slice(2).trim()}\\r", which does not exist`,
      fix: `convert ${file} to LF line endings (in the Dockerfile: RUN sed -i 's/\\r$//' ${file}; in the repository: \`*.sh text eol=lf\` in .gitattributes)`,
      line,
    };
  const interpreter = shebang.slice(2).trim().split(/\s+/)[0] ?? "";
  return {
    cause: `${file} starts with #!${interpreter}, which is not in the image`,
    fix: `install ${interpreter} in the image, or change ${file}'s first line to an interpreter the image has (e.g. #!/bin/sh)`,
    line,
  };
}

const EXEC_ENOENT = /\bexec (\/[^\s:]+): no such file or directory/i;
const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

/** The last lines of the subject's log, redacted and bounded; never throws. */
export async function logExcerpt(engine: Engine, id: string): Promise<string> {
  try {
    const { stdout, stderr } = await engine.logs(id, LOG_EXCERPT_LINES);
    const text = redact(`${stdout}${stderr}`);
    return text.length > EXCERPT_BYTES ? `…${text.slice(-EXCERPT_BYTES)}` : text;
  } catch (err) {
    return `(logs unavailable: ${errorEvidence(err).message})`;
  }
}

/** The last non-empty line of a log excerpt, bounded. */
export function lastLine(excerpt: string): string | undefined {
  const lines = excerpt.split(/\r?\n/).filter((l) => l.trim());
  const last = lines.at(-1);
  return last && last.length > 200 ? `${last.slice(0, 199)}…` : last;
}
