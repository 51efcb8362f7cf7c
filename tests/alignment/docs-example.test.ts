// The worked Python-monorepo example in docs/alignment.md is executed: its CODEOWNERS, RFC, config
// and added lines are built into a repository, and the output it documents must be what `align`
// prints. A doc edit that drifts from the behaviour fails here.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { parseAlignmentConfig } from "../../src/alignment/config.js";
import { align } from "../../src/commands/align.js";
import { commandLine } from "../helpers/cli.js";
import { git } from "./fixture-repo.js";

let dir = "";
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the documented Python monorepo example prints what the docs say", async () => {
  const doc = await readFile("docs/alignment.md", "utf8");
  const section = doc.slice(doc.indexOf("## Worked example"), doc.indexOf("## Limits"));
  const blocks = [...section.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const [, codeowners, rfc, config, additions, output] = blocks;

  dir = await mkdtemp(join(tmpdir(), "da-align-doc-"));
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  git(dir, "init", "-q", "-b", "main");
  await write(".github/CODEOWNERS", codeowners!);
  await write("proposals/0002-worker-queue.md", rfc!);
  await write("acceptance/alignment.yml", config!);
  await write("services/worker/consumer.py", "import os\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "-b", "pr");
  await write("services/worker/consumer.py", `${additions}import os\n`);
  git(dir, "commit", "-q", "-am", "pr");

  let out = "";
  const code = await align(
    ...commandLine("align", ["--workspace", dir, "--base", "main", "--format", "text"]),
    {
      write: (t: string) => (out += t),
    },
  );
  expect(code).toBe(1);
  expect(out.slice(out.indexOf("Tier 1:"))).toBe(output);
});

test("every complete config in the docs loads (the reference, the Python and the TypeScript monorepo)", async () => {
  const doc = await readFile("docs/alignment.md", "utf8");
  const configs = [...doc.matchAll(/```yaml\n(rfcs:[\s\S]*?)```/g)].map((m) => m[1]!);
  expect(configs).toHaveLength(3);
  for (const text of configs) {
    const c = parseAlignmentConfig("docs/alignment.md", text);
    expect(c.principles.length).toBeGreaterThan(0);
    expect(c.cochange.length).toBeGreaterThan(0);
  }
});
