import { describe, expect, test } from "vitest";
import { NO_CODEOWNERS, parseCodeOwners } from "../../src/alignment/codeowners.js";
import { defaultAlignmentConfig, parseAlignmentConfig } from "../../src/alignment/config.js";
import type { DiffFile, FileStatus } from "../../src/alignment/diff.js";
import { keepOpenFromBase, parseRfc, type Rfc, withConfig } from "../../src/alignment/rfcs.js";
import { analyseFiles, summarise } from "../../src/alignment/rules.js";

function file(
  path: string,
  lines: string[],
  status: FileStatus = "modified",
  extra: Partial<DiffFile> = {},
): DiffFile {
  return {
    path,
    status,
    binary: false,
    diffScoped: true,
    added: lines.map((text, i) => ({ line: i + 1, text })),
    ...extra,
  };
}

const config = defaultAlignmentConfig();
const rfc = (path: string, text: string): Rfc => withConfig(parseRfc(path, text), config);
/** One string per finding (entry): tier, kind, and every place it lists. */
const brief = (fs: ReturnType<typeof analyseFiles>["findings"]) =>
  fs.map((f) => `${f.tier} ${f.kind} ${f.locations.map((l) => `${l.path}:${l.line ?? "-"}`).join(" ")}`);

describe("debug checks", () => {
  test("language-scoped, one entry per check listing its lines; a marker new in the change counts for nothing", () => {
    const { findings } = analyseFiles(
      [
        file("a.ts", [
          "console.log(x); debugger;",
          "console.log(y); // alignment: allow",
          "  debugger",
          "const debuggerMode = 1;",
          "logger.console.log",
        ]),
        file("b.py", [
          "from pdb import set_trace",
          "pprint(x)",
          "self.print(x)",
          "ipdb.set_trace()",
          "print (x)",
        ]),
        file("README.md", ["console.log(1)", "print(2)", "breakpoint()"]),
        file("c.go", ["fmt.Println(x) // print(", "<<<<<<< HEAD"]),
      ],
      config,
      { rfcs: [], codeowners: NO_CODEOWNERS },
    );
    expect(brief(findings)).toEqual([
      "1 conflict-marker c.go:2",
      "1 debug-leftover a.ts:1 a.ts:2",
      "1 debug-leftover a.ts:1 a.ts:3",
      "1 debug-leftover b.py:1 b.py:4",
      "1 debug-leftover b.py:5",
    ]);
    expect(findings.map((f) => f.rule)).toEqual([
      undefined,
      "debug.console-log",
      "debug.debugger",
      "debug.pdb",
      "debug.print",
    ]);
  });

  test("debug: ignore globs and debug: false", () => {
    const c = defaultAlignmentConfig();
    c.debug.ignore = ["scripts/**"];
    const files = [file("scripts/x.mjs", ["console.log(1)"]), file("src/x.mjs", ["console.log(1)"])];
    expect(brief(analyseFiles(files, c, { rfcs: [], codeowners: NO_CODEOWNERS }).findings)).toEqual([
      "1 debug-leftover src/x.mjs:1",
    ]);
    c.debug.enabled = false;
    expect(analyseFiles(files, c, { rfcs: [], codeowners: NO_CODEOWNERS }).findings).toEqual([]);
  });

  test("'=======' alone is a heading underline, next to a real marker it is a conflict", () => {
    const { findings } = analyseFiles(
      [file("a.md", ["Title", "======="]), file("b.md", ["x", "=======", "y", ">>>>>>> theirs"])],
      config,
      { rfcs: [], codeowners: NO_CODEOWNERS },
    );
    expect(brief(findings)).toEqual(["1 conflict-marker b.md:2 b.md:4"]);
  });
});

describe("protected paths and open RFCs", () => {
  test("renames out of a protected path, removals and unscoped files are flagged by path, without a line", () => {
    const owners = parseCodeOwners("* @all\n/acceptance/ @acc\n");
    const { findings } = analyseFiles(
      [
        file("moved/inventory.json", [], "renamed", { previousPath: "acceptance/inventory.json" }),
        file(".github/workflows/ci.yml", [], "removed"),
        file("acceptance/fixtures/a.bin", [], "added", { diffScoped: false }),
        file("custom/alignment.yml", ["x: 1"]),
      ],
      config,
      { rfcs: [], codeowners: owners, configPath: "custom/alignment.yml" },
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]!.title).toBe("Protected path changed");
    expect(findings[0]!.reviewers).toEqual(["@all", "@acc"]);
    expect(findings[0]!.locations).toEqual([
      { path: ".github/workflows/ci.yml" },
      { path: "acceptance/fixtures/a.bin" },
      { path: "custom/alignment.yml", line: 1 },
      { path: "moved/inventory.json" },
    ]);
    expect(summarise(findings)).toBe("0 blocking, 1 for discussion, 0 advisory; protected path changed: 1");
  });

  test("closed RFCs and RFCs without paths never flag; open ones flag each touched file once", () => {
    const rfcs = [
      rfc("rfcs/0001-a.md", "# A\n**Status**: Accepted\n**Affects**: src/**\n"),
      rfc("rfcs/0002-b.md", "# B\n**Status**: Draft\n"),
      rfc("rfcs/0003-c.md", "# C\n**Status**: Draft\n**Affects**: src/c/**, docs/c.md\n"),
    ];
    const a = analyseFiles(
      [file("src/c/x.ts", ["a", "b"]), file("docs/c.md", ["c"]), file("src/d.ts", ["d"])],
      config,
      {
        rfcs,
        codeowners: NO_CODEOWNERS,
      },
    );
    expect(brief(a.findings)).toEqual(["2 rfc-open-change docs/c.md:1 src/c/x.ts:1"]);
    expect(a.findings[0]!.title).toBe("Touches open RFC 3: C (Draft)");
    expect(summarise(a.findings)).toBe("0 blocking, 1 for discussion, 0 advisory; touches open RFC: 1");
    expect(a.openRfcs).toEqual([
      { number: "3", title: "C", status: "Draft", paths: ["src/c/x.ts", "docs/c.md"] },
    ]);
  });
});

test("an RFC open at the base stays open when the change itself accepts it or drops its Affects list", () => {
  const base = [
    rfc("rfcs/0004-a.md", "# A\n**Status**: In Review\n**Affects**: src/a/**\n"),
    rfc("rfcs/0005-b.md", "# B\n**Status**: Draft\n**Affects**: src/b/**\n"),
  ];
  const head = [
    rfc("rfcs/0004-a.md", "# A\n**Status**: Accepted\n**Affects**: src/a/**\n"),
    rfc("rfcs/0005-b.md", "# B\n**Status**: Draft\n"),
  ];
  const a = analyseFiles([file("src/a/x.ts", ["a"]), file("src/b/y.ts", ["b"])], config, {
    rfcs: keepOpenFromBase(head, base),
    codeowners: NO_CODEOWNERS,
  });
  expect(a.findings.map((f) => f.title)).toEqual([
    "Touches open RFC 4: A (In Review; this change marks it Accepted)",
    "Touches open RFC 5: B (Draft)",
  ]);
  expect(a.findings[0]!.concern).toContain("this change marks it Accepted itself");
  // Without the base, the head alone: the flag is gone, as before.
  expect(
    analyseFiles([file("src/a/x.ts", ["a"])], config, { rfcs: head, codeowners: NO_CODEOWNERS }).findings,
  ).toEqual([]);
});

describe("RFC numbering", () => {
  const existing = [
    rfc("rfcs/0001-a.md", "# A\n**Status**: Accepted\n"),
    rfc("rfcs/0002-b.md", "# B\n**Status**: Accepted\n"),
  ];

  test("two new RFCs claiming one number; the number line is pointed at when the PR added it", () => {
    const added = [rfc("rfcs/x.md", "# X\n\n**RFC**: 7\n"), rfc("rfcs/y.md", "# RFC 7: Y\n")];
    const { findings } = analyseFiles(
      [file("rfcs/x.md", ["# X", "", "**RFC**: 7"], "added"), file("rfcs/y.md", ["# RFC 7: Y"], "added")],
      config,
      { rfcs: [...existing, ...added], codeowners: NO_CODEOWNERS },
    );
    // One entry for the one conflict, pointing at both number lines.
    expect(findings.map((f) => [f.kind, f.locations, f.concern])).toEqual([
      [
        "rfc-duplicate-number",
        [
          { path: "rfcs/x.md", line: 3 },
          { path: "rfcs/y.md", line: 1 },
        ],
        "rfcs/x.md claims RFC 7, also claimed by rfcs/y.md; renumber it (next free: 8).",
      ],
    ]);
    expect(summarise(findings)).toBe("1 blocking, 0 for discussion, 0 advisory; RFC numbering conflicts: 1");
  });

  test("an old duplicate the PR does not touch is a note, not a finding", () => {
    const dup = [...existing, rfc("rfcs/0002-c.md", "# C\n")];
    const a = analyseFiles([file("src/x.ts", ["x"])], config, { rfcs: dup, codeowners: NO_CODEOWNERS });
    expect(a.findings).toEqual([]);
    expect(a.notes).toEqual(["RFC 2 is claimed by rfcs/0002-b.md, rfcs/0002-c.md (not changed by this PR)"]);
  });

  test("an edit that renumbers an existing RFC onto a taken number points at the edited line", () => {
    const edited = rfc("rfcs/0009-z.md", "# Z\n**RFC**: 2\n");
    const { findings } = analyseFiles(
      [file("rfcs/0009-z.md", ["**RFC**: 2"], "modified", { added: [{ line: 2, text: "**RFC**: 2" }] })],
      config,
      {
        rfcs: [...existing, edited],
        codeowners: NO_CODEOWNERS,
      },
    );
    expect(brief(findings)).toEqual(["1 rfc-duplicate-number rfcs/0009-z.md:2"]);
  });
});

test("principles: added lines only, paths and exclude, reviewers from the rule else CODEOWNERS, legacy tiers", () => {
  const c = defaultAlignmentConfig();
  c.principles = [
    {
      id: "p1",
      title: "P1",
      paths: ["src/**"],
      exclude: ["src/gen/**"],
      forbid: ["TODO", "/fixme/i"],
      message: "m1",
      target: "any",
      tier: 1,
      reviewers: [],
    },
    {
      id: "p2",
      title: "P2",
      paths: ["**"],
      exclude: [],
      forbid: ["\\beval\\("],
      message: "m2",
      target: "any",
      tier: 2,
      reviewers: ["@sec"],
    },
  ];
  const { findings } = analyseFiles(
    [
      file("src/a.ts", ["// TODO later", "// FixMe", "eval(x)"]),
      file("src/gen/b.ts", ["// TODO"]),
      file("lib/c.js", ["eval(y)"]),
    ],
    c,
    { rfcs: [], codeowners: parseCodeOwners("src/ @src-team\n") },
  );
  expect(findings.map((f) => `${f.level} ${f.ref} ${brief([f])[0]} ${f.reviewers.join(",")}`)).toEqual([
    "blocking p1 1 principle src/a.ts:1 src/a.ts:2 @src-team",
    "discussion p2 2 principle lib/c.js:1 src/a.ts:3 @sec",
  ]);
  expect(findings.map((f) => f.hits)).toEqual([2, 2]);
  expect(summarise(findings)).toBe("1 blocking, 1 for discussion, 0 advisory");
});

test("entries and their places are ordered by code point, not by the machine's locale", () => {
  // localeCompare puts "a" before "B" in every locale (and "aa" after "z" in Danish); code point
  // order is the same on every runner, so the report is byte-identical wherever it runs.
  const a = analyseFiles(
    [
      file("src/a.ts", ["console.log(1);"]),
      file("src/B.ts", ["console.log(2);"]),
      file("src/aa.ts", ["console.log(3);"]),
    ],
    config,
    { rfcs: [], codeowners: NO_CODEOWNERS },
  );
  expect(brief(a.findings)).toEqual(["1 debug-leftover src/B.ts:1 src/a.ts:1 src/aa.ts:1"]);
});

test("co-change with {dir}/{stem}: each file needs its own partner; without them, any file under require will do", () => {
  const yaml = (require: string) =>
    parseAlignmentConfig(
      "alignment.yml",
      `cochange:\n  - id: pkg-tests\n    when: ["**/*.go"]\n    exclude: ["**/*_test.go"]\n    require: ["${require}"]\n`,
    );
  const changed = [
    file("services/billing/total.go", ["a"]),
    file("services/auth/token.go", ["b"]),
    file("services/auth/token_test.go", ["c"]),
    file("app/[id]/page.go", ["d"]),
    file("app/[id]/page_test.go", ["e"]),
    file("main.go", ["f"]),
  ];
  const ctx = { rfcs: [], codeowners: NO_CODEOWNERS };
  // Per file: billing has no test change; auth and the [id] folder (glob characters) do; main.go
  // at the root needs *_test.go at the root.
  expect(brief(analyseFiles(changed, yaml("{dir}/*_test.go"), ctx).findings)).toEqual([
    "2 cochange main.go:1 services/billing/total.go:1",
  ]);
  expect(brief(analyseFiles(changed, yaml("{dir}/{stem}_test.go"), ctx).findings)).toEqual([
    "2 cochange main.go:1 services/billing/total.go:1",
  ]);
  // Per pull request: the auth test satisfies it for everyone.
  expect(brief(analyseFiles(changed, yaml("**/*_test.go"), ctx).findings)).toEqual([]);
});
