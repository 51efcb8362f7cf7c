// No inventory field reaches the runner's environment beyond what a maintainer declared: a pull
// request's own inventory (its base unavailable, or the inventory new in it) has neither its
// `env:` image pin nor its build secrets read; a value read is never quoted; the runner's and the
// action's own variables cannot be named at all. (The real engine and the action's dist/ under
// Node 24: tests/docker/adversarial-inputs.test.ts.)
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import type { JudgeAt } from "../../src/inventory/base.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { gitIn } from "../helpers/git.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

const FAKE = "npm_FAKEtoken0123456789abcdefFAKE";
const SUBJECTS = [
  { name: "pinned", image: MEMORY_BASE, imageId: "env:DA_FAKE_NPM_TOKEN" },
  { name: "built", build: { context: "ctx", secrets: { npm: "DA_FAKE_NPM_TOKEN" } } },
];

function workspace(inventory: unknown, commitFirst?: unknown): { dir: string; base?: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "da-env-"));
  mkdirSync(path.join(dir, "ctx"));
  writeFileSync(path.join(dir, "ctx", "Dockerfile"), `FROM ${MEMORY_BASE}\n`);
  const file = path.join(dir, "inventory.json");
  const git = gitIn(dir);
  git("init", "-q", "-b", "main");
  if (commitFirst) writeFileSync(file, JSON.stringify(commitFirst, null, 2));
  else writeFileSync(path.join(dir, "README"), "x\n");
  git("add", "-A");
  git("commit", "-qm", "base");
  const base = git("rev-parse", "HEAD");
  writeFileSync(file, JSON.stringify(inventory, null, 2));
  return { dir, base };
}

async function run(dir: string, judgeAt: JudgeAt | undefined) {
  const report = await runPipeline({
    workspace: dir,
    inventoryPath: "inventory.json",
    suites: ["lifecycle"],
    log: silentLogger,
    signal: new AbortController().signal,
    engine: memoryEngine(),
    ...(judgeAt ? { judgeAt } : {}),
  });
  const build = (name: string) => report.cases.find((c) => c.id === "lifecycle.build" && c.subject === name)!;
  return { report, build, text: JSON.stringify(report) + renderMarkdown(report, { target: "comment" }) };
}

describe("environment references in the inventory", () => {
  afterEach(() => {
    delete process.env.DA_FAKE_NPM_TOKEN;
  });

  it("a pull request whose base is not in the checkout: neither the pin nor the secret is read", async () => {
    process.env.DA_FAKE_NPM_TOKEN = FAKE;
    const { dir } = workspace({ schemaVersion: 1, subjects: SUBJECTS });
    const { report, build, text } = await run(dir, { base: "f".repeat(40) });
    expect(build("pinned")).toMatchObject({ status: "error" });
    expect(build("pinned").message).toContain(
      "imageId comes from $DA_FAKE_NPM_TOKEN, but the environment is not read for this inventory: the inventory could only be read from the pull request itself",
    );
    expect(build("built")).toMatchObject({ status: "error" });
    expect(build("built").message).toContain("build secret(s) npm (from $DA_FAKE_NPM_TOKEN) are not read");
    expect(build("built").remediation).toContain("declared them: at the pull request's base");
    expect(report.trust?.notes.join(" ")).toContain("no environment variable it names");
    expect(text).not.toContain(FAKE);
  });

  it("an inventory new in the pull request: nothing it names is read either", async () => {
    process.env.DA_FAKE_NPM_TOKEN = FAKE;
    const { dir, base } = workspace({ schemaVersion: 1, subjects: SUBJECTS });
    const { build, text } = await run(dir, { base: base! });
    expect(build("pinned").message).toContain("inventory.json is new in this pull request");
    expect(build("built").message).toContain("are not read: inventory.json is new in this pull request");
    expect(text).not.toContain(FAKE);
  });

  it("declared at the base (or outside a pull request), a value that is not an image ID is not quoted", async () => {
    process.env.DA_FAKE_NPM_TOKEN = FAKE;
    const inventory = { schemaVersion: 1, subjects: [SUBJECTS[0]] };
    const { dir, base } = workspace(inventory, inventory);
    for (const judgeAt of [{ base: base! }, undefined]) {
      const { build, text } = await run(dir, judgeAt);
      expect(build("pinned")).toMatchObject({
        status: "error",
        message:
          "imageId comes from $DA_FAKE_NPM_TOKEN, which does not hold sha256: and 64 hex digits (its value is not shown)",
      });
      expect(text).not.toContain(FAKE);
    }
  });

  it("the runner's and the action's own variables cannot be named, as a pin or as a secret", () => {
    for (const name of ["ACTIONS_RUNTIME_TOKEN", "GITHUB_TOKEN", "INPUT_GITHUB-TOKEN", "RUNNER_TEMP"]) {
      const valid = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
      const inv = {
        schemaVersion: 1,
        subjects: [
          { name: "a", image: "x", imageId: `env:${name}` },
          { name: "b", build: { context: ".", secrets: { s: name } } },
        ],
      };
      let err: unknown;
      try {
        parseInventory("inventory.json", JSON.stringify(inv, null, 2));
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(ConfigError);
      const messages = (err as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
      expect(messages, name).toEqual(
        valid
          ? [
              "subjects[0].imageId: names a variable the runner or the action itself holds; an inventory never reads it",
              "subjects[1].build.secrets.s: names a variable the runner or the action itself holds; it is never handed to a build",
            ]
          : [
              expect.stringMatching(/^subjects\[0\]\.imageId: expected/),
              expect.stringMatching(/^subjects\[1\]/),
            ],
      );
    }
  });
});
