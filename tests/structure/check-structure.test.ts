// The structure check (scripts/check-structure.mjs) holds src/ to its layers, its function-length
// limit and to exporting only what something imports. These tests build small synthetic trees with
// the real layer table and prove it catches what it must (an upward import, a folder cycle, a
// circle of files inside a folder, one suite importing another, a new folder no layer holds, a
// long function of each kind, an export nothing imports), that the baseline only shrinks, that its
// report of the imports folder by folder is what docs/architecture.md shows, and that the
// repository itself passes.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import * as structure from "../../scripts/check-structure.mjs";
import { REPO_ROOT } from "../helpers/inventory.js";

interface Offender {
  kind: string;
  key: string;
  file: string;
  line: number;
  lines?: number;
}

const SCRIPT = path.join(REPO_ROOT, "scripts", "check-structure.mjs");
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A repository root holding the given files (paths relative to the root). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "da-structure-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const { compare, findOffenders, readBaseline } = structure;
const describeOffender = structure.describe;
const offenders = (root: string): Offender[] => findOffenders(root);
const messages = (root: string): string[] => offenders(root).map((o) => describeOffender(o));

/** The CLI on a root: exit status and everything it printed. */
function runCheck(root: string): { status: number; output: string } {
  try {
    const out = execFileSync(process.execPath, [SCRIPT, "--root", root], { encoding: "utf8", stdio: "pipe" });
    return { status: 0, output: out };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { status: e.status, output: e.stdout + e.stderr };
  }
}

/** The CLI's --report on a root: exit status and what it printed. */
function runReport(root: string): { status: number; output: string } {
  const out = execFileSync(process.execPath, [SCRIPT, "--root", root, "--report"], { encoding: "utf8" });
  return { status: 0, output: out };
}

/** A function whose body (braces included) spans exactly `lines` lines. */
function body(lines: number): string {
  return `{\n${"  n += 1;\n".repeat(lines - 2)}}`;
}

const CLEAN = {
  "src/errors.ts": "export class UsageError extends Error {}\n",
  "src/report/model.ts": 'import { UsageError } from "../errors.js";\nexport const x = UsageError;\n',
  "src/engine/cleanup.ts": 'import type { x } from "../report/model.js";\nexport type Y = typeof x;\n',
  "src/pipeline.ts": 'import type { Y } from "./engine/cleanup.js";\nexport type Z = Y;\n',
  // An entry point (EXPORTS_ALLOWED): what it exports needs no importer.
  "src/main.ts": 'import type { Z } from "./pipeline.js";\nexport type Door = Z;\n',
};

const MAX = structure.MAX_FUNCTION_LINES as number;

describe("layers", () => {
  it("passes a tree whose imports all go down", () => {
    expect(offenders(tree(CLEAN))).toEqual([]);
    expect(runCheck(tree(CLEAN)).status).toBe(0);
  });

  it("fails an upward import, naming the file, the line, the import and both layers", () => {
    const root = tree({
      ...CLEAN,
      "src/engine/cleanup.ts":
        'import type { x } from "../report/model.js";\nimport { Z } from "../pipeline.js";\n',
    });
    const found = offenders(root);
    expect(found.map((o) => [o.kind, o.key, o.line])).toEqual([
      ["upward", "src/engine/cleanup.ts -> src/pipeline.ts", 2],
    ]);
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain(
      'src/engine/cleanup.ts:2: imports "../pipeline.js" (src/pipeline.ts): layer "engine" (src/engine/) may not import layer "flows" (src/pipeline.ts)',
    );
    expect(output).toContain("move what both need down");
  });

  it("counts type-only, re-export and dynamic imports too", () => {
    const root = tree({
      ...CLEAN,
      "src/report/a.ts": 'export type { Z } from "../pipeline.js";\n',
      "src/report/b.ts": 'export const load = () => import("../engine/cleanup.js");\n',
      "src/report/c.ts": 'export type T = import("../inventory/load.js").X;\n',
      "src/inventory/load.ts": "export type X = number;\n",
    });
    expect(offenders(root).map((o) => o.key)).toEqual([
      "src/report/a.ts -> src/pipeline.ts",
      "src/report/b.ts -> src/engine/cleanup.ts",
      "src/report/c.ts -> src/inventory/load.ts",
    ]);
  });

  it("fails a folder cycle inside one layer and names the imports that close it", () => {
    const root = tree({
      ...CLEAN,
      "src/commands/run.ts": 'import { reply } from "../bot/reply.js";\nexport const run = reply;\n',
      "src/bot/reply.ts": 'export const reply = 1;\nimport { run } from "../commands/run.js";\n',
    });
    const found = offenders(root);
    expect(found.map((o) => o.key)).toEqual(["cycle src/bot/ src/commands/"]);
    const text = messages(root)[0];
    expect(text).toContain("folder cycle between src/bot/, src/commands/");
    expect(text).toContain('src/commands/run.ts:1: imports "../bot/reply.js"');
    expect(text).toContain('src/bot/reply.ts:2: imports "../commands/run.js"');
    expect(runCheck(root).status).toBe(1);
  });

  it("allows folders of one layer to import each other one way", () => {
    const root = tree({
      ...CLEAN,
      "src/commands/run.ts": 'import { reply } from "../bot/reply.js";\nexport const run = reply;\n',
      "src/bot/reply.ts": "export const reply = 1;\n",
    });
    expect(offenders(root)).toEqual([]);
  });

  it("fails a circle of files inside one folder, through types and lazy imports too, naming its imports", () => {
    const root = tree({
      ...CLEAN,
      "src/action/step.ts": 'import type { Run } from "./run.js";\nexport type Step = { run?: Run };\n',
      "src/action/run.ts":
        'import { fail } from "./fail.js";\nexport type Run = 1;\nexport const go = () => import("./finish.js");\n',
      "src/action/fail.ts": 'import type { Run } from "./run.js";\nexport const fail = (r?: Run) => r;\n',
      "src/action/finish.ts":
        'import type { Step } from "./step.js";\nexport const done = (s?: Step) => s;\n',
    });
    expect(offenders(root).map((o) => [o.kind, o.key])).toEqual([
      [
        "file-cycle",
        "file cycle src/action/fail.ts src/action/finish.ts src/action/run.ts src/action/step.ts",
      ],
    ]);
    const text = messages(root)[0];
    expect(text).toContain(
      "file cycle between src/action/fail.ts, src/action/finish.ts, src/action/run.ts, src/action/step.ts",
    );
    expect(text).toContain('src/action/fail.ts:1: imports "./run.js"');
    expect(text).toContain('src/action/run.ts:3: imports "./finish.js"');
    expect(text).toContain("into a file of its own that imports none of them");
    expect(runCheck(root).status).toBe(1);
  });

  it("fails a circle of files across the sub-folders of one unit (a folder with its sub-folders)", () => {
    const root = tree({
      ...CLEAN,
      "src/action/modes/run.ts": 'import { step } from "../step.js";\nexport const run = step;\n',
      "src/action/step.ts": 'import type { run } from "./modes/run.js";\nexport const step = 1;\n',
      "src/cases/index.ts": 'import { C } from "./containment/index.js";\nexport const ALL = [C];\n',
      "src/cases/containment/index.ts": 'import type { ALL } from "../index.js";\nexport const C = 1;\n',
    });
    expect(offenders(root).map((o) => o.key)).toEqual([
      "file cycle src/action/modes/run.ts src/action/step.ts",
      "file cycle src/cases/containment/index.ts src/cases/index.ts",
    ]);
  });

  it("allows the files of one folder to import each other one way, a file importing itself aside", () => {
    const root = tree({
      ...CLEAN,
      "src/action/check-run.ts": "export type Started = 1;\n",
      "src/action/fail.ts":
        'import type { Started } from "./check-run.js";\nexport const f = (s?: Started) => s;\n',
      "src/action/finish.ts":
        'import type { Started } from "./check-run.js";\nexport const g = (s?: Started) => s;\n',
      "src/action/report-step.ts":
        'import { f } from "./fail.js";\nimport { g } from "./finish.js";\nexport const h = () => import("./report-step.js");\nexport const both = [f, g];\n',
    });
    expect(offenders(root)).toEqual([]);
  });

  it("fails one suite importing another (the suites layer is independent)", () => {
    const root = tree({
      "src/suites/containment/probe.ts": "export const probe = 1;\n",
      "src/suites/lifecycle/http.ts":
        'import { probe } from "../containment/probe.js";\nexport const p = probe;\n',
    });
    expect(offenders(root).map((o) => [o.kind, o.key])).toEqual([
      ["sibling", "src/suites/lifecycle/http.ts -> src/suites/containment/probe.ts"],
    ]);
    expect(messages(root)[0]).toContain("suites are independent");
  });

  it("holds the case catalogue under the report and the inventory, and a case's grader in its suite", () => {
    const catalogue = {
      "src/errors.ts": "export class UsageError extends Error {}\n",
      "src/cases/types.ts": "export type D = { id: string };\n",
      "src/cases/containment/user.ts":
        'import type { D } from "../types.js";\nexport const USER: D = { id: "c.user" };\n',
      "src/cases/index.ts": 'import { USER } from "./containment/user.js";\nexport const CASES = [USER];\n',
      "src/report/model.ts": 'import { CASES } from "../cases/index.js";\nexport const s = CASES;\n',
      "src/inventory/schema.ts": 'import { CASES } from "../cases/index.js";\nexport const e = CASES;\n',
      "src/engine/provider.ts": "export type View = { id: string };\n",
      "src/suites/containment/evidence.ts":
        'import type { View } from "../../engine/provider.js";\nexport type Ev = View;\n',
      "src/suites/containment/graders/user.ts":
        'import { CASES } from "../../../cases/index.js";\nimport type { Ev } from "../evidence.js";\nexport const grade = (ev: Ev) => CASES[0].id === ev.id;\n',
      "src/suites/runtime.ts": 'import type { D } from "../cases/types.js";\nexport type Runtime = D;\n',
    };
    // The catalogue at the bottom, read by the report, the inventory and the suites; a grader over
    // evidence typed by the engine, beside its suite: all downward or within, no circle.
    expect(offenders(tree(catalogue))).toEqual([]);
    // A case reaching for its grader's evidence, for the report or for the inventory: upward.
    const root = tree({
      ...catalogue,
      "src/cases/containment/user.ts":
        'import type { Ev } from "../../suites/containment/evidence.js";\nimport type { s } from "../../report/model.js";\nimport type { e } from "../../inventory/schema.js";\nexport const USER = 1;\n',
    });
    expect(offenders(root).map((o) => o.key)).toEqual([
      "src/cases/containment/user.ts -> src/suites/containment/evidence.ts",
      "src/cases/containment/user.ts -> src/report/model.ts",
      "src/cases/containment/user.ts -> src/inventory/schema.ts",
    ]);
    expect(messages(root)[0]).toContain(
      'layer "cases" (src/cases/) may not import layer "suites" (src/suites/containment/), which sits above it',
    );
    // No baseline excuses it: the CLI fails on an arrow back up whatever the baseline lists.
    const listed = tree({
      ...catalogue,
      "src/cases/types.ts": 'import type { s } from "../report/model.js";\nexport type D = { id: string };\n',
      "scripts/structure-baseline.json": JSON.stringify({
        functions: {},
        imports: ["src/cases/types.ts -> src/report/model.ts"],
      }),
    });
    const { status, output } = runCheck(listed);
    expect(status).toBe(1);
    expect(output).toContain('src/cases/types.ts:1: imports "../report/model.js"');
  });

  it("places a file by the folder it sits in, the deepest folder listed, and the suites' seam by src/suites/ itself", () => {
    const place = (file: string) => {
      // An import of the top door from the file: the message names the file's layer and unit.
      const spec = `${path.posix.relative(path.posix.dirname(file), "src/main.js")}`;
      const root = tree({ [file]: `import { x } from "${spec}";\n`, "src/main.ts": "export const x = 1;\n" });
      return messages(root)[0] ?? "";
    };
    expect(place("src/suites/runtime.ts")).toContain('layer "suite seam" (src/suites/)');
    expect(place("src/suites/containment/graders/user.ts")).toContain(
      'layer "suites" (src/suites/containment/)',
    );
    expect(place("src/cases/lifecycle/build.ts")).toContain('layer "cases" (src/cases/)');
  });

  it("refuses a LAYERS unit that is a glob, a group of files or a file inside a folder, saying what to write", () => {
    const bad = [
      { name: "a", why: "", units: ["src/suites/*/cases.ts"] },
      { name: "b", why: "", units: [{ name: "group", paths: ["src/x.ts"] }] },
      { name: "c", why: "", units: ["src/suites/runtime.ts", "src/engine/", "src/engine/"] },
    ];
    expect(structure.badUnits(bad)).toEqual([
      expect.stringContaining(
        'layer "a": "src/suites/*/cases.ts" is not a unit: name a folder ("src/<folder>/")',
      ),
      expect.stringContaining('layer "b": {"name":"group","paths":["src/x.ts"]} is not a unit'),
      expect.stringContaining('layer "c": "src/suites/runtime.ts" is not a unit'),
      expect.stringContaining('layer "c": "src/engine/" is listed twice'),
    ]);
    expect(() => findOffenders(tree(CLEAN), { layers: bad })).toThrow(/globs and groups of files are gone/);
    expect(structure.badUnits()).toEqual([]);
  });

  it("keeps a seam's package inside its seam (the engine's client, GitHub's, the Actions toolkit)", () => {
    const root = tree({
      "src/engine/providers/docker/engine.ts": 'import Docker from "dockerode";\nexport const d = Docker;\n',
      "src/suites/lifecycle/create.ts":
        'import type Docker from "dockerode";\nexport type C = Docker.ContainerCreateOptions;\n',
      "src/github/client.ts": 'import { Octokit } from "@octokit/rest";\nexport const o = Octokit;\n',
      "src/commands/run.ts":
        'export const load = () => import("@octokit/rest");\nimport * as core from "@actions/core";\n',
      "src/action/main.ts": 'import * as core from "@actions/core";\nexport const c = core;\n',
    });
    expect(offenders(root).map((o) => [o.kind, o.key, o.line])).toEqual([
      ["package", "src/commands/run.ts -> @octokit", 1],
      ["package", "src/commands/run.ts -> @actions/core", 2],
      ["package", "src/suites/lifecycle/create.ts -> dockerode", 1],
    ]);
    expect(messages(root)[2]).toContain(
      'src/suites/lifecycle/create.ts:1: imports "dockerode", which only src/engine/providers/',
    );
  });

  it("fails a folder no layer holds, so a new folder is placed on purpose", () => {
    const root = tree({ ...CLEAN, "src/misc/util.ts": "export const u = 1;\n" });
    expect(offenders(root).map((o) => o.key)).toEqual(["unplaced src/misc/util.ts"]);
    expect(messages(root)[0]).toContain("add its folder to LAYERS in scripts/check-structure.mjs");
  });
});

describe("function length", () => {
  it("allows a body of MAX_FUNCTION_LINES lines and fails one more, with file, name, line and limit", () => {
    expect(MAX).toBe(70);
    const root = tree({
      "src/errors.ts": `export function short() ${body(MAX)}\n\nexport function long() ${body(MAX + 1)}\n`,
    });
    const found = offenders(root);
    expect(found.map((o) => [o.key, o.line, o.lines])).toEqual([["src/errors.ts long", MAX + 2, MAX + 1]]);
    expect(messages(root)[0]).toBe(
      `src/errors.ts:${MAX + 2}: function long has a ${MAX + 1}-line body (limit ${MAX}): split it into named steps, each a function of its own (the limit counts the body's lines as written)`,
    );
  });

  it("counts methods, arrow functions and function expressions assigned to names", () => {
    const root = tree({
      "src/log.ts": [
        `export class Logger {\n  write() ${body(90)}\n}`,
        `export const render = () => ${body(90)};`,
        `export const table = { row: function () ${body(90)} };`,
        `export function outer() {\n  const inner = async () => ${body(85)};\n  return inner;\n}`,
      ].join("\n"),
    });
    expect(offenders(root).map((o) => o.key)).toEqual([
      "src/log.ts Logger.write",
      "src/log.ts render",
      "src/log.ts table.row",
      "src/log.ts outer",
      "src/log.ts outer > inner",
    ]);
  });
});

describe("baseline", () => {
  const LONG = { "src/errors.ts": `function long() ${body(100)}\n` };
  const baseline = (functions: Record<string, number>, imports: string[] = []) =>
    JSON.stringify({ functions, imports });

  it("lets a listed offender pass, but not one it does not list", () => {
    const listed = tree({
      ...LONG,
      "scripts/structure-baseline.json": baseline({ "src/errors.ts long": 100 }),
    });
    expect(runCheck(listed).status).toBe(0);
    const unlisted = tree({ ...LONG, "scripts/structure-baseline.json": baseline({}) });
    const { status, output } = runCheck(unlisted);
    expect(status).toBe(1);
    expect(output).toContain(`src/errors.ts:1: function long has a 100-line body (limit ${MAX})`);
  });

  it("fails a listed function that grew past its listed length", () => {
    const root = tree({ ...LONG, "scripts/structure-baseline.json": baseline({ "src/errors.ts long": 90 }) });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain("the baseline allows this known offender 90 lines; it may not grow");
  });

  it("fails an entry that is no longer an offender, so the list only gets shorter", () => {
    const root = tree({
      "src/errors.ts": `export function long() ${body(10)}\n`,
      "scripts/structure-baseline.json": baseline({ "src/errors.ts long": 100 }, [
        "src/report/a.ts -> src/pipeline.ts",
      ]),
    });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain('"src/errors.ts long" is no longer an offender: remove it from the baseline');
    expect(output).toContain('"src/report/a.ts -> src/pipeline.ts" is no longer an offender');
  });

  it("may hold only what the first baseline held, never more lines: it only shrinks", () => {
    const first = { functions: { "src/a.ts f": 100 }, imports: ["src/report/a.ts -> src/pipeline.ts"] };
    const grown = structure.grownBaseline;
    expect(grown({ functions: { "src/a.ts f": 90 }, imports: [] }, first)).toEqual([]);
    expect(
      grown({ functions: { "src/a.ts f": 120, "src/b.ts g": 85 }, imports: ["src/x.ts -> src/y.ts"] }, first),
    ).toEqual(["src/a.ts f (100 -> 120 lines)", "src/b.ts g", "src/x.ts -> src/y.ts"]);
    expect(grown(readBaseline(path.join(REPO_ROOT, "scripts", "structure-baseline.json")))).toEqual([]);
  });

  it("compares keys, not lines, so a long function that moved within its file stays known", () => {
    const found = [
      { kind: "function", key: "src/report/a.ts render", file: "src/report/a.ts", line: 7, lines: 90 },
    ];
    expect(compare(found, { functions: { "src/report/a.ts render": 90 }, imports: [] })).toEqual({
      fresh: [],
      stale: [],
    });
  });

  it("excuses no import: an upward import listed in the baseline is still fresh, and the first baseline lists none", () => {
    const found = [
      { kind: "upward", key: "src/report/a.ts -> src/pipeline.ts", file: "src/report/a.ts", line: 7 },
    ];
    const listed = { functions: {}, imports: ["src/report/a.ts -> src/pipeline.ts"] };
    expect(compare(found, listed).fresh).toEqual(found);
    expect(structure.grownBaseline(listed)).toEqual(["src/report/a.ts -> src/pipeline.ts"]);
  });
});

describe("exports nothing imports", () => {
  /** The export offenders of a tree (EXPORTS_ALLOWED applies): "file export name" keys. */
  const unused = (root: string): string[] =>
    structure.exportOffenders(root).offenders.map((o: Offender) => o.key);

  it("fails an export nothing imports, and one only its own file uses, naming the file, line and what to do", () => {
    const root = tree({
      "src/report/text.ts": [
        "export const used = 1;",
        "export const local = 2;",
        "export const dead = 3;",
        "export function render() { return local; }",
      ].join("\n"),
      "src/report/model.ts": 'import { render, used } from "./text.js";\nexport const m = render() + used;\n',
      "tests/report/model.test.ts": 'import { m } from "../../src/report/model.js";\nconsole.log(m);\n',
    });
    expect(unused(root)).toEqual(["src/report/text.ts export local", "src/report/text.ts export dead"]);
    const [first] = structure.exportOffenders(root).offenders;
    expect(describeOffender(first)).toBe(
      "src/report/text.ts:2: exports local, which nothing in src/, tests/ or scripts/ imports: stop exporting it (what only its own file uses needs no export), delete it if nothing uses it at all, or, if it is public on purpose, list it in EXPORTS_ALLOWED (scripts/check-structure.mjs) with the reason",
    );
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain("src/report/text.ts:3: exports dead, which nothing");
  });

  it("counts a test's import, a namespace import or import() naming it, a vi.mock'd path, and a script naming file and export", () => {
    const root = tree({
      "src/report/a.ts": "export const byTest = 1;\nexport type ByType = number;\n",
      "src/report/b.ts": "export const viaNamespace = 1;\nexport const notNamed = 2;\n",
      "src/report/c.ts": "export const lazily = 1;\n",
      "src/report/d.ts": "export const mocked = 1;\n",
      "src/report/e.ts": "export const REPORTED = 1;\n",
      "src/report/index.ts": [
        'import * as b from "./b.js";',
        "export const x = b.viaNamespace;",
        'export const y = () => import("./c.js").then((m) => m.lazily);',
      ].join("\n"),
      "src/main.ts": 'import { x, y } from "./report/index.js";\nconsole.log(x, y);\n',
      "tests/a.test.ts": [
        'import { byTest } from "../src/report/a.js";',
        'import type { ByType } from "../src/report/a.js";',
        'vi.mock("../src/report/d.js", () => ({ mocked: 2 }));',
      ].join("\n"),
      "scripts/docs.mjs": 'const { REPORTED } = await loadTs("src/report/e.ts");\n',
    });
    expect(unused(root)).toEqual(["src/report/b.ts export notNamed"]);
  });

  it("follows re-exports: an unused barrel entry fails, and so does what only it re-exports", () => {
    const root = tree({
      "src/report/inner.ts": "export const kept = 1;\nexport const forwarded = 2;\n",
      "src/report/index.ts": 'export { forwarded, kept } from "./inner.js";\n',
      "src/main.ts": 'import { kept } from "./report/index.js";\nconsole.log(kept);\n',
    });
    expect(unused(root)).toEqual([
      "src/report/index.ts export forwarded",
      "src/report/inner.ts export forwarded",
    ]);
    expect(describeOffender(structure.exportOffenders(root).offenders[0])).toContain(
      "exports forwarded (a re-export), which nothing",
    );
  });

  it("lets an entry point and what EXPORTS_ALLOWED names pass; an entry that excuses nothing is stale", () => {
    const root = tree({
      "src/main.ts": "export async function runMain() {}\n",
      "src/report/seam.ts": "export interface Seam { name: string }\nexport const used = 1;\n",
      "tests/seam.test.ts": 'import { used } from "../src/report/seam.js";\n',
    });
    const allowed = {
      "src/main.ts": "an entry point",
      "src/report/seam.ts Seam": "the seam",
      "src/x.ts y": "gone",
    };
    expect(structure.exportOffenders(root, allowed)).toEqual({ offenders: [], staleAllowed: ["src/x.ts y"] });
    expect(structure.exportOffenders(root, {}).offenders.map((o: Offender) => o.key)).toEqual([
      "src/main.ts export runMain",
      "src/report/seam.ts export Seam",
    ]);
  });

  it("the baseline excuses a listed export, fails one it does not list or that was fixed, and only shrinks", () => {
    const files = { "src/report/text.ts": "export const dead = 1;\n" };
    const baseline = (exports: string[]) => JSON.stringify({ functions: {}, imports: [], exports });
    expect(
      runCheck(
        tree({ ...files, "scripts/structure-baseline.json": baseline(["src/report/text.ts export dead"]) }),
      ).status,
    ).toBe(0);
    const fixed = runCheck(
      tree({
        "src/report/text.ts": "const dead = 1;\n",
        "scripts/structure-baseline.json": baseline(["src/report/text.ts export dead"]),
      }),
    );
    expect(fixed.status).toBe(1);
    expect(fixed.output).toContain('"src/report/text.ts export dead" is no longer an offender');
    const first = { functions: {}, imports: [], exports: ["src/a.ts export x"] };
    expect(
      structure.grownBaseline({ functions: {}, imports: [], exports: ["src/a.ts export x"] }, first),
    ).toEqual([]);
    expect(
      structure.grownBaseline({ functions: {}, imports: [], exports: ["src/b.ts export y"] }, first),
    ).toEqual(["src/b.ts export y"]);
  });
});

describe("the imports, folder by folder", () => {
  it("lists each unit with the units it imports, their layer numbers after its own, and what the check refuses", () => {
    const ROOT = tree({
      ...CLEAN,
      "src/github/comment.ts": 'import { x } from "../report/model.js";\nexport const c = x;\n',
      "src/engine/select.ts": 'import { UsageError } from "../errors.js";\nexport const e = UsageError;\n',
    });
    const text = structure.renderImports(structure.unitImports(ROOT), findOffenders(ROOT));
    expect(text).toBe(
      [
        " 1 doors",
        "   src/main.ts -> 4 src/pipeline.ts",
        " 4 flows",
        "   src/pipeline.ts -> 11 src/engine/",
        " 5 publishers",
        "   src/github/ -> 12 src/report/",
        "11 engine",
        "   src/engine/ -> 12 src/report/, 15 src/errors.ts",
        "12 report",
        "   src/report/ -> 15 src/errors.ts",
        "",
        "Arrows back up: none. Suites importing each other: none.",
        "Cycles between the folders of one layer: none. Circles of files inside a unit: none.",
      ].join("\n"),
    );
    const { status, output } = runReport(ROOT);
    expect(status).toBe(0);
    expect(output.trimEnd()).toBe(text);
  });

  it("counts what the check refuses: an arrow back up", () => {
    const root = tree({
      ...CLEAN,
      "src/engine/cleanup.ts": 'import type { Z } from "../pipeline.js";\nexport type Y = Z;\n',
    });
    const text = structure.renderImports(structure.unitImports(root), findOffenders(root));
    expect(text).toContain("   src/engine/ -> 4 src/pipeline.ts");
    expect(text).toContain("Arrows back up: 1.");
  });

  it("wraps a long list under its arrow, at most 100 columns", () => {
    const to = ["a", "b", "c", "d", "e", "f", "g", "h"].map((n) => ({
      unit: `src/engine/${n}-folder-with-a-long-name/`,
      rank: 10,
    }));
    const arrows = [{ from: { unit: "src/commands/", rank: 1 }, to }];
    const lines = structure.renderImports(arrows, []).split("\n");
    expect(lines.every((l: string) => l.length <= 100)).toBe(true);
    expect(lines[1]).toMatch(/^ {3}src\/commands\/ -> 11 /);
    expect(lines[2]).toMatch(/^ {20}11 /);
  });
});

describe("docs/architecture.md", () => {
  it("fails when its layer table is not the one LAYERS renders", () => {
    const docs = (table: string) =>
      `# Architecture\n<!-- layers:start (x) -->\n${table}\n<!-- layers:end -->\n`;
    const current = tree({ ...CLEAN, "docs/architecture.md": docs(structure.renderLayers()) });
    expect(runCheck(current).status).toBe(0);
    const stale = tree({ ...CLEAN, "docs/architecture.md": docs("| an old table |") });
    const { status, output } = runCheck(stale);
    expect(status).toBe(1);
    expect(output).toContain("docs/architecture.md: its layer table");
    expect(output).toContain("node scripts/check-structure.mjs --write-docs");
  });

  it("fails when its imports folder by folder are not what --report prints, and --write-docs rewrites them", () => {
    const docs = (report: string) =>
      `# Architecture\n<!-- imports:start (x) -->\n${report}\n<!-- imports:end -->\n`;
    const root = tree({ ...CLEAN, "docs/architecture.md": docs("an old report") });
    const { status, output } = runCheck(root);
    expect(status).toBe(1);
    expect(output).toContain("its layer table or its imports folder by folder");
    execFileSync(process.execPath, [SCRIPT, "--root", root, "--write-docs"], { stdio: "pipe" });
    const report = runReport(root).output.trimEnd();
    expect(readFileSync(path.join(root, "docs/architecture.md"), "utf8")).toBe(
      docs(`\`\`\`\n${report}\n\`\`\``),
    );
    expect(runCheck(root).status).toBe(0);
  });
});

describe("the repository", () => {
  it("passes its own structure check against its baseline", () => {
    const known = readBaseline(path.join(REPO_ROOT, "scripts", "structure-baseline.json"));
    // The exports' entries are the next test's.
    const { fresh, stale } = compare(findOffenders(REPO_ROOT), { ...known, exports: [] });
    expect(fresh.map((o: Offender) => describeOffender(o))).toEqual([]);
    expect(stale).toEqual([]);
  });

  it("documents the layers the check enforces, and its imports folder by folder", () => {
    const docs = readFileSync(path.join(REPO_ROOT, "docs", "architecture.md"), "utf8");
    expect(docs).toContain(structure.renderLayers());
    expect(docs).toContain(runReport(REPO_ROOT).output.trimEnd());
    expect(structure.docsWithStructure(docs, REPO_ROOT)).toBe(docs);
  });

  it("exports nothing that nothing imports, but for the baseline's known ones; every allowance excuses one", () => {
    const known = readBaseline(path.join(REPO_ROOT, "scripts", "structure-baseline.json"));
    const { offenders: found, staleAllowed } = structure.exportOffenders(REPO_ROOT);
    const { fresh, stale } = compare(found, { ...known, functions: {}, imports: [] });
    expect(fresh.map((o: Offender) => describeOffender(o))).toEqual([]);
    expect(stale).toEqual([]);
    expect(staleAllowed).toEqual([]);
  });
});
