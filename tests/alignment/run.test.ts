import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MAX_FINDINGS, RULES_FROM_CHANGE, runAlignment } from "../../src/alignment/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "da-align-run-"));
  await mkdir(join(dir, "acceptance"));
  await writeFile(join(dir, "acceptance/alignment.yml"), "# every default\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("a flood of findings is capped in the list, counted in full in the summary, and the cut is noted", async () => {
  const lines = Array.from({ length: MAX_FINDINGS + 5 }, (_, i) => ({
    line: i + 1,
    text: `console.log(${i});`,
  }));
  const report = await runAlignment({
    workspace: dir,
    source: {
      kind: "files",
      files: [{ path: "src/noisy.ts", status: "added", binary: false, diffScoped: true, added: lines }],
    },
  });
  expect(report.findings).toHaveLength(MAX_FINDINGS);
  expect(report.summary).toBe(
    "1005 mechanical issues to fix, 0 alignment points for human review, 0 RFC conflicts",
  );
  expect(report.notes).toEqual([
    RULES_FROM_CHANGE,
    "5 more findings are counted in the summary but not listed",
  ]);
  expect(report.source).toBe("pull request files (1 file)");
});
