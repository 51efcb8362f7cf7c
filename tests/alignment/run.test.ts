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

test("a flood of hits is one entry: every place listed up to GitHub's 1,000 annotations, none crowded out, every hit counted", async () => {
  const lines = Array.from({ length: 1005 }, (_, i) => ({
    line: i + 1,
    text: `console.log(${i});`,
  }));
  const report = await runAlignment({
    workspace: dir,
    source: {
      kind: "files",
      files: [
        { path: "src/noisy.ts", status: "added", binary: false, diffScoped: true, added: lines },
        { path: "src/quiet.ts", status: "added", binary: false, diffScoped: true, added: [lines[0]!] },
      ],
    },
  });
  expect(report.findings).toHaveLength(1);
  const [f] = report.findings;
  expect(f!.hits).toBe(1006);
  expect(f!.locations).toHaveLength(1000);
  expect(f!.locations.slice(0, 2)).toEqual([
    { path: "src/noisy.ts", line: 1 },
    { path: "src/noisy.ts", line: 2 },
  ]);
  expect(f!.locations.slice(-2)).toEqual([
    { path: "src/noisy.ts", line: 999 },
    { path: "src/quiet.ts", line: 1 },
  ]);
  expect(report.summary).toBe("1 blocking, 0 for discussion, 0 advisory");
  // The workspace does not hold these files: their hunks were tokenized alone, and the report says so.
  expect(report.notes).toEqual([
    RULES_FROM_CHANGE,
    expect.stringMatching(/^2 files tokenized hunk by hunk .*\(src\/noisy\.ts, src\/quiet\.ts\)$/),
  ]);
  expect(report.source).toBe("pull request files (2 files)");
  expect(MAX_FINDINGS).toBe(1000);
});
