// The example workflows in docs/workflows/ are meant to be copied. Each must work against this
// action as declared (every `with:` key is an input; literal values parse), follow least privilege
// and pin third-party actions by full commit SHA.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readInputs } from "../../src/action/inputs.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { RELEASE_PLACEHOLDER, usesLines, yamlBlocks } from "./pins.js";

const DIR = path.join(REPO_ROOT, "docs/workflows");
const action = parse(readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8"));
const declared = new Set(Object.keys(action.inputs));
const THIS_ACTION = /^docker-acceptance\/docker-acceptance@/;

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string> | string;
  steps: Step[];
}
interface Workflow {
  name?: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}

const files = readdirSync(DIR).filter((f) => f.endsWith(".yml"));
const workflows = files.map((f) => ({
  file: f,
  text: readFileSync(path.join(DIR, f), "utf8"),
  wf: parse(readFileSync(path.join(DIR, f), "utf8")) as Workflow,
}));
const steps = (wf: Workflow) => Object.values(wf.jobs).flatMap((j) => j.steps);

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe("docs/workflows", () => {
  it("covers the set-ups the README promises", () => {
    expect(files.sort()).toEqual([
      "acceptance-commands.yml",
      "attach-compose.yml",
      "build-push-action.yml",
      "fork-safe-publish.yml",
      "fork-safe-test.yml",
      "matrix-shards.yml",
      "pull-request.yml",
      "scheduled.yml",
    ]);
  });

  for (const { file, wf, text } of workflows) {
    describe(file, () => {
      it("uses this action, and only with declared inputs", () => {
        const ours = steps(wf).filter((s) => s.uses && THIS_ACTION.test(s.uses));
        expect(ours.length).toBeGreaterThan(0);
        for (const s of ours) {
          const unknown = Object.keys(s.with ?? {}).filter((k) => !declared.has(k));
          expect(unknown, `${file}: with: keys not declared in action.yml`).toEqual([]);
        }
      });

      it("passes literal input values the action accepts", () => {
        for (const s of steps(wf).filter((x) => x.uses && THIS_ACTION.test(x.uses))) {
          for (const k of Object.keys(process.env)) if (k.startsWith("INPUT_")) delete process.env[k];
          for (const [k, v] of Object.entries(s.with ?? {})) {
            // Expressions are resolved by the runner; stand in a plausible value for the ones we parse.
            const value = String(v).includes("${{") ? (k === "shard" ? "1/3" : "x") : String(v);
            // The runner keeps hyphens and upper-cases the name: INPUT_FAIL-ON.
            process.env[`INPUT_${k.toUpperCase()}`] = value;
          }
          expect(() => readInputs(), `${file}: ${JSON.stringify(s.with)}`).not.toThrow();
        }
      });

      it("pins every other action by full commit SHA", () => {
        for (const s of steps(wf)) {
          if (!s.uses || THIS_ACTION.test(s.uses)) continue;
          expect(s.uses, file).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
          // The release it is, for people updating the pin.
          expect(text, file).toMatch(new RegExp(`${s.uses.replace(/[/.]/g, "\\$&")} # v\\d`));
        }
      });

      it("checks out without persisting credentials", () => {
        for (const s of steps(wf).filter((x) => x.uses?.startsWith("actions/checkout@"))) {
          expect(s.with?.["persist-credentials"], file).toBe(false);
        }
      });

      it("grants least privilege: nothing by default, each job names what it needs", () => {
        expect(wf.permissions, `${file}: top-level permissions`).toEqual({});
        for (const [name, job] of Object.entries(wf.jobs)) {
          expect(typeof job.permissions, `${file} job ${name}`).toBe("object");
          const perms = job.permissions as Record<string, string>;
          for (const [scope, level] of Object.entries(perms)) {
            expect(
              ["contents", "pull-requests", "checks", "issues", "actions"],
              `${file} ${scope}`,
            ).toContain(scope);
            // Only the publishing scopes are ever written; code and actions are only read.
            if (scope === "contents" || scope === "actions") expect(level).toBe("read");
          }
          const ours = job.steps.find((s) => s.uses && THIS_ACTION.test(s.uses));
          const mode = String(ours?.with?.mode ?? "run");
          const comment = String(ours?.with?.comment ?? "always");
          const posts = mode !== "run" || !("pull_request" in wf.on) || comment !== "never";
          // A job that posts a comment or a check run asks for those scopes; one that does not, does not.
          if (ours && posts && ("pull_request" in wf.on || "workflow_run" in wf.on)) {
            expect(perms["pull-requests"], `${file} job ${name}`).toBe("write");
            expect(perms.checks).toBe("write");
          }
          if (ours?.with?.["issue-on-failure"] === true) expect(perms.issues).toBe("write");
          else expect(perms.issues, `${file} job ${name}`).toBeUndefined();
        }
      });

      it("cancels superseded pull request runs", () => {
        if (!("pull_request" in wf.on) && !("workflow_run" in wf.on)) return;
        expect(wf.concurrency?.["cancel-in-progress"], file).toBe(true);
        expect(wf.concurrency?.group, file).toMatch(/pull_request\.number|head_sha/);
      });
    });
  }

  it("the fork-safe publish phase never checks out or runs the pull request's code", () => {
    const { wf } = workflows.find((w) => w.file === "fork-safe-publish.yml")!;
    expect(Object.keys(wf.on)).toEqual(["workflow_run"]);
    for (const s of steps(wf)) {
      expect(s.uses ?? "").not.toMatch(/^actions\/checkout@/);
      expect(s.run).toBeUndefined();
    }
    const test = workflows.find((w) => w.file === "fork-safe-test.yml")!.wf;
    expect(test.name).toBeDefined();
    expect((wf.on.workflow_run as { workflows: string[] }).workflows).toEqual([test.name]);
    // Phase 1 has no write scope at all.
    expect(
      Object.values(test.jobs).every((j) =>
        Object.values(j.permissions as object).every((l) => l === "read"),
      ),
    ).toBe(true);
  });
});

describe("README.md and docs/workflows agree on how to install", () => {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const docs = readdirSync(path.join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md"));
  const sources = [
    { file: "README.md", lines: usesLines(yamlBlocks(readme)) },
    ...docs.map((f) => ({
      file: `docs/${f}`,
      lines: usesLines(yamlBlocks(readFileSync(path.join(REPO_ROOT, "docs", f), "utf8"))),
    })),
    ...workflows.map((w) => ({ file: `docs/workflows/${w.file}`, lines: usesLines(w.text) })),
  ];

  it("every action is pinned alike everywhere, the docs' snippets too (one SHA and version per action), this one by the one placeholder", () => {
    expect(sources[0]!.lines).toContain(RELEASE_PLACEHOLDER);
    const pins = new Map<string, Set<string>>();
    for (const { file, lines } of sources) {
      for (const line of lines) {
        const name = line.split("@")[0]!;
        if (THIS_ACTION.test(line)) expect(line, file).toBe(RELEASE_PLACEHOLDER);
        pins.set(name, (pins.get(name) ?? new Set()).add(line));
      }
    }
    const differing = [...pins]
      .filter(([, lines]) => lines.size > 1)
      .map(([name, lines]) => `${name}: ${[...lines].join(" | ")}`);
    expect(differing).toEqual([]);
  });

  it("the placeholder is explained once, in the README's Install section, with where the real line is", () => {
    const prose = readme.replace(/^```[\s\S]*?^```$/gm, "");
    expect(prose.split(RELEASE_PLACEHOLDER).length - 1).toBe(1);
    const install = readme.slice(
      readme.indexOf("\n## Install\n"),
      readme.indexOf("\n## ", readme.indexOf("\n## Install\n") + 1),
    );
    expect(install).toContain(RELEASE_PLACEHOLDER);
    expect(install).toMatch(/releases/);
    for (const w of workflows) {
      // Each use in the examples points there.
      const pointers =
        w.text.match(
          /# The placeholder for a release: paste the uses: line from its notes \(README, Install\)\./g,
        ) ?? [];
      expect(pointers.length, w.file).toBe(usesLines(w.text).filter((l) => l === RELEASE_PLACEHOLDER).length);
    }
  });

  it("nothing tells anyone to install this tool by its name from a registry (the name is not ours there)", () => {
    const texts = [
      "README.md",
      "CHANGELOG.md",
      "action.yml",
      ...readdirSync(path.join(REPO_ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
      ...files.map((f) => `docs/workflows/${f}`),
    ];
    const found: string[] = [];
    for (const file of texts) {
      const text = readFileSync(path.join(REPO_ROOT, file), "utf8");
      const re =
        /\b(?:npx|npm\s+(?:i|install|exec|x)|yarn\s+(?:add|dlx)|pnpm\s+(?:add|dlx))(?:\s+-\S+)*\s+(?:@[\w-]+\/)?docker-acceptance(?![\w./-])/g;
      for (const m of text.matchAll(re)) found.push(`${file}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
