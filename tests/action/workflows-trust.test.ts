// The example workflows set nothing the pull request can override (issue #20): what judges a PR
// (the probe image, the publish mode's safety switch) is left to the action's pinned defaults or
// set literally by the maintainer, never from an expression the PR's author controls.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_PROBE_IMAGE } from "../../src/suites/containment/index.js";
import { REPO_ROOT } from "../helpers/inventory.js";

const DIR = path.join(REPO_ROOT, "docs/workflows");
const THIS_ACTION = /^docker-acceptance\/docker-acceptance@/;
/** Expressions whose value the pull request's author writes. */
const PR_CONTROLLED =
  /github\.(head_ref|event\.(pull_request|issue|comment|review|workflow_run\.(head_branch|head_commit|display_title|pull_requests)))/;

const ourSteps = readdirSync(DIR)
  .filter((f) => f.endsWith(".yml"))
  .flatMap((file) => {
    const wf = parse(readFileSync(path.join(DIR, file), "utf8")) as {
      jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
    };
    return Object.values(wf.jobs)
      .flatMap((j) => j.steps)
      .filter((s) => THIS_ACTION.test(s.uses ?? ""))
      .map((s) => ({ file, with: s.with ?? {} }));
  });

describe("what judges a PR, in the example workflows", () => {
  it("the built-in probe image is pinned by digest", () => {
    expect(DEFAULT_PROBE_IMAGE).toMatch(/@sha256:[0-9a-f]{64}$/);
  });

  it("no step of this action takes an input from text the pull request's author controls", () => {
    expect(ourSteps.length).toBeGreaterThan(5);
    for (const s of ourSteps) {
      for (const [input, value] of Object.entries(s.with)) {
        expect(String(value), `${s.file}: ${input}`).not.toMatch(PR_CONTROLLED);
      }
    }
  });

  it("the probe image is the pinned default or a literal digest, and publish never skips its workflow_run check", () => {
    for (const s of ourSteps) {
      const probe = s.with["probe-image"];
      if (probe !== undefined) expect(String(probe), s.file).toMatch(/^[^$]*@sha256:[0-9a-f]{64}$/);
      expect(s.with["allow-outside-workflow-run"], s.file).toBeUndefined();
    }
  });
});
