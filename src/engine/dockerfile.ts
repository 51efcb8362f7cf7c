// Reads a Dockerfile just far enough to point a failing BuildKit step back at its line: the
// `# syntax=` directive, and each instruction with its stage and first line. BuildKit names a step
// "[stage i/n] INSTRUCTION args" with continuations joined and variables expanded.

export interface Instruction {
  /** 1-based line where the instruction starts. */
  line: number;
  /** 1-based line where it ends (its last continuation line). */
  endLine: number;
  /** Continuations joined, whitespace collapsed: what BuildKit shows in a step name. */
  text: string;
  /** The stage's `AS` name, else `stage-<index>`. */
  stage: string;
}

export interface ParsedDockerfile {
  syntax?: { image: string; line: number };
  instructions: Instruction[];
  stageCount: number;
}

/**
 * The most of a Dockerfile read (bytes), to point a failure at its line or label its stages. Read
 * whole, one of hundreds of megabytes (the context allows 2 GiB) would take gigabytes split in
 * lines; past it the engine still builds it, unlabelled, and a failure names the file without a line.
 */
export const DOCKERFILE_MAX_BYTES = 4 * 1024 * 1024;

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
/** A line continued on the next: the escape character (`# escape=`, else `\`), then only white space. */
const CONTINUED = { "\\": /\\[ \t]*$/, "`": /`[ \t]*$/ };

export function parseDockerfile(text: string): ParsedDockerfile {
  const lines = text.split(/\r?\n/);
  const out: ParsedDockerfile = { instructions: [], stageCount: 0 };
  let inDirectives = true;
  let continued = CONTINUED["\\"];
  let stage = "";
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i]!;
    const start = i + 1;
    i++;
    const trimmed = raw.trim();
    if (trimmed.startsWith("#") || trimmed === "") {
      const directive = /^#\s*syntax\s*=\s*(\S+)/i.exec(trimmed);
      if (inDirectives && directive) out.syntax = { image: directive[1]!, line: start };
      if (inDirectives && /^#\s*escape\s*=\s*`\s*$/i.test(trimmed)) continued = CONTINUED["`"];
      if (trimmed === "" || !/^#\s*\w+\s*=/.test(trimmed)) inDirectives = false;
      continue;
    }
    inDirectives = false;
    // Each line's own end is tested (never the growing join: quadratic on a long continuation).
    const parts = [raw];
    while (continued.test(parts.at(-1)!) && i < lines.length) {
      parts.push(parts.pop()!.replace(continued, " "));
      // Comment and blank lines inside a continuation are dropped; the continuation goes on.
      let next = lines[i++]!;
      while ((next.trim().startsWith("#") || next.trim() === "") && i < lines.length) next = lines[i++]!;
      parts.push(next);
    }
    const joined = parts.join("");
    const textOf = collapse(joined);
    const from = /^FROM\s+(?:--\S+\s+)*\S+(?:\s+AS\s+(\S+))?/i.exec(textOf);
    if (from) {
      stage = from[1] ?? `stage-${out.stageCount}`;
      out.stageCount++;
    }
    out.instructions.push({ line: start, endLine: i, text: textOf, stage });
  }
  return out;
}

// No two neighbouring parts can match the same text, so a long name cannot make it backtrack.
const STEP_NAME = /^\[(?:(\S+)\s+)?\d+\/\d+\]\s+(.*)$/s;

/**
 * The instruction a BuildKit step name stands for, or undefined (an internal step such as
 * "exporting to image", or a name the Dockerfile no longer matches).
 */
export function instructionOfStep(dockerfile: ParsedDockerfile, stepName: string): Instruction | undefined {
  const m = STEP_NAME.exec(stepName.trim());
  if (!m) return undefined;
  const stage = m[1];
  const shown = collapse(m[2]!).toLowerCase();
  const candidates = dockerfile.instructions.filter(
    (ins) => stage === undefined || dockerfile.stageCount <= 1 || ins.stage === stage,
  );
  const exact = candidates.find((ins) => ins.text.toLowerCase() === shown);
  if (exact) return exact;
  // A FROM shows the normalised reference (docker.io/library/...): the stage's own FROM.
  if (shown.startsWith("from ")) return candidates.find((ins) => /^from\s/i.test(ins.text));
  // Variables are expanded in the name: let each `$VAR` / `${VAR}` stand for any text.
  return candidates.find((ins) => matchesExpanded(ins.text.toLowerCase(), shown));
}

/**
 * Whether `shown` is `text` with each variable replaced by some text. The Dockerfile is the pull
 * request's, so this is no regular expression (`.*?` per variable backtracks polynomially on a
 * line of many variables): literal parts are found in order, each at its leftmost place, which
 * for wildcards alone is exact and linear.
 */
function matchesExpanded(text: string, shown: string): boolean {
  const parts = text.split(/\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*/);
  const first = parts[0]!;
  const last = parts.at(-1)!;
  if (parts.length === 1) return text === shown;
  if (!shown.startsWith(first) || shown.length < first.length + last.length) return false;
  let at = first.length;
  const end = shown.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = shown.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return shown.endsWith(last);
}
