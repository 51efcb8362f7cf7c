// A change is judged by the rules as they were before it: editing the alignment config or
// CODEOWNERS in the same pull request cannot silence a finding or pick its own reviewer, and a
// config the change adds is not run on it (its patterns are the author's, on the author's text).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAlignment } from "../../src/alignment/index.js";

const RULES = `principles:
  - id: no-eval
    title: No eval
    paths: ["src/**"]
    forbid: ['\\beval\\(']
    message: eval runs untrusted text
    tier: 1
`;

function repo(): { dir: string; base: string; git: (...a: string[]) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), "da-rules-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir })
      .toString()
      .trim();
  git("init", "-q", "-b", "main");
  mkdirSync(path.join(dir, "acceptance"));
  mkdirSync(path.join(dir, "src"));
  mkdirSync(path.join(dir, ".github"));
  writeFileSync(path.join(dir, "acceptance/alignment.yml"), RULES);
  writeFileSync(path.join(dir, ".github/CODEOWNERS"), "src/ @security-team\n");
  writeFileSync(path.join(dir, "src/app.py"), "x = 1\n");
  git("add", ".");
  git("commit", "-qm", "base");
  return { dir, base: git("rev-parse", "HEAD"), git };
}

describe("alignment rules come from the base", () => {
  it("a change that drops the rule and rewrites CODEOWNERS is still flagged, with the base's reviewers", async () => {
    const { dir, base, git } = repo();
    writeFileSync(path.join(dir, "acceptance/alignment.yml"), "principles: []\n");
    writeFileSync(path.join(dir, ".github/CODEOWNERS"), "src/ @contributor\n");
    writeFileSync(path.join(dir, "src/app.py"), "x = 1\ny = eval(input())\n");
    git("commit", "-qam", "relax the rules and use eval");
    const report = await runAlignment({ workspace: dir, source: { kind: "git", base } });
    const hit = report.findings.find((f) => f.kind === "principle");
    expect(hit).toMatchObject({ tier: 1, path: "src/app.py", line: 2, title: "No eval" });
    expect(report.findings.find((f) => f.path === "acceptance/alignment.yml")?.tier).toBe(2);
    expect(hit?.reviewers).toEqual(["@security-team"]);
  });

  it("a config the change itself adds is not run on it, whatever its patterns would cost", async () => {
    const { dir, git } = repo();
    git("rm", "-q", "acceptance/alignment.yml");
    git("commit", "-qm", "no config yet");
    const before = git("rev-parse", "HEAD");
    // A pattern and a glob that would hold the one thread for hours on the line the change adds.
    const hostile = `principles:
  - id: stall
    title: Stall
    paths: ["**/*a*a*a*a*a*a*a*a*b"]
    forbid: ['^(a|aa)+$']
    message: never ends
    tier: 1
`;
    mkdirSync(path.join(dir, "acceptance"), { recursive: true });
    writeFileSync(
      path.join(dir, "acceptance/alignment.yml"),
      `${RULES}${hostile.replace("principles:\n", "")}`,
    );
    writeFileSync(path.join(dir, "src/app.py"), `x = 1\ny = eval(input())\n${"a".repeat(60)}b\n`);
    writeFileSync(path.join(dir, `src/${"a".repeat(200)}`), "z\n");
    git("add", ".");
    git("commit", "-qm", "add rules and eval");
    const report = await runAlignment({ workspace: dir, source: { kind: "git", base: before } });
    expect(report.configured).toBe(false);
    expect(report.findings).toEqual([]);
    expect(report.summary).toBe(
      "not run: acceptance/alignment.yml is new in this change; its rules apply once it merges",
    );
    expect(report.notes).toEqual([
      "acceptance/alignment.yml is new in this change: a pull request is judged by its base's alignment rules, never by its own, so none was run on this change",
    ]);
  });

  it("a base the checkout lacks runs none of the change's rules either, and says how to fetch it", async () => {
    const { dir, git } = repo();
    writeFileSync(path.join(dir, "src/app.py"), "x = 1\ny = eval(input())\n");
    git("commit", "-qam", "use eval");
    const report = await runAlignment({
      workspace: dir,
      source: { kind: "files", files: [] },
      rulesFrom: "0123456789abcdef0123456789abcdef01234567",
    });
    expect(report.configured).toBe(false);
    expect(report.summary).toBe(
      "not run: the base 0123456789abcdef0123456789abcdef01234567 is not in the checkout (fix: actions/checkout with fetch-depth: 0)",
    );
  });
});
