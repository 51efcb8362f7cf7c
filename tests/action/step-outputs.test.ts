// Every step output is declared once, as data (src/action/step-outputs.ts gathers the run's, each
// publisher's and the accept step's), and action.yml's `outputs:` is generated from the
// declarations. These tests hold the three together: what the code sets with core.setOutput is
// exactly what is declared, and what is declared is exactly what action.yml lists.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain .mjs script, typed by use
import { generateActionYaml, renderActionOutputs } from "../../scripts/docs.mjs";
import { reportPublished, setOutputs } from "../../src/action/outputs.js";
import { RUN_OUTPUTS, STEP_OUTPUTS } from "../../src/action/step-outputs.js";
import { COMMAND_OUTPUTS, commandOutputs } from "../../src/bot/outputs.js";
import { PUBLISHER_OUTPUTS, type PublishResult } from "../../src/github/publishers/gathered.js";
import { PUBLISHERS } from "../../src/github/publishers/index.js";
import { describeOutputs } from "../../src/option.js";
import { REQUEST_OPTIONS } from "../../src/request/parse.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { makeReport } from "../report/fixtures.js";

const set = vi.hoisted(() => [] as Array<[string, unknown]>);
vi.mock("@actions/core", async (original) => ({
  ...(await original<typeof import("@actions/core")>()),
  setOutput: (name: string, value: unknown) => set.push([name, value]),
  info: () => {},
  notice: () => {},
  warning: () => {},
}));
beforeEach(() => {
  set.length = 0;
});

const actionText = readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8");
const action = parse(actionText) as { outputs: Record<string, { description: string }> };

/** A publishing in which every publisher posted something (so each output has a value). */
function published(): PublishResult {
  return {
    jobSummary: { outcome: "written" },
    comment: { outcome: "created", id: 7 },
    checkRun: { outcome: "completed", id: 5, url: "https://github.com/o/r/runs/5" },
    issue: { outcome: "not-applicable" },
    requests: 3,
    notices: [],
    errors: [],
  } as unknown as PublishResult;
}

const names = (pairs: Array<[string, unknown]>) => [...new Set(pairs.map(([n]) => n))];

describe("the step outputs' declarations", () => {
  it("are action.yml's outputs, in order, with the same descriptions (npm run docs regenerates them)", () => {
    expect(action.outputs).toEqual(STEP_OUTPUTS);
    expect(Object.keys(action.outputs)).toEqual(Object.keys(STEP_OUTPUTS));
    expect(generateActionYaml(actionText, REQUEST_OPTIONS, STEP_OUTPUTS)).toBe(actionText);
  });

  it("gather the run's, every publisher's and the accept step's, each once", () => {
    const fromPublishers = PUBLISHERS.flatMap((p) => Object.keys(p.outputs ?? {}));
    expect(Object.keys(PUBLISHER_OUTPUTS)).toEqual(fromPublishers);
    expect(fromPublishers).toEqual(["comment-id", "check-run-id", "check-run-url"]);
    expect(Object.keys(STEP_OUTPUTS)).toEqual([
      ...Object.keys(RUN_OUTPUTS),
      ...fromPublishers,
      ...Object.keys(COMMAND_OUTPUTS),
    ]);
    expect(() => describeOutputs(RUN_OUTPUTS, { verdict: { description: "again" } })).toThrow(
      "step output verdict is declared twice",
    );
  });

  it("a changed, added or removed declaration changes action.yml, so docs:check fails on drift", () => {
    const edited = actionText.replace("Number of passing cases.", "Passing cases (edited by hand).");
    expect(edited).not.toBe(actionText);
    expect(generateActionYaml(edited, REQUEST_OPTIONS, STEP_OUTPUTS)).toBe(actionText);
    const added = { ...STEP_OUTPUTS, "new-output": { description: "A new output." } };
    const withAdded = generateActionYaml(actionText, REQUEST_OPTIONS, added);
    expect(parse(withAdded).outputs["new-output"]).toEqual({ description: "A new output." });
    const { verdict: _dropped, ...removed } = STEP_OUTPUTS;
    expect(
      Object.keys(parse(generateActionYaml(actionText, REQUEST_OPTIONS, removed)).outputs),
    ).not.toContain("verdict");
    expect(() => renderActionOutputs({ x: { description: "" } })).toThrow(/x: an output needs a description/);
    expect(() =>
      generateActionYaml(actionText.replace("  # outputs:end\n", ""), REQUEST_OPTIONS, STEP_OUTPUTS),
    ).toThrow(/marker pair for the outputs not found/);
  });
});

describe("what the code sets is what is declared", () => {
  it("a run sets its outputs and empties every publisher's, then publishing fills them", () => {
    setOutputs(makeReport(), "/tmp/report");
    const before = [...set];
    expect(names(before)).toEqual([...Object.keys(RUN_OUTPUTS), ...Object.keys(PUBLISHER_OUTPUTS)]);
    for (const name of Object.keys(PUBLISHER_OUTPUTS)) expect(before).toContainEqual([name, ""]);
    expect(Object.fromEntries(before)).toMatchObject({
      verdict: "pass",
      verified: "true",
      "report-path": "/tmp/report/report.json",
      "report-dir": "/tmp/report",
      passed: 3,
      failed: 0,
      skipped: 0,
    });
    set.length = 0;
    reportPublished(published());
    expect(Object.fromEntries(set)).toEqual({
      "comment-id": 7,
      "check-run-id": 5,
      "check-run-url": "https://github.com/o/r/runs/5",
    });
  });

  it("an unverified bundle's pass is a warn, and it says it is not verified", () => {
    setOutputs(makeReport(), "/tmp/report", true);
    expect(Object.fromEntries(set)).toMatchObject({ verdict: "warn", verified: "false" });
  });

  it("the accept step sets its outputs whether or not the command starts a run", () => {
    const run = commandOutputs({
      kind: "run",
      pr: 7,
      headSha: "b".repeat(40),
      subjects: ["web", "api"],
    } as never);
    expect(Object.keys(run)).toEqual(Object.keys(COMMAND_OUTPUTS));
    expect(run).toMatchObject({ run: "true", pr: "7", "head-sha": "b".repeat(40), subjects: "web,api" });
    const none = commandOutputs({ kind: "ignore", reason: "not a command" } as never);
    expect(none).toEqual({ run: "false", decision: "", "head-sha": "", pr: "", subjects: "" });
  });

  it("the modes together set every declared output, and nothing else", () => {
    setOutputs(makeReport(), "/tmp/report");
    reportPublished(published());
    const all = [...names(set), ...Object.keys(commandOutputs({ kind: "ignore", reason: "x" } as never))];
    expect(all.sort()).toEqual(Object.keys(STEP_OUTPUTS).sort());
    expect(Object.keys(action.outputs).sort()).toEqual(all.sort());
  });

  it("src/ calls core.setOutput only with a declared name or from a declared table", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts")) files.push(p);
      }
    };
    walk(path.join(REPO_ROOT, "src"));
    const literal: string[] = [];
    const computed: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\bsetOutput\(\s*([^,]+),/g)) {
        const arg = m[1]!.trim();
        const lit = /^["'`]([^"'`]+)["'`]$/.exec(arg);
        if (lit) literal.push(lit[1]!);
        else computed.push(`${path.relative(REPO_ROOT, file)}: ${arg}`);
      }
    }
    // A name written out must be declared (better: declare it and set it from its table).
    expect(literal.filter((n) => !(n in STEP_OUTPUTS))).toEqual([]);
    // The calls that set a name they do not spell out each go through one of the declared tables
    // (RUN_OUTPUTS, PUBLISHER_OUTPUTS, publishedOutputs, commandOutputs): a new one is looked at here.
    expect(computed.sort()).toEqual([
      "src/action/modes/command.ts: name",
      "src/action/outputs.ts: name",
      "src/action/outputs.ts: name",
      "src/action/outputs.ts: name",
    ]);
  });
});
