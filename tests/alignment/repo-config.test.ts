// The repository's own alignment config must load, and its rules must catch what they promise
// without flagging the code as it stands.
import { readdir, readFile } from "node:fs/promises";
import { expect, test } from "vitest";
import { NO_CODEOWNERS } from "../../src/alignment/codeowners.js";
import { analyseFiles, type DiffFile, parseAlignmentConfig } from "../../src/alignment/index.js";

const FILE = "acceptance/alignment.yml";

function added(path: string, lines: string[]): DiffFile {
  return {
    path,
    status: "modified",
    binary: false,
    diffScoped: true,
    added: lines.map((text, i) => ({ line: i + 1, text })),
  };
}

test("acceptance/alignment.yml loads and its principles hit exactly the lines they are about", async () => {
  const config = parseAlignmentConfig(FILE, await readFile(FILE, "utf8"));
  const files = [
    added("src/engine/x.ts", [
      'import { exec } from "node:child_process";',
      'exec("git log " + branch);',
      "const m = /x/.exec(text);",
      'execFile("git", ["log"], { shell: true });',
      "await docker.pruneImages();",
      "await docker.pull(ref);",
      "await image.remove({ noprune: true });",
    ]),
    added("tests/a.test.ts", ["await new Promise((r) => setTimeout(r, 500));", "setTimeout(done, 0);"]),
    added("scripts/demo.mjs", ['console.log("progress");']),
    added("src/cli.ts", ['console.log("oops");']),
  ];
  const { findings } = analyseFiles(files, config, { rfcs: [], codeowners: NO_CODEOWNERS, configPath: FILE });
  expect(
    findings.map(
      (f) =>
        `${f.tier} ${f.ref ?? f.rule ?? f.kind} ${f.locations.map((l) => `${l.path}:${l.line}`).join(" ")}`,
    ),
  ).toEqual([
    "1 debug.console-log src/cli.ts:1",
    "1 no-shell src/engine/x.ts:2 src/engine/x.ts:4",
    "1 owned-cleanup-only src/engine/x.ts:5",
    "2 no-runtime-pull src/engine/x.ts:6",
    "2 no-fixed-sleeps-in-tests tests/a.test.ts:1",
  ]);
});

test("the source as it stands has no Tier 1 hit: the rules are tuned to this code, not against it", async () => {
  const config = parseAlignmentConfig(FILE, await readFile(FILE, "utf8"));
  const paths = (await readdir("src", { recursive: true }))
    .filter((p) => p.endsWith(".ts"))
    .map((p) => `src/${p}`);
  expect(paths.length).toBeGreaterThan(20);
  const files = await Promise.all(paths.map(async (p) => added(p, (await readFile(p, "utf8")).split("\n"))));
  const { findings } = analyseFiles(files, config, { rfcs: [], codeowners: NO_CODEOWNERS, configPath: FILE });
  expect(findings.filter((f) => f.tier === 1).map((f) => `${f.ref ?? f.kind} ${f.path}:${f.line}`)).toEqual(
    [],
  );
});
