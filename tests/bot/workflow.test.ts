// The commands workflow is meant to be copied; its safety is in its shape. The pull request's
// code runs only in the job with a read-only token, at the pinned SHA, with no secrets, and the
// jobs holding write scopes never check out or run anything from the pull request.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseCommands } from "../../src/bot/index.js";
import { renderHelp } from "../../src/bot/replies.js";
import { REPO_ROOT } from "../helpers/inventory.js";

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  permissions: Record<string, string>;
  outputs?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  steps: Step[];
}

const file = path.join(REPO_ROOT, "docs/workflows/acceptance-commands.yml");
const text = readFileSync(file, "utf8");
const wf = parse(text) as { on: Record<string, unknown>; permissions: unknown; jobs: Record<string, Job> };
/** A GitHub Actions expression as it appears in the YAML. */
const expr = (e: string) => `\${{ ${e} }}`;
const ours = (job: Job) =>
  job.steps.filter((s) => s.uses?.startsWith("docker-acceptance/docker-acceptance@"));

describe("docs/workflows/acceptance-commands.yml", () => {
  it("runs on new comments only, with no default permissions", () => {
    expect(wf.on).toEqual({ issue_comment: { types: ["created"] } });
    expect(wf.permissions).toEqual({});
    expect(Object.keys(wf.jobs)).toEqual(["accept", "suites", "publish"]);
  });

  it("accepts without checking anything out, and exposes the decision to later jobs", () => {
    const { accept } = wf.jobs;
    // contents: read for the head branch's record of pushes, which decides the pinned head.
    expect(accept!.permissions).toEqual({ "pull-requests": "write", contents: "read" });
    expect(accept!.steps.every((s) => !s.uses?.startsWith("actions/checkout@") && s.run === undefined)).toBe(
      true,
    );
    expect(ours(accept!).map((s) => s.with?.mode)).toEqual(["command"]);
    expect(Object.keys(accept!.outputs ?? {})).toEqual(["run", "decision", "head-sha", "subjects"]);
    expect(accept!.if).toMatch(/github\.event\.issue\.pull_request/);
    expect(accept!.if).toMatch(/user\.type != 'Bot'/);
  });

  it("runs the pull request's code only at the pinned SHA, read-only, tokenless and without secrets", () => {
    const { suites } = wf.jobs;
    expect(suites!.needs).toBe("accept");
    expect(suites!.if).toBe("needs.accept.outputs.run == 'true'");
    expect(suites!.permissions).toEqual({ contents: "read" });
    const checkout = suites!.steps.find((s) => s.uses?.startsWith("actions/checkout@"));
    expect(checkout?.with).toEqual({
      ref: expr("needs.accept.outputs.head-sha"),
      "persist-credentials": false,
      // The base too: the inventory's judging parts are read there (src/inventory/base.ts).
      "fetch-depth": 0,
    });
    const [action] = ours(suites!);
    expect(action?.with).toMatchObject({
      command: expr("needs.accept.outputs.decision"),
      "github-token": "",
      comment: "never",
    });
    expect(suites!.steps.every((s) => s.run === undefined)).toBe(true);
    expect(text).not.toMatch(/secrets\./);
    // One run per PR at a time; an ordinary comment can never cancel a run.
    expect(suites!.concurrency).toEqual({
      group: `docker-acceptance-command-${expr("github.event.issue.number")}`,
      "cancel-in-progress": false,
    });
  });

  it("publishes from a job that never checks out or runs the pull request's code", () => {
    const { publish } = wf.jobs;
    expect(publish!.permissions).toEqual({ "pull-requests": "write", checks: "write" });
    expect(publish!.if).toMatch(/^always\(\) && needs\.accept\.outputs\.run == 'true'$/);
    for (const s of publish!.steps) {
      expect(s.uses ?? "").not.toMatch(/^actions\/checkout@/);
      expect(s.run).toBeUndefined();
    }
    expect(ours(publish!).map((s) => [s.with?.mode, s.with?.command])).toEqual([
      ["publish", expr("needs.accept.outputs.decision")],
    ]);
  });

  it("pins every third-party action by full commit SHA", () => {
    const all = Object.values(wf.jobs).flatMap((j) => j.steps);
    for (const s of all.filter((x) => x.uses && !x.uses.startsWith("docker-acceptance/"))) {
      expect(s.uses).toMatch(/^actions\/[\w-]+@[0-9a-f]{40}$/);
    }
  });

  it("is documented in docs/commands.md with the commands the help reply lists", () => {
    const docs = readFileSync(path.join(REPO_ROOT, "docs/commands.md"), "utf8");
    expect(docs).toContain("workflows/acceptance-commands.yml");
    for (const cmd of renderHelp(1).match(/`\/acceptance[^`]*`/g) ?? []) expect(docs).toContain(cmd);
    expect(parseCommands(docs)).toEqual([]);
  });
});
