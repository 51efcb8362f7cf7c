import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { addedLinesFrom, REPORT_MAX_BYTES, readExternalResults } from "../../src/report/external.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { makeReport } from "./fixtures.js";

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "da-ext-"));
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), body);
  }
  return dir;
}

// The shapes pytest and jest-junit write: nested suites, self-closing passes, CDATA logs.
const PYTEST = `<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="5" failures="1" skipped="1" errors="1">
<testcase classname="t" name="ok_1" time="0.1"/>
<testcase classname="t" name="ok 2 > 1" time="0.1"></testcase>
<testcase classname="t" name="bad"><failure message="assert 1 == 2">trace</failure></testcase>
<testcase classname="t" name="err"><error message="boom"/></testcase>
<testcase classname="t" name="skip"><skipped message="no docker"/></testcase>
<!-- <testcase name="commented out"><failure/></testcase> -->
</testsuite></testsuites>`;
const JEST = `<testsuites><testsuite name="a"><testcase name="x"><system-out><![CDATA[log says <failure> here]]></system-out></testcase></testsuite></testsuites>`;

const sarif = (ws: string) =>
  JSON.stringify({
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "ruff" } },
        results: [
          {
            ruleId: "E501",
            level: "error",
            message: { text: "Line too long (120 > 88)" },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: `file://${ws}/src/app.py` },
                  region: { startLine: 3 },
                },
              },
            ],
          },
          {
            ruleId: "F401",
            message: { text: "`os` imported but unused" },
            locations: [
              { physicalLocation: { artifactLocation: { uri: "src/old.py" }, region: { startLine: 1 } } },
            ],
          },
          {
            ruleId: "E999",
            message: { text: "suppressed" },
            suppressions: [{ kind: "inSource" }],
            locations: [
              { physicalLocation: { artifactLocation: { uri: "src/app.py" }, region: { startLine: 4 } } },
            ],
          },
        ],
      },
    ],
  });

describe("readExternalResults", () => {
  it("sums JUnit files by outcome and marks SARIF findings on added lines", async () => {
    const ws = await workspace({
      "reports/pytest.xml": PYTEST,
      "reports/jest/junit.xml": JEST,
      "node_modules/x/junit.xml": PYTEST,
    });
    await writeFile(path.join(ws, "ruff.sarif"), sarif(ws));
    const ext = await readExternalResults(
      { junit: ["reports/**/*.xml", "**/junit.xml"], sarif: ["*.sarif"] },
      {
        workspace: ws,
        addedLines: addedLinesFrom([{ path: "src/app.py", added: [{ line: 3 }, { line: 4 }] }]),
      },
    );
    expect(ext.tests).toEqual({
      passed: 3,
      skipped: 1,
      failed: 2,
      files: ["reports/jest/junit.xml", "reports/pytest.xml"],
      failures: [
        { name: "t > bad", message: "assert 1 == 2", file: "reports/pytest.xml" },
        { name: "t > err", message: "boom", file: "reports/pytest.xml" },
      ],
    });
    expect(ext.lint).toEqual({
      files: ["ruff.sarif"],
      findings: [
        {
          path: "src/app.py",
          line: 3,
          rule: "E501",
          message: "Line too long (120 > 88)",
          level: "error",
          onAddedLine: true,
        },
        {
          path: "src/old.py",
          line: 1,
          rule: "F401",
          message: "`os` imported but unused",
          level: "warning",
          onAddedLine: false,
        },
      ],
    });
    const md = renderMarkdown(makeReport({ external: ext }), { target: "comment" });
    expect(md).toContain("| Tests | ❌ Tests: 3 passed, 1 skipped, 2 failed |");
    expect(md).toContain("| Lint | ⚠️ Lint: 2 findings |");
    // Listed by name with the message, as test reporters list them.
    expect(md).toContain(
      "**Failing tests**\n\n1. ❌ <code>t &gt; bad</code>: assert 1 == 2 (<code>reports/pytest.xml</code>)",
    );
    expect(md).toContain("1. ❌ <code>E501</code> at <code>src/app.py:3</code>: Line too long (120 &gt; 88)");
  });

  it("lists each failing test with its message and place, bounded, its text hostile", async () => {
    const evil = "@octocat [click](https://evil.example) <img src=x onerror=alert(1)> ![x](y)";
    const cases = Array.from(
      { length: 250 },
      (_, i) =>
        `<testcase classname="pkg.Suite" name="case ${i}" file="tests/test_app.py" line="${i + 1}"><failure message="${i === 0 ? evil.replace(/</g, "&lt;").replace(/>/g, "&gt;") : `expected ${i}`}"/></testcase>`,
    ).join("");
    const noMessage = `<testcase name="cdata"><error type="TimeoutError"><![CDATA[Timed out after 5000 ms
  at Object.<anonymous> (test.js:3:1)]]></error></testcase>`;
    const outside = `<testcase name="elsewhere" file="/etc/passwd" line="3"><failure message="x"/></testcase>`;
    const long = `<testcase name="${"n".repeat(500)}"><failure message="${"m".repeat(5000)}"/></testcase>`;
    const ws = await workspace({
      "a.xml": `<testsuite>${noMessage}${outside}${long}</testsuite>`,
      "b.xml": `<testsuite>${cases}</testsuite>`,
    });
    const ext = await readExternalResults({ junit: ["*.xml"], sarif: [] }, { workspace: ws });
    const t = ext.tests!;
    expect(t.failed).toBe(253);
    expect(t.failures).toHaveLength(200); // the count covers the rest
    expect(t.failures![0]).toEqual({ name: "cdata", message: "Timed out after 5000 ms", file: "a.xml" });
    expect(t.failures![1]).toEqual({ name: "elsewhere", message: "x", file: "a.xml" }); // no path outside
    expect(t.failures![2]!.name).toHaveLength(300);
    expect(t.failures![2]!.message).toHaveLength(1000);
    expect(t.failures![3]).toEqual({
      name: "pkg.Suite > case 0",
      message: evil,
      file: "b.xml",
      path: "tests/test_app.py",
      line: 1,
    });
    const md = renderMarkdown(makeReport({ external: ext }), { target: "comment" });
    const listed = md.slice(md.indexOf("**Failing tests**"), md.indexOf("**Failing tests**") + 20_000);
    // Markup shown as text: no image, no link, no mention.
    expect(listed).not.toMatch(/<img|(?<!\\)\[click(?<!\\)\]\(|@octocat/);
    expect(listed).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(listed).toContain("at <code>tests/test&#95;app.py:1</code>");
    expect(listed).toContain("_… and 223 more failing tests in report.json and the files named._");
  });

  it("reads XML as XML: quoted '>', comments and CDATA that name tags, the first outcome, unclosed ones", async () => {
    const ws = await workspace({
      "j.xml": `<testsuite>
        <!-- <testcase name="commented out"><failure/></testcase> -->
        <testcase name="a > b" classname='x"y'/>
        <testcase name="log"><system-out><![CDATA[<failure message="not one"/> <!-- ]]></system-out></testcase>
        <testcase name="order"><error message="first"/><failure message="second"/></testcase>
        <testcase name="skip"><skipped/></testcase>
        <testcases name="not a test case"/>
        <testcase name="never closed"><failure message="lost"/>
      </testsuite>`,
    });
    const t = (await readExternalResults({ junit: ["j.xml"], sarif: [] }, { workspace: ws })).tests!;
    expect({ passed: t.passed, skipped: t.skipped, failed: t.failed }).toEqual({
      passed: 2,
      skipped: 1,
      failed: 1,
    });
    expect(t.failures).toEqual([{ name: "order", message: "first", file: "j.xml" }]);
  });

  it("a hostile report answers: unclosed comments, CDATA, test cases, outcomes and attributes", async () => {
    // Each of these held the one thread for minutes (quadratic in the file's length) before.
    const n = 40_000;
    const ws = await workspace({
      "case.xml": `<testsuite>${"<testcase name='a'>x".repeat(n)}`,
      "comment.xml": `<testsuite><testcase/>${"<!--".repeat(n)}`,
      "cdata.xml": `<testsuite><testcase/>${"<![CDATA[".repeat(n)}`,
      "outcome.xml": `<testsuite><testcase name="f">${"<failure>".repeat(n)}</testcase>`,
      "attrs.xml": `<testsuite><testcase ${"a".repeat(n * 10)} ${'b="'.repeat(n)}"/><testcase name="t"><failure>${"<".repeat(n * 10)}</failure></testcase>`,
    });
    const ext = await readExternalResults({ junit: ["*.xml"], sarif: [] }, { workspace: ws });
    expect(ext.tests).toMatchObject({ passed: 3, failed: 1, skipped: 0 });
    expect(ext.tests!.files).toEqual(["attrs.xml", "case.xml", "cdata.xml", "comment.xml", "outcome.xml"]);
  });

  it("a report larger than any a test run writes is a configuration error naming the file", async () => {
    const ws = await workspace({ "big.xml": "" });
    await writeFile(path.join(ws, "big.xml"), Buffer.alloc(REPORT_MAX_BYTES + 1, " "));
    const err = await readExternalResults({ junit: ["big.xml"], sarif: [] }, { workspace: ws }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err.message)).toContain("big.xml");
    expect(String(err.message)).toContain("MiB; a test or lint report is read up to 64 MiB");
  });

  it("nothing asked, nothing read", async () => {
    expect(await readExternalResults({ junit: [], sarif: [""] }, { workspace: "/nonexistent" })).toEqual({});
  });

  it("a glob matching nothing and a file of the wrong kind are configuration errors naming input, file and fix", async () => {
    const ws = await workspace({ "junit.xml": "<html>not junit</html>", "lint.sarif": "{ nope" });
    await expect(readExternalResults({ junit: ["out/*.xml"], sarif: [] }, { workspace: ws })).rejects.toThrow(
      /action input: junit: no file in the workspace matches "out\/\*\.xml" \(fix: check the glob/,
    );
    await expect(readExternalResults({ junit: ["junit.xml"], sarif: [] }, { workspace: ws })).rejects.toThrow(
      /junit\.xml: not JUnit XML .*\(fix: point `junit` at/,
    );
    const err = await readExternalResults({ junit: [], sarif: ["*.sarif"] }, { workspace: ws }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/^lint\.sarif: not JSON/);
  });
});
