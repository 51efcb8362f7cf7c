// The recipe for a new containment case (issue #28, "the house"): its case file in
// src/cases/containment/ (with its rank: where it runs), its grader file in
// src/suites/containment/graders/ named alike, and its test; no index is edited by hand. In a copy
// of the tree a throwaway case is added, `npm run docs` run, and: the suite's list has it at its
// rank, so do CONTAINMENT_CASES, the graders' Record and gradeContainment's results; the inventory
// schema and the README's case table name it; only generated files changed; the tree typechecks and
// the structure check passes. Without its grader file the tree does not typecheck.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/inventory.js";
import { bundleAndRun, copyTree, runIn } from "../helpers/tree-copy.js";

const ID = "containment.throwaway";

/** Rank 25: between containment.capabilities (20) and containment.no_new_privileges (30). */
const NEW_CASE = `import type { ContainmentCaseDef } from "../types.js";

export const THROWAWAY = {
  id: "${ID}",
  rank: 25,
  title: "A throwaway case",
  measures: "nothing: the case recipe's test adds it to a copy of the tree and proves the recipe",
  standards: { pss: "-", cis: "-" },
  remediation: {
    inventory: "Set throwaway: false in the inventory (subjects[].throwaway).",
    cli: "Start it with \`--throwaway=false\`.",
    compose: "Set \`throwaway: false\` on the service.",
  },
} as const satisfies ContainmentCaseDef;
`;

const NEW_GRADER = `import { type Grader, pass } from "../evidence.js";

/** The grader of ${ID} (its definition: src/cases/containment/throwaway.ts). */
export const gradeThrowaway: Grader = () => pass("the throwaway grader ran");
`;

/** Bundled in the copy and run there: the catalogue's ids, the graders' keys and one grading. */
const PROBE = `import { ALL_CASES, CONTAINMENT_CASES, remediationOf } from "./src/cases/index.js";
import { gradeContainment } from "./src/suites/containment/grade.js";
import { GRADERS } from "./src/suites/containment/graders/index.js";
const ev = { inspect: {}, probe: { error: "not probed" } };
const graded = gradeContainment(ev as never, { subject: "s" } as never);
console.log(JSON.stringify({
  containment: CONTAINMENT_CASES,
  all: ALL_CASES,
  graders: Object.keys(GRADERS),
  graded: graded.map((c) => [c.id, c.id === "${ID}" ? c.status + ": " + c.message : ""]),
  fix: remediationOf("${ID}", "cli", { cli: "podman" }),
}));
`;

const GENERATED = [
  "src/cases/containment/index.ts",
  "src/cases/ids.ts",
  "src/suites/containment/graders/index.ts",
  "acceptance/inventory.schema.json",
  "README.md",
];

let copy: string;
const run = (args: string[]) => runIn(copy, args);
const failure = (args: string[]) => {
  try {
    run(args);
    return undefined;
  } catch (err) {
    return err as { status: number; stdout: string; stderr: string };
  }
};
const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8");
const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
/**
 * The copy's src typechecked, incrementally (the second run rechecks only what changed): about 9 s
 * and 6 s on an idle machine, over a minute while the whole suite shares its 2 cores.
 */
const typecheck = () => failure([TSC, "-p", "tsconfig.json"]);

beforeAll(() => {
  copy = copyTree("da-case-recipe-", ["tsconfig.json"]);
  // The sources only (tests are not copied), checked incrementally.
  const tsconfig = JSON.parse(read(copy, "tsconfig.json"));
  tsconfig.include = ["src/**/*.ts"];
  tsconfig.compilerOptions = {
    ...tsconfig.compilerOptions,
    incremental: true,
    tsBuildInfoFile: ".tsbuildinfo",
  };
  writeFileSync(path.join(copy, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(path.join(copy, "src/cases/containment/throwaway.ts"), NEW_CASE);
  writeFileSync(path.join(copy, "src/suites/containment/graders/throwaway.ts"), NEW_GRADER);
  run(["scripts/docs.mjs"]);
}, 120_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("a new containment case is its case file and its grader file (and its test)", () => {
  it("npm run docs lists it at its rank in the suite's list and the graders' index; only generated files change", () => {
    const list = read(copy, "src/cases/containment/index.ts");
    expect(list).toContain('import { THROWAWAY } from "./throwaway.js";');
    expect(list).toMatch(/const CASES = \[\s*USER,\s*CAPABILITIES,\s*THROWAWAY,\s*NO_NEW_PRIVILEGES,/);
    const graders = read(copy, "src/suites/containment/graders/index.ts");
    expect(graders).toContain('import { gradeThrowaway } from "./throwaway.js";');
    expect(graders).toContain(
      `  "containment.capabilities": gradeCapabilities,\n  "${ID}": gradeThrowaway,\n  "containment.no_new_privileges"`,
    );
    const changed = [
      ...GENERATED,
      "src/cases/lifecycle/index.ts",
      "src/inventory/precheck-plan.json",
      "acceptance/report.schema.json",
      "action.yml",
      "docs/architecture.md",
    ];
    expect(changed.filter((f) => read(copy, f) !== read(REPO_ROOT, f))).toEqual(GENERATED);
    expect(run(["scripts/docs.mjs", "--check"])).toMatch(/in sync/);
  });

  it("the catalogue has it at its rank: CONTAINMENT_CASES, the graders' keys, gradeContainment runs its grader", async () => {
    const out = JSON.parse(await bundleAndRun(copy, PROBE));
    expect(out.containment.slice(0, 4)).toEqual([
      "containment.user",
      "containment.capabilities",
      ID,
      "containment.no_new_privileges",
    ]);
    expect(out.all).toContain(ID);
    expect(out.graders).toEqual(out.containment);
    expect(out.graded.map(([id]: string[]) => id)).toEqual(out.containment);
    expect(out.graded[2]).toEqual([ID, "pass: the throwaway grader ran"]);
    expect(out.fix).toBe("Start it with `--throwaway=false`.");
  }, 60_000);

  it("the inventory schema and the README's case table name it, in its place", () => {
    const schema = JSON.stringify(JSON.parse(read(copy, "acceptance/inventory.schema.json")));
    expect(schema).toContain(`"containment.capabilities","${ID}","containment.no_new_privileges"`);
    const readme = read(copy, "README.md");
    const table = readme.slice(readme.indexOf("<!-- cases-containment:start"));
    const row = `| \`${ID}\` | **A throwaway case**: nothing: the case recipe's test adds it to a copy of the tree and proves the recipe | - | - |`;
    expect(table).toContain(row);
    expect(table.indexOf(row)).toBeGreaterThan(table.indexOf("| `containment.capabilities` |"));
    expect(table.indexOf(row)).toBeLessThan(table.indexOf("| `containment.no_new_privileges` |"));
  });

  it("the structure check passes with it", () => {
    expect(run([path.join(copy, "scripts/check-structure.mjs"), "--root", copy])).toMatch(
      /0 new or grown, 0 fixed but still listed/,
    );
  }, 60_000);

  it("npm run docs refuses a grader file with no case, and a case file without its rank, naming the file", () => {
    const caseFile = path.join(copy, "src/cases/containment/throwaway.ts");
    const stray = path.join(copy, "src/suites/containment/graders/stray.ts");
    try {
      writeFileSync(stray, NEW_GRADER.replace("gradeThrowaway", "gradeStray"));
      expect(failure(["scripts/docs.mjs", "--check"])?.stderr).toContain(
        "src/suites/containment/graders/stray.ts grades no case: there is no src/cases/containment/stray.ts",
      );
      rmSync(stray);
      writeFileSync(caseFile, NEW_CASE.replace("  rank: 25,\n", ""));
      expect(failure(["scripts/docs.mjs", "--check"])?.stderr).toContain(
        `src/cases/containment/throwaway.ts: case ${ID} needs a rank`,
      );
    } finally {
      rmSync(stray, { force: true });
      writeFileSync(caseFile, NEW_CASE);
    }
  }, 60_000);
  it("the tree typechecks with it, and does not without its grader file (docs:check first says the graders' index is stale)", () => {
    expect(typecheck()).toBeUndefined();
    const graderFile = path.join(copy, "src/suites/containment/graders/throwaway.ts");
    rmSync(graderFile);
    try {
      expect(failure(["scripts/docs.mjs", "--check"])).toMatchObject({
        status: 1,
        stderr: expect.stringMatching(/out of date: src\/suites\/containment\/graders\/index\.ts \(/),
      });
      run(["scripts/docs.mjs"]);
      expect(read(copy, "src/suites/containment/graders/index.ts")).not.toContain("throwaway");
      const failed = typecheck();
      expect(failed?.status).toBe(2);
      // The one error: the graders' Record misses the case's id.
      const errors = failed!.stdout.split("\n").filter((l) => /error TS/.test(l));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        new RegExp(`^src/suites/containment/graders/index\\.ts\\(\\d+,\\d+\\): error TS2741: .*'"${ID}"'`),
      );
    } finally {
      // The copy's lists are left without it: this test is the last.
      writeFileSync(graderFile, NEW_GRADER);
    }
  }, 600_000); // three type checks of the whole tree: minutes at a load average of 25
});
