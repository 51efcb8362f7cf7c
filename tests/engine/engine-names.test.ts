// The seam holds: suites and the report name no engine (the engine in use names itself through its
// facts), and nothing outside src/engine/ imports dockerode or a provider's module.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|js)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Words that contain an engine's name without naming the engine. */
const NOT_AN_ENGINE = [
  /docker-acceptance/gi, // the product (and its label keys)
  /\.?dockerignore/gi,
  /dockerfile/gi,
  /docker\/build-push-action/gi, // a GitHub Action's name
];

/**
 * The one fallback left, by file and exact text so nothing else can hide behind it: the catalogue's
 * `{cli}` filler for facts that do not name a CLI (every provider's facts do).
 */
const PENDING_CLI_PLACEHOLDER: Record<string, string[]> = {
  "src/cases/index.ts": ['?? "docker"'],
};

/** Each line of `file` that still names an engine, once the allowed words are taken out. */
function engineNames(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    let rest = line;
    for (const pending of PENDING_CLI_PLACEHOLDER[file] ?? []) rest = rest.replaceAll(pending, "");
    for (const re of NOT_AN_ENGINE) rest = rest.replace(re, "");
    return /docker|podman/i.test(rest) ? [`${file}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe("the engine seam", () => {
  it("no file under src/cases/, src/suites/ or src/report/ names an engine", () => {
    const named = [
      ...filesUnder("src/cases"),
      ...filesUnder("src/suites"),
      ...filesUnder("src/report"),
    ].flatMap((f) => engineNames(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(named).toEqual([]);
  });

  it("the check finds an engine named in code, a comment or a message", () => {
    expect(engineNames("src/suites/x.ts", 'const line = ["docker", "run"];')).toHaveLength(1);
    expect(engineNames("src/suites/x.ts", "// as Podman reports it")).toHaveLength(1);
    expect(engineNames("src/suites/x.ts", "see docker-acceptance's Dockerfile and .dockerignore")).toEqual(
      [],
    );
    expect(engineNames("src/cases/index.ts", 'cli ?? "docker"; // and docker ps')).toHaveLength(1);
  });

  it("outside src/engine/, nothing imports dockerode or a provider's module", () => {
    const offenders = filesUnder("src")
      .filter((f) => !f.startsWith(`src${path.sep}engine${path.sep}`))
      .filter((f) =>
        /from\s+["'](dockerode|[^"']*engine\/providers\/)/.test(readFileSync(path.join(ROOT, f), "utf8")),
      );
    expect(offenders).toEqual([]);
  });
});
