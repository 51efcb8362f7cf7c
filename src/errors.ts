// Typed errors carry their exit code and, for configuration problems, the fix.
// Exit codes (README, The CLI): 0 pass/warn, 1 fail, 2 usage or configuration, 3 engine or internal.
import { readFile } from "node:fs/promises";

export class UsageError extends Error {
  readonly exitCode = 2;
  override name = "UsageError";
}

/** A problem in a file the user wrote: names the file, the field (JSON path), what was expected, the fix. */
export class ConfigError extends Error {
  readonly exitCode = 2;
  override name = "ConfigError";
  constructor(
    readonly problems: ConfigProblem[],
    readonly file: string,
  ) {
    super(problems.map((p) => formatProblem(file, p)).join("\n"));
  }
}

export interface ConfigProblem {
  /** JSON path such as `subjects[0].port`; empty for the whole file. */
  path: string;
  message: string;
  fix?: string;
  /** 1-based line in the file, when known. */
  line?: number;
}

function formatProblem(file: string, problem: ConfigProblem): string {
  const at = problem.line ? `${file}:${problem.line}` : file;
  const where = problem.path ? `${at}: ${problem.path}` : at;
  return `${where}: ${problem.message}${problem.fix ? ` (fix: ${problem.fix})` : ""}`;
}

/** Reads a file the user points us at; a missing or unreadable one is a ConfigError with the fix. */
export async function readUserFile(file: string, what: string, fix: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw new ConfigError([{ path: "", message: `cannot read ${what} (${code})`, fix }], file);
  }
}

/**
 * The engine refused ("engine"), timed out, is unreachable, was aborted, or failed a call for a
 * reason of its own ("fault": a start it refused while recording nothing against the container).
 */
export class EngineError extends Error {
  readonly exitCode = 3;
  override name = "EngineError";
  constructor(
    message: string,
    readonly kind: "timeout" | "unreachable" | "engine" | "aborted" | "fault",
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/**
 * A trusted probe that ran past its deadline while still running: its reading, not the engine,
 * took the time. Never run again (it would hold the frozen subject as long again).
 */
export class ProbeOverrunError extends Error {
  override name = "ProbeOverrunError";
}

export function exitCodeOf(err: unknown): number {
  if (err && typeof err === "object" && "exitCode" in err && typeof err.exitCode === "number") {
    return err.exitCode;
  }
  return 3;
}

/** Evidence never carries secrets or unbounded text: kind + redacted, bounded message. */
export function errorEvidence(err: unknown, limit = 500): { kind: string; message: string } {
  const kind =
    err instanceof EngineError ? err.kind : err instanceof Error ? err.name || "Error" : typeof err;
  const message = redact(err instanceof Error ? err.message : String(err));
  return { kind, message: message.length > limit ? `${message.slice(0, limit)}…` : message };
}

const TOKEN_PATTERNS = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\b(Bearer|Basic|token)\s+[A-Za-z0-9._~+/-]{16,}=*/gi,
  /(password|passwd|secret|token)=([^\s&]+)/gi,
];

/** Removes anything shaped like a credential. Also applied to log excerpts. */
export function redact(text: string): string {
  let out = text;
  for (const re of TOKEN_PATTERNS) out = out.replace(re, (m) => `${m.slice(0, 4)}***`);
  for (const value of secretValues) if (value.length >= 6) out = out.split(value).join("***");
  return out;
}

const secretValues = new Set<string>();
const secretListeners: ((value: string) => void)[] = [];
/**
 * Secrets the runner masks already (the token it hands the step): redacted in our own text but
 * never announced again, since announcing means printing the value on a `::add-mask::` line.
 */
const runnerMasked = new Set<string>();
/** Registers a value (e.g. the GitHub token) that must never appear in output. */
export function registerSecret(value: string | undefined, opts: { runnerMasks?: boolean } = {}): void {
  if (!value || secretValues.has(value)) return;
  addSecret(value, opts.runnerMasks === true);
  // The same secret as it is stored and sent: base64, alone and as the basic-auth pair git's
  // credential header holds (`x-access-token:<token>`). The runner masks none of these forms.
  for (const plain of [value, `x-access-token:${value}`])
    addSecret(Buffer.from(plain).toString("base64").replace(/=+$/, ""), false);
}

function addSecret(value: string, runnerMasks: boolean): void {
  if (secretValues.has(value)) return;
  secretValues.add(value);
  if (runnerMasks) runnerMasked.add(value);
  else for (const listener of secretListeners) listener(value);
}

/**
 * Also tells `listener` of every secret, those registered already included: the action masks each
 * in the runner's log for the rest of the job (a line printed by a later step or a crash too).
 */
export function onSecret(listener: (value: string) => void): void {
  secretListeners.push(listener);
  for (const value of secretValues) if (!runnerMasked.has(value)) listener(value);
}
