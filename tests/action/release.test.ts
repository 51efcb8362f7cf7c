// The release (.github/workflows/release.yml with scripts/release.mjs and scripts/pack.mjs): it
// refuses a version that package.json, CHANGELOG.md, the ref or the tags contradict, naming the
// file and the fix; its notes carry the CHANGELOG section, the line to pin, the tarball's digest and
// each dist/ file's digest (checked here with sha256sum -c); and the workflow gives the write token
// only to a job that runs no third-party code. Linted with the other workflows:
// tests/action/workflow-lint.test.ts.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain .mjs script, typed by use
import { changelogSection, releaseNotes, releaseProblems } from "../../scripts/release.mjs";
import { REPO_ROOT } from "../helpers/inventory.js";

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const CHANGELOG = `# Changelog

## [Unreleased]

## [1.2.0] - 2026-03-01

### Fixed

- The proxy.

## [1.1.0] - 2026-02-01

- Older.
`;

/** A checkout to release from: package.json at `version`, the CHANGELOG above, `tags` tagged. */
function checkout(version: string, o: { changelog?: string; tags?: string[] } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "da-release-"));
  temps.push(root);
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "docker-acceptance", version }));
  writeFileSync(path.join(root, "CHANGELOG.md"), o.changelog ?? CHANGELOG);
  mkdirSync(path.join(root, "dist/chunks"), { recursive: true });
  writeFileSync(path.join(root, "dist/main.js"), "main\n");
  writeFileSync(path.join(root, "dist/chunks/a.js"), "a\n");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "release");
  for (const t of o.tags ?? []) git("tag", t);
  return root;
}
const MAIN = "refs/heads/main";

describe("what the release refuses", () => {
  it("nothing when the version, package.json, the CHANGELOG section, main and the tags agree", () => {
    expect(
      releaseProblems("1.2.0", { root: checkout("1.2.0", { tags: ["v1.1.0", "v1"] }), ref: MAIN }),
    ).toEqual([]);
  });

  it("each disagreement, naming the file or input and the fix", () => {
    const root = checkout("1.1.9", { tags: ["v1.3.0"] });
    expect(releaseProblems("1.3.0", { root, ref: "refs/heads/feature" })).toEqual([
      "refs/heads/feature: releases are made from main (fix: run the workflow on main)",
      'package.json: version is 1.1.9, not 1.3.0 (fix: set "version": "1.3.0" in the release commit)',
      'CHANGELOG.md: no "## [1.3.0] - YYYY-MM-DD" section (fix: retitle "## [Unreleased]" in the release commit)',
      "tag v1.3.0 exists already (fix: release a new version; a released tag never moves)",
    ]);
  });

  it("a section without a date, or an empty one", () => {
    const undated = checkout("2.0.0", { changelog: "## [2.0.0]\n\n- x\n" });
    expect(releaseProblems("2.0.0", { root: undated, ref: MAIN })).toEqual([
      expect.stringMatching(/^CHANGELOG\.md: no "## \[2\.0\.0\] - YYYY-MM-DD" section/),
    ]);
    const empty = checkout("2.0.0", {
      changelog: "## [2.0.0] - 2026-04-01\n\n## [1.0.0] - 2026-01-01\n\n- x\n",
    });
    expect(releaseProblems("2.0.0", { root: empty, ref: MAIN })).toEqual([
      "CHANGELOG.md: the 2.0.0 section is empty (fix: say what the release changes)",
    ]);
  });

  it.each(["v1.2.0", "1.2", "1.2.0-rc.1", "01.2.0", "1.2.0\n::error::x", "1.2.0; rm -rf ~"])(
    "a version that is not X.Y.Z (%j), without echoing what was typed",
    (typed) => {
      const problems = releaseProblems(typed, { root: checkout("1.2.0"), ref: MAIN });
      expect(problems).toEqual([
        "input version: not X.Y.Z (fix: run the workflow with e.g. 1.2.0, no v, no suffix)",
      ]);
    },
  );
});

describe("the release notes", () => {
  it("hold the version's CHANGELOG section and nothing of its neighbours", () => {
    expect(changelogSection(CHANGELOG, "1.2.0")).toBe("### Fixed\n\n- The proxy.");
    expect(changelogSection(CHANGELOG, "1.1.0")).toBe("- Older.");
    expect(changelogSection(CHANGELOG, "1.2")).toBeUndefined();
  });

  it("give the uses: line to pin, the tarball's SHA-256 and each dist/ file's, which sha256sum -c confirms", () => {
    const root = checkout("1.2.0");
    const tarball = path.join(root, "docker-acceptance-1.2.0.tgz");
    writeFileSync(tarball, "not really a tarball\n");
    const sha = "a".repeat(40);
    const notes: string = releaseNotes("1.2.0", {
      sha,
      tarball,
      root,
      repository: "octo-org/docker-acceptance",
    });
    expect(notes.startsWith("### Fixed\n\n- The proxy.\n")).toBe(true);
    expect(notes).toContain(`- uses: octo-org/docker-acceptance@${sha} # v1.2.0\n`);
    expect(notes).toContain("The tag `v1` moves to this commit too");
    expect(notes).toContain(
      "https://github.com/octo-org/docker-acceptance/releases/download/v1.2.0/docker-acceptance-1.2.0.tgz",
    );
    // The CLI block's check passes on the tarball it names.
    const check = notes.split("\n").find((l) => l.includes("| sha256sum -c"))!;
    expect(execFileSync("sh", ["-c", check], { cwd: root, encoding: "utf8" })).toContain("OK");
    // The dist/ block is sha256sum's own format, of every file.
    const sums = notes.slice(notes.indexOf("</summary>")).split("```")[1]!.trim();
    expect(sums.split("\n").map((l) => l.split("  ")[1])).toEqual(["dist/chunks/a.js", "dist/main.js"]);
    const checked = execFileSync("sha256sum", ["-c", "-"], {
      cwd: root,
      input: `${sums}\n`,
      encoding: "utf8",
    });
    expect(checked).toBe("dist/chunks/a.js: OK\ndist/main.js: OK\n");
  });
});

describe(".github/workflows/release.yml", () => {
  const wf = parse(readFileSync(path.join(REPO_ROOT, ".github/workflows/release.yml"), "utf8")) as {
    on: Record<string, { inputs?: Record<string, { required?: boolean }> }>;
    jobs: Record<
      string,
      { needs?: string; permissions: Record<string, string>; steps: Array<{ run?: string; uses?: string }> }
    >;
  };
  const runs = (job: string) => wf.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");

  it("is started by hand with the version", () => {
    expect(Object.keys(wf.on)).toEqual(["workflow_dispatch"]);
    expect(wf.on.workflow_dispatch!.inputs?.version?.required).toBe(true);
  });

  it("verifies before anything is tagged: the checks, then dist/ against a fresh bundle, with a read-only token", () => {
    expect(wf.jobs.verify!.permissions).toEqual({ contents: "read" });
    const verify = runs("verify");
    expect(verify.indexOf('node scripts/release.mjs check "$VERSION"')).toBeLessThan(
      verify.indexOf("npm ci"),
    );
    expect(verify).toMatch(/npm run bundle\n\s*if \[ -n "\$\(git status --porcelain -- dist\/\)" \]/);
  });

  it("holds the write token only in a job after verify that runs nothing from npm", () => {
    const release = wf.jobs.release!;
    expect(release.needs).toBe("verify");
    expect(release.permissions).toEqual({ contents: "write" });
    const script = runs("release");
    expect(script).not.toMatch(/npm (ci|install|run|exec)|npx /);
    // Tag, release and the moving major, on the verified commit; the notes from the tested script.
    expect(script).toContain('gh release create "v$VERSION" "$TARBALL" --target "$GITHUB_SHA"');
    expect(script).toContain('node scripts/release.mjs notes "$VERSION" "$tarball"');
    expect(script).toMatch(/git\/refs\/tags\/\$major" -f sha="\$GITHUB_SHA" -F force=true/);
  });
});
