// The realistic fixture matrix as data (acceptance/fixtures/realistic/realistic.json), shared by
// its real-engine test and the bench.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ALL_CASES, SUITES } from "../../src/cases/index.js";
import { REPO_ROOT } from "./inventory.js";

export const REALISTIC_DIR = path.join(REPO_ROOT, "acceptance/fixtures/realistic");
export const DEBIAN_IMAGE = process.env.DA_DEBIAN_IMAGE ?? "docker-acceptance/debian:bookworm";

export interface RealisticCase {
  name: string;
  image: string;
  why: string;
  subject: Record<string, unknown>;
  /** Case IDs, `suite.*` for every case of a suite, or `@set` for a set of the matrix's `sets`. */
  fails: string[];
  /** As `fails`; a case in both fails. */
  skips?: string[];
  messages?: Record<string, string>;
  /** Where an engine says it otherwise (Podman does not report OOM kills): its patterns win. */
  messagesOn?: Partial<Record<"docker" | "podman", Record<string, string>>>;
  logExcerpts?: Record<string, string>;
  pending?: string;
}

export interface RealisticMatrix {
  /** Named sets of case IDs, each named for why its cases share a status (`$comment` aside). */
  sets?: Record<string, string[] | string>;
  images: Record<string, { context: string; target?: string }>;
  cases: RealisticCase[];
}

const FILE = "acceptance/fixtures/realistic/realistic.json";

/** The matrix, its every expectation checked against the catalogue first (see expectationProblems). */
export function loadRealistic(): RealisticMatrix {
  const matrix = JSON.parse(readFileSync(path.join(REPO_ROOT, FILE), "utf8")) as RealisticMatrix;
  const problems = expectationProblems(matrix);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return matrix;
}

/** The case IDs one entry of `fails` or `skips` stands for; undefined when it names nothing known. */
function idsOf(entry: string, sets: RealisticMatrix["sets"], ids: readonly string[]): string[] | undefined {
  if (entry.startsWith("@")) {
    const set = sets?.[entry.slice(1)];
    return Array.isArray(set) ? set : undefined;
  }
  if (entry.endsWith(".*"))
    return (SUITES as readonly string[]).includes(entry.slice(0, -2))
      ? ids.filter((id) => id.startsWith(entry.slice(0, -1)))
      : undefined;
  return ids.includes(entry) ? [entry] : undefined;
}

/**
 * Every entry of the matrix that names no case of the catalogue (a renamed or removed case, a
 * typo, a set not defined), as a sentence naming the file, the fixture, the field and the fix.
 */
export function expectationProblems(matrix: RealisticMatrix, ids: readonly string[] = ALL_CASES): string[] {
  const problems: string[] = [];
  for (const [name, set] of Object.entries(matrix.sets ?? {})) {
    if (name === "$comment") continue;
    for (const id of Array.isArray(set) ? set : [])
      if (!ids.includes(id))
        problems.push(
          `${FILE}: sets.${name}: "${id}" is no case of the catalogue (src/cases/): name a case ID`,
        );
  }
  matrix.cases.forEach((c, i) => {
    for (const field of ["fails", "skips"] as const)
      for (const entry of c[field] ?? [])
        if (!idsOf(entry, matrix.sets, ids))
          problems.push(
            `${FILE}: cases[${i}] ("${c.name}").${field}: "${entry}" names nothing: write a case ID, "<suite>.*" or "@<set>" with the set defined in "sets"`,
          );
  });
  return problems;
}

/** A stable local tag per fixture image: rebuilt each run, kept as build cache like the bases. */
export const fixtureTag = (image: string) => `docker-acceptance/realistic-${image}:local`;

/**
 * Every case ID with its exact expected status: the listed fails, then the listed skips, pass
 * otherwise, so a case added to the catalogue is expected to pass wherever no fixture says more.
 */
export function expectedStatuses(
  c: RealisticCase,
  ids: readonly string[],
  sets: RealisticMatrix["sets"] = {},
): Record<string, string> {
  const listed = (list: string[] | undefined) =>
    new Set((list ?? []).flatMap((e) => idsOf(e, sets, ids) ?? []));
  const fails = listed(c.fails);
  const skips = listed(c.skips);
  return Object.fromEntries(ids.map((id) => [id, fails.has(id) ? "fail" : skips.has(id) ? "skip" : "pass"]));
}
