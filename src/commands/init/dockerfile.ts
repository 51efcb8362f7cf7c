// What the stage a Dockerfile builds declares about how its image runs: ports (EXPOSE), user
// (USER), HEALTHCHECK, VOLUME and whether PID 1 is a shell, each with its line, for `init`.
// The built stage is the target, else the last; a stage FROM an earlier one inherits what that one
// declared. Variables are substituted where that is plain: ARG defaults (or the given build args)
// and ENV values; anything else is left out and said, never guessed.
import { type Instruction, parseDockerfile } from "../../engine/dockerfile.js";

interface Declared<T> {
  value: T;
  line: number;
}

interface HealthcheckFacts {
  line: number;
  intervalMs: number;
  timeoutMs: number;
  startPeriodMs: number;
}

export interface ImageFacts {
  /** The stage built, its 1-based FROM line, and how many stages the file has. */
  stage: { name?: string; line: number; count: number };
  /** The external image the built stage's chain starts from (it may declare more: not read). */
  base?: string;
  ports: Declared<number>[];
  user?: Declared<string>;
  healthcheck?: HealthcheckFacts;
  volumes: Declared<string>[];
  /** PID 1 is `/bin/sh -c` (shell-form CMD or ENTRYPOINT). */
  shellPid1?: Declared<"CMD" | "ENTRYPOINT">;
  /** What COPY and ADD take from the build context (not from a stage, not URLs or globs). */
  copySources: string[];
  /** Things read but not understood, for the user to check by hand. */
  notes: string[];
}

interface Stage {
  name?: string;
  from: string;
  line: number;
  instructions: Instruction[];
}

export function readImageFacts(
  text: string,
  buildArgs: Record<string, string> = {},
  target?: string,
): ImageFacts {
  const parsed = parseDockerfile(text);
  const globals: Record<string, string | undefined> = {};
  const stages: Stage[] = [];
  for (const ins of parsed.instructions) {
    const [keyword, rest] = split(ins.text);
    if (keyword === "FROM") {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(rest);
      stages.push({ from: from?.[1] ?? "", name: from?.[2], line: ins.line, instructions: [] });
    } else if (stages.length === 0 && keyword === "ARG") {
      for (const [k, v] of argDecls(rest)) globals[k] = buildArgs[k] ?? v;
    } else stages.at(-1)?.instructions.push(ins);
  }
  const notes: string[] = [];
  const facts: ImageFacts = {
    stage: { line: 1, count: stages.length },
    ports: [],
    volumes: [],
    copySources: [],
    notes,
  };
  if (stages.length === 0) {
    notes.push("the Dockerfile has no FROM instruction");
    return facts;
  }
  const chosen = target ? stages.find((s) => s.name?.toLowerCase() === target.toLowerCase()) : stages.at(-1);
  if (!chosen) {
    notes.push(`the Dockerfile has no stage named "${target}"`);
    return facts;
  }
  facts.stage = { name: chosen.name, line: chosen.line, count: stages.length };
  const chain = chainOf(chosen, stages);
  facts.base = expand(chain[0]!.from, globals, notes, chain[0]!.line);
  const env: Record<string, string | undefined> = {};
  const run: Start = {};
  for (const stage of chain) readStage(stage, { globals, buildArgs, env }, facts, run);
  const pid1 = run.entrypoint
    ? { ...run.entrypoint, value: "ENTRYPOINT" as const }
    : run.cmd && { ...run.cmd, value: "CMD" as const };
  if (pid1?.shell) facts.shellPid1 = { value: pid1.value, line: pid1.line };
  return facts;
}

/** The stage and the earlier stages it is built FROM, the first of them FROM an external image. */
function chainOf(stage: Stage, stages: Stage[]): Stage[] {
  const chain = [stage];
  for (;;) {
    const head = chain[0]!;
    const parent = stages
      .slice(0, stages.indexOf(head))
      .find((s) => s.name !== undefined && s.name.toLowerCase() === head.from.toLowerCase());
    if (!parent || chain.includes(parent)) return chain;
    chain.unshift(parent);
  }
}

interface Scope {
  globals: Record<string, string | undefined>;
  buildArgs: Record<string, string>;
  /** ENV is inherited by stages built FROM this one; ARG is not. */
  env: Record<string, string | undefined>;
}

/** How the image starts, carried down the chain of stages. */
interface Start {
  entrypoint?: { shell: boolean; line: number };
  cmd?: { shell: boolean; line: number };
}

function readStage(stage: Stage, scope: Scope, facts: ImageFacts, run: Start): void {
  const args: Record<string, string | undefined> = {};
  const vars = () => ({ ...args, ...scope.env });
  for (const ins of stage.instructions) {
    const [keyword, rest] = split(ins.text);
    const at = (s: string) => expand(s, vars(), facts.notes, ins.line);
    switch (keyword) {
      case "ARG":
        for (const [k, v] of argDecls(rest))
          args[k] = scope.buildArgs[k] ?? (v !== undefined ? at(v) : scope.globals[k]);
        break;
      case "ENV":
        for (const [k, v] of envDecls(rest)) scope.env[k] = at(v);
        break;
      case "EXPOSE":
        for (const word of words(rest)) exposed(at(word), ins.line, facts);
        break;
      case "USER": {
        // Unreadable (a variable without a value): kept as written, so it is never taken for root.
        facts.user = { value: at(rest) ?? rest, line: ins.line };
        break;
      }
      case "VOLUME":
        for (const word of jsonOrWords(rest)) {
          const p = at(word);
          if (p?.startsWith("/")) facts.volumes.push({ value: p.replace(/(.)\/+$/, "$1"), line: ins.line });
          else if (p !== undefined) facts.notes.push(`line ${ins.line}: VOLUME ${p} is not an absolute path`);
        }
        break;
      case "HEALTHCHECK":
        facts.healthcheck = /^NONE$/i.test(rest) ? undefined : healthcheckOf(rest, ins.line);
        break;
      case "COPY":
      case "ADD":
        facts.copySources.push(...contextSources(rest).flatMap((src) => at(src) ?? []));
        break;
      case "ENTRYPOINT":
        // PID 1 is the ENTRYPOINT when there is one (setting it drops an inherited CMD), else the CMD.
        run.entrypoint = { shell: !rest.startsWith("["), line: ins.line };
        run.cmd = undefined;
        break;
      case "CMD":
        run.cmd = { shell: !rest.startsWith("["), line: ins.line };
        break;
    }
  }
}

function exposed(word: string | undefined, line: number, facts: ImageFacts): void {
  if (word === undefined) return;
  const m = /^(\d+)(?:-\d+)?(?:\/(tcp|udp|sctp))?$/i.exec(word);
  const port = m ? Number(m[1]) : Number.NaN;
  if (!m || port < 1 || port > 65535) facts.notes.push(`line ${line}: EXPOSE ${word} is not a port`);
  else if ((m[2] ?? "tcp").toLowerCase() === "tcp") facts.ports.push({ value: port, line });
}

function healthcheckOf(rest: string, line: number): HealthcheckFacts {
  const option = (name: string, dflt: number) => {
    const m = new RegExp(`--${name}=(\\S+)`).exec(rest);
    return m ? (goDuration(m[1]!) ?? dflt) : dflt;
  };
  return {
    line,
    intervalMs: option("interval", 30_000),
    timeoutMs: option("timeout", 30_000),
    startPeriodMs: option("start-period", 0),
  };
}

/** The context paths a COPY or ADD reads: none when it copies from a stage or uses a heredoc. */
function contextSources(rest: string): string[] {
  const list = jsonOrWords(rest);
  const flags = list.filter((w) => w.startsWith("--"));
  if (flags.some((f) => f.startsWith("--from")) || rest.includes("<<")) return [];
  const paths = list.filter((w) => !w.startsWith("--")).slice(0, -1);
  return paths.filter((p) => !/^[a-z]+:\/\//i.test(p) && !/[*?[]/.test(p));
}

/** A Go duration as Docker writes them ("1m30s", "500ms", "10s"), in milliseconds. */
export function goDuration(text: string): number | undefined {
  const unit: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 1e-3,
    µs: 1e-3,
    ns: 1e-6,
  };
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * unit[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return text === "" ? undefined : Math.round(total);
}

/** The instruction's keyword (upper case) and its arguments. */
function split(text: string): [string, string] {
  const m = /^(\S+)\s*(.*)$/s.exec(text);
  return [m?.[1]?.toUpperCase() ?? "", m?.[2] ?? ""];
}

/** Words as the shell would split them, with plain quotes removed (no escapes beyond that). */
export function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

function jsonOrWords(text: string): string[] {
  if (text.startsWith("[")) {
    try {
      const list = JSON.parse(text) as unknown;
      if (Array.isArray(list)) return list.filter((x): x is string => typeof x === "string");
    } catch {
      // not JSON after all: a plain list of words
    }
  }
  return words(text);
}

/** `ARG A=1 B`: names and defaults (undefined when none is given). */
function argDecls(text: string): [string, string | undefined][] {
  return words(text).map((w) => {
    const eq = w.indexOf("=");
    return eq === -1 ? [w, undefined] : [w.slice(0, eq), w.slice(eq + 1)];
  });
}

/** `ENV A=1 B="x y"`, or the legacy `ENV A 1 2` (one variable, the rest its value). */
function envDecls(text: string): [string, string][] {
  const list = words(text);
  if (list.length > 0 && !list[0]!.includes("=")) return [[list[0]!, list.slice(1).join(" ")]];
  return list.flatMap((w) => {
    const eq = w.indexOf("=");
    return eq > 0 ? [[w.slice(0, eq), w.slice(eq + 1)] as [string, string]] : [];
  });
}

/**
 * `$NAME`, `${NAME}`, `${NAME:-word}` and `${NAME:+word}` replaced from `vars`; undefined (and a
 * note) when a variable has no value, so nothing unknown is written as if it were known.
 */
function expand(
  text: string,
  vars: Record<string, string | undefined>,
  notes: string[],
  line: number,
): string | undefined {
  let unknown: string | undefined;
  const out = text.replace(
    /\\\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced?: string, op?: string, word?: string, bare?: string) => {
      if (whole === "\\$") return "$";
      const name = (braced ?? bare)!;
      const value = vars[name];
      if (op === "-") return value ? value : (word ?? "");
      if (op === "+") return value ? (word ?? "") : "";
      if (value === undefined) unknown ??= name;
      return value ?? "";
    },
  );
  if (unknown === undefined) return out;
  notes.push(`line ${line}: $${unknown} has no value here, so ${JSON.stringify(text)} was not read`);
  return undefined;
}
