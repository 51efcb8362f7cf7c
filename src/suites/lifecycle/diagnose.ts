// What happened to a subject that stopped running: read from the engine's state after the fact
// (exit code, signal, OOM kill, how long it ran), never from whichever poll noticed first, and
// the known causes its log names turned into the fix that addresses them.

import path from "node:path";
import { type ContainerState, type Engine, USER_MISSING, USER_OUT_OF_RANGE } from "../../engine/provider.js";
import { errorEvidence, redact } from "../../errors.js";
import { EXCERPT_BYTES } from "./case.js";

const LOG_EXCERPT_LINES = 40;

export interface ExitFacts {
  exitCode: number;
  signal?: string;
  oomKilled: boolean;
  /**
   * Killed by SIGKILL where `oomKilled: false` proves nothing, so most likely OOM-killed; why: the
   * engine does not report OOM kills, or the host's kernel counted one the engine did not record.
   */
  oomUnreported?: string;
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
 * false (the engine's facts), or a kill the kernel counted (`oomLikely`): a SIGKILL nobody sent is
 * most likely the OOM killer's, and is said so.
 */
export function exitFacts(state: ContainerState, reportsOomKills = true): ExitFacts {
  const started = parseTime(state.startedAt);
  const finished = parseTime(state.finishedAt);
  // A process that exits as it starts can be recorded finishing before its start was (the engine
  // stamps StartedAt after the start returns): it ran for no measurable time, not an unknown one.
  const ranMs = started > 0 && finished > 0 ? Math.max(0, finished - started) : undefined;
  const signal = lethalSignal(state.exitCode);
  return {
    exitCode: state.exitCode,
    ...(signal ? { signal } : {}),
    oomKilled: state.oomKilled,
    ...(signal === "SIGKILL" && !state.oomKilled && (!reportsOomKills || state.oomLikely)
      ? { oomUnreported: state.oomLikely ?? "this engine does not report OOM kills" }
      : {}),
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
export function parseTime(time: string | undefined): number {
  return Date.parse((time ?? "").replace(/(\.\d{3})\d+/, "$1"));
}

/**
 * Linux's signals whose default action ends the process (signal(7)): an exit of 128+n reads as a
 * death by signal n only for these. SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG
 * and SIGWINCH end no process, and n above 31 is no standard signal (exit 255 is 128+127): such
 * a code is the program's own. Written out, not os.constants: containers run Linux's numbering
 * wherever the tool runs.
 */
const LETHAL_SIGNALS: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  3: "SIGQUIT",
  4: "SIGILL",
  5: "SIGTRAP",
  6: "SIGABRT",
  7: "SIGBUS",
  8: "SIGFPE",
  9: "SIGKILL",
  10: "SIGUSR1",
  11: "SIGSEGV",
  12: "SIGUSR2",
  13: "SIGPIPE",
  14: "SIGALRM",
  15: "SIGTERM",
  16: "SIGSTKFLT",
  24: "SIGXCPU",
  25: "SIGXFSZ",
  26: "SIGVTALRM",
  27: "SIGPROF",
  29: "SIGIO",
  30: "SIGPWR",
  31: "SIGSYS",
};

function lethalSignal(exitCode: number): string | undefined {
  return exitCode > 128 ? LETHAL_SIGNALS[exitCode - 128] : undefined;
}

/** The runtime's own words when it could not execute the entrypoint (runc, crun). */
const RUNTIME_EXEC_FAILED =
  /\bexec:? "?\/[^\s":]+"?: (?:no such file or directory|permission denied|exec format error)/i;

/**
 * What an exit code says by itself, decided with the log: 126 and 127 are a shell's "found but
 * not executable" and "not found" (POSIX), 255 is the runtime's failure to execute the entrypoint
 * on current runc when its log says so, else the program's own exit(-1) or that failure.
 */
export function exitMeaning(exitCode: number, log = ""): string | undefined {
  if (exitCode === 126) return "a command was found but could not be executed";
  if (exitCode === 127) return "a command was not found";
  if (exitCode !== 255) return undefined;
  return RUNTIME_EXEC_FAILED.test(log)
    ? "the container runtime could not execute the entrypoint"
    : "the program's own exit(-1), or the container runtime's failure to execute the entrypoint";
}

/**
 * "exited with code 1 after 0.3 s", "was killed by SIGKILL (exit 137)", "was OOM-killed",
 * "exited with code 127 (a command was not found)". When the engine's times do not give the run
 * time, `observedMs` (start request to exit seen) bounds it; `log` decides what 255 means.
 */
export function describeExit(facts: ExitFacts, observedMs?: number, log?: string): string {
  const after =
    facts.ranMs !== undefined
      ? ` after ${formatMs(facts.ranMs)}`
      : observedMs !== undefined
        ? ` within ${formatMs(observedMs)} of its start`
        : "";
  const restarts = facts.restartCount > 0 ? ` (restarted ${facts.restartCount} time(s))` : "";
  if (facts.oomKilled) return `was OOM-killed (exit ${facts.exitCode})${after}${restarts}`;
  if (facts.oomUnreported)
    return `was killed by SIGKILL (exit ${facts.exitCode})${after}${restarts}, most likely by the kernel's OOM killer (${facts.oomUnreported})`;
  if (facts.causeUnknown)
    return `${facts.signal ? `was killed by ${facts.signal}` : "exited"} (exit ${facts.exitCode})${after}${restarts}, for a cause not established: ${facts.causeUnknown}`;
  if (facts.signal) return `was killed by ${facts.signal} (exit ${facts.exitCode})${after}${restarts}`;
  const meaning = exitMeaning(facts.exitCode, log);
  return `exited with code ${facts.exitCode}${meaning ? ` (${meaning})` : ""}${after}${restarts}`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A cause the log names, with the fix that addresses it. */
interface KnownCause {
  cause: string;
  fix: string;
  /** The Dockerfile instruction the cause is in, where it is not what runs as PID 1. */
  instruction?: "USER";
  /** The log line (or the engine's start error) that shows it: a cause is named only with one. */
  line: string;
}

const PATH_IN_LINE = /(?:["'`(]|\s|^)(\/[^\s"'`():,]+)/;

/** One recogniser: a cause from one line of the log, or nothing. */
type Recogniser = (line: string, writableRoots: readonly string[]) => Omit<KnownCause, "line"> | undefined;

/**
 * The causes the tool recognises, in the order they are tried: each names a cause only when a
 * log line shows it (tests/lifecycle/diagnose.test.ts holds one test per entry). The program not
 * run at all comes first (nothing after it happened), then what a hardened launch refuses.
 */
const CAUSES: readonly Recogniser[] = [
  unknownUser,
  notExecutable,
  commandNotFound,
  lowPortRefused,
  portInUse,
  readOnlyRoot,
  accessDenied,
];

/**
 * The first known cause in the log (or in the engine's start error): a command that could not be
 * executed or was not found, a low port refused without NET_BIND_SERVICE, a port already in
 * use, a write refused by the read-only root, an access the subject's user was denied.
 */
export function knownCause(log: string, writableRoots: readonly string[]): KnownCause | undefined {
  const lines = log.split(/\r?\n/).filter((l) => l.trim());
  for (const recognise of CAUSES) {
    for (const line of lines) {
      const found = recognise(line, writableRoots);
      if (found) return { ...found, line };
    }
  }
  return undefined;
}

/**
 * The runtime could not become the image's USER: a name (or group) its /etc/passwd (or /etc/group)
 * lacks, or ids past the largest it takes. Nothing ran; the USER line is what to change.
 */
function unknownUser(line: string): Omit<KnownCause, "line"> | undefined {
  const missing = USER_MISSING.exec(line);
  const how = "(or the inventory's user)";
  if (missing)
    return {
      cause: `the image's ${missing[1]} ${missing[2]} is not in its /etc/${missing[3]}`,
      fix: `create the ${missing[1]} in the Dockerfile before the USER line (useradd, or adduser on busybox and Alpine), or give USER ${how} as numeric ids, e.g. 65532:65532`,
      instruction: "USER",
    };
  if (USER_OUT_OF_RANGE.test(line))
    return {
      cause: "the user's uid or gid is past 2147483647, the largest the runtime takes",
      fix: `give USER ${how} ids from 1 to 2147483647, e.g. 65532:65532`,
      instruction: "USER",
    };
  return undefined;
}

/** runc's "exec /x: permission denied" (or at create: exec: "/x": permission denied), a shell's "/x: Permission denied". */
const EXEC_DENIED =
  /\bexec:? "?(\/[^\s":]+)"?: permission denied|^(?:\/\S*\/)?(?:sh|bash|dash|ash|zsh)(?:: line \d+|: \d+)?: (\/[^\s:]+): permission denied$/i;

function notExecutable(line: string): Omit<KnownCause, "line"> | undefined {
  const m = EXEC_DENIED.exec(line.trim());
  const file = m?.[1] ?? m?.[2];
  if (!file) return undefined;
  return {
    cause: `${file} is not executable by the subject's user (permission denied on exec)`,
    fix: `make ${file} executable in the image (\`COPY --chmod=755\`, or \`RUN chmod 755 ${file}\`) and every directory above it searchable by the image's USER`,
  };
}

/**
 * A shell's "sh: 1: foo: not found" / "bash: foo: command not found" (its `exec` builtin's "sh: 1:
 * exec: foo: not found", a script's "/x.sh: line 3: foo: ..."), env's "env: 'foo': No such file or directory", runc's stat and $PATH failures.
 */
const NOT_FOUND = [
  /^(?:\/\S*\/)?(?:sh|bash|dash|ash|zsh)(?:: line \d+|: \d+)?: (?:exec: )?([^\s:]+): (?:command )?not found$/i,
  /^\/\S+: line \d+: (?:exec: )?([^\s:]+): (?:command )?not found$/i,
  /^(?:\/\S*\/)?env: '?([^\s:']+?)'?: No such file or directory$/i,
  /exec: "([^"]+)": (?:stat \S+: no such file or directory|executable file not found in \$PATH)/i,
];

function commandNotFound(line: string): Omit<KnownCause, "line"> | undefined {
  const text = line.trim();
  const command = NOT_FOUND.map((re) => re.exec(text)?.[1]).find(Boolean);
  if (!command) return undefined;
  return {
    cause: `the command ${command} is not in the image`,
    fix: `install ${command} in the image, or change the command (ENTRYPOINT/CMD, or the inventory's command) to a program the image has, by its full path`,
  };
}

function lowPortRefused(line: string): Omit<KnownCause, "line"> | undefined {
  if (!/permission denied|EACCES|operation not permitted/i.test(line)) return undefined;
  if (!/bind|listen/i.test(line)) return undefined;
  const port = /:(\d{1,5})\b/.exec(line)?.[1];
  if (port !== undefined && Number(port) >= 1024) return undefined;
  return {
    cause: `binding the low port${port ? ` ${port}` : ""} needs NET_BIND_SERVICE`,
    fix: 'allow NET_BIND_SERVICE (inventory: "capabilities": ["NET_BIND_SERVICE"]), or listen on a port above 1023',
  };
}

function portInUse(line: string): Omit<KnownCause, "line"> | undefined {
  if (!/address already in use|EADDRINUSE/i.test(line)) return undefined;
  return {
    cause: "the port is already in use inside the container",
    fix: "make only one process listen on the port (check for a second server started by the entrypoint), or change the port in the image and the inventory",
  };
}

/** The allotted root a path is under, else its directory: what to allot. */
function dirToAllot(where: string, writableRoots: readonly string[]): string {
  return writableRoots.some((r) => where === r || where.startsWith(`${r}/`))
    ? where
    : path.posix.dirname(where);
}

/** EROFS is only ever a write: the read-only root refused it. */
function readOnlyRoot(line: string, writableRoots: readonly string[]): Omit<KnownCause, "line"> | undefined {
  if (!/read-only file system|EROFS/i.test(line)) return undefined;
  const where = PATH_IN_LINE.exec(line)?.[1];
  if (!where) return undefined;
  return {
    cause: `${where} is on the read-only root filesystem`,
    fix: `allot ${dirToAllot(where, writableRoots)} in writableRoots (the launch mounts a tmpfs there the subject's user can write), or make the process write under an allotted root such as /tmp`,
  };
}

/** A write the line says it was (create, write, mkdir, ...): only then is the fix a writable root. */
const WRITING =
  /\b(?:writ(?:e|ing)|creat(?:e|ing)|mkdir|touch|save|saving|rename|unlink|remove|lock|mkstemp|O_WRONLY|O_RDWR|O_CREAT)\b/i;

/**
 * Permission denied on a path: the subject's user may not write it when the line says it was
 * writing, else only that it was denied access (a read under cap-drop ALL: no DAC override).
 */
function accessDenied(line: string, writableRoots: readonly string[]): Omit<KnownCause, "line"> | undefined {
  if (!/permission denied|EACCES/i.test(line)) return undefined;
  const where = PATH_IN_LINE.exec(line)?.[1];
  if (!where) return undefined;
  const dir = dirToAllot(where, writableRoots);
  if (WRITING.test(line))
    return {
      cause: `the subject's user may not write ${where}`,
      fix: `allot ${dir} in writableRoots, or chown that path to the image's USER in the Dockerfile`,
    };
  return {
    cause: `the subject's user was denied access to ${where}`,
    fix: `make ${where} readable by the image's USER (chown or chmod it in the Dockerfile: with every capability dropped not even root reads past file permissions); if the process writes there, allot ${dir} in writableRoots`,
  };
}

/**
 * "exec /entrypoint.sh: no such file or directory" (the OCI runtime's words, the same on every
 * engine measured) for a file that is there is the most confusing crash a user meets: the kernel
 * could not find what the file names as its interpreter; "exec format error" means the kernel
 * could not run the file at all. The file is read from the container to say which: a `#!` line
 * ending in a carriage return (a script saved with Windows line endings), an interpreter the
 * image lacks, a dynamically linked program whose loader (libc) the image lacks, a program built
 * for another CPU, a script without a `#!` line. Undefined when the log says nothing of the kind
 * or the file cannot be read as one.
 */
export async function missingInterpreter(
  engine: Engine,
  containerId: string,
  log: string,
): Promise<KnownCause | undefined> {
  const line = log.split(/\r?\n/).find((l) => EXEC_FAILED.test(l));
  const m = line ? EXEC_FAILED.exec(line) : undefined;
  const file = m?.[1];
  if (!line || !file) return undefined;
  const head = await engine.readFile(containerId, file, 256).catch(() => undefined);
  if (!head) return undefined;
  const found = /exec format error/i.test(m[2]!) ? unrunnableFormat(file, head) : noInterpreter(file, head);
  return found && { ...found, line };
}

const EXEC_FAILED = /\bexec (\/[^\s:]+): (no such file or directory|exec format error)/i;
const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

function noInterpreter(file: string, head: Buffer): Omit<KnownCause, "line"> | undefined {
  if (head.subarray(0, 4).equals(ELF_MAGIC))
    return {
      cause: `${file} is a dynamically linked program whose loader (the libc it was linked against) is not in the image`,
      fix: "link it statically (Go: CGO_ENABLED=0), or build FROM a base image with the libc it was linked against",
    };
  const shebang = head.toString("latin1").split("\n")[0]!;
  if (!shebang.startsWith("#!")) return undefined;
  if (shebang.endsWith("\r"))
    return {
      cause: `${file} has Windows (CRLF) line endings, so its interpreter is read as "${shebang.slice(2).trim()}\\r", which does not exist`,
      fix: `convert ${file} to LF line endings (in the Dockerfile: RUN sed -i 's/\\r$//' ${file}; in the repository: \`*.sh text eol=lf\` in .gitattributes)`,
    };
  const interpreter = shebang.slice(2).trim().split(/\s+/)[0] ?? "";
  return {
    cause: `${file} starts with #!${interpreter}, which is not in the image`,
    fix: `install ${interpreter} in the image, or change ${file}'s first line to an interpreter the image has (e.g. #!/bin/sh)`,
  };
}

/** ELF e_machine values a container is commonly built for. */
const MACHINES: Record<number, string> = { 3: "386", 40: "arm", 62: "amd64", 183: "arm64", 243: "riscv64" };

function unrunnableFormat(file: string, head: Buffer): Omit<KnownCause, "line"> | undefined {
  if (head.subarray(0, 4).equals(ELF_MAGIC) && head.length >= 20) {
    const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
    const arch = MACHINES[machine] ?? `ELF machine ${machine}`;
    return {
      cause: `${file} is a program built for ${arch}, which this engine's CPU does not run`,
      fix: "build the image for the engine's CPU architecture (e.g. `{cli} build --platform linux/amd64` for an x86-64 runner), or FROM a base image built for it",
    };
  }
  if (head.subarray(0, 2).toString("latin1") === "#!") return undefined;
  return {
    cause: `${file} is neither a program nor a script with a #! line, so the kernel cannot execute it`,
    fix: `add an interpreter line (e.g. #!/bin/sh) as ${file}'s first line, or run it through its interpreter in the command`,
  };
}

/** The last lines of the subject's log, redacted and bounded; never throws. */
export async function logExcerpt(engine: Engine, containerId: string): Promise<string> {
  try {
    const { stdout, stderr } = await engine.logs(containerId, LOG_EXCERPT_LINES);
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
