// Findings from a diff: pure, synchronous, no I/O, so the bench can feed it synthetic diffs.
// Tier 1 = mechanical, the author fixes it; Tier 2 = alignment, a human with context decides.
// Every `line` a finding carries is a line the PR added: pointAt() is the only way one is set.
import picomatch from "picomatch";
import type { Finding } from "../report/model.js";
import type { CodeOwners } from "./codeowners.js";
import { type AlignmentConfig, compilePattern } from "./config.js";
import type { DiffFile } from "./diff.js";
import { isRfcFile, type Rfc, rfcDir } from "./rfcs.js";

export interface AnalysisContext {
  rfcs: Rfc[];
  codeowners: CodeOwners;
  /** The alignment config's own path (repository-relative): always protected, so a PR cannot quietly rewrite its rules. */
  configPath?: string;
}

export interface OpenRfcContext {
  number: string;
  title: string;
  status: string;
  /** The PR's files that fall under the RFC's affected paths. */
  paths: string[];
}

export interface Analysis {
  findings: Finding[];
  openRfcs: OpenRfcContext[];
  notes: string[];
}

interface DebugCheck {
  label: string;
  re: RegExp;
  /** File extensions (lower case, with dot) the check applies to. */
  ext: ReadonlySet<string>;
}

const JS = new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"]);
const PY = new Set([".py", ".pyi", ".pyw"]);

/** Built-in leftover-debugging checks, scoped by language so docs and prose never trip them. */
export const DEBUG_CHECKS: readonly DebugCheck[] = [
  { label: "console.log", re: /\bconsole\.(?:log|debug|trace)\s*\(/, ext: JS },
  { label: "debugger", re: /(?:^|[;{}\s])debugger\s*;?\s*(?:$|\/\/)/, ext: JS },
  { label: "print(", re: /(?:^|[^\w.])print\s*\(/, ext: PY },
  { label: "breakpoint()", re: /\bbreakpoint\s*\(\s*\)/, ext: PY },
  { label: "pdb", re: /\b(?:import\s+i?pdb\b|i?pdb\.set_trace\s*\(|from\s+i?pdb\s+import\b)/, ext: PY },
];

const CONFLICT_START = /^(?:<{7}|>{7})(?: |$)/;
const CONFLICT_BASE = /^\|{7}(?: |$)/;
const CONFLICT_MID = /^={7}$/;

const MAX_OPEN_RFC_PATHS = 20;

function extOf(path: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : "";
}

function matcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch(globs as string[], { dot: true });
}

/** The line a finding may point at: only one the PR added. */
function pointAt(file: DiffFile, line: number | undefined): number | undefined {
  if (line === undefined) return undefined;
  return file.added.some((a) => a.line === line) ? line : undefined;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "N mechanical issues to fix, M alignment points for human review, K RFC conflicts". */
export function summarise(findings: readonly Finding[]): string {
  const tier1 = findings.filter((f) => f.tier === 1).length;
  const tier2 = findings.length - tier1;
  const rfc = findings.filter((f) => f.kind.startsWith("rfc-")).length;
  return `${plural(tier1, "mechanical issue")} to fix, ${plural(tier2, "alignment point")} for human review, ${plural(rfc, "RFC conflict")}`;
}

export function analyseFiles(
  files: readonly DiffFile[],
  config: AlignmentConfig,
  ctx: AnalysisContext,
): Analysis {
  const findings: Finding[] = [];
  const notes: string[] = [];
  const owners = (path: string) => ctx.codeowners.ownersOf(path);

  const principles = config.principles.map((p) => ({
    p,
    applies: matcher(p.paths),
    excluded: matcher(p.exclude),
    forbid: p.forbid.map(compilePattern),
  }));
  const debug = config.debug;
  const debugIgnored = matcher(debug.ignore);
  const protectedGlobs = ctx.configPath ? [...config.protected, ctx.configPath] : config.protected;
  const isProtected = matcher(protectedGlobs);
  const openRfcs = ctx.rfcs
    .filter((r) => r.open && r.affects.length > 0)
    .map((r) => ({ rfc: r, matches: matcher(r.affects), touched: [] as string[] }));

  for (const file of files) {
    const path = file.path;
    const firstAdded = file.added[0]?.line;

    // Tier 2: protected paths (a rename out of a protected path counts too).
    if (isProtected(path) || (file.previousPath !== undefined && isProtected(file.previousPath))) {
      findings.push({
        tier: 2,
        kind: "protected-path",
        title: `Protected path ${file.status}: ${path}`,
        concern: "Changes here alter what acceptance means or how it runs; a maintainer should review them.",
        path,
        ...(firstAdded !== undefined ? { line: firstAdded } : {}),
        reviewers: owners(path),
      });
    }

    // Tier 2: files an open RFC proposes to change.
    for (const o of openRfcs) {
      if (!(o.matches(path) || (file.previousPath !== undefined && o.matches(file.previousPath)))) continue;
      o.touched.push(path);
      const r = o.rfc;
      findings.push({
        tier: 2,
        kind: "rfc-open-change",
        title: `Touches a file of open RFC ${r.number}: ${r.title} (${r.status})`,
        concern: `RFC ${r.number} is ${r.status} and proposes changes to ${path}; check this change agrees with it, or wait for its outcome.`,
        path,
        ...(firstAdded !== undefined ? { line: firstAdded } : {}),
        reviewers: r.authors.length > 0 ? r.authors : owners(path),
        ref: `RFC ${r.number}`,
      });
    }

    if (file.added.length === 0) continue;

    // Line checks: principles, debug leftovers, conflict markers.
    const active = principles.filter((x) => x.applies(path) && !x.excluded(path));
    const ext = extOf(path);
    const debugChecks =
      debug.enabled && !debugIgnored(path) ? DEBUG_CHECKS.filter((d) => d.ext.has(ext)) : [];
    const marker = debug.marker;
    let sawConflictStart = false;
    const pendingMid: number[] = [];

    for (const { line, text } of file.added) {
      for (const x of active) {
        if (!x.forbid.some((re) => re.test(text))) continue;
        findings.push({
          tier: x.p.tier,
          kind: "principle",
          title: x.p.title,
          concern: x.p.message,
          path,
          line,
          reviewers: x.p.reviewers.length > 0 ? x.p.reviewers : owners(path),
          ref: x.p.id,
        });
      }
      if (debugChecks.length > 0 && !text.includes(marker)) {
        for (const d of debugChecks) {
          if (!d.re.test(text)) continue;
          findings.push({
            tier: 1,
            kind: "debug-leftover",
            title: `Leftover debugging: ${d.label}`,
            concern: `Remove it before merging, or mark the line with "${marker}" in a comment when it is intended.`,
            path,
            line,
            reviewers: [],
          });
          break; // one finding per line is enough to act on
        }
      }
      const c = text.charCodeAt(0);
      if (c === 60 || c === 62 || c === 124 || c === 61) {
        if (CONFLICT_START.test(text) || CONFLICT_BASE.test(text)) {
          sawConflictStart = true;
          findings.push(conflictFinding(path, line));
        } else if (CONFLICT_MID.test(text)) {
          // "=======" alone is also a setext heading underline: only a marker next to real ones.
          if (sawConflictStart) findings.push(conflictFinding(path, line));
          else pendingMid.push(line);
        }
      }
    }
    if (sawConflictStart && pendingMid.length > 0) {
      for (const line of pendingMid) findings.push(conflictFinding(path, line));
    }
  }

  findings.push(...registryFindings(files, config, ctx, notes));

  findings.sort(
    (a, b) =>
      a.tier - b.tier ||
      (a.path ?? "").localeCompare(b.path ?? "") ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.kind.localeCompare(b.kind),
  );
  return {
    findings,
    openRfcs: openRfcs
      .filter((o) => o.touched.length > 0)
      .map((o) => ({
        number: o.rfc.number!,
        title: o.rfc.title,
        status: o.rfc.status,
        paths: o.touched.slice(0, MAX_OPEN_RFC_PATHS),
      })),
    notes,
  };
}

function conflictFinding(path: string, line: number): Finding {
  return {
    tier: 1,
    kind: "conflict-marker",
    title: "Merge-conflict marker",
    concern: "Resolve the conflict and remove the marker line.",
    path,
    line,
    reviewers: [],
  };
}

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
): Finding[] {
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
  const out: Finding[] = [];
  for (const [number, claimants] of byNumber) {
    if (claimants.length < 2) continue;
    const added = claimants.filter((r) => changed.get(r.file)?.status === "added");
    const existing = claimants.filter((r) => changed.get(r.file)?.status !== "added");
    const touched = claimants.filter((r) => changed.has(r.file));
    if (touched.length === 0) {
      notes.push(
        `RFC ${number} is claimed by ${claimants.map((r) => r.file).join(", ")} (not changed by this PR)`,
      );
      continue;
    }
    for (const r of added) {
      const file = changed.get(r.file)!;
      const others = claimants.filter((o) => o !== r);
      const takenBy = existing.length > 0 ? existing : others;
      const line = pointAt(file, r.numberLine ?? 1);
      out.push({
        tier: 1,
        kind: existing.length > 0 ? "rfc-number-taken" : "rfc-duplicate-number",
        title:
          existing.length > 0
            ? `RFC number ${number} is already taken`
            : `Two new RFCs claim number ${number}`,
        concern: `${r.file} claims RFC ${number}, also claimed by ${takenBy.map((o) => o.file).join(", ")}; renumber it (next free: ${nextFree(ctx.rfcs)}).`,
        path: r.file,
        ...(line !== undefined ? { line } : {}),
        reviewers: [],
        ref: `RFC ${number}`,
      });
    }
    // An edit that makes an existing RFC collide with another existing one.
    for (const r of existing.filter((e) => changed.has(e.file))) {
      const file = changed.get(r.file)!;
      const line = pointAt(file, r.numberLine);
      out.push({
        tier: 1,
        kind: "rfc-duplicate-number",
        title: `Two RFCs claim number ${number}`,
        concern: `${r.file} and ${claimants
          .filter((o) => o !== r)
          .map((o) => o.file)
          .join(
            ", ",
          )} both claim RFC ${number}; give one of them a free number (next free: ${nextFree(ctx.rfcs)}).`,
        path: r.file,
        ...(line !== undefined ? { line } : {}),
        reviewers: [],
        ref: `RFC ${number}`,
      });
    }
  }
  return out;
}

function nextFree(rfcs: readonly Rfc[]): number {
  return Math.max(0, ...rfcs.map((r) => Number(r.number ?? 0))) + 1;
}
