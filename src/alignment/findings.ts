// One finding per rule (or RFC) per change: hits are collected under the rule's key and become a
// single entry listing every place it hit (each becomes an annotation, up to max-annotations),
// while `hits` counts them all. The markdown shows the first few (report/labels.ts).
import { MAX_ANNOTATIONS } from "../report/github.js";
import type { Finding, FindingLevel } from "../report/model.js";

/** Places listed per finding: GitHub keeps no more annotations per check run; the rest are counted. */
const LOCATIONS_PER_FINDING = MAX_ANNOTATIONS;

const MAX_REVIEWERS = 10;

export type FindingHead = Omit<Finding, "tier" | "level" | "locations" | "hits" | "path" | "line"> & {
  level: FindingLevel;
};

interface Group {
  head: FindingHead;
  files: Map<string, number[]>;
  hits: number;
}

export class FindingCollector {
  private readonly groups = new Map<string, Group>();

  /** A hit of the rule `key` at `path` (and `line`, when the finding is about a line). */
  add(key: string, head: FindingHead, path: string | undefined, line?: number): void {
    let g = this.groups.get(key);
    if (!g) {
      g = { head: { ...head, reviewers: [...head.reviewers] }, files: new Map(), hits: 0 };
      this.groups.set(key, g);
    } else {
      // Reviewers of every place it hit (CODEOWNERS of each path), in order, a few at most.
      for (const r of head.reviewers) {
        if (g.head.reviewers.length < MAX_REVIEWERS && !g.head.reviewers.includes(r))
          g.head.reviewers.push(r);
      }
    }
    g.hits++;
    if (path === undefined) return;
    const lines = g.files.get(path) ?? [];
    if (line !== undefined) lines.push(line);
    g.files.set(path, lines);
  }

  has(key: string): boolean {
    return this.groups.has(key);
  }

  findings(): Finding[] {
    const out: Finding[] = [];
    for (const g of this.groups.values()) {
      const listed = placesOf(g.files);
      const first = listed[0];
      out.push({
        ...g.head,
        tier: g.head.level === "blocking" ? 1 : 2,
        ...(first ? { path: first.path, ...(first.line !== undefined ? { line: first.line } : {}) } : {}),
        locations: listed,
        hits: g.hits,
      });
    }
    return out.sort(
      (a, b) =>
        LEVEL_RANK[a.level!] - LEVEL_RANK[b.level!] ||
        byCodePoint(a.kind, b.kind) ||
        byCodePoint(a.path ?? "", b.path ?? "") ||
        (a.line ?? 0) - (b.line ?? 0) ||
        byCodePoint(a.title, b.title),
    );
  }
}

/**
 * Every place a rule hit, in path and line order, at most LOCATIONS_PER_FINDING: past the cap,
 * taken a line per file in turn, so a file with one hit is never crowded out by a flooded one.
 */
function placesOf(files: Map<string, number[]>): Finding["locations"] {
  const perFile = [...files]
    .sort(([a], [b]) => byCodePoint(a, b))
    .map(([path, lines]) => ({
      path,
      lines: lines.length ? [...new Set(lines)].sort((a, b) => a - b) : [undefined],
    }));
  const picked: { path: string; line?: number; file: number }[] = [];
  for (let round = 0; picked.length < LOCATIONS_PER_FINDING; round++) {
    const before = picked.length;
    perFile.forEach((f, file) => {
      const line = f.lines[round];
      if (round < f.lines.length && picked.length < LOCATIONS_PER_FINDING)
        picked.push({ path: f.path, line, file });
    });
    if (picked.length === before) break;
  }
  picked.sort((a, b) => a.file - b.file || (a.line ?? 0) - (b.line ?? 0));
  return picked.map(({ path, line }) => (line === undefined ? { path } : { path, line }));
}

/**
 * The same order on every runner: localeCompare follows the machine's locale (in Danish "aa"
 * sorts after "z"), and the report must be byte-identical wherever it runs.
 */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const LEVEL_RANK: Record<FindingLevel, number> = { blocking: 0, discussion: 1, advisory: 2 };
