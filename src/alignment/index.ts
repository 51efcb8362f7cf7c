// The alignment review: a PR's diff judged against the repository's own declarations (RFCs,
// principles, protected paths, CODEOWNERS), producing report.alignment. Deterministic: the same
// diff and the same tree give the same findings.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { verifyRef } from "../git.js";
import { type AlignmentReport, alignmentReportSchema } from "../report/model.js";
import { CODEOWNERS_LOCATIONS, type CodeOwners, NO_CODEOWNERS, parseCodeOwners } from "./codeowners.js";
import {
  type AlignmentConfig,
  DEFAULT_CONFIG_PATH,
  type LoadedConfig,
  loadAlignmentConfig,
  parseAlignmentConfig,
} from "./config.js";
import type { DiffFile } from "./diff.js";
import { gitDiffFiles, gitTree } from "./git.js";
import type { PullRequestMeta } from "./pull.js";
import { keepOpenFromBase, loadRfcs } from "./rfcs.js";
import { type Analysis, analyseFiles, summarise, textsWanted } from "./rules.js";
import { fsTree, type TreeReader } from "./tree.js";

export type { AlignmentConfig } from "./config.js";
export { DEFAULT_CONFIG_PATH, loadAlignmentConfig, parseAlignmentConfig } from "./config.js";
export type { DiffFile } from "./diff.js";
export { defaultBase, gitDiffFiles, gitTopLevel } from "./git.js";
export { fetchPullRequestFiles } from "./github.js";
export type { PullRequestMeta } from "./pull.js";
export { type Analysis, type AnalysisContext, analyseFiles, summarise } from "./rules.js";

/** Said when only the change itself could be read (no base commit in the checkout). */
export const RULES_FROM_CHANGE =
  "rules were read from the change under review (its base commit is not in the checkout)";

/** A report cannot grow without bound; the summary still counts every finding. */
export const MAX_FINDINGS = 1000;

export type AlignmentSource =
  | { kind: "git"; base: string; head?: string }
  | { kind: "files"; files: DiffFile[]; notes?: string[]; label?: string };

interface RunAlignmentOptions {
  /** The repository root. */
  workspace: string;
  /** Relative to the workspace, or absolute. Default acceptance/alignment.yml. */
  configPath?: string;
  /** The user named the config explicitly: absence is an error, not "not configured". */
  requireConfig?: boolean;
  source: AlignmentSource;
  /**
   * A git ref (the PR's base) to read the rules from: the alignment config and CODEOWNERS as they
   * were before the change, so a change cannot relax the rules it is judged by. RFCs still come
   * from the change (it may add one). Absent: everything is read from the checkout under review.
   */
  rulesFrom?: string;
  /** The pull request's title, body, labels and branches, for the `pull` rules. */
  pull?: PullRequestMeta;
}

export async function runAlignment(opts: RunAlignmentOptions): Promise<AlignmentReport> {
  const rules = await readRules(opts);
  const { configFile, configRel, from, base, baseText, loaded } = rules;
  const source = describeSource(opts.source);
  if (loaded.configured && base && baseText === undefined)
    return notRunOnItsOwnRules(opts.workspace, from!, configRel!, source);
  if (!loaded.configured) {
    return alignmentReportSchema.parse({
      configured: false,
      source,
      notes: [
        `${configRel ?? configFile} not found: the alignment review is not configured (see docs/alignment.md)`,
      ],
      summary: "not configured",
    });
  }
  const change = await readChange(opts);
  const { files, notes } = change;
  if (!base) notes.push(RULES_FROM_CHANGE);
  const analysis = await analyseChange(opts, rules, loaded.config, change);
  if (baseText !== undefined) notes.push(...configEdited(files, configRel!, from!));
  notes.push(...analysis.notes);
  if (analysis.findings.length > MAX_FINDINGS) notes.push(unlisted(analysis.findings.length));
  return alignmentReportSchema.parse({
    configured: true,
    source: `${source} (${files.length} file${files.length === 1 ? "" : "s"})`,
    findings: analysis.findings.slice(0, MAX_FINDINGS),
    openRfcs: analysis.openRfcs,
    notes,
    clean: analysis.clean,
    summary: summarise(analysis.findings),
  });
}

/** Where the review's rules come from: the config at the PR's base when there is one, else the checkout's. */
interface Rules {
  configFile: string;
  /** The config's path in the repository; undefined for a config kept outside the workspace. */
  configRel?: string;
  /** The ref the rules are read at, when not the checkout under review. */
  from?: string;
  /** The tree at that ref. */
  base?: TreeReader;
  /** The config's text at that ref; undefined when the ref does not hold it. */
  baseText?: string;
  loaded: LoadedConfig;
}

async function readRules(opts: RunAlignmentOptions): Promise<Rules> {
  const configFile = resolve(opts.workspace, opts.configPath ?? DEFAULT_CONFIG_PATH);
  const configRel = repoRelative(opts.workspace, configFile);
  // A local diff has its base at hand: the rules come from there unless the caller says otherwise.
  const from = opts.rulesFrom ?? (opts.source.kind === "git" ? opts.source.base : undefined);
  const base = from && configRel ? gitTree(opts.workspace, from) : undefined;
  const baseText = base ? (await base.readMany([configRel!])).get(configRel!) : undefined;
  const loaded: LoadedConfig =
    baseText !== undefined
      ? {
          configured: true as const,
          path: configFile,
          config: parseAlignmentConfig(`${configRel}@${from}`, baseText),
        }
      : await loadAlignmentConfig(configFile, opts.requireConfig ?? false);
  return { configFile, configRel, from, base, baseText, loaded };
}

/** The change under review: its files (a local diff, or the files the caller read), and its tree. */
interface Change {
  files: DiffFile[];
  tree: TreeReader;
  notes: string[];
}

async function readChange(opts: RunAlignmentOptions): Promise<Change> {
  if (opts.source.kind === "git") {
    const head = opts.source.head ?? "HEAD";
    const files = await gitDiffFiles(opts.workspace, opts.source.base, head);
    return { files, tree: gitTree(opts.workspace, head), notes: [] };
  }
  return { files: opts.source.files, tree: fsTree(opts.workspace), notes: [...(opts.source.notes ?? [])] };
}

/**
 * The rules run on the change: RFCs open at the base, CODEOWNERS from where the rules come, the
 * texts the rules need at the head and at the base. Its notes come RFCs' first.
 */
async function analyseChange(
  opts: RunAlignmentOptions,
  rules: Rules,
  config: AlignmentConfig,
  change: Change,
): Promise<Analysis> {
  const { files, tree } = change;
  const wanted = textsWanted(files, config);
  const baseTree =
    rules.base ?? (opts.source.kind === "git" ? gitTree(opts.workspace, opts.source.base) : undefined);
  const fromBase = rules.baseText !== undefined;
  const [{ rfcs, notes: rfcNotes }, codeowners, texts, baseTexts] = await Promise.all([
    loadRfcsOpenAtBase(tree, baseTree, config),
    loadCodeOwners(fromBase && rules.base ? rules.base : tree),
    tree.readMany(wanted.head),
    baseTree ? readAtBase(baseTree, files, wanted.base) : undefined,
  ]);
  const analysis = analyseFiles(files, config, {
    rfcs,
    codeowners,
    texts,
    ...(baseTexts ? { baseTexts } : {}),
    configFromBase: fromBase,
    ...(opts.pull ? { pull: opts.pull } : {}),
    ...(rules.configRel ? { configPath: rules.configRel } : {}),
  });
  return { ...analysis, notes: [...rfcNotes, ...analysis.notes] };
}

/**
 * A config the change itself adds is the pull request's own: its patterns and globs are the
 * author's, run on the author's text by a backtracking matcher (one pattern can hold the one
 * thread for hours), and rules from a change never judge it. They apply once it merges, as an
 * edited config's edits do; none of them is compiled or run. A base the checkout lacks reads the
 * same (no config there), and says how to fetch it.
 */
async function notRunOnItsOwnRules(
  workspace: string,
  rulesFrom: string,
  configRel: string,
  source: string,
): Promise<AlignmentReport> {
  const absent = await verifyRef(workspace, rulesFrom, "the base").then(
    () => undefined,
    () => `the base ${rulesFrom} is not in the checkout (fix: actions/checkout with fetch-depth: 0)`,
  );
  const why = absent ?? `${configRel} is new in this change`;
  return alignmentReportSchema.parse({
    configured: false,
    source,
    notes: [
      `${why}: a pull request is judged by its base's alignment rules, never by its own, so none was run on this change`,
    ],
    summary: absent ? `not run: ${absent}` : `not run: ${why}; its rules apply once it merges`,
  });
}

/** The change edits the config: it was judged by the base's rules, and the report says so. */
function configEdited(files: readonly DiffFile[], configRel: string, rulesFrom: string): string[] {
  if (!files.some((f) => f.path === configRel || f.previousPath === configRel)) return [];
  return [
    `${configRel} is edited by this change, judged by the rules at ${rulesFrom}: the edits apply once it merges`,
  ];
}

function unlisted(count: number): string {
  return `${count - MAX_FINDINGS} more findings are counted in the summary but not listed`;
}

/** RFCs at the head (a change may add one), kept open where they are open at the base. */
async function loadRfcsOpenAtBase(tree: TreeReader, base: TreeReader | undefined, config: AlignmentConfig) {
  const [head, atBase] = await Promise.all([
    loadRfcs(tree, config),
    base ? loadRfcs(base, config) : undefined,
  ]);
  return atBase ? { ...head, rfcs: keepOpenFromBase(head.rfcs, atBase.rfcs) } : head;
}

/** Texts at the base by their path in the change (a renamed file is read at its old path). */
async function readAtBase(
  tree: TreeReader,
  files: readonly DiffFile[],
  paths: readonly string[],
): Promise<Map<string, string>> {
  const byPath = new Map(files.map((f) => [f.path, f.previousPath ?? f.path]));
  const read = await tree.readMany([...new Set(paths.map((p) => byPath.get(p) ?? p))]);
  const out = new Map<string, string>();
  for (const p of paths) {
    const text = read.get(byPath.get(p) ?? p);
    if (text !== undefined) out.set(p, text);
  }
  return out;
}

async function loadCodeOwners(tree: TreeReader): Promise<CodeOwners> {
  const found = await tree.readMany(CODEOWNERS_LOCATIONS);
  for (const file of CODEOWNERS_LOCATIONS) {
    const text = found.get(file);
    if (text !== undefined) return parseCodeOwners(text, file);
  }
  return NO_CODEOWNERS;
}

function describeSource(s: AlignmentSource): string {
  if (s.kind === "git") return `git diff ${s.base}...${s.head ?? "HEAD"}`;
  return s.label ?? "pull request files";
}

/** POSIX path inside the workspace, or undefined for a config kept elsewhere. */
function repoRelative(workspace: string, file: string): string | undefined {
  const rel = relative(resolve(workspace), file);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
