// action.yml is the action's contract with the runner: what it runs, what it reads, what it sets.
// These tests hold the metadata to the code that reads it, and the README to the metadata.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain .mjs script, typed by use
import { generateActionYaml, generateReadme, renderTables } from "../../scripts/docs.mjs";
import { readInputs } from "../../src/action/inputs.js";
import { STEP_OUTPUTS } from "../../src/action/step-outputs.js";
import { PROVIDERS } from "../../src/engine/providers/index.js";
import { parseRequest, REQUEST_OPTIONS } from "../../src/request/parse.js";
import { REPO_ROOT } from "../helpers/inventory.js";

const actionText = readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8");
const action = parse(actionText) as {
  name: string;
  description: string;
  branding: { icon: string; color: string };
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
  runs: Record<string, string>;
};

const ISSUE_INPUTS = [
  "mode",
  "inventory",
  "subject",
  "suite",
  "shard",
  "container",
  "probe-image",
  "cleanup-images",
  "require-complete",
  "fail-on",
  "comment",
  "check-name",
  "issue-on-failure",
  "alignment-config",
  "junit",
  "report-dir",
  "parallelism",
  "github-token",
];
/** The accept step's outputs (mode: command, docs/commands.md). */
const COMMAND_OUTPUTS = ["run", "decision", "head-sha", "pr", "subjects"];
const OUTPUTS = [
  "verdict",
  "verified",
  "report-path",
  "report-dir",
  "passed",
  "failed",
  "skipped",
  "comment-id",
  "check-run-id",
  "check-run-url",
  "image-ids",
];

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

/** Runs readInputs with the given INPUT_* values and records every input name it asked for. */
function readWith(values: Record<string, string>) {
  for (const k of Object.keys(process.env)) if (k.startsWith("INPUT_")) delete process.env[k];
  for (const [k, v] of Object.entries(values)) process.env[`INPUT_${k.toUpperCase()}`] = v;
  const asked = new Set<string>();
  const real = process.env;
  process.env = new Proxy(real, {
    get(target, key) {
      if (typeof key === "string" && key.startsWith("INPUT_")) asked.add(key.slice(6).toLowerCase());
      return Reflect.get(target, key);
    },
  });
  try {
    return { inputs: readInputs(), asked };
  } finally {
    process.env = real;
  }
}

describe("action.yml", () => {
  it("runs on node24 with a post step that always runs", () => {
    expect(action.runs).toEqual({
      using: "node24",
      main: "dist/main.js",
      post: "dist/post.js",
      "post-if": "always()",
    });
    expect(action.name).toBe("docker-acceptance");
    expect(action.description.length).toBeGreaterThan(40);
    expect(action.branding.icon && action.branding.color).toBeTruthy();
  });

  it("declares every input and output of the issue, each described", () => {
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(ISSUE_INPUTS));
    // Exactly the declared ones, which are exactly what the code sets: tests/action/step-outputs.test.ts.
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining([...OUTPUTS, ...COMMAND_OUTPUTS]));
    for (const [name, i] of Object.entries(action.inputs)) {
      expect(i.description?.length, name).toBeGreaterThan(10);
      expect(i.default, `${name}: declare a default (empty string when none)`).toBeDefined();
      expect(i.required ?? false, name).toBe(false);
    }
    for (const [name, o] of Object.entries(action.outputs))
      expect(o.description?.length, name).toBeGreaterThan(5);
  });

  it("names every value an enum input accepts in its description (`mode: command` was left out)", () => {
    const missing: string[] = [];
    for (const o of Object.values(REQUEST_OPTIONS) as Array<{
      input?: string;
      kind: string;
      values?: readonly string[];
    }>) {
      if (!o.input || (o.kind !== "enum" && o.kind !== "enum-list")) continue;
      const text = action.inputs[o.input]!.description;
      for (const v of o.values!) if (!text.includes(`\`${v}\``)) missing.push(`${o.input}: \`${v}\``);
    }
    expect(missing).toEqual([]);
  });

  it("declares exactly the inputs the action reads", () => {
    const { asked } = readWith({});
    expect([...asked].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("defaults the token to the job's token, never a secret name", () => {
    expect(action.inputs["github-token"]!.default).toBe(["$", "{{ github.token }}"].join(""));
  });

  it("means the same with its declared defaults as with nothing set (CLI and local runs agree)", () => {
    const defaults = Object.fromEntries(
      Object.entries(action.inputs)
        .filter(([, i]) => !String(i.default).includes("${{"))
        .map(([k, i]) => [k, String(i.default)]),
    );
    expect(readWith(defaults).inputs).toEqual(readWith({}).inputs);
  });

  it("reads the publishing inputs: job-summary off, max-annotations, comment-update and comment-on-pass", () => {
    const { inputs } = readWith({
      "job-summary": "false",
      "max-annotations": "25",
      "comment-update": "on-change",
      "comment-on-pass": "hide",
    });
    expect(inputs).toMatchObject({
      jobSummary: false,
      maxAnnotations: 25,
      commentUpdate: "on-change",
      commentOnPass: "hide",
    });
    expect(() => readWith({ "max-annotations": "5000" })).toThrow(
      /max-annotations: "5000" is not a whole number from 0 to 1000/,
    );
    expect(() => readWith({ "comment-on-pass": "archive" })).toThrow(/update, keep, hide, delete/);
  });

  it("rejects a bad enum value naming the input and the allowed values", () => {
    expect(() => readWith({ "fail-on": "sometimes" })).toThrow(/fail-on.*"sometimes".*fail, warn, never/);
    expect(() => readWith({ mode: "deploy" })).toThrow(/mode.*run, check, publish, merge/);
  });
});

describe("README inputs and outputs tables", () => {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

  it("equal what action.yml declares, with each input's CLI flag from the request (npm run docs regenerates them)", () => {
    expect(generateReadme(readme, actionText, REQUEST_OPTIONS)).toBe(readme);
  });

  it("list every input and output once, with its default", () => {
    const { inputs, outputs } = renderTables(actionText);
    for (const name of Object.keys(action.inputs)) expect(readme).toContain(`| \`${name}\` |`);
    for (const name of Object.keys(action.outputs)) expect(outputs).toContain(`| \`${name}\` |`);
    expect(inputs).toContain("| `fail-on` |");
    expect(inputs).toMatch(/\| `github-token` \|.*\| `\$\{\{ github\.token \}\}` \|/);
  });

  it("drift is detected: a changed description changes the generated README", () => {
    const changed = actionText.replace("Number of passing cases.", "Passing cases (changed).");
    expect(changed).not.toBe(actionText);
    expect(generateReadme(readme, changed, REQUEST_OPTIONS)).not.toBe(readme);
  });

  it("a description with a pipe cannot break the table", () => {
    const { inputs } = renderTables("inputs:\n  x:\n    description: a | b\n    default: ''\n");
    expect(inputs.split("\n")[2]).toBe("| `x` | a \\| b | — |");
  });
});

describe("action.yml's inputs, generated from the option table", () => {
  it("equal what the option table (and each publisher's module) declares (npm run docs regenerates them)", () => {
    expect(generateActionYaml(actionText, REQUEST_OPTIONS, STEP_OUTPUTS)).toBe(actionText);
  });

  it("name exactly the registered engines in the engine input, so docs:check fails when they disagree", () => {
    const named = [...action.inputs.engine!.description.matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
    expect(named).toEqual(["auto", ...PROVIDERS.map((p) => p.name)]);
    const edited = actionText.replace("`podman` (", "`podman`, `containerd` (");
    expect(edited).not.toBe(actionText);
    expect(generateActionYaml(edited, REQUEST_OPTIONS, STEP_OUTPUTS)).toBe(actionText);
  });
});

describe("one request schema for the action's inputs and the CLI's flags", () => {
  it("action.yml declares exactly the request's inputs, with the same defaults", () => {
    const options = Object.values(REQUEST_OPTIONS as Record<string, { input?: string; default?: string }>);
    const declared = Object.keys(action.inputs).sort();
    expect(options.flatMap((o) => (o.input ? [o.input] : [])).sort()).toEqual(declared);
    for (const o of options.filter((x) => x.input && x.input !== "github-token")) {
      expect(action.inputs[o.input!]!.default ?? "", o.input).toBe(o.default ?? "");
    }
  });

  it("a mistake names the input or the flag that carried it, and what it accepts", () => {
    expect(() => parseRequest({ network: "host" }, ["network"], "input")).toThrow(
      'input network: "host" is not one of none, bridge or any',
    );
    expect(() => parseRequest({ network: "host" }, ["network"], "flag")).toThrow(
      '--network "host": is not one of none, bridge or any',
    );
    expect(() => parseRequest({ suites: ["lifecycle", "x"] }, ["suites"], "flag")).toThrow(
      '--suite "x": is not lifecycle or containment',
    );
    expect(() => parseRequest({ shard: "3/2" }, ["shard"], "input")).toThrow('input shard: "3/2" is not I/N');
  });

  it("both doors mean the same: a comma list equals the repeated flag, capabilities normalised", () => {
    const keys = ["allowedCapabilities", "writableRoots", "suites"] as const;
    const fromInput = parseRequest(
      { allowedCapabilities: "cap_net_bind_service, CHOWN", writableRoots: "", suites: "containment" },
      keys,
      "input",
    );
    const fromFlags = parseRequest(
      { allowedCapabilities: ["cap_net_bind_service", "CHOWN"], writableRoots: [], suites: ["containment"] },
      keys,
      "flag",
    );
    expect(fromInput).toEqual(fromFlags);
    expect(fromInput).toEqual({
      allowedCapabilities: ["NET_BIND_SERVICE", "CHOWN"],
      writableRoots: ["/tmp", "/dev/shm"],
      suites: ["containment"],
    });
  });
});
