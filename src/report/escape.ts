// Untrusted text (file names, log excerpts, messages, subject names) on its way into markdown.
// Everything from a report is untrusted: a subject's logs and a fork's inventory are written by
// whoever opened the pull request. The rules:
//  - HTML is entity-escaped, so input can never open or close a tag (<details>, <img onerror>),
//    start an HTML comment or forge our hidden marker (`<!-- docker-acceptance:... -->`).
//  - Inline text has markdown punctuation backslash-escaped and newlines folded, so it stays in
//    its table cell or list item and cannot start a heading, link, image or table column.
//  - Multi-line text (logs) goes into <pre> with entities, not a ``` fence: there is no fence
//    to close from inside, and markdown is not parsed in a <pre> block.
//  - `@name` and `@org/team` get a zero-width joiner after the `@`, so GitHub notifies nobody.
//  - Issue and commit references (`#6`, `owner/repo#5`, `GH-5`, a 7-40 digit hex SHA) get one
//    too, so untrusted text cannot link, or appear to vouch for, another issue or commit.
//  - Code shown inline is a <code> element, whose content markdown still parses: markdown
//    punctuation becomes numeric entities there and bare URLs and `www.` are broken, so a
//    `[Sign in](https://evil.example)` in a name can never become a live link.
//  - Control and bidirectional-override characters are removed (terminal escapes, Trojan Source).

const ZWJ = "\u200d";

const CONTROL =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function stripControl(text: string): string {
  return text.replace(CONTROL, "");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** `@x` → `@\u200dx`: still readable, no notification, no team ping. */
function defuseMentions(text: string): string {
  return text.replace(/@(?=[A-Za-z0-9_-])/g, `@${ZWJ}`);
}

/**
 * Breaks what GFM would autolink (`https://…`, `www.…`): a link in our comment would carry the
 * project's credibility to whatever a subject's log points at.
 */
function defuseLinks(text: string): string {
  return text.replace(/:\/\//g, `:${ZWJ}//`).replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWJ}.`);
}

/**
 * Breaks what GitHub turns into issue and commit links: `#6`, `owner/repo#5`, `GH-5`, and hex
 * runs of 7 to 40 characters (a commit SHA). Applied to untrusted text only: our own SHAs are
 * rendered in code spans, where GitHub links nothing.
 */
function defuseReferences(text: string): string {
  return text
    .replace(/#(?=\d)/g, `#${ZWJ}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1${ZWJ}-`)
    .replace(/\b[0-9a-f]{7,40}\b/gi, (sha) => `${sha.slice(0, 6)}${ZWJ}${sha.slice(6)}`);
}

/** Cuts to at most `max` UTF-16 units, never splitting a surrogate pair, marking the cut. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

// The punctuation that can start emphasis, code, links, images, strikethrough or a table column.
// Line-start syntax (`#`, `-`, `1.`, `>`) cannot occur: inline text never starts a line.
const MD_PUNCT = /[\\`*_[\]!|~]/g;

/**
 * One line of untrusted text for a paragraph, list item or table cell. `max` bounds the
 * source length before escaping (the escaped result may be longer).
 */
export function escapeInline(text: string, max = 500): string {
  const flat = stripControl(text).replace(/\r\n|\r|\n|\t/g, " ");
  return defuseReferences(
    defuseLinks(defuseMentions(escapeHtml(truncate(flat, max)).replace(MD_PUNCT, (c) => `\\${c}`))),
  );
}

/**
 * Like escapeInline, but `code spans` in the text (our remediations name Dockerfile lines that
 * way) are kept as code, each escaped through inlineCode, so nothing else changes meaning.
 */
export function escapeInlineWithCode(text: string, max = 500): string {
  const flat = truncate(stripControl(text).replace(/\r\n|\r|\n|\t/g, " "), max);
  const out: string[] = [];
  let last = 0;
  for (const m of flat.matchAll(/`([^`]{1,200})`/g)) {
    out.push(escapeInline(flat.slice(last, m.index), max), inlineCode(m[1]!, 200));
    last = m.index + m[0].length;
  }
  out.push(escapeInline(flat.slice(last), max));
  return out.join("");
}

/** Text inside an HTML element such as <summary>, where markdown is not parsed. */
export function htmlText(text: string, max = 200): string {
  const flat = stripControl(text).replace(/\r\n|\r|\n|\t/g, " ");
  return defuseReferences(defuseLinks(defuseMentions(escapeHtml(truncate(flat, max)))));
}

// Inside <code> markdown is still parsed (it is inline HTML, not a code span): every character
// that could start a link, image, emphasis, code span, strikethrough or table column is an entity.
const CODE_PUNCT = /[\\`*_[\]()!|~]/g;

/** Untrusted text shown as code inline: <code> with entities (no backtick run can close it). */
export function inlineCode(text: string, max = 200): string {
  const flat = stripControl(text).replace(/\r\n|\r|\n|\t/g, " ");
  // GitHub links no issue or commit reference inside <code>; `#6` is still defused, cheaply,
  // before the entities below (which contain `#` and digits) are made.
  const refs = escapeHtml(truncate(flat, max)).replace(/#(?=\d)/g, `#${ZWJ}`);
  return `<code>${defuseLinks(defuseMentions(refs)).replace(CODE_PUNCT, (c) => `&#${c.charCodeAt(0)};`)}</code>`;
}

/**
 * Multi-line untrusted text (a log excerpt) as a <pre> block. Keeps the last `maxLines` lines
 * (the end of a log is where failures are) and caps each line at `maxLineLength`.
 */
export function preBlock(text: string, opts: { maxLines?: number; maxLineLength?: number } = {}): string {
  const maxLines = opts.maxLines ?? 200;
  const maxLineLength = opts.maxLineLength ?? 400;
  let lines = stripControl(text.replace(/\r\n|\r/g, "\n").replace(/\t/g, "  ")).split("\n");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  let dropped = 0;
  if (lines.length > maxLines) {
    dropped = lines.length - maxLines;
    lines = lines.slice(-maxLines);
  }
  const body = lines.map((l) => defuseMentions(escapeHtml(truncate(l, maxLineLength)))).join("\n");
  const note = dropped > 0 ? `[${dropped} earlier line(s) not shown]\n` : "";
  // A blank line inside <pre> is fine (HTML block type 1 ends only at </pre>), but keep one
  // blank line after it so following markdown is parsed as markdown.
  return `<pre>${note}${body}</pre>\n`;
}

/**
 * A name safe inside a mermaid gantt (task or section): letters, digits and `._/-` only, since
 * `:`, `#`, `;` and newlines are mermaid syntax.
 */
export function mermaidLabel(text: string, max = 40): string {
  const safe = stripControl(text)
    .replace(/[^A-Za-z0-9 ._/-]/g, "_")
    .trim()
    .slice(0, max);
  const label = safe === "" ? "_" : safe;
  return /^(title|section|dateFormat|axisFormat|excludes|includes|todayMarker|tickInterval|weekday|gantt)\b/i.test(
    label,
  )
    ? `_${label}`
    : label;
}

/** Plain text for a check-run annotation (not markdown): control characters out, bounded. */
export function plainText(text: string, max: number): string {
  return truncate(stripControl(text.replace(/\r\n|\r/g, "\n")), max);
}
