// Pull request rules: metadata from the event payload, each rule judged only on known input, and
// a blocking alignment entry fails the run's verdict.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseAlignmentConfig } from "../../src/alignment/config.js";
import { checkPullRequest, pullRequestMetaFromEvent } from "../../src/alignment/pull.js";
import { alignmentReportSchema, computeVerdict } from "../../src/report/model.js";

const dir = mkdtempSync(join(tmpdir(), "da-pull-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rules = parseAlignmentConfig(
  "a.yml",
  `pull:
  base: { allow: [main, "release/*"], level: blocking }
  stacked: { level: advisory }
  title: { pattern: '^(feat|fix)(\\([\\w-]+\\))?: ' }
  body: { require: ['/^## Test plan/m'], minLength: 20 }
  labels: { anyOf: [bug, feature], forbid: [do-not-merge] }
  size: { maxFiles: 2, maxAddedLines: 100 }
`,
).pull;

describe("pull request rules", () => {
  test("the event payload gives title, body, labels, base and default branch", () => {
    const file = join(dir, "event.json");
    writeFileSync(
      file,
      JSON.stringify({
        pull_request: {
          number: 7,
          title: "wip stuff",
          body: null,
          labels: [{ name: "do-not-merge" }, { name: "feature" }],
          base: { ref: "feature/base", repo: { default_branch: "main" } },
        },
      }),
    );
    expect(pullRequestMetaFromEvent(file)).toEqual({
      number: 7,
      title: "wip stuff",
      body: "",
      labels: ["do-not-merge", "feature"],
      base: "feature/base",
      defaultBranch: "main",
    });
    expect(pullRequestMetaFromEvent(join(dir, "missing.json"))).toBeUndefined();
  });

  test("each rule flags what breaks it, at its level; what is fine is listed clean", () => {
    const r = checkPullRequest(
      rules,
      {
        title: "wip stuff",
        body: "short",
        labels: ["do-not-merge", "feature"],
        base: "feature/base",
        defaultBranch: "main",
      },
      { files: 3, addedLines: 50 },
    );
    expect(r.findings.map((f) => `${f.head.level} ${f.head.rule}: ${f.head.title}`)).toEqual([
      "blocking pull.base: Targets base branch feature/base",
      "advisory pull.stacked: Stacked on feature/base",
      "discussion pull.title: Title does not follow the convention",
      "discussion pull.body: Description does not follow the template",
      "discussion pull.labels: Carries label do-not-merge",
      "discussion pull.size: Large change: 3 files (limit 2)",
    ]);
    expect(r.findings[3]!.head.concern).toBe(
      "The description is shorter than 20 characters and lacks /^## Test plan/m.",
    );
    const ok = checkPullRequest(
      rules,
      {
        title: "fix(core): x",
        body: "Why.\n\n## Test plan\nnpm test, twice",
        labels: ["bug"],
        base: "release/1.2",
        defaultBranch: "release/1.2",
      },
      { files: 1, addedLines: 5 },
    );
    expect(ok.findings).toEqual([]);
    expect(ok.clean.map((c) => c.id)).toEqual([
      "pull.base",
      "pull.stacked",
      "pull.title",
      "pull.body",
      "pull.labels",
      "pull.size",
    ]);
  });

  test("unknown input is not judged, and the note names what was missing", () => {
    const r = checkPullRequest(rules, undefined, { files: 1, addedLines: 1 });
    expect(r.findings).toEqual([]);
    expect(r.clean.map((c) => c.id)).toEqual(["pull.size"]);
    expect(r.notes).toEqual([
      expect.stringMatching(
        /^pull request rules not judged, their input is unknown: base branch, base or default branch, title, body, labels/,
      ),
    ]);
  });
});

test("a blocking alignment entry fails the run; discussion and advisory do not", () => {
  const base = { cases: [], artifacts: [], inventory: null, errors: [], cleanup: null };
  const alignment = (level: string) =>
    alignmentReportSchema.parse({
      configured: true,
      findings: [{ tier: level === "blocking" ? 1 : 2, level, kind: "principle", title: "t", concern: "c" }],
    });
  expect(computeVerdict({ ...base, alignment: alignment("blocking") })).toBe("fail");
  expect(computeVerdict({ ...base, alignment: alignment("discussion") })).toBe("pass");
  expect(computeVerdict({ ...base, alignment: alignment("advisory") })).toBe("pass");
});
