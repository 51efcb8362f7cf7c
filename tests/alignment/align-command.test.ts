import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runAlignment } from "../../src/alignment/index.js";
import { runCommandLine } from "../../src/cli/main.js";
import { align as alignUseCase } from "../../src/commands/align.js";
import { ConfigError, exitCodeOf, UsageError } from "../../src/errors.js";
import { commandLine } from "../helpers/cli.js";
import { EXPECTED, EXPECTED_SUMMARY, type FixtureRepo, git, makeFixtureRepo, rows } from "./fixture-repo.js";

async function align(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const code = await alignUseCase(...commandLine("align", argv), { write: (t: string) => (out += t) });
  return { code, out };
}

describe("docker-acceptance align", () => {
  let repo: FixtureRepo;
  beforeAll(async () => {
    repo = await makeFixtureRepo();
    // A branch with only a Tier 2 point: a protected path changed.
    git(repo.dir, "checkout", "-q", "-b", "tier2-only", "main");
    await writeFile(join(repo.dir, "acceptance/inventory.json"), '{ "schemaVersion": 1, "x": 1 }\n');
    git(repo.dir, "commit", "-q", "-am", "inventory tweak");
    // A branch whose RFC carries hostile text in its title and authors.
    git(repo.dir, "checkout", "-q", "-b", "hostile", "main");
    await writeFile(
      join(repo.dir, "rfcs/0009-x.md"),
      "# RFC 9: <img src=x onerror=alert(1)> [click](https://evil.example)\n\n**Status**: Draft\n**Authors**: @org/everyone\n**Affects**: src/shard/**\n",
    );
    await writeFile(join(repo.dir, "src/shard/plan.ts"), "export const plan = 3;\n");
    git(repo.dir, "add", "-A");
    git(repo.dir, "commit", "-q", "-m", "hostile");
    git(repo.dir, "checkout", "-q", "feature");
  });
  afterAll(async () => {
    await repo.cleanup();
  });

  test("--format json prints the alignment report and exits 1 on Tier 1 findings", async () => {
    const { code, out } = await align([
      "--workspace",
      repo.dir,
      "--base",
      "main",
      "--head",
      "feature",
      "--format",
      "json",
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(rows(report.findings)).toEqual(EXPECTED);
    expect(report.summary).toBe(EXPECTED_SUMMARY);
  });

  test("text output: fixes, ALIGNMENT FLAG entries with what is at stake and who to ask, the summary last", async () => {
    const { code, out } = await align(["--workspace", join(repo.dir, "src"), "--base", "main"]);
    expect(code).toBe(1);
    expect(out).toContain("Alignment review: git diff main...HEAD (242 files)\n");
    expect(out).toContain(
      [
        "  FIX  Merge-conflict marker",
        "        Resolve the conflict and remove the marker lines.",
        "        at: docs/notes.md:2, docs/notes.md:4, docs/notes.md:6",
      ].join("\n"),
    );
    expect(out).toContain(
      [
        "  ALIGNMENT FLAG  Touches open RFC 1: Engine providers (In Review) [RFC 1]",
        "        RFC 1 is In Review and proposes changes to these files; check this change agrees with it, or wait for its outcome.",
        "        at: src/engine/docker.ts:3, src/engine/old.ts",
        "        suggested reviewers: @jdoe",
      ].join("\n"),
    );
    expect(out.trimEnd().split("\n").at(-1)).toBe(`Summary: ${EXPECTED_SUMMARY}`);
  });

  test("only Tier 2 points: exit 0", async () => {
    const { code, out } = await align(["--workspace", repo.dir, "--base", "main", "--head", "tier2-only"]);
    expect(code).toBe(0);
    expect(out).toContain("Summary: 0 blocking, 1 for discussion, 0 advisory; protected path changed: 1");
  });

  test("markdown: untrusted RFC text cannot inject HTML, links or mentions", async () => {
    const { code, out } = await align([
      "--workspace",
      repo.dir,
      "--base",
      "main",
      "--head",
      "hostile",
      "--format",
      "markdown",
    ]);
    expect(code).toBe(0);
    expect(out).toContain("### Open RFCs Context");
    expect(out).toContain("- 💬 **ALIGNMENT FLAG**: **Touches open RFC 9: &lt;img");
    expect(out).not.toContain("<img");
    expect(out).not.toContain("](https://");
    expect(out).not.toMatch(/(^|[^\u200d])@org\/everyone/);
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
    const report = await runAlignment({
      workspace: repo.dir,
      source: { kind: "git", base: "main", head: "hostile" },
    });
    expect(report.findings.find((f) => f.kind === "rfc-open-change")?.reviewers).toEqual(["@org/everyone"]);
  });

  test("markdown opens with Automated Checks: the PR's own JUnit and SARIF results, the alignment summary, what is clean", async () => {
    await writeFile(
      join(repo.dir, "junit.xml"),
      '<testsuites><testsuite name="s" tests="3" failures="1" skipped="1"><testcase name="a"/><testcase name="b"><failure/></testcase><testcase name="c"><skipped/></testcase></testsuite></testsuites>\n',
    );
    await writeFile(
      join(repo.dir, "lint.sarif"),
      JSON.stringify({
        version: "2.1.0",
        runs: [
          {
            tool: { driver: { name: "ruff" } },
            results: [
              {
                ruleId: "E711",
                message: { text: "comparison to None" },
                locations: [
                  {
                    physicalLocation: { artifactLocation: { uri: "tools/job.py" }, region: { startLine: 1 } },
                  },
                ],
              },
              {
                ruleId: "E501",
                message: { text: "line too long" },
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: "acceptance/inventory.json" },
                      region: { startLine: 1 },
                    },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const { out } = await align([
      "--workspace",
      repo.dir,
      "--base",
      "main",
      "--head",
      "tier2-only",
      "--format",
      "markdown",
      "--junit",
      "junit.xml",
      "--sarif",
      "*.sarif",
    ]);
    const checks = out.slice(out.indexOf("### Automated Checks"), out.indexOf("### Open RFCs Context"));
    expect(checks).toContain("| Tests | ❌ 1 passed, 1 skipped, 1 failed |");
    // tier2-only adds line 1 of acceptance/inventory.json; tools/job.py is not in that change.
    expect(checks).toContain("| Lint | ⚠️ 2 findings, 1 on added lines |");
    expect(checks).toContain(
      "| Alignment | ⚠️ 0 blocking, 1 for discussion, 0 advisory; protected path changed: 1 |",
    );
    expect(checks).toMatch(
      /\| Checked and clean \| ✅ No shell execution; No fixed sleeps in tests; .*leftover debugging; merge-conflict markers; RFC numbering \|/,
    );
  });

  test("a broken or missing --config is a configuration error (exit 2) naming the file and the fix", async () => {
    const bad = join(repo.dir, "bad.yml");
    await writeFile(
      bad,
      "principles:\n  - id: x\n    title: X\n    forbid: []\n    message: m\n    tier: 1\n",
    );
    const err = await alignUseCase(
      ...commandLine("align", ["--workspace", repo.dir, "--base", "main", "--config", bad]),
      {
        write: () => {},
      },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(exitCodeOf(err)).toBe(2);
    expect(err.message).toBe(
      `${bad}: principles[0].forbid: at least one regular expression (fix: list the patterns to forbid, for example forbid: ['console\\.log\\('])`,
    );
    const missing = await alignUseCase(
      ...commandLine("align", ["--workspace", repo.dir, "--base", "main", "--config", "nope.yml"]),
      {
        write: () => {},
      },
    ).catch((e) => e);
    expect(missing).toBeInstanceOf(ConfigError);
    expect(missing.message).toMatch(
      /nope\.yml: cannot read the alignment config \(ENOENT\) \(fix: create it/,
    );
  });

  test("usage errors exit 2", async () => {
    for (const argv of [["--format", "html"], ["--bogus"], ["extra"]]) {
      const err = await runCommandLine("align", ["--workspace", repo.dir, ...argv]).catch((e) => e);
      expect(err, argv.join(" ")).toBeInstanceOf(UsageError);
    }
  });
});
