// Patterns over added hunks. A hunk (a run of consecutive added lines) is matched as one text, so
// a call spread over three lines is seen; `^` and `$` still mean a line's start and end. A rule
// that targets code, comments or strings sees the hunk with everything else blanked, classified
// by the file's language (languages.ts) in the context of the whole new file when it is at hand.
import { compilePattern, type Target } from "./config.js";
import type { AddedLine, DiffFile } from "./diff.js";
import {
  CODE,
  COMMENT,
  classify,
  type Language,
  languageOf,
  maskText,
  STRING,
  seenBy,
  startsInCode,
} from "./languages.js";

export interface Hunk {
  /** Line number of the first line. */
  start: number;
  lines: string[];
  text: string;
}

/** Runs of consecutive added lines. */
export function hunksOf(added: readonly AddedLine[]): Hunk[] {
  const out: Hunk[] = [];
  let cur: Hunk | undefined;
  for (const a of added) {
    if (cur && a.line === cur.start + cur.lines.length) cur.lines.push(a.text);
    else {
      cur = { start: a.line, lines: [a.text], text: "" };
      out.push(cur);
    }
  }
  for (const h of out) h.text = h.lines.join("\n");
  return out;
}

/** A pattern for whole hunks: every match found, `^`/`$` at line boundaries. */
export function compileHunkPattern(source: string): RegExp {
  const re = compilePattern(source);
  return new RegExp(re.source, `${re.flags.replace("m", "")}gm`);
}

/** Whether a hunk pattern (global, so stateful) matches anywhere in `text`. */
export function matches(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  const hit = re.test(text);
  re.lastIndex = 0;
  return hit;
}

/** Whether a match (its index and length in the hunk) counts: a code rule's must start in code. */
export type Accept = (at: number, length: number) => boolean;

/** Line numbers (in the new file) where `re` matches `text`, a hunk starting at `start`. */
export function matchLines(re: RegExp, text: string, start: number, accept?: Accept): number[] {
  const lines: number[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let line = start;
  let scanned = 0;
  // biome-ignore lint/suspicious/noAssignInExpressions: the usual exec loop
  while ((m = re.exec(text)) !== null) {
    if (accept && !accept(m.index, m[0].length)) {
      re.lastIndex = m.index + 1; // a later match may overlap this one and start in code
      continue;
    }
    if (m[0].length === 0) re.lastIndex++;
    // A match may begin with the newline before it (`[^\w]print`): it is on the next line.
    let at = m.index;
    while (text.charCodeAt(at) === 10 && at < m.index + m[0].length - 1) at++;
    for (let i = text.indexOf("\n", scanned); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) {
      line++;
      scanned = i + 1;
    }
    if (lines.at(-1) !== line) lines.push(line);
  }
  return lines;
}

const SEEN = { code: seenBy(CODE), comments: seenBy(COMMENT), strings: seenBy(STRING) } as const;

/** How a file's hunks were read for a targeted rule. */
export type Reading = "file" | "hunk" | "lines";

/**
 * Per file: the language, and the masked text of each hunk for each target, computed once and
 * only when a targeted rule had a raw hit there (most lines match nothing, and tokenizing is the
 * expensive part).
 */
export class FileReader {
  readonly language: Language | undefined;
  private classes: Uint8Array[] | undefined;
  reading: Reading | undefined;
  private readonly masks = new Map<string, string>();

  constructor(
    file: DiffFile,
    private readonly hunks: Hunk[],
    private readonly text: string | undefined,
    private readonly budget: TokenizingBudget = { chars: MAX_TOKENIZED_CHARS },
  ) {
    this.language = languageOf(file.path);
  }

  /** The hunk as the rule sees it; the raw hunk when the language is unknown. */
  view(target: Target, index: number): string {
    const hunk = this.hunks[index]!;
    if (target === "any") return hunk.text;
    if (this.language === undefined) {
      this.reading = "lines";
      return hunk.text;
    }
    const key = `${target}:${index}`;
    let masked = this.masks.get(key);
    if (masked === undefined) {
      masked = maskText(hunk.text, this.classesOf(index), SEEN[target]);
      this.masks.set(key, masked);
    }
    return masked;
  }

  /** For a code rule in a tokenized file: its matches must start in code. */
  accept(target: Target, index: number): Accept | undefined {
    if (target !== "code" || this.language === undefined) return undefined;
    const text = this.hunks[index]!.text;
    const classes = this.classesOf(index);
    return (at, length) => startsInCode(text, classes, at, length);
  }

  private classesOf(index: number): Uint8Array {
    this.classes ??= this.classifyAll();
    return this.classes[index]!;
  }

  /** Classes of each hunk's characters: from the whole file when its text agrees with the diff. */
  private classifyAll(): Uint8Array[] {
    const lang = this.language!;
    const text = this.text;
    if (text !== undefined && text.length <= MAX_TOKENIZED_CHARS) {
      const starts = lineStarts(text);
      // From the file's start (where every string and comment opens) to a little past the last
      // hunk (so a string opened in the hunk is seen to close).
      const last = this.hunks.at(-1)!;
      const end = starts[last.start - 1 + last.lines.length + SLACK_LINES] ?? text.length;
      if (end <= this.budget.chars && this.hunks.every((h) => agrees(text, starts, h))) {
        this.budget.chars -= end;
        this.reading = "file";
        const all = classify(text.slice(0, end), lang);
        return this.hunks.map((h) => {
          const from = starts[h.start - 1]!;
          return all.subarray(from, from + h.text.length);
        });
      }
    }
    this.reading = "hunk";
    return this.hunks.map((h) => classify(h.text, lang));
  }
}

/** Larger files are classified hunk by hunk (about 0.1 s of tokenizing at this size). */
export const MAX_TOKENIZED_CHARS = 512 * 1024;

/**
 * Whole-file context is bounded per review (about 0.35 s of tokenizing TypeScript), so a 3,000-file change
 * stays fast: files past the budget are classified hunk by hunk, and the report names them.
 */
export const CONTEXT_BUDGET_CHARS = 512 * 1024;

/** Lines tokenized past the last hunk: a string the hunk opens closes within them, usually. */
const SLACK_LINES = 40;

export interface TokenizingBudget {
  /** Characters of whole files still allowed to be tokenized. */
  chars: number;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The file text holds the hunk's lines at the hunk's line numbers (a checkout of another commit would not). */
function agrees(text: string, starts: number[], h: Hunk): boolean {
  const from = starts[h.start - 1];
  if (from === undefined) return false;
  return (
    text.startsWith(h.text, from) &&
    (from + h.text.length === text.length || text[from + h.text.length] === "\n")
  );
}
