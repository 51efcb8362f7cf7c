// Findings from a diff: pure, synchronous, no I/O, so the bench can feed it synthetic diffs.
// One entry per rule (or RFC) per change, at the rule's level: blocking (Tier 1, fails the run),
// discussion (Tier 2) or advisory (a note that never fails). Every line a finding names is a line
// the PR added; suppressions count only when they already exist at the base.
import picomatch from "picomatch";
import { rfcLabel } from "../report/labels.js";
import type { Finding, FindingLevel } from "../report/model.js";
import type { CodeOwners } from "./codeowners.js";
import { type AlignmentConfig, type PathRule, principleLevel, type Target } from "./config.js";
import type { DiffFile } from "./diff.js";
import { FindingCollector, type FindingHead } from "./findings.js";
import {
  CONTEXT_BUDGET_CHARS,
  compileHunkPattern,
  FileReader,
  hunksOf,
  matches,
  matchLines,
} from "./match.js";
import { checkPullRequest, type PullRequestMeta } from "./pull.js";
import { isRfcFile, type Rfc, rfcDir } from "./rfcs.js";

export interface AnalysisContext {
  rfcs: Rfc[];
  codeowners: CodeOwners;
  /** The alignment config's own path (repository-relative): always protected, so a PR cannot quietly rewrite its rules. */
  configPath?: string;
  /** New text of changed files: a hunk is then tokenized in its file's context (strings spanning lines). */
  texts?: ReadonlyMap<string, string>;
  /**
   * Text of changed files at the base. An allow comment counts only when its line is already
   * there; undefined: the base is not at hand, so no allow comment counts.
   */
  baseTexts?: ReadonlyMap<string, string>;
  /** The config was read at the base: its `allow` entries count (else the PR could grant them). */
  configFromBase?: boolean;
  /** The pull request's title, body, labels and branches, when known. */
  pull?: PullRequestMeta;
}

interface OpenRfcContext {
  number: string;
  title: string;
  status: string;
  /** The PR's files that fall under the RFC's affected paths. */
  paths: string[];
}

interface CleanCheck {
  kind: string;
  id: string;
  title: string;
}

export interface Analysis {
  findings: Finding[];
  openRfcs: OpenRfcContext[];
  notes: string[];
  /** What was checked and found nothing. */
  clean: CleanCheck[];
}

interface ContentRule {
  key: string;
  id: string;
  kind: "principle" | "debug";
  head: FindingHead;
  applies: (path: string) => boolean;
  patterns: RegExp[];
  target: Target;
  /** Only files with these extensions (the built-in debug checks). */
  ext?: ReadonlySet<string>;
  /** Per-line owner suggestion: the rule names none. */
  ownersFallback: boolean;
}

const JS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"]);
const PY = new Set([".py", ".pyi", ".pyw"]);

/** Built-in leftover-debugging checks: code only (never a string or comment), by language. */
const DEBUG_CHECKS = [
  {
    id: "debug.console-log",
    label: "console.log",
    re: String.raw`\bconsole\.(?:log|debug|trace)\s*\(`,
    ext: JS,
  },
  { id: "debug.debugger", label: "debugger", re: String.raw`(?:^|[;{}\s])debugger\s*;?\s*$`, ext: JS },
  { id: "debug.print", label: "print(", re: String.raw`(?:^|[^\w.])print\s*\(`, ext: PY },
  { id: "debug.breakpoint", label: "breakpoint()", re: String.raw`\bbreakpoint\s*\(\s*\)`, ext: PY },
  {
    id: "debug.pdb",
    label: "pdb",
    re: String.raw`\b(?:import\s+i?pdb\b|i?pdb\.set_trace\s*\(|from\s+i?pdb\s+import\b)`,
    ext: PY,
  },
] as const;

const CONFLICT_START = /^(?:<{7}|>{7})(?: |$)/;
const CONFLICT_BASE = /^\|{7}(?: |$)/;
const CONFLICT_MID = /^={7}$/;

const MAX_OPEN_RFC_PATHS = 20;
/** Files named in a note before "…". */
const NOTE_FILES = 5;

function extOf(path: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : "";
}

function matcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch(globs as string[], { dot: true });
}

function scoped(paths: readonly string[], exclude: readonly string[]): (path: string) => boolean {
  const inc = matcher(paths);
  const exc = matcher(exclude);
  return (p) => inc(p) && !exc(p);
}

/** The path, or the path it was renamed from, matches. */
function touches(file: DiffFile, test: (path: string) => boolean): boolean {
  return test(file.path) || (file.previousPath !== undefined && test(file.previousPath));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The kinds counted by name in the summary, so a count says what it counts. */
const COUNTED: [string, (f: Finding) => boolean][] = [
  ["touches open RFC", (f) => f.kind === "rfc-open-change"],
  ["RFC numbering conflicts", (f) => f.kind === "rfc-number-taken" || f.kind === "rfc-duplicate-number"],
  ["protected path changed", (f) => f.kind === "protected-path" || f.kind === "path-rule"],
];

/** "1 blocking, 2 for discussion, 0 advisory; touches open RFC: 1, protected path changed: 1" (entries, not lines). */
export function summarise(findings: readonly Finding[]): string {
  const count = (l: FindingLevel) =>
    findings.filter((f) => (f.level ?? (f.tier === 1 ? "blocking" : "discussion")) === l).length;
  const head = `${count("blocking")} blocking, ${count("discussion")} for discussion, ${count("advisory")} advisory`;
  const kinds = COUNTED.map(([name, is]) => [name, findings.filter(is).length] as const)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name}: ${n}`);
  return kinds.length > 0 ? `${head}; ${kinds.join(", ")}` : head;
}

export function analyseFiles(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
): Analysis {
  const out = new FindingCollector();
  const notes: string[] = [];
  const owners = (path: string) => ctx.codeowners.ownersOf(path);
  const suppress = new Suppressions(config, ctx);

  pathFindings(files, config, ctx, out);
  const openRfcs = rfcFindings(files, config, ctx, out);
  coChangeFindings(files, config, out);
  contentFindings(files, config, ctx, out, notes, suppress, owners);
  for (const f of registryFindings(files, config, ctx, notes)) {
    out.add(`rfc-number:${f.head.ref}:${f.head.kind}`, f.head, f.path, f.line);
  }

  const size = { files: files.length, addedLines: files.reduce((n, f) => n + f.added.length, 0) };
  const pull = checkPullRequest(config.pull, ctx.pull, size);
  for (const f of pull.findings) out.add(f.key, f.head, undefined);
  notes.push(...pull.notes, ...suppress.notes());

  const findings = out.findings();
  return {
    findings,
    openRfcs,
    notes,
    clean: cleanChecks(config, ctx, findings, pull.clean),
  };
}

// --- paths -----------------------------------------------------------------------------------------

/** The legacy `protected` globs (and the config itself) as one rule; object entries as their own. */
function pathRules(config: AlignmentConfig, configPath: string | undefined): PathRule[] {
  const globs = config.protected.filter((p): p is string => typeof p === "string");
  const legacy: PathRule = {
    id: "protected",
    title: "Protected path changed",
    paths: configPath ? [...globs, configPath] : globs,
    exclude: [],
    message: "Changes here alter what acceptance means or how it runs; a maintainer should review them.",
    level: "discussion",
    reviewers: [],
  };
  const rules = config.protected.filter((p): p is PathRule => typeof p !== "string");
  return legacy.paths.length > 0 ? [legacy, ...rules] : rules;
}

function pathFindings(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
  out: FindingCollector,
) {
  for (const rule of pathRules(config, ctx.configPath)) {
    const test = scoped(rule.paths, rule.exclude);
    for (const file of files) {
      if (!touches(file, test)) continue;
      out.add(
        `path:${rule.id}`,
        {
          level: rule.level,
          kind: rule.id === "protected" ? "protected-path" : "path-rule",
          title: rule.title ?? `Changes under ${rule.paths.join(", ")}`,
          concern: rule.message ?? "A maintainer should review changes here.",
          reviewers: rule.reviewers.length > 0 ? rule.reviewers : ctx.codeowners.ownersOf(file.path),
          rule: rule.id,
        },
        file.path,
        file.added[0]?.line,
      );
    }
  }
}

function rfcFindings(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
  out: FindingCollector,
): OpenRfcContext[] {
  const context: OpenRfcContext[] = [];
  for (const r of ctx.rfcs) {
    if (!r.open || r.affects.length === 0) continue;
    const test = matcher(r.affects);
    const touched = files.filter((f) => touches(f, test));
    if (touched.length === 0) continue;
    for (const file of touched) {
      out.add(
        `rfc-open:${r.number}`,
        {
          level: config.rfcs.level,
          kind: "rfc-open-change",
          title: `Touches open ${rfcLabel(r.number, r.title)} (${statusOf(r)})`,
          concern:
            r.statusInChange === undefined
              ? `RFC ${r.number} is ${r.status} and proposes changes to these files; check this change agrees with it, or wait for its outcome.`
              : `RFC ${r.number} is ${r.status} and proposes changes to these files; this change marks it ${r.statusInChange} itself: check a maintainer decided that, and that the change agrees with it.`,
          reviewers: r.authors.length > 0 ? r.authors : ctx.codeowners.ownersOf(file.path),
          ref: `RFC ${r.number}`,
        },
        file.path,
        file.added[0]?.line,
      );
    }
    context.push({
      number: r.number!,
      title: r.title,
      status: statusOf(r),
      paths: touched.slice(0, MAX_OPEN_RFC_PATHS).map((f) => f.path),
    });
  }
  return context;
}

/** "In Review", or "In Review; this change marks it Accepted". */
function statusOf(r: Rfc): string {
  return r.statusInChange === undefined ? r.status : `${r.status}; this change marks it ${r.statusInChange}`;
}

function coChangeFindings(files: readonly DiffFile[], config: AlignmentConfig, out: FindingCollector) {
  for (const rule of config.cochange) {
    const when = scoped(rule.when, rule.exclude);
    const triggered = files.filter((f) => touches(f, when));
    if (triggered.length === 0) continue;
    // `{dir}`/`{stem}` in `require`: each file needs its own partner (its package's tests);
    // otherwise any file under `require` in the PR will do.
    const perFile = rule.require.some((g) => PLACEHOLDER.test(g));
    const whole = perFile ? undefined : matcher(rule.require);
    for (const file of triggered) {
      const require = whole ?? matcher(rule.require.map((g) => fillPlaceholders(g, file.path)));
      if (files.some((f) => touches(f, require))) {
        if (whole) break;
        continue;
      }
      out.add(
        `cochange:${rule.id}`,
        {
          level: rule.level,
          kind: "cochange",
          title: rule.title ?? `Changed ${rule.when.join(", ")} without ${rule.require.join(", ")}`,
          concern:
            rule.message ??
            `A change under ${rule.when.join(", ")} needs a change under ${rule.require.join(", ")} in the same pull request.`,
          reviewers: rule.reviewers,
          rule: rule.id,
        },
        file.path,
        file.added[0]?.line,
      );
    }
  }
}

const PLACEHOLDER = /\{(?:dir|stem)\}/;

/** `{dir}` -> the file's folder, `{stem}` -> its name without the extension, glob characters escaped. */
function fillPlaceholders(glob: string, path: string): string {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf(".");
  const values: Record<string, string> = {
    dir: slash < 0 ? "" : path.slice(0, slash),
    stem: dot > 0 ? name.slice(0, dot) : name,
  };
  const filled = glob.replace(/\{(dir|stem)\}/g, (_, k: string) =>
    values[k]!.replace(/[*?[\]{}()!+@\\]/g, "\\$&"),
  );
  return filled.startsWith("/") ? filled.slice(1) : filled; // a file at the root: "{dir}/x" is "x"
}

// --- content -----------------------------------------------------------------------------------------

function contentRules(config: AlignmentConfig): ContentRule[] {
  const rules: ContentRule[] = config.principles.map((p) => ({
    key: `principle:${p.id}`,
    id: p.id,
    kind: "principle",
    head: {
      level: principleLevel(p),
      kind: "principle",
      title: p.title,
      concern: p.message,
      reviewers: p.reviewers,
      ref: p.id,
      rule: p.id,
    },
    applies: scoped(p.paths, p.exclude),
    patterns: p.forbid.map(compileHunkPattern),
    target: p.target,
    ownersFallback: p.reviewers.length === 0,
  }));
  if (config.debug.enabled) {
    const ignored = matcher(config.debug.ignore);
    for (const d of DEBUG_CHECKS) {
      rules.push({
        key: `debug:${d.id}`,
        id: d.id,
        kind: "debug",
        head: {
          level: config.debug.level,
          kind: "debug-leftover",
          title: `Leftover debugging: ${d.label}`,
          concern: `Remove it before merging. Where it is intended, a maintainer adds an allow entry for ${d.id} to the config, or the line carries "${config.debug.marker}" at the base.`,
          reviewers: [],
          rule: d.id,
        },
        applies: (p) => !ignored(p),
        patterns: [compileHunkPattern(d.re)],
        target: "code",
        ext: d.ext,
        ownersFallback: false,
      });
    }
  }
  return rules;
}

function contentFindings(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
  out: FindingCollector,
  notes: string[],
  suppress: Suppressions,
  owners: (path: string) => string[],
) {
  const rules = contentRules(config);
  const budget = { chars: CONTEXT_BUDGET_CHARS };
  const byLines: string[] = [];
  const byHunk: string[] = [];
  for (const file of files) {
    if (file.added.length === 0) continue;
    const path = file.path;
    const ext = extOf(path);
    const active = rules.filter((r) => (r.ext === undefined || r.ext.has(ext)) && r.applies(path));
    conflictMarkers(file, out);
    if (active.length === 0) continue;
    const hunks = hunksOf(file.added);
    const reader = new FileReader(file, hunks, ctx.texts?.get(path), budget);
    hunks.forEach((hunk, i) => {
      const w = reader.windows[i]!;
      for (const rule of active) {
        // The raw window first: tokenizing is only worth it where a pattern can hit.
        if (!rule.patterns.some((re) => matches(re, w.text))) continue;
        const view = reader.view(rule.target, i);
        const accept = reader.accept(rule.target, i);
        const lines = new Set(rule.patterns.flatMap((re) => matchLines(re, view, w, accept)));
        for (const line of [...lines].sort((a, b) => a - b)) {
          const text = hunk.lines[line - hunk.start]!;
          if (suppress.allows(rule, file, line, text)) continue;
          const head = rule.ownersFallback ? { ...rule.head, reviewers: owners(path) } : rule.head;
          out.add(rule.key, head, path, line);
        }
      }
    });
    if (reader.reading === "lines") byLines.push(path);
    else if (reader.reading === "hunk") byHunk.push(path);
  }
  if (byLines.length > 0) {
    const exts = [...new Set(byLines.map((p) => extOf(p) || p.slice(p.lastIndexOf("/") + 1)))];
    notes.push(
      `${plural(byLines.length, "file")} matched line by line, no tokenizer for ${exts.slice(0, 8).join(", ")}: rules for code, comments or strings saw every character there (${listed(byLines)})`,
    );
  }
  if (byHunk.length > 0) {
    notes.push(
      `${plural(byHunk.length, "file")} tokenized hunk by hunk (the file's text at the head was not at hand, too large, or past the review's tokenizing budget): a string or comment opened outside a hunk is not seen (${listed(byHunk)})`,
    );
  }
}

/**
 * Which files' texts the analysis can use: at the head, those a content rule applies to (their
 * hunks are matched with the lines around them, and tokenized in context); at the base, those
 * with an allow comment on an added line. Everything else is never read.
 */
export function textsWanted(
  files: readonly DiffFile[],
  config: AlignmentConfig,
): { head: string[]; base: string[] } {
  const rules = contentRules(config);
  const head: string[] = [];
  const base: string[] = [];
  const marker = config.debug.marker;
  for (const file of files) {
    if (file.added.length === 0) continue;
    // An allow comment is checked against both sides: is it at the base, and is it a copy?
    if (file.added.some((a) => a.text.includes(marker))) base.push(file.path);
    const ext = extOf(file.path);
    if (rules.some((r) => (r.ext === undefined || r.ext.has(ext)) && r.applies(file.path)))
      head.push(file.path);
    else if (base.at(-1) === file.path) head.push(file.path);
  }
  return { head, base };
}

/** Lines of `text` that read `line` once trimmed. */
function countLines(text: string, line: string): number {
  let n = 0;
  for (const l of text.split("\n")) if (l.trim() === line) n++;
  return n;
}

function listed(paths: readonly string[]): string {
  return `${paths.slice(0, NOTE_FILES).join(", ")}${paths.length > NOTE_FILES ? ", …" : ""}`;
}

function conflictMarkers(file: DiffFile, out: FindingCollector) {
  let sawStart = false;
  const pendingMid: number[] = [];
  const add = (line: number) =>
    out.add(
      "conflict-marker",
      {
        level: "blocking",
        kind: "conflict-marker",
        title: "Merge-conflict marker",
        concern: "Resolve the conflict and remove the marker lines.",
        reviewers: [],
      },
      file.path,
      line,
    );
  for (const { line, text } of file.added) {
    const c = text.charCodeAt(0);
    if (c !== 60 && c !== 62 && c !== 124 && c !== 61) continue;
    if (CONFLICT_START.test(text) || CONFLICT_BASE.test(text)) {
      sawStart = true;
      add(line);
    } else if (CONFLICT_MID.test(text)) {
      // "=======" alone is also a setext heading underline: only a marker next to real ones.
      if (sawStart) add(line);
      else pendingMid.push(line);
    }
  }
  if (sawStart) for (const line of pendingMid) add(line);
}

// --- suppressions ---------------------------------------------------------------------------------

/**
 * Exceptions a PR cannot grant itself. An allow comment ("alignment: allow" for the debug checks,
 * "alignment: allow RULE-ID" for a rule) counts only when the same line is already in the file at
 * the base; a config `allow` entry only when the config was read at the base.
 */
class Suppressions {
  private readonly marker: string;
  private readonly entries: { rule: string; test: (p: string) => boolean }[];
  private readonly baseLines = new Map<string, Map<string, number>>();
  private readonly granted = new Map<string, Set<number>>();
  /** Lines (path:line) whose allow comment did not count; a line hit by two rules counts once. */
  private readonly newMarkers = new Set<string>();
  private readonly unverifiable = new Set<string>();
  private readonly entriesIgnored: boolean;

  constructor(
    config: AlignmentConfig,
    private readonly ctx: AnalysisContext,
  ) {
    this.marker = config.debug.marker;
    this.entriesIgnored = !ctx.configFromBase && config.allow.length > 0;
    this.entries = ctx.configFromBase
      ? config.allow.map((a) => ({ rule: a.rule, test: matcher(a.paths) }))
      : [];
  }

  allows(rule: ContentRule, file: DiffFile, line: number, text: string): boolean {
    const path = file.path;
    if (this.entries.some((e) => e.rule === rule.id && e.test(path))) return true;
    const at = text.indexOf(this.marker);
    if (at < 0) return false;
    const named = text
      .slice(at + this.marker.length)
      .split(/[\s,]+/)
      .filter((w) => /^[A-Za-z0-9][\w.-]*$/.test(w));
    const covers = named.length > 0 ? named.includes(rule.id) : rule.kind === "debug";
    if (!covers) return false;
    const granted = this.grantedLines(file, text.trim());
    if (granted === undefined) {
      this.unverifiable.add(`${path}:${line}`);
      return false;
    }
    if (granted.has(line)) return true;
    this.newMarkers.add(`${path}:${line}`);
    return false;
  }

  /**
   * The added lines carrying this exact text that the base vouches for: as many as the base has
   * copies of it, less the copies the change left in place. A moved line keeps its exception; a
   * copy of it (the original stays) is new. Without the head's text, the base's count alone.
   */
  private grantedLines(file: DiffFile, text: string): Set<number> | undefined {
    const base = this.linesAtBase(file.path);
    if (base === undefined) return undefined;
    const key = `${file.path}\n${text}`;
    let set = this.granted.get(key);
    if (!set) {
      const added = file.added.filter((a) => a.text.trim() === text).map((a) => a.line);
      const head = this.ctx.texts?.get(file.path);
      const kept = head === undefined ? 0 : Math.max(0, countLines(head, text) - added.length);
      set = new Set(added.slice(0, Math.max(0, (base.get(text) ?? 0) - kept)));
      this.granted.set(key, set);
    }
    return set;
  }

  private linesAtBase(path: string): Map<string, number> | undefined {
    if (this.ctx.baseTexts === undefined) return undefined;
    let counts = this.baseLines.get(path);
    if (!counts) {
      counts = new Map();
      for (const l of (this.ctx.baseTexts.get(path) ?? "").split("\n")) {
        const t = l.trim();
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      this.baseLines.set(path, counts);
    }
    return counts;
  }

  notes(): string[] {
    const out: string[] = [];
    if (this.newMarkers.size > 0) {
      out.push(
        `${plural(this.newMarkers.size, "allow comment")} not counted: new in this change (an exception counts only when it is already there at the base)`,
      );
    }
    if (this.unverifiable.size > 0) {
      out.push(
        `${plural(this.unverifiable.size, "allow comment")} not counted: the base commit is not at hand to confirm it`,
      );
    }
    if (this.entriesIgnored) {
      out.push(
        "the config's allow entries were not applied: the config was read from the change, not its base",
      );
    }
    return out;
  }
}

// --- RFC numbering ---------------------------------------------------------------------------------

/**
 * RFC numbering: two RFCs claiming one number (when the PR adds or edits one of them) and an
 * RFC the PR adds whose number an existing RFC already holds. Duplicates the PR does not touch
 * are a note, so an unrelated PR is not blocked by the registry's past.
 */
function registryFindings(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
  notes: string[],
): NumberingFinding[] {
  const dir = rfcDir(config);
  const changed = new Map(
    files.filter((f) => isRfcFile(f.path, dir) && f.status !== "removed").map((f) => [f.path, f]),
  );
  const byNumber = new Map<string, Rfc[]>();
  for (const r of ctx.rfcs) {
    if (r.number === null) continue;
    const list = byNumber.get(r.number) ?? [];
    list.push(r);
    byNumber.set(r.number, list);
  }
  const out: NumberingFinding[] = [];
  for (const [number, claimants] of byNumber) {
    if (claimants.length < 2) continue;
    if (!claimants.some((r) => changed.has(r.file))) {
      notes.push(
        `RFC ${number} is claimed by ${claimants.map((r) => r.file).join(", ")} (not changed by this PR)`,
      );
      continue;
    }
    out.push(...numberClaimed(number, claimants, changed, ctx.rfcs));
  }
  return out;
}

type NumberingFinding = { head: FindingHead; path: string; line?: number };

/**
 * One number claimed by several RFCs, one of them changed: each RFC the PR adds with a number
 * already held (or held by another new one), and each edited RFC that now collides.
 */
function numberClaimed(
  number: string,
  claimants: readonly Rfc[],
  changed: ReadonlyMap<string, DiffFile>,
  rfcs: readonly Rfc[],
): NumberingFinding[] {
  const out: NumberingFinding[] = [];
  const added = claimants.filter((r) => changed.get(r.file)?.status === "added");
  const existing = claimants.filter((r) => changed.get(r.file)?.status !== "added");
  for (const r of added) {
    const file = changed.get(r.file)!;
    const others = claimants.filter((o) => o !== r);
    const takenBy = existing.length > 0 ? existing : others;
    const line = pointAt(file, r.numberLine ?? 1);
    out.push(
      numbering(r.file, line, {
        kind: existing.length > 0 ? "rfc-number-taken" : "rfc-duplicate-number",
        title:
          existing.length > 0
            ? `RFC number ${number} is already taken`
            : `Two new RFCs claim number ${number}`,
        concern: `${r.file} claims RFC ${number}, also claimed by ${takenBy.map((o) => o.file).join(", ")}; renumber it (next free: ${nextFree(rfcs)}).`,
        ref: `RFC ${number}`,
      }),
    );
  }
  // An edit that makes an existing RFC collide with another existing one.
  for (const r of existing.filter((e) => changed.has(e.file))) {
    const file = changed.get(r.file)!;
    const line = pointAt(file, r.numberLine);
    out.push(
      numbering(r.file, line, {
        kind: "rfc-duplicate-number",
        title: `Two RFCs claim number ${number}`,
        concern: `${r.file} and ${claimants
          .filter((o) => o !== r)
          .map((o) => o.file)
          .join(
            ", ",
          )} both claim RFC ${number}; give one of them a free number (next free: ${nextFree(rfcs)}).`,
        ref: `RFC ${number}`,
      }),
    );
  }
  return out;
}

function nextFree(rfcs: readonly Rfc[]): number {
  return Math.max(0, ...rfcs.map((r) => Number(r.number ?? 0))) + 1;
}

function numbering(
  path: string,
  line: number | undefined,
  head: Pick<FindingHead, "kind" | "title" | "concern" | "ref">,
): NumberingFinding {
  return {
    head: { ...head, level: "blocking", reviewers: [] },
    path,
    ...(line !== undefined ? { line } : {}),
  };
}

/** The line a finding may point at: only one the PR added. */
function pointAt(file: DiffFile, line: number | undefined): number | undefined {
  if (line === undefined) return undefined;
  return file.added.some((a) => a.line === line) ? line : undefined;
}

// --- checked and clean -----------------------------------------------------------------------------

function cleanChecks(
  config: AlignmentConfig,
  ctx: AnalysisContext,
  findings: readonly Finding[],
  pull: { id: string; title: string }[],
): CleanCheck[] {
  const hit = new Set(findings.map((f) => f.rule ?? f.ref ?? f.kind));
  const kinds = new Set(findings.map((f) => f.kind));
  const clean: CleanCheck[] = [];
  for (const p of config.principles)
    if (!hit.has(p.id)) clean.push({ kind: "principle", id: p.id, title: p.title });
  for (const r of pathRules(config, ctx.configPath)) {
    if (hit.has(r.id)) continue;
    const title =
      r.id === "protected"
        ? `protected paths (${plural(r.paths.length, "glob")})`
        : `changes under ${r.paths.join(", ")}`;
    clean.push({ kind: "path", id: r.id, title });
  }
  for (const r of config.cochange) {
    if (!hit.has(r.id))
      clean.push({
        kind: "cochange",
        id: r.id,
        title: `${r.when.join(", ")} changed together with ${r.require.join(", ")}`,
      });
  }
  const openRfcs = ctx.rfcs.filter((r) => r.open && r.affects.length > 0 && !hit.has(`RFC ${r.number}`));
  if (openRfcs.length > 0) {
    clean.push({
      kind: "rfc",
      id: "open-rfcs",
      title: `open RFCs ${openRfcs.map((r) => r.number).join(", ")}`,
    });
  }
  if (config.debug.enabled && !kinds.has("debug-leftover"))
    clean.push({ kind: "debug", id: "debug", title: "leftover debugging" });
  if (!kinds.has("conflict-marker"))
    clean.push({ kind: "conflict", id: "conflict-markers", title: "merge-conflict markers" });
  if (!kinds.has("rfc-number-taken") && !kinds.has("rfc-duplicate-number")) {
    clean.push({ kind: "rfc", id: "rfc-numbers", title: "RFC numbering" });
  }
  for (const p of pull) clean.push({ kind: "pull", ...p });
  return clean;
}
