// The corpus: pull requests modelled on real ones (tests/alignment/corpus/<case>/: README.md says
// which), each a base tree, the files the PR changes, its metadata and the findings a maintainer
// expects. Each case is built into a git repository and reviewed exactly as `align` would. The
// precision and recall measured here are the ones docs/alignment.md records; fixing a noisy rule
// is a corpus change.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseAlignmentConfig } from "../../src/alignment/config.js";
import { type PullRequestMeta, runAlignment } from "../../src/alignment/index.js";
import { CODE, COMMENT, classify, languageOf, STRING, VALUE } from "../../src/alignment/languages.js";
import type { AlignmentReport } from "../../src/report/model.js";
import { levelOf } from "../../src/report/model.js";
import { git } from "./fixture-repo.js";

const ROOT = "tests/alignment/corpus";
const CASES = readdirSync(ROOT).filter((d) => existsSync(join(ROOT, d, "expected.json")));

interface Expected {
  /** One entry per rule: its id (rule, else RFC ref, else kind), level and every place it lists. */
  findings: { id: string; level: string; places: string[] }[];
  /** Places no finding may name: text in strings or comments where the rule targets code. */
  neverFlag: string[];
  /** Rule ids that must be reported as checked and clean. */
  clean: string[];
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The case as a repository: `main` holds base/, `pr` adds head/ on top. */
function buildRepo(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `da-corpus-${name}-`));
  dirs.push(dir);
  git(dir, "init", "-q", "-b", "main");
  cpSync(join(ROOT, name, "base"), dir, { recursive: true });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "-b", "pr");
  cpSync(join(ROOT, name, "head"), dir, { recursive: true });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "pr");
  return dir;
}

/** What each kind of rule may point at: code (YAML values are configuration, so code), comments, strings. */
const SEEN = {
  code: (c: number) => c === CODE || c === VALUE,
  comments: (c: number) => c === COMMENT,
  strings: (c: number) => c === STRING || c === VALUE,
} as const;

/** Rule id -> target, for the case's principles that target part of a file, and the debug checks (code). */
function targetsOf(dir: string): Map<string, keyof typeof SEEN> {
  // The rules at the base, as the review reads them (a case may edit its config).
  const config = parseAlignmentConfig("alignment.yml", git(dir, "show", "main:acceptance/alignment.yml"));
  const out = new Map<string, keyof typeof SEEN>(
    ["debug.print", "debug.console-log", "debug.pdb", "debug.breakpoint", "debug.debugger"].map((id) => [
      id,
      "code",
    ]),
  );
  for (const p of config.principles) if (p.target !== "any") out.set(p.id, p.target);
  return out;
}

function idOf(f: AlignmentReport["findings"][number]): string {
  return f.rule ?? f.ref ?? f.kind;
}

function entries(r: AlignmentReport) {
  return r.findings.map((f) => ({
    id: idOf(f),
    level: levelOf(f),
    places: f.locations.map((l) => (l.line === undefined ? l.path : `${l.path}:${l.line}`)),
  }));
}

/** Precision and recall of the entries against the expected ones (an entry matches only whole). */
function score(actual: Expected["findings"], expected: Expected["findings"]) {
  const key = (e: Expected["findings"][number]) => JSON.stringify([e.id, e.level, e.places]);
  const want = new Set(expected.map(key));
  const hits = actual.filter((e) => want.has(key(e))).length;
  return {
    precision: actual.length === 0 ? 1 : hits / actual.length,
    recall: expected.length === 0 ? 1 : hits / expected.length,
  };
}

/** The table row docs/alignment.md records for a case: `| case | entries | precision | recall |`. */
function documentedRow(name: string): string | undefined {
  const doc = readFileSync("docs/alignment.md", "utf8");
  return doc.split("\n").find((l) => l.startsWith(`| \`${name}\` |`));
}

describe.each(CASES)("corpus case %s", (name) => {
  test("every expected entry, nothing else, one entry per rule, nothing in strings or comments for code rules", async () => {
    const expected = JSON.parse(readFileSync(join(ROOT, name, "expected.json"), "utf8")) as Expected;
    const pull = JSON.parse(readFileSync(join(ROOT, name, "pr.json"), "utf8")) as PullRequestMeta;
    const dir = buildRepo(name);
    const report = await runAlignment({
      workspace: dir,
      source: { kind: "git", base: "main", head: "pr" },
      pull,
    });
    const actual = entries(report);

    expect(actual).toEqual(expected.findings);
    const ids = actual.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const flagged = new Set(actual.flatMap((e) => e.places));
    for (const place of expected.neverFlag) expect(flagged, place).not.toContain(place);
    expect(report.clean.map((c) => c.id)).toEqual(expect.arrayContaining(expected.clean));

    // Independently of the rules: an entry of a rule that targets code, comments or strings only
    // points at lines holding that kind of text (by the tokenizer), never at a line with none.
    const targets = targetsOf(dir);
    for (const f of report.findings) {
      const target = targets.get(idOf(f));
      if (target === undefined) continue;
      for (const l of f.locations) {
        const lang = languageOf(l.path);
        if (!lang || l.line === undefined) continue;
        const text = readFileSync(join(dir, l.path), "utf8");
        const classes = classify(text, lang);
        const start =
          text
            .split("\n")
            .slice(0, l.line - 1)
            .join("\n").length + (l.line > 1 ? 1 : 0);
        const line = text.split("\n")[l.line - 1]!;
        const seen = [...line].filter((ch, i) => ch.trim() !== "" && SEEN[target](classes[start + i]!));
        expect(seen.length, `${idOf(f)} (${target}) at ${l.path}:${l.line}`).toBeGreaterThan(0);
      }
    }

    // Byte-identical run to run.
    const again = await runAlignment({
      workspace: dir,
      source: { kind: "git", base: "main", head: "pr" },
      pull,
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(report));

    const { precision, recall } = score(actual, expected.findings);
    expect(documentedRow(name)).toBe(
      `| \`${name}\` | ${expected.findings.length} | ${precision.toFixed(2)} | ${recall.toFixed(2)} |`,
    );
  });
});

test("the corpus has at least the three cases the issue names", () => {
  expect(CASES).toEqual(
    expect.arrayContaining(["openenv-validation", "host-containment", "nemoclaw-provider"]),
  );
});
