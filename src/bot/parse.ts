// Reads `/acceptance ...` commands out of a PR comment. A command counts only where a person
// wrote it as a command: at the start of a line of ordinary text. Text shown rather than said is
// skipped, so quoting someone's command, pasting our own help, or documenting the syntax in a
// code block never starts a run: fenced code (``` and ~~~), indented code, blockquotes and HTML
// comments (invisible in the rendered comment, so nobody reviewing it would see the command).

/** Subject names as the inventory allows them (src/inventory/schema.ts). */
const SUBJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** More subjects than any inventory needs on one line is a paste accident, not a request. */
const MAX_SUBJECTS = 20;

export type Command =
  | { kind: "run"; subjects: string[]; line: number }
  | { kind: "help"; line: number; problem?: string };

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const COMMAND = /^ {0,3}\/acceptance(?=\s|$)(.*)$/i;

/** Commands in the order written; `line` is 1-based. Empty for a comment without one. */
export function parseCommands(body: string): Command[] {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const commands: Command[] = [];
  let fence: { char: string; length: number } | null = null;
  let inHtmlComment = false;
  let inQuote = false;

  lines.forEach((raw, i) => {
    let text = raw;
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
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
    const open = FENCE_OPEN.exec(text);
    // A backtick fence's info string cannot contain a backtick (CommonMark), so ```x``` is inline.
    if (open?.[1] && !(open[1][0] === "`" && open[2]?.includes("`"))) {
      fence = { char: open[1][0]!, length: open[1].length };
      inQuote = false;
      return;
    }
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
    case "run": {
      const bad = args.find((a) => !SUBJECT_NAME.test(a));
      if (bad !== undefined) return { kind: "help", line, problem: `${bad} is not a subject name` };
      if (args.length > MAX_SUBJECTS)
        return { kind: "help", line, problem: `more than ${MAX_SUBJECTS} subjects named` };
      return { kind: "run", subjects: [...new Set(args)], line };
    }
    default:
      return { kind: "help", line, problem: `unknown command ${verb}` };
  }
}
