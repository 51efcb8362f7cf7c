// Results from earlier steps of the same job, summarised into the report's Automated Checks:
// JUnit XML (any test runner) as "Tests: N passed, M skipped, K failed", and SARIF 2.1.0 (ruff,
// ESLint, most linters) as "Lint: PASS" or "Lint: N findings". Findings on lines the PR adds
// become check run annotations; the rest are counted, not annotated, so a PR is not blamed for
// code it did not touch. These files come from the workspace: read as data, never executed.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import { ConfigError } from "../errors.js";
import type { Report } from "./model.js";

export type ExternalResults = Report["external"];

interface ExternalInputs {
  /** Globs relative to the workspace (input `junit`). */
  junit: string[];
  /** Globs relative to the workspace (input `sarif`). */
  sarif: string[];
}

interface ExternalOptions {
  workspace: string;
  /** Lines the PR adds, per repository-relative path (see addedLinesFrom). */
  addedLines?: ReadonlyMap<string, ReadonlySet<number>>;
}

const SKIP_DIRS = new Set([".git", "node_modules"]);
const MAX_FILES = 200;
export const REPORT_MAX_BYTES = 64 * 1024 ** 2;
const MAX_FINDINGS = 5000;
/** Failing tests kept by name (the count covers them all); their text is bounded as it is read. */
const MAX_TEST_FAILURES = 200;
const TEST_NAME_CHARS = 300;
const TEST_MESSAGE_CHARS = 1000;

type TestFailure = NonNullable<NonNullable<ExternalResults["tests"]>["failures"]>[number];

/** Builds the added-lines map from diff files (alignment/diff.ts DiffFile has this shape). */
export function addedLinesFrom(
  files: ReadonlyArray<{ path: string; added: ReadonlyArray<{ line: number }> }>,
) {
  return new Map(files.map((f) => [f.path, new Set(f.added.map((a) => a.line))] as const));
}

export async function readExternalResults(
  inputs: ExternalInputs,
  opts: ExternalOptions,
): Promise<ExternalResults> {
  const out: ExternalResults = {};
  const junit = inputs.junit.filter((g) => g.trim() !== "");
  const sarif = inputs.sarif.filter((g) => g.trim() !== "");
  if (junit.length === 0 && sarif.length === 0) return out;
  const all = await walk(opts.workspace);
  if (junit.length > 0) {
    const files = match(all, junit, "junit");
    const tests = { passed: 0, skipped: 0, failed: 0, files, failures: [] as TestFailure[] };
    for (const f of files) {
      const c = parseJUnit(await readReport(opts.workspace, f), f, opts.workspace);
      tests.passed += c.passed;
      tests.skipped += c.skipped;
      tests.failed += c.failed;
      tests.failures.push(...c.failures.slice(0, MAX_TEST_FAILURES - tests.failures.length));
    }
    out.tests = tests;
  }
  if (sarif.length > 0) {
    const files = match(all, sarif, "sarif");
    const findings: NonNullable<ExternalResults["lint"]>["findings"] = [];
    for (const f of files) {
      for (const finding of parseSarif(await readReport(opts.workspace, f), f, opts.workspace)) {
        if (findings.length >= MAX_FINDINGS) break;
        const added = finding.line !== undefined && opts.addedLines?.get(finding.path)?.has(finding.line);
        findings.push(opts.addedLines ? { ...finding, onAddedLine: Boolean(added) } : finding);
      }
    }
    out.lint = { findings, files };
  }
  return out;
}

/** A JUnit or SARIF file's text, when it is a size a report can be: the job's steps wrote it. */
async function readReport(workspace: string, file: string): Promise<string> {
  const full = path.join(workspace, file);
  const { size } = await stat(full);
  if (size > REPORT_MAX_BYTES)
    throw new ConfigError(
      [
        {
          path: "",
          message: `is ${(size / 1024 ** 2).toFixed(1)} MiB; a test or lint report is read up to ${REPORT_MAX_BYTES / 1024 ** 2} MiB`,
          fix: "point the input at a smaller report (one per test suite or per tool)",
        },
      ],
      file,
    );
  return readFile(full, "utf8");
}

function match(all: string[], globs: string[], input: "junit" | "sarif"): string[] {
  const isMatch = picomatch(globs, { dot: true });
  const files = all.filter((f) => isMatch(f)).slice(0, MAX_FILES);
  if (files.length === 0) {
    throw new ConfigError(
      [
        {
          path: input,
          message: `no file in the workspace matches ${globs.map((g) => JSON.stringify(g)).join(", ")}`,
          fix: `check the glob is relative to the workspace and that the step writing the ${input === "junit" ? "JUnit XML" : "SARIF"} ran before this one, or remove the \`${input}\` input`,
        },
      ],
      "action input",
    );
  }
  return files;
}

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  async function visit(rel: string): Promise<void> {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await visit(p);
      } else if (e.isFile()) out.push(p);
    }
  }
  await visit("");
  return out.sort();
}

// ---- JUnit -----------------------------------------------------------------------------------

/**
 * Counts test cases by outcome (`<failure>` or `<error>` failed, `<skipped>` skipped, else passed)
 * and keeps each failing one by name with its message, as test reporters list them. The file
 * may come from the pull request's own tests: its text is data, bounded and escaped where shown,
 * and read in one pass: an unclosed comment, CDATA section, test case or failure costs what its
 * own length does, never that length again for each one after it (as a backtracking pattern did).
 */
function parseJUnit(
  xml: string,
  file: string,
  workspace = "",
): { passed: number; skipped: number; failed: number; failures: TestFailure[] } {
  const text = unmarked(xml);
  if (!/<(testsuites|testsuite|testcase)\b/.test(text)) {
    throw new ConfigError(
      [
        {
          path: "",
          message: "not JUnit XML (no <testsuites>, <testsuite> or <testcase>)",
          fix: "point `junit` at the test runner's JUnit XML report",
        },
      ],
      file,
    );
  }
  const c = { passed: 0, skipped: 0, failed: 0, failures: [] as TestFailure[] };
  for (const t of elements(text, "testcase")) {
    const outcome = firstOutcome(t.body);
    if (outcome) {
      c.failed++;
      if (c.failures.length < MAX_TEST_FAILURES)
        c.failures.push(testFailure(t.attrs, outcome, file, workspace));
    } else if (/<skipped\b/.test(t.body)) c.skipped++;
    else c.passed++;
  }
  return c;
}

/** An element as read: its attribute text and its content ("" when it closes itself). */
interface Element {
  name: string;
  /** Where its start tag begins. */
  at: number;
  attrs: string;
  body: string;
}

/**
 * The next index of `needle` at or after a position that only grows: each call resumes where the
 * last search ended, so all of them together read the text once.
 */
function finder(text: string, needle: string): (from: number) => number {
  let at = -2;
  return (from) => {
    if (at === -1 || at >= from) return at;
    at = text.indexOf(needle, from);
    return at;
  };
}

/** Comments dropped, CDATA (free text: a log may say "<failure") kept as escaped text. */
function unmarked(xml: string): string {
  const comment = finder(xml, "<!--");
  const cdata = finder(xml, "<![CDATA[");
  const commentEnd = finder(xml, "-->");
  const cdataEnd = finder(xml, "]]>");
  const out: string[] = [];
  let i = 0;
  for (;;) {
    const c = comment(i);
    const d = cdata(i);
    if (c < 0 && d < 0) break;
    const isComment = d < 0 || (c >= 0 && c < d);
    const open = isComment ? c : d;
    const close = isComment ? commentEnd(open + 4) : cdataEnd(open + 9);
    out.push(xml.slice(i, open));
    if (close < 0) return out.join(""); // unclosed: the rest is inside it
    if (!isComment)
      out.push(
        xml
          .slice(open + 9, close)
          .replace(/&/g, "&amp;")
          .replace(/</g, "&lt;"),
      );
    i = close + 3;
  }
  out.push(xml.slice(i));
  return out.join("");
}

const WORD = /\w/;

/**
 * The end of a start tag whose name ends at `from`: the index of its first `>` outside quotes
 * (attribute values may hold `>`), or -1 when it has none (an unclosed quote ends the tag there).
 */
function tagEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === ">") return i;
    if (ch === '"' || ch === "'") {
      const q = text.indexOf(ch, i + 1);
      if (q < 0) return -1;
      i = q;
    }
  }
  return -1;
}

/** Every `<name …/>` or `<name …>…</name>` of the text, in order; one not closed is skipped. */
function* elements(text: string, name: string): Generator<Element> {
  const open = finder(text, `<${name}`);
  const close = finder(text, `</${name}`);
  for (let i = 0; ; ) {
    const at = open(i);
    if (at < 0) return;
    const after = at + name.length + 1;
    i = after;
    if (WORD.test(text[after] ?? "")) continue;
    const gt = tagEnd(text, after);
    if (gt < 0) continue;
    if (text[gt - 1] === "/") {
      yield { name, at, attrs: text.slice(after, gt - 1), body: "" };
      i = gt + 1;
      continue;
    }
    const end = closingTag(text, close, name, gt + 1);
    if (!end) continue;
    yield { name, at, attrs: text.slice(after, gt), body: text.slice(gt + 1, end.start) };
    i = end.end;
  }
}

/** The first `</name\s*>` at or after `from`: where it starts and ends. */
function closingTag(
  text: string,
  close: (from: number) => number,
  name: string,
  from: number,
): { start: number; end: number } | undefined {
  for (let at = close(from); at >= 0; at = close(at + 1)) {
    let j = at + name.length + 2;
    while (/\s/.test(text[j] ?? "")) j++;
    if (text[j] === ">") return { start: at, end: j + 1 };
  }
  return undefined;
}

/** A test case's first `<failure>` or `<error>`, whichever comes first. */
function firstOutcome(body: string): Element | undefined {
  if (!body.includes("<failure") && !body.includes("<error")) return undefined;
  const failure = elements(body, "failure").next().value;
  const error = elements(body, "error").next().value;
  if (!failure || !error) return failure ?? error ?? undefined;
  return failure.at < error.at ? failure : error;
}

/** One failing test: "classname > name", its message (else its text's first line), where it is. */
function testFailure(attrs: string, outcome: Element, file: string, workspace: string): TestFailure {
  const a = xmlAttributes(attrs);
  const o = xmlAttributes(outcome.attrs);
  const name = [a.classname, a.name].filter(Boolean).join(" > ") || "(unnamed test)";
  const detail = xmlText(outcome.body.slice(0, TEXT_READ_CHARS)).trim().split(/\r?\n/, 1)[0] ?? "";
  const message = o.message?.trim() || detail || o.type || outcome.name;
  const where = a.file ? relativePath(a.file, workspace) : "";
  const line = Number(a.line);
  const inside = where !== "" && !where.startsWith("../") && !path.isAbsolute(where);
  return {
    name: bounded(name, TEST_NAME_CHARS),
    message: bounded(message, TEST_MESSAGE_CHARS),
    file,
    ...(inside ? { path: where } : {}),
    ...(inside && Number.isInteger(line) && line > 0 ? { line } : {}),
  };
}

const bounded = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** How much of a failure's text or an attribute is read: far more than any message shown keeps. */
const TEXT_READ_CHARS = 64 * 1024;

/** `name="value"` pairs in one pass; text that is not one is stepped over whole. */
function xmlAttributes(attrs: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pair = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')|[\w:.-]+|[^\w:.-]/y;
  // Every character starts one of the three: the sticky pattern steps through to the end.
  for (let m = pair.exec(attrs); m; m = pair.exec(attrs))
    if (m[1]) out[m[1]] = xmlText((m[2] ?? m[3] ?? "").slice(0, TEXT_READ_CHARS));
  return out;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML text with its markup dropped and its five entities and character references read. */
function xmlText(text: string): string {
  return text.replace(/<[^<>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, ref: string) => {
    if (ref[0] !== "#") return ENTITIES[ref] ?? all;
    const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

// ---- SARIF -----------------------------------------------------------------------------------

type SarifLevel = "error" | "warning" | "note";

interface SarifFinding {
  path: string;
  line?: number;
  rule: string;
  message: string;
  level: SarifLevel;
}

type Obj = Record<string, unknown>;
const objOf = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
const arrOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * SARIF 2.1.0 results as real producers write them (ESLint, Biome, CodeQL, ruff):
 *  - only `kind: fail` (the default), `review` and `open` are findings; `pass`,
 *    `informational` and `notApplicable` are not;
 *  - `level` from the result, else its rule's defaultConfiguration, else `warning` (`none` is a note);
 *  - the location from `artifactLocation.uri`, or by `index` into `run.artifacts` (CodeQL),
 *    percent-decoded and resolved against `uriBaseId` via `run.originalUriBaseIds`;
 *  - suppressed only by a suppression `accepted` (or without a status): `underReview` and
 *    `rejected` do not suppress;
 *  - `baselineState: absent` results (gone since the baseline) are not counted.
 */
export function parseSarif(text: string, file: string, workspace: string): SarifFinding[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(
      [
        {
          path: "",
          message: `not JSON (${err instanceof Error ? err.message : String(err)})`,
          fix: "point `sarif` at a SARIF 2.1.0 file",
        },
      ],
      file,
    );
  }
  const runs = (doc as { runs?: unknown }).runs;
  if (!Array.isArray(runs)) {
    throw new ConfigError(
      [
        {
          path: "runs",
          message: "missing: this is not a SARIF log",
          fix: "point `sarif` at a SARIF 2.1.0 file",
        },
      ],
      file,
    );
  }
  const out: SarifFinding[] = [];
  for (const run of runs.map(objOf)) {
    if (!run) continue;
    for (const r of arrOf(run.results).map(objOf)) {
      if (!r || !isFinding(r)) continue;
      const loc = objOf(objOf(arrOf(r.locations)[0])?.physicalLocation);
      const line = objOf(loc?.region)?.startLine;
      const message = objOf(r.message) ?? {};
      out.push({
        path: locationPath(objOf(loc?.artifactLocation), run, workspace),
        ...(typeof line === "number" && Number.isInteger(line) && line > 0 ? { line } : {}),
        rule: ruleId(r, run).slice(0, 200),
        message: String(message.text ?? message.markdown ?? "").slice(0, 1000),
        level: levelOf(r, run),
      });
    }
  }
  return out;
}

function isFinding(r: Obj): boolean {
  const kind = typeof r.kind === "string" ? r.kind : "fail";
  if (!["fail", "review", "open"].includes(kind)) return false;
  if (r.baselineState === "absent") return false;
  const suppressions = arrOf(r.suppressions).map(objOf);
  // Suppressed when any suppression stands: accepted, or no status given (the spec's default).
  return !suppressions.some((s) => s && (s.status === undefined || s.status === "accepted"));
}

function ruleOf(r: Obj, run: Obj): Obj | undefined {
  const rules = arrOf(objOf(objOf(run.tool)?.driver)?.rules);
  const index = typeof r.ruleIndex === "number" ? r.ruleIndex : objOf(r.rule)?.index;
  if (typeof index === "number") return objOf(rules[index]);
  const id = typeof r.ruleId === "string" ? r.ruleId : objOf(r.rule)?.id;
  return rules.map(objOf).find((x) => x?.id === id);
}

function ruleId(r: Obj, run: Obj): string {
  if (typeof r.ruleId === "string") return r.ruleId;
  const id = objOf(r.rule)?.id ?? ruleOf(r, run)?.id;
  return typeof id === "string" ? id : "unknown";
}

function levelOf(r: Obj, run: Obj): SarifLevel {
  const level = r.level ?? objOf(ruleOf(r, run)?.defaultConfiguration)?.level ?? "warning";
  return level === "error" || level === "note" ? level : level === "none" ? "note" : "warning";
}

/** The artifact's path relative to the workspace, from its uri or its index into run.artifacts. */
function locationPath(artifact: Obj | undefined, run: Obj, workspace: string): string {
  let a = artifact;
  if (a && typeof a.uri !== "string" && typeof a.index === "number") {
    const listed = objOf(objOf(arrOf(run.artifacts)[a.index])?.location);
    a = listed ? { ...listed, ...a, uri: listed.uri, uriBaseId: a.uriBaseId ?? listed.uriBaseId } : a;
  }
  if (!a || typeof a.uri !== "string") return "";
  return relativePath(resolveBase(a.uri, a.uriBaseId, run), workspace);
}

/** Prefixes the uri with its uriBaseId's uri (originalUriBaseIds), following chained bases. */
function resolveBase(uri: string, baseId: unknown, run: Obj, depth = 0): string {
  if (typeof baseId !== "string" || /^[a-z][a-z0-9+.-]*:/i.test(uri) || depth > 5) return uri;
  const base = objOf(objOf(run.originalUriBaseIds)?.[baseId]);
  if (!base || typeof base.uri !== "string") return uri; // e.g. %SRCROOT% unmapped: the repository root
  const prefix = base.uri.endsWith("/") ? base.uri : `${base.uri}/`;
  return resolveBase(`${prefix}${uri}`, base.uriBaseId, run, depth + 1);
}

/** `file:///ws/src/a.py` or `src/a.py` → `src/a.py`, relative to the workspace, `/` separated. */
function relativePath(uri: string, workspace: string): string {
  let p = uri;
  if (p.startsWith("file:")) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      p = p.replace(/^file:(\/\/)?/, "");
    }
  } else {
    // A relative URI reference: percent-encoded like any URI (`my%20dir/a.ts`).
    try {
      p = decodeURIComponent(p);
    } catch {
      // Not valid percent-encoding: keep it as written.
    }
  }
  if (path.isAbsolute(p)) p = path.relative(workspace, p);
  return p.split(path.sep).join("/").replace(/^\.\//, "");
}
