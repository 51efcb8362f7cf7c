// A throwaway git repository with an RFC registry in several header styles, CODEOWNERS, an
// alignment config and a feature branch with chosen additions. Shared by the git-source and
// API-source tests, so both must reach the same findings.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, env: GIT_ENV, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

async function write(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

export const ALIGNMENT_YML = `# test config
rfcs:
  dir: rfcs/
  map:
    "0002": [src/report/**]
principles:
  - id: no-shell
    title: No shell execution
    paths: [src/**]
    forbid: ['\\bexecSync\\(', 'shell:\\s*true']
    message: Subjects are started through the engine API, never a shell.
    tier: 1
    reviewers: ["@security"]
  - id: no-fixed-sleeps
    title: No fixed sleeps in tests
    paths: [tests/**]
    forbid: ['setTimeout\\(', '/\\bsleep\\(/i']
    message: Wait for a condition instead of a fixed time.
    tier: 2
`;

export const BASE_FILES: Record<string, string> = {
  "acceptance/alignment.yml": ALIGNMENT_YML,
  "acceptance/inventory.json": '{ "schemaVersion": 1 }\n',
  ".github/CODEOWNERS":
    "*  @org/maintainers\n/src/k8s/  @k8s-team\n*.py  @py-team\n/acceptance/  @acceptance-owners\n",
  // Four header styles and a missing header.
  "rfcs/README.md": "# RFCs\n\nOne file per proposal.\n",
  "rfcs/0001-engine-providers.md":
    "# RFC 0001: Engine providers\n\n**Status**: In Review\n**Authors**: Jane Doe (@jdoe)\n**Affects**: `src/engine/**`\n\n## Summary\n",
  "rfcs/0002-report-format.md": "# Report format\n\n**Status:** Draft\n**Author:** @carol\n\n## Motivation\n",
  "rfcs/0003-sharding.md":
    "# RFC-0003 Sharding\n\nStatus: Accepted | Author: @dave | Affects: src/shard/**\n",
  "rfcs/0004-kubernetes.md":
    "---\nrfc: 4\ntitle: Kubernetes provider\nstatus: In Review\naffects:\n  - src/k8s/**\n---\n\n# Kubernetes provider\n",
  "rfcs/0005-idea.md": "# An idea without a header\n\nProse only.\n",
  "src/engine/docker.ts": 'export function start() {\n  console.log("already here before the PR");\n}\n',
  "src/engine/old.ts": "export const old = 1;\n",
  "src/report/render.ts": "export function render() {\n  return 1;\n}\n",
  "src/shard/plan.ts": "export const plan = 1;\n",
  "docs/setext.md": "Intro\n",
};

/** The PR: each addition is chosen to trip (or deliberately not trip) one rule. */
export const FEATURE_FILES: Record<string, string | Buffer> = {
  "src/engine/docker.ts":
    'export function start() {\n  console.log("already here before the PR");\n  console.log("debug");\n  console.log("ok"); // alignment: allow\n}\n',
  "src/report/render.ts":
    'import { execSync } from "node:child_process";\nexport function render() {\n  execSync("make");\n  return 1;\n}\n',
  "src/k8s/pod.ts": "export const pod = {};\n",
  "src/shard/plan.ts": "export const plan = 2;\n",
  "tests/wait.test.ts": "// polls\nawait new Promise((r) => setTimeout(r, 100));\n",
  "tools/job.py": 'import pdb\nprint("hi")\nbreakpoint()\nprinter = 1\n',
  "docs/notes.md":
    "Notes\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\nconsole.log(1) is fine in prose\n",
  "docs/setext.md": "Intro\n\nTitle\n=======\n",
  "rfcs/0003-result-cache.md":
    "# Result cache\n\n**Status**: Draft\n**Authors**: @erin\n**Affects**: src/cache/**\n",
  "acceptance/inventory.json": '{ "schemaVersion": 1, "subjects": [] }\n',
  "acceptance/fixtures/hardened/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0, 255]),
};

export const FILLER_FILES = 230;

type Row = [tier: 1 | 2, kind: string, places: string, reviewers: string[], ref?: string];

/** What both sources must find in the feature branch, in report order. */
/** One entry per rule (or RFC): where it hit, in order, and who is suggested. */
export const EXPECTED: Row[] = [
  [1, "conflict-marker", "docs/notes.md:2 docs/notes.md:4 docs/notes.md:6", []],
  // Line 4 carries "alignment: allow", but the PR added it: a change cannot grant itself an exception.
  [1, "debug-leftover", "src/engine/docker.ts:3 src/engine/docker.ts:4", []],
  [1, "debug-leftover", "tools/job.py:1", []],
  [1, "debug-leftover", "tools/job.py:2", []],
  [1, "debug-leftover", "tools/job.py:3", []],
  [1, "principle", "src/report/render.ts:3", ["@security"], "no-shell"],
  [1, "rfc-number-taken", "rfcs/0003-result-cache.md:1", [], "RFC 3"],
  [2, "principle", "tests/wait.test.ts:2", ["@org/maintainers"], "no-fixed-sleeps"],
  [
    2,
    "protected-path",
    "acceptance/fixtures/hardened/logo.png acceptance/inventory.json:1",
    ["@acceptance-owners"],
  ],
  [2, "rfc-open-change", "src/engine/docker.ts:3 src/engine/old.ts", ["@jdoe"], "RFC 1"],
  [2, "rfc-open-change", "src/k8s/pod.ts:1", ["@k8s-team"], "RFC 4"],
  [2, "rfc-open-change", "src/report/render.ts:1", ["@carol"], "RFC 2"],
];

export const EXPECTED_SUMMARY =
  "7 blocking, 5 for discussion, 0 advisory; touches open RFC: 3, RFC numbering conflicts: 1, protected path changed: 1";

export const EXPECTED_OPEN_RFCS = [
  {
    number: "1",
    title: "Engine providers",
    status: "In Review",
    paths: ["src/engine/docker.ts", "src/engine/old.ts"],
  },
  { number: "2", title: "Report format", status: "Draft", paths: ["src/report/render.ts"] },
  { number: "4", title: "Kubernetes provider", status: "In Review", paths: ["src/k8s/pod.ts"] },
];

export function rows(
  findings: {
    tier: 1 | 2;
    kind: string;
    locations: { path: string; line?: number }[];
    reviewers: string[];
    ref?: string;
  }[],
): Row[] {
  return findings.map((f) => {
    const places = f.locations.map((l) => (l.line === undefined ? l.path : `${l.path}:${l.line}`)).join(" ");
    const row: Row = [f.tier, f.kind, places, f.reviewers];
    if (f.ref !== undefined) row.push(f.ref);
    return row;
  });
}
export interface FixtureRepo {
  dir: string;
  base: string;
  head: string;
  cleanup(): Promise<void>;
}

export async function makeFixtureRepo(): Promise<FixtureRepo> {
  const dir = await mkdtemp(join(tmpdir(), "da-align-repo-"));
  git(dir, "init", "-q", "-b", "main");
  await write(dir, BASE_FILES);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "-b", "feature");
  await write(dir, FEATURE_FILES);
  // Enough plain files that the API source has to page (100 per page).
  const filler: Record<string, string> = {};
  for (let i = 0; i < FILLER_FILES; i++) filler[`data/f${String(i).padStart(3, "0")}.txt`] = `row ${i}\n`;
  await write(dir, filler);
  git(dir, "rm", "-q", "src/engine/old.ts");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "feature");
  return { dir, base: "main", head: "feature", cleanup: () => rm(dir, { recursive: true, force: true }) };
}
