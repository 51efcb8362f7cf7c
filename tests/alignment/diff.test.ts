import { describe, expect, test } from "vitest";
import { parsePatch, parseUnifiedDiff, unquote } from "../../src/alignment/diff.js";

describe("parseUnifiedDiff", () => {
  test("added lines carry their new line numbers across several hunks", () => {
    const diff = [
      "diff --git a/src/a.ts b/src/a.ts",
      "index 1111111..2222222 100644",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -3 +3,2 @@ export function a() {",
      "-  return 1;",
      "+  const x = 1;",
      "+  return x;",
      "@@ -10,0 +12 @@ export function b() {",
      "+  // tail",
      "",
    ].join("\n");
    expect(parseUnifiedDiff(diff)).toEqual([
      {
        path: "src/a.ts",
        status: "modified",
        binary: false,
        diffScoped: true,
        added: [
          { line: 3, text: "  const x = 1;" },
          { line: 4, text: "  return x;" },
          { line: 12, text: "  // tail" },
        ],
      },
    ]);
  });

  test("hunk counts, not leading characters, end a file: '+++' and '---' content lines stay content", () => {
    const diff = [
      "diff --git a/notes.md b/notes.md",
      "--- a/notes.md",
      "+++ b/notes.md",
      "@@ -1,2 +1,2 @@",
      "--- old rule",
      "+++ new rule",
      " context",
      "diff --git a/b.txt b/b.txt",
      "--- a/b.txt",
      "+++ b/b.txt",
      "@@ -0,0 +1 @@",
      "+b",
      "",
    ].join("\n");
    const files = parseUnifiedDiff(diff);
    expect(files.map((f) => [f.path, f.added])).toEqual([
      ["notes.md", [{ line: 1, text: "++ new rule" }]],
      ["b.txt", [{ line: 1, text: "b" }]],
    ]);
  });

  test("new, deleted, renamed, binary and no-newline files", () => {
    const diff = [
      "diff --git a/new.py b/new.py",
      "new file mode 100644",
      "index 0000000..e69de29",
      "--- /dev/null",
      "+++ b/new.py",
      "@@ -0,0 +1,2 @@",
      "+import os",
      "+print(os.name)",
      "\\ No newline at end of file",
      "diff --git a/gone.ts b/gone.ts",
      "deleted file mode 100644",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-export {};",
      "diff --git a/old name.ts b/new name.ts",
      "similarity index 90%",
      "rename from old name.ts",
      "rename to new name.ts",
      "--- a/old name.ts\t",
      "+++ b/new name.ts\t",
      "@@ -2,0 +3 @@",
      "+debugger;",
      "diff --git a/logo.png b/logo.png",
      "new file mode 100644",
      "Binary files /dev/null and b/logo.png differ",
      "diff --git a/mode.sh b/mode.sh",
      "old mode 100644",
      "new mode 100755",
      "",
    ].join("\n");
    const files = parseUnifiedDiff(diff);
    expect(
      files.map((f) => ({
        path: f.path,
        prev: f.previousPath,
        status: f.status,
        binary: f.binary,
        added: f.added.length,
      })),
    ).toEqual([
      { path: "new.py", prev: undefined, status: "added", binary: false, added: 2 },
      { path: "gone.ts", prev: undefined, status: "removed", binary: false, added: 0 },
      { path: "new name.ts", prev: "old name.ts", status: "renamed", binary: false, added: 1 },
      { path: "logo.png", prev: undefined, status: "added", binary: true, added: 0 },
      { path: "mode.sh", prev: undefined, status: "modified", binary: false, added: 0 },
    ]);
    expect(files[0]!.added[1]).toEqual({ line: 2, text: "print(os.name)" });
    expect(files[2]!.added[0]).toEqual({ line: 3, text: "debugger;" });
  });

  test("git's C-quoted paths are decoded", () => {
    expect(unquote('"caf\\303\\251 \\"x\\".txt"')).toBe('café "x".txt');
    const diff = [
      'diff --git "a/caf\\303\\251.ts" "b/caf\\303\\251.ts"',
      '--- "a/caf\\303\\251.ts"',
      '+++ "b/caf\\303\\251.ts"',
      "@@ -0,0 +1 @@",
      "+x",
    ].join("\n");
    expect(parseUnifiedDiff(diff)[0]!.path).toBe("café.ts");
  });
});

describe("parsePatch (GitHub's per-file patch)", () => {
  test("context lines advance the new line number; removed lines do not", () => {
    const patch =
      "@@ -1,4 +1,5 @@\n line one\n-line two\n+line 2\n+line 2b\n line three\n line four\n@@ -20,2 +21,3 @@ fn\n a\n+b\n c";
    expect(parsePatch(patch)).toEqual([
      { line: 2, text: "line 2" },
      { line: 3, text: "line 2b" },
      { line: 22, text: "b" },
    ]);
  });
});
