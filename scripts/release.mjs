// The release workflow's checks and notes (.github/workflows/release.yml), here so they are tested
// (tests/action/release.test.ts) rather than written inline in YAML.
//
//   node scripts/release.mjs check X.Y.Z            refuse (exit 1, one line per problem) unless the
//                                                    version, package.json, CHANGELOG.md, the ref
//                                                    (GITHUB_REF) and the tags agree
//   node scripts/release.mjs notes X.Y.Z TARBALL    the release notes, for the commit GITHUB_SHA
//   node scripts/release.mjs major X.Y.Z            the moving tag, vX
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The body of CHANGELOG.md's `## [X.Y.Z] - YYYY-MM-DD` section, or undefined without one. */
export function changelogSection(changelog, version) {
  const heading = new RegExp(`^## \\[${escapeRe(version)}\\] - \\d{4}-\\d\\d-\\d\\d[ \\t]*$`, "m");
  const start = heading.exec(changelog);
  if (!start) return undefined;
  const rest = changelog.slice(start.index + start[0].length);
  const next = rest.search(/^## /m);
  return (next < 0 ? rest : rest.slice(0, next)).trim();
}

/**
 * Why `version` cannot be released from the checkout at `root` on `ref`: each problem names the
 * file or input at fault and the fix. Empty when it can.
 */
export function releaseProblems(version, { root = ROOT, ref = process.env.GITHUB_REF } = {}) {
  // The value is not echoed: it is what someone typed into the workflow's form.
  if (!VERSION.test(version))
    return ["input version: not X.Y.Z (fix: run the workflow with e.g. 1.2.0, no v, no suffix)"];
  const problems = [];
  if (ref !== "refs/heads/main")
    problems.push(`${ref ?? "the ref"}: releases are made from main (fix: run the workflow on main)`);
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
  if (pkg !== version)
    problems.push(
      `package.json: version is ${pkg}, not ${version} (fix: set "version": "${version}" in the release commit)`,
    );
  const section = changelogSection(readFileSync(path.join(root, "CHANGELOG.md"), "utf8"), version);
  if (section === undefined)
    problems.push(
      `CHANGELOG.md: no "## [${version}] - YYYY-MM-DD" section (fix: retitle "## [Unreleased]" in the release commit)`,
    );
  else if (section === "")
    problems.push(`CHANGELOG.md: the ${version} section is empty (fix: say what the release changes)`);
  const tags = execFileSync("git", ["tag", "--list", `v${version}`], { cwd: root, encoding: "utf8" }).trim();
  if (tags)
    problems.push(`tag v${version} exists already (fix: release a new version; a released tag never moves)`);
  return problems;
}

/** `sha256sum` lines for every file under dist/, sorted by path. */
export function distSums(root = ROOT) {
  const files = readdirSync(path.join(root, "dist"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
  return files.map(
    (f) =>
      `${createHash("sha256")
        .update(readFileSync(path.join(root, f)))
        .digest("hex")}  ${f}`,
  );
}

/** The release's notes: the CHANGELOG section, the line to pin, the CLI's tarball, dist/'s digests. */
export function releaseNotes(
  version,
  { sha, tarball, root = ROOT, repository = "docker-acceptance/docker-acceptance" },
) {
  const section = changelogSection(readFileSync(path.join(root, "CHANGELOG.md"), "utf8"), version) ?? "";
  const name = path.basename(tarball);
  const digest = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  const major = `v${version.split(".")[0]}`;
  const fence = "```";
  return [
    section,
    "",
    "## Pin it",
    "",
    `${fence}yaml`,
    `- uses: ${repository}@${sha} # v${version}`,
    fence,
    "",
    `The tag \`${major}\` moves to this commit too; pin the SHA above (README, Versioning).`,
    "",
    "## The CLI",
    "",
    `${fence}sh`,
    `curl -fsSLO https://github.com/${repository}/releases/download/v${version}/${name}`,
    `echo "${digest}  ${name}" | sha256sum -c`,
    `npm install -g ./${name}`,
    fence,
    "",
    "## The bundle",
    "",
    `<details><summary>SHA-256 of each file of dist/ (check with <code>sha256sum -c</code> in a checkout of v${version})</summary>`,
    "",
    fence,
    ...distSums(root),
    fence,
    "",
    "</details>",
    "",
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, version = "", tarball] = process.argv.slice(2);
  if (command === "check") {
    const problems = releaseProblems(version);
    for (const p of problems) console.error(`release: ${p}`);
    process.exit(problems.length ? 1 : 0);
  } else if (command === "notes" && tarball) {
    const sha =
      process.env.GITHUB_SHA ||
      execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    process.stdout.write(releaseNotes(version, { sha, tarball, repository: process.env.GITHUB_REPOSITORY }));
  } else if (command === "major" && VERSION.test(version)) {
    console.log(`v${version.split(".")[0]}`);
  } else {
    console.error("usage: node scripts/release.mjs check X.Y.Z | notes X.Y.Z TARBALL | major X.Y.Z");
    process.exit(2);
  }
}
