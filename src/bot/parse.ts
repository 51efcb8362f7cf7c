// Reads `/acceptance ...` commands out of a PR comment. A command counts only where a person
// wrote it as a command: at the start of a line of ordinary text. Anything rendered but not
// said is skipped, so quoting someone's command, pasting our own help, or documenting the syntax
// never starts a run: fenced code (``` and ~~~) at any nesting (inside list items and quotes
// too), indented code, blockquotes, HTML comments (invisible), and any HTML: a line that starts
// an HTML block (`<pre>`, `<code>`, `<details>`, ... up to the blank line that ends it) and every
// line inside an element left open (`<pre>`, `<code>`, `<details>` content, hidden until
// expanded). Erring on the side of ignoring is safe: a missed command gets no run, never a wrong
// one (docs/security.md).

/** Subject names as the inventory allows them (src/inventory/schema.ts). */
const SUBJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** More subjects than any inventory needs on one line is a paste accident, not a request. */
const MAX_SUBJECTS = 20;
/**
 * A named commit is its full SHA (40 hex, 64 in a SHA-256 repository). A short one is refused:
 * a commit whose SHA starts with the reviewed one's 7 or 12 characters takes seconds to hours
 * to make, so `@abc1234` could pin a commit nobody saw. (A full SHA is also longer than any
 * GitHub login, so `@<sha>` never mentions anyone.)
 */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export type Command =
  /** `sha`: the commit the maintainer named (`@<sha>`), lower case; absent for a bare command. */
  | { kind: "run"; subjects: string[]; line: number; sha?: string }
  | { kind: "help"; line: number; problem?: string };

/** Block-quote and list-item markers before a line's content, so fences nested in them are seen. */
const CONTAINERS = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*/;
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const COMMAND = /^ {0,3}\/acceptance(?=\s|$)(.*)$/i;
/** A line that opens an HTML block (CommonMark types 1-7 all start with `<` + a tag, `!` or `?`). */
const HTML_BLOCK_START = /^ {0,3}<(?:[A-Za-z][A-Za-z0-9-]*|\/[A-Za-z][A-Za-z0-9-]*|[!?])/;
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** Commands in the order written; `line` is 1-based. Empty for a comment without one. */
export function parseCommands(body: string): Command[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const commands: Command[] = [];
  let fence: { char: string; length: number } | null = null;
  let inHtmlComment = false;
  let inQuote = false;
  let inHtmlBlock = false;
  let openElements = 0;

  lines.forEach((raw, i) => {
    let text = raw;
    if (fence) {
      const close = /^(`{3,}|~{3,})\s*$/.exec(text.replace(CONTAINERS, ""));
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      return;
    }
    if (inHtmlComment) {
      const end = text.indexOf("-->");
      if (end < 0) return;
      inHtmlComment = false;
      text = text.slice(end + 3);
    }
    text = stripHtmlComments(text);
    if (text.includes("<!--")) {
      inHtmlComment = true;
      text = text.slice(0, text.indexOf("<!--"));
    }
    const open = FENCE_OPEN.exec(text.replace(CONTAINERS, ""));
    // A backtick fence's info string cannot contain a backtick (CommonMark), so ```x``` is inline.
    if (open?.[1] && !(open[1][0] === "`" && open[2]?.includes("`"))) {
      fence = { char: open[1][0]!, length: open[1].length };
      inQuote = false;
      return;
    }
    // Inside an element left open on an earlier line (<pre>, <code>, <details>): shown, not said.
    const wasInside = openElements > 0;
    openElements = Math.max(0, openElements + elementDepthChange(text));
    if (wasInside) return;
    // An HTML block runs to the next blank line; its lines are HTML, not typed text.
    if (text.trim() === "") inHtmlBlock = false;
    else if (HTML_BLOCK_START.test(text)) inHtmlBlock = true;
    if (inHtmlBlock) return;
    // A line right after a quoted line continues the quote ("lazy continuation"): it renders
    // inside the blockquote, so it is quoted text too. A blank line ends the quote.
    if (text.trim() === "") inQuote = false;
    else if (/^ {0,3}>/.test(text)) inQuote = true;
    if (inQuote) return;
    // COMMAND allows at most 3 leading spaces, so indented code (4+ spaces or a tab) never matches.
    const m = COMMAND.exec(text);
    if (m) commands.push(readCommand(m[1] ?? "", i + 1));
  });
  return commands;
}

/** Opened minus closed HTML elements on a line (code spans and void or self-closed tags aside). */
function elementDepthChange(text: string): number {
  let depth = 0;
  for (const m of text.replace(/`+[^`]*`+/g, "").matchAll(/<(\/?)([A-Za-z][A-Za-z0-9-]*)\b[^<>]*?(\/?)>/g)) {
    if (VOID_ELEMENTS.has(m[2]!.toLowerCase()) || m[3]) continue;
    depth += m[1] ? -1 : 1;
  }
  return depth;
}

function stripHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "");
}

function readCommand(rest: string, line: number): Command {
  const words = rest.trim().split(/\s+/).filter(Boolean);
  const [verb, ...args] = words;
  if (verb === undefined) return { kind: "help", line, problem: "no command given" };
  switch (verb.toLowerCase()) {
    case "help":
      return { kind: "help", line };
    case "run":
      return readRun(args, line);
    default:
      return { kind: "help", line, problem: `unknown command ${verb}` };
  }
}

/** `run [@<sha>] [subject ...]`: the commit may be named anywhere among the subjects, once. */
function readRun(args: string[], line: number): Command {
  const named = args.filter((a) => a.startsWith("@"));
  const subjects = args.filter((a) => !a.startsWith("@"));
  const problem = (text: string): Command => ({ kind: "help", line, problem: text });
  if (named.length > 1) return problem("more than one commit named");
  const sha = named[0]?.slice(1);
  if (sha !== undefined && !FULL_SHA.test(sha)) {
    return problem(
      /^[0-9a-f]{4,}$/i.test(sha)
        ? `@${sha} is not a full commit SHA (name all 40 characters: a short one can match another commit)`
        : `@${sha} is not a commit SHA`,
    );
  }
  const hexWord = subjects.find((a) => FULL_SHA.test(a));
  if (hexWord !== undefined) return problem(`${hexWord} looks like a commit: name it as @${hexWord}`);
  const bad = subjects.find((a) => !SUBJECT_NAME.test(a));
  if (bad !== undefined) return problem(`${bad} is not a subject name`);
  if (subjects.length > MAX_SUBJECTS) return problem(`more than ${MAX_SUBJECTS} subjects named`);
  return { kind: "run", subjects: [...new Set(subjects)], line, ...(sha ? { sha: sha.toLowerCase() } : {}) };
}
