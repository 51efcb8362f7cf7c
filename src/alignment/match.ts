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

interface Hunk {
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
export function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const hit = pattern.test(text);
  pattern.lastIndex = 0;
  return hit;
}

/**
 * A hunk with the unchanged lines around it (when the file's text at the head is at hand and agrees
 * with the diff), so a pattern sees a construct the PR completes: `shell=True` added inside an
 * existing `subprocess.run(` call. `from`/`to` are the hunk's characters within `text`.
 */
interface Window {
  text: string;
  /** Line number of the window's first line. */
  start: number;
  from: number;
  to: number;
}

/** Whether a match (its index and length in the window) counts: a code rule's must start in code. */
type Accept = (index: number, length: number) => boolean;

/**
 * Line numbers (in the new file) of the matches of `pattern` in a window's `text` (the window as the
 * rule sees it) that the PR made: a match must cover an added line, and must not already match
 * without them (the same pattern at the same place with the added lines blanked: an old call the
 * PR merely edits inside is not reported). The line is the first added line the match covers.
 */
export function matchLines(pattern: RegExp, text: string, window: Window, accept?: Accept): number[] {
  const lines: number[] = [];
  // Only a match reaching into the unchanged lines can have been there before; built when one does.
  let before: { text: string; re: RegExp } | undefined;
  const existed = (at: number) => {
    before ??= {
      text: blank(text, window.from, window.to),
      re: new RegExp(pattern.source, `${pattern.flags.replace("g", "")}y`),
    };
    before.re.lastIndex = at;
    return before.re.test(before.text);
  };
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  // biome-ignore lint/suspicious/noAssignInExpressions: the usual exec loop
  while ((m = pattern.exec(text)) !== null) {
    const end = m.index + m[0].length;
    const covers = end > window.from && m.index < window.to;
    const inHunk = m.index >= window.from && end <= window.to;
    if (!covers || (accept && !accept(m.index, m[0].length)) || (!inHunk && existed(m.index))) {
      pattern.lastIndex = m.index + 1; // a later match may overlap this one and count
      if (m.index >= window.to) break;
      continue;
    }
    if (m[0].length === 0) pattern.lastIndex++;
    // A match may begin with the newline before it (`[^\w]print`): it is on the next line.
    let at = Math.max(m.index, window.from);
    while (text.charCodeAt(at) === 10 && at < end - 1) at++;
    const line = window.start + countNewlines(text, at);
    if (lines.at(-1) !== line) lines.push(line);
  }
  return lines;
}

/** The window with the PR's lines blanked (offsets kept): roughly what was there before. */
function blank(text: string, from: number, to: number): string {
  return text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, " ") + text.slice(to);
}

function countNewlines(text: string, before: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < before; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

const SEEN = { code: seenBy(CODE), comments: seenBy(COMMENT), strings: seenBy(STRING) } as const;

/** How a file's hunks were read for a targeted rule. */
type Reading = "file" | "hunk" | "lines";

/** Unchanged lines a window takes before and after its hunk. */
const WINDOW_LINES = 12;

/**
 * Per file: each hunk's window, the language, and the masked window for each target, computed
 * once and only when a targeted rule had a raw hit there (most lines match nothing, and
 * tokenizing is the expensive part).
 */
export class FileReader {
  readonly language: Language | undefined;
  private classes: Uint8Array[] | undefined;
  reading: Reading | undefined;
  private readonly masks = new Map<string, string>();
  readonly windows: Window[];
  /** The file's text agrees with the diff: windows and whole-file context are possible. */
  private readonly starts: number[] | undefined;

  constructor(
    file: DiffFile,
    private readonly hunks: Hunk[],
    private readonly text: string | undefined,
    private readonly budget: TokenizingBudget = { chars: MAX_TOKENIZED_CHARS },
  ) {
    this.language = languageOf(file.path);
    const starts = text !== undefined ? lineStarts(text) : undefined;
    this.starts = starts && hunks.every((h) => agrees(text!, starts, h)) ? starts : undefined;
    this.windows = hunks.map((h) => this.windowOf(h));
  }

  private windowOf(hunk: Hunk): Window {
    const starts = this.starts;
    if (starts === undefined) return { text: hunk.text, start: hunk.start, from: 0, to: hunk.text.length };
    const first = Math.max(1, hunk.start - WINDOW_LINES);
    const last = Math.min(starts.length, hunk.start + hunk.lines.length - 1 + WINDOW_LINES);
    const begin = starts[first - 1]!;
    const finish = last < starts.length ? starts[last]! - 1 : this.text!.length;
    const from = starts[hunk.start - 1]! - begin;
    return { text: this.text!.slice(begin, finish), start: first, from, to: from + hunk.text.length };
  }

  /** The window as the rule sees it; the raw window when the language is unknown. */
  view(target: Target, index: number): string {
    const w = this.windows[index]!;
    if (target === "any") return w.text;
    if (this.language === undefined) {
      this.reading = "lines";
      return w.text;
    }
    const key = `${target}:${index}`;
    let masked = this.masks.get(key);
    if (masked === undefined) {
      masked = maskText(w.text, this.classesOf(index), SEEN[target]);
      this.masks.set(key, masked);
    }
    return masked;
  }

  /** For a code rule in a tokenized file: its matches must start in code. */
  accept(target: Target, index: number): Accept | undefined {
    if (target !== "code" || this.language === undefined) return undefined;
    const text = this.windows[index]!.text;
    const classes = this.classesOf(index);
    return (at, length) => startsInCode(text, classes, at, length);
  }

  private classesOf(index: number): Uint8Array {
    this.classes ??= this.classifyAll();
    return this.classes[index]!;
  }

  /** Classes of each window's characters: from the whole file when its text agrees with the diff. */
  private classifyAll(): Uint8Array[] {
    const lang = this.language!;
    const starts = this.starts;
    if (starts !== undefined && this.text!.length <= MAX_TOKENIZED_CHARS) {
      const text = this.text!;
      // From the file's start (where every string and comment opens) to a little past the last
      // hunk (so a string opened in the hunk is seen to close; the windows end before that).
      const last = this.hunks.at(-1)!;
      const end = starts[last.start - 1 + last.lines.length + SLACK_LINES] ?? text.length;
      if (end <= this.budget.chars) {
        this.budget.chars -= end;
        this.reading = "file";
        const all = classify(text.slice(0, end), lang);
        return this.windows.map((w) => {
          const from = starts[w.start - 1]!;
          return all.subarray(from, from + w.text.length);
        });
      }
    }
    // Past the budget (or without the file's text) each hunk is tokenized alone; the unchanged
    // lines around it are read as code (tokenizing them too would cost four times as much).
    this.reading = "hunk";
    return this.windows.map((w, i) => {
      const classes = new Uint8Array(w.text.length);
      classes.set(classify(this.hunks[i]!.text, lang), w.from);
      return classes;
    });
  }
}

/** Larger files are classified hunk by hunk (about 0.1 s of tokenizing at this size). */
const MAX_TOKENIZED_CHARS = 512 * 1024;

/**
 * Whole-file context is bounded per review (about 0.35 s of tokenizing TypeScript), so a 3,000-file change
 * stays fast: files past the budget are classified hunk by hunk, and the report names them.
 */
export const CONTEXT_BUDGET_CHARS = 512 * 1024;

/** Lines tokenized past the last hunk (more than a window's): a string the hunk opens closes within them, usually. */
const SLACK_LINES = 40;

interface TokenizingBudget {
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
