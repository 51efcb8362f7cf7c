// The RFC registry: number, title, status, authors and affected paths of each markdown RFC, read
// from the header variants real repositories use:
//   **Status**: In Review          **Status:** Draft          - Status: Accepted | Author: @a
//   | Status | Draft |            YAML front matter          no header at all (file name + heading)
// Nothing here fails on a malformed RFC: what cannot be read becomes a note, never a crash.
import { posix } from "node:path";
import { parse as parseYaml } from "yaml";
import { withoutRfcPrefix } from "../report/labels.js";
import type { AlignmentConfig } from "./config.js";
import type { TreeReader } from "./tree.js";

export interface Rfc {
  file: string;
  /** Canonical digits without leading zeros ("0003" -> "3"), or null when none was found. */
  number: string | null;
  /** Line declaring the number (header, front matter or heading); undefined when it came from the file name. */
  numberLine?: number;
  title: string;
  /** As written ("In Review"), or "Unknown" when the RFC has no status. */
  status: string;
  authors: string[];
  /** Globs of the files the RFC proposes to change. */
  affects: string[];
  affectsFrom: "front-matter" | "header" | "map" | "none";
  open: boolean;
  /** Set when the change closes an RFC open at the base: its status at the head ("Accepted"). */
  statusInChange?: string;
}

type ParsedRfc = Omit<Rfc, "open" | "affectsFrom"> & {
  affectsFrom: "front-matter" | "header" | "none";
};

const KEYS = [
  "status",
  "state",
  "authors?",
  "title",
  "rfc number",
  "rfc",
  "number",
  "affects",
  "affected paths",
  "created",
  "updated",
  "last updated",
  "date",
  "start date",
  "discussion",
  "pull request",
  "pr",
  "tracking issue",
  "issue",
  "supersedes",
  "superseded by",
  "replaces",
  "champion",
  "shepherd",
  "reviewers?",
  "type",
  "category",
  "version",
  "feature name",
  "owners?",
].join("|");
const FIELD = new RegExp(`(\\*\\*|__)?\\b(${KEYS})\\b(?:\\*\\*|__)?[ \\t]*:(?:\\*\\*|__)?`, "gi");
const HAS_FIELD = new RegExp(FIELD.source, "i");
const KEY_ONLY = new RegExp(`^(${KEYS})$`, "i");
const SEPARATORS = /^[\s|·•;,]*$/;
const HEADING_RFC = /^#\s+(?:RFC[\s_-]*#?\s*(\d+)\s*[:.\u2013\u2014-]?\s*)?(.*?)\s*#*\s*$/i;
const FILE_NUMBER = /^(?:rfc[\s_-]*)?(\d+)(?:\D|$)/i;
const HANDLE = /@[A-Za-z0-9](?:[A-Za-z0-9-]*)(?:\/[A-Za-z0-9._-]+)?/;

function clean(value: string): string {
  return value
    .trim()
    .replace(/^[\s|·•;,]+|[\s|·•;,]+$/g, "")
    .replace(/^(\*\*|__|`|\*|_)+|(\*\*|__|`|\*|_)+$/g, "")
    .trim();
}

function canonicalNumber(digits: string | number): string {
  return String(Number.parseInt(String(digits), 10));
}

/** "Jane Doe (@jdoe), @bob and Carol" -> ["@jdoe", "@bob", "Carol"]. */
function parseAuthors(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(String) : String(value ?? "").split(/,|;|\s+and\s+|\s&\s/);
  return parts
    .map((p) => {
      const handle = HANDLE.exec(p);
      return handle ? handle[0] : clean(p.replace(/<[^>]*>/g, ""));
    })
    .filter((p) => p.length > 0);
}

function parseGlobList(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(String) : String(value ?? "").split(/[,\s]+/);
  // Not clean(): a glob's trailing ** is not markdown emphasis.
  return parts
    .map((p) =>
      p
        .trim()
        .replace(/^[`"']+|[`"']+$/g, "")
        .replace(/^\.\//, ""),
    )
    .filter((p) => p.length > 0 && !/^[|·•;,]+$/.test(p));
}

function statusOf(value: unknown): string {
  // "Accepted (2024-03-01)" -> "Accepted"; a leading emoji or badge text goes too.
  const s = clean(String(value ?? ""))
    .split(/[([]/)[0]!
    .replace(/^[^\p{L}]+/u, "")
    .trim();
  return s || "Unknown";
}

interface Field {
  /** Cleaned of markdown emphasis. */
  value: string;
  /** As written (a glob's ** must survive). */
  raw: string;
  line: number;
  continuation: string[];
}

interface Fields {
  [key: string]: Field | undefined;
}

/** Key/value fields of the header lines (first match of each key wins). */
function headerFields(lines: string[], from: number, to: number): Fields {
  const fields: Fields = {};
  let last: Field | undefined;
  for (let i = from; i < to; i++) {
    const raw = lines[i]!;
    // A bullet continuing an empty field ("Affects:" followed by "- src/**").
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(raw);
    if (last && last.value === "" && bullet && !HAS_FIELD.test(raw)) {
      last.continuation.push(bullet[1]!);
      continue;
    }
    const table = /^\s*\|([^|]+)\|([^|]*)\|?\s*$/.exec(raw);
    if (table) {
      const key = clean(table[1]!).toLowerCase().replace(/:$/, "");
      if (KEY_ONLY.test(key) && !/^-+$/.test(clean(table[2]!))) {
        fields[key] ??= { value: clean(table[2]!), raw: table[2]!, line: i + 1, continuation: [] };
      }
      continue;
    }
    const body = raw.replace(/^\s*(?:>\s*)*(?:[-*+]\s+)?/, "");
    const starts: { key: string; at: number; end: number }[] = [];
    for (const m of body.matchAll(FIELD)) {
      const at = m.index;
      const before = body.slice(0, at);
      // Mid-line fields need a separator or a capitalised key: keeps prose ("the status: x") out.
      const keyChar = m[2]![0]!;
      const ok =
        at === 0 ||
        SEPARATORS.test(before) ||
        (/[\s|·•;,]$/.test(before) && keyChar === keyChar.toUpperCase());
      if (ok) starts.push({ key: m[2]!.toLowerCase(), at, end: at + m[0].length });
    }
    starts.forEach((s, k) => {
      const raw = body.slice(s.end, starts[k + 1]?.at ?? body.length);
      const value = clean(raw);
      if (!fields[s.key]) {
        fields[s.key] = { value, raw, line: i + 1, continuation: [] };
      }
      last = fields[s.key];
    });
    if (starts.length === 0 && raw.trim() !== "") last = undefined;
  }
  return fields;
}

function field(fields: Fields, ...keys: string[]) {
  for (const k of keys) if (fields[k]) return fields[k];
  return undefined;
}

interface FrontMatter {
  /** Keys lower-cased, "_" and "-" as spaces. */
  front: Record<string, unknown>;
  /** The line of each front-matter key, 1-based. */
  frontLines: Map<string, number>;
  /** The first line after the front matter, 0-based. */
  bodyStart: number;
}

/** The YAML front matter between "---" lines, if any; unreadable YAML leaves only its key lines. */
function frontMatter(lines: readonly string[]): FrontMatter {
  const none: FrontMatter = { front: {}, frontLines: new Map(), bodyStart: 0 };
  if (lines[0]?.trim() !== "---") return none;
  const end = lines.findIndex((l, i) => i > 0 && (l.trim() === "---" || l.trim() === "..."));
  if (end <= 0) return none;
  let front: Record<string, unknown> = {};
  try {
    const data = parseYaml(lines.slice(1, end).join("\n"));
    if (data && typeof data === "object" && !Array.isArray(data)) {
      front = Object.fromEntries(
        Object.entries(data).map(([k, v]) => [k.toLowerCase().replace(/[_-]/g, " "), v]),
      );
    }
  } catch {
    // unreadable front matter: fall back to the header lines
  }
  const frontLines = new Map<string, number>();
  for (let i = 1; i < end; i++) {
    const key = /^([A-Za-z_ -]+):/.exec(lines[i]!)?.[1];
    if (key) frontLines.set(key.toLowerCase().replace(/[_-]/g, " "), i + 1);
  }
  return { front, frontLines, bodyStart: end + 1 };
}

/** The RFC's number: front matter, then a header field, then the heading, then the file name (or its folder). */
function numberOf(
  file: string,
  { front, frontLines }: FrontMatter,
  fields: Fields,
  heading: RegExpExecArray | null,
  titleIdx: number,
): { number: string | null; numberLine?: number } {
  const frontNumberKey = ["rfc", "number", "rfc number", "id"].find((k) =>
    /^\s*#?\d+\s*$/.test(String(front[k] ?? "")),
  );
  if (frontNumberKey) {
    return {
      number: canonicalNumber(String(front[frontNumberKey]).replace("#", "")),
      numberLine: frontLines.get(frontNumberKey),
    };
  }
  const headerNumber = field(fields, "rfc", "rfc number", "number");
  const headerDigits = headerNumber
    ? /^(?:RFC[\s_-]*)?#?\s*(\d+)\b/i.exec(headerNumber.value)?.[1]
    : undefined;
  if (headerDigits && headerNumber)
    return { number: canonicalNumber(headerDigits), numberLine: headerNumber.line };
  if (heading?.[1]) return { number: canonicalNumber(heading[1]), numberLine: titleIdx + 1 };
  const base = posix.basename(file).replace(/\.(md|markdown)$/i, "");
  const fromName =
    FILE_NUMBER.exec(base) ??
    (/^(readme|index)$/i.test(base) ? FILE_NUMBER.exec(posix.basename(posix.dirname(file))) : null);
  return { number: fromName ? canonicalNumber(fromName[1]!) : null };
}

/** The paths the RFC says it affects: front matter first, else the header field with its continuation lines. */
function affectsOf(
  front: Record<string, unknown>,
  fields: Fields,
): Pick<ParsedRfc, "affects" | "affectsFrom"> {
  const frontAffects = front.affects ?? front["affected paths"];
  const headerAffects = field(fields, "affects", "affected paths");
  let affects: string[] = [];
  let affectsFrom: ParsedRfc["affectsFrom"] = "none";
  if (frontAffects !== undefined && frontAffects !== null) {
    affects = parseGlobList(frontAffects);
    affectsFrom = "front-matter";
  } else if (headerAffects) {
    affects = parseGlobList([headerAffects.raw, ...headerAffects.continuation].join(","));
    affectsFrom = "header";
  }
  return { affects, affectsFrom: affects.length > 0 ? affectsFrom : "none" };
}

/** Parses one RFC's markdown. Never throws. */
export function parseRfc(file: string, text: string): ParsedRfc {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const fm = frontMatter(lines);
  const { front, bodyStart } = fm;

  // The header: everything up to the first second-level heading, at most 60 lines.
  const titleIdx = lines.findIndex((l, i) => i >= bodyStart && /^#\s/.test(l));
  let headerEnd = lines.findIndex((l, i) => i > Math.max(bodyStart, titleIdx) && /^##\s/.test(l));
  if (headerEnd < 0) headerEnd = lines.length;
  headerEnd = Math.min(headerEnd, bodyStart + 60);
  const fields = headerFields(lines, bodyStart, headerEnd);
  const heading = titleIdx >= 0 ? HEADING_RFC.exec(lines[titleIdx]!) : null;
  const { number, numberLine } = numberOf(file, fm, fields, heading, titleIdx);

  const title =
    (typeof front.title === "string" && front.title.trim()) ||
    field(fields, "title")?.value ||
    heading?.[2]?.trim() ||
    (heading?.[1] ? `RFC ${heading[1]}` : "") ||
    nameOf(file);

  const statusValue = front.status ?? front.state ?? field(fields, "status", "state")?.value;
  const authorsValue = front.authors ?? front.author ?? field(fields, "authors", "author")?.value;

  return {
    file,
    number,
    ...(numberLine !== undefined ? { numberLine } : {}),
    title: withoutRfcPrefix(clean(title)),
    status: statusOf(statusValue),
    authors: parseAuthors(authorsValue),
    ...affectsOf(front, fields),
  };
}

/** "rfcs/0007-x.md" -> "0007-x"; "rfcs/0007-x/README.md" -> "0007-x". */
function nameOf(file: string): string {
  const base = posix.basename(file).replace(/\.(md|markdown)$/i, "");
  return /^(readme|index)$/i.test(base) ? posix.basename(posix.dirname(file)) : base;
}

function normaliseStatus(s: string): string {
  return s
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();
}

export function isOpenStatus(status: string, open: readonly string[]): boolean {
  const s = normaliseStatus(status);
  return open.some((o) => normaliseStatus(o) === s);
}

export function rfcDir(config: AlignmentConfig): string {
  return posix
    .normalize(config.rfcs.dir.replace(/\\/g, "/"))
    .replace(/^\.\/?/, "")
    .replace(/\/+$/, "");
}

export function isRfcFile(path: string, dir: string): boolean {
  return (
    (dir === "" || path.startsWith(`${dir}/`)) &&
    /\.(md|markdown)$/i.test(path) &&
    !/template/i.test(posix.basename(path))
  );
}

/** All RFCs of the registry, with the config's `map` and open statuses applied. */
export async function loadRfcs(
  tree: TreeReader,
  config: AlignmentConfig,
): Promise<{ rfcs: Rfc[]; notes: string[] }> {
  const dir = rfcDir(config);
  const files = (await tree.list(dir)).filter((p) => isRfcFile(p, dir));
  const texts = await tree.readMany(files);
  const map = new Map(Object.entries(config.rfcs.map).map(([k, v]) => [canonicalNumber(k), v]));
  const rfcs: Rfc[] = [];
  const notes: string[] = [];
  for (const file of files) {
    const text = texts.get(file);
    if (text === undefined) continue;
    const parsed = parseRfc(file, text);
    if (parsed.number === null) {
      if (!/^(readme|index)\.(md|markdown)$/i.test(posix.basename(file))) {
        notes.push(`${file} has no RFC number (file name, heading or header): not treated as an RFC`);
      }
      continue;
    }
    rfcs.push(withConfig(parsed, config, map));
  }
  for (const r of rfcs) {
    if (r.open && r.affects.length === 0) {
      notes.push(
        `RFC ${r.number} (${r.status}) declares no affected paths: add an "Affects:" list or a rfcs.map entry so changes to its files are flagged`,
      );
    }
  }
  return { rfcs, notes };
}

/**
 * An RFC open at the base stays open for this review even when the change closes it (marks it
 * Accepted, or drops its Affects list): a PR cannot lift the flag on its own files by editing the
 * RFC. Its status is the base's, and `statusInChange` says what the change makes it.
 */
export function keepOpenFromBase(head: readonly Rfc[], base: readonly Rfc[]): Rfc[] {
  const atBase = new Map(base.filter((r) => r.open && r.affects.length > 0).map((r) => [r.file, r]));
  return head.map((r) => {
    const b = atBase.get(r.file);
    if (!b || (r.open && r.affects.length > 0)) return r;
    return {
      ...r,
      open: true,
      status: b.status,
      ...(r.open ? {} : { statusInChange: r.status }),
      affects: r.affects.length > 0 ? r.affects : b.affects,
    };
  });
}

export function withConfig(parsed: ParsedRfc, config: AlignmentConfig, map?: Map<string, string[]>): Rfc {
  const m = map ?? new Map(Object.entries(config.rfcs.map).map(([k, v]) => [canonicalNumber(k), v]));
  const mapped = parsed.affectsFrom === "none" && parsed.number !== null ? m.get(parsed.number) : undefined;
  return {
    ...parsed,
    ...(mapped ? { affects: mapped, affectsFrom: "map" as const } : {}),
    open: isOpenStatus(parsed.status, config.rfcs.open),
  };
}
