// A change is judged by the rules as they were before it: editing the alignment config or
// CODEOWNERS in the same pull request cannot silence a finding or pick its own reviewer.
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

  it("a config the change itself adds is used, and the report says so", async () => {
    const { dir, git } = repo();
    git("rm", "-q", "acceptance/alignment.yml");
    git("commit", "-qm", "no config yet");
    const before = git("rev-parse", "HEAD");
    mkdirSync(path.join(dir, "acceptance"), { recursive: true });
    writeFileSync(path.join(dir, "acceptance/alignment.yml"), RULES);
    writeFileSync(path.join(dir, "src/app.py"), "x = 1\ny = eval(input())\n");
    git("add", ".");
    git("commit", "-qm", "add rules and eval");
    const report = await runAlignment({ workspace: dir, source: { kind: "git", base: before } });
    expect(report.findings.some((f) => f.kind === "principle")).toBe(true);
    expect(report.notes).toContain(
      "acceptance/alignment.yml is new in this change: its rules were read from the change itself",
    );
  });
});
