// SARIF as real producers write it: ESLint 9 (@microsoft/eslint-formatter-sarif) and Biome 2.6
// output produced here from the same two files (one in a directory with a space), and a
// CodeQL-style file whose locations are only indexes into run.artifacts. The producers' absolute
// paths were replaced by __WORKSPACE__, put back here as the test's workspace.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSarif } from "../../src/report/external.js";
import { buildAnnotations } from "../../src/report/github.js";
import { makeReport } from "./fixtures.js";

const WS = "/home/runner/work/app/app";
const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "producers", name), "utf8").replaceAll("__WORKSPACE__", WS);
const brief = (f: ReturnType<typeof parseSarif>) => f.map((x) => `${x.level} ${x.path}:${x.line} ${x.rule}`);

describe("SARIF from real producers", () => {
  it("ESLint: levels kept, percent-encoded file URIs decoded, an in-source suppression honoured, an empty suppressions list not", () => {
    const found = brief(parseSarif(fixture("eslint-9.39.5.sarif"), "eslint.sarif", WS));
    expect(found).toEqual([
      "error src/my dir/bad.js:1 no-unused-vars",
      "warning src/my dir/bad.js:2 no-debugger",
      "error src/my dir/bad.js:3 no-undef",
      "error src/my dir/bad.js:3 eqeqeq",
      "error src/my dir/bad.js:3 no-undef",
      "error src/plain.js:1 no-unused-vars",
      "error src/plain.js:4 no-undef",
      "error src/plain.js:4 eqeqeq",
      "error src/plain.js:4 no-undef",
    ]);
  });

  it("Biome: absolute paths made workspace-relative (spaces kept), levels kept", () => {
    expect(brief(parseSarif(fixture("biome-2.6.8.sarif"), "biome.sarif", WS))).toEqual([
      "warning src/my dir/bad.js:1 lint/correctness/noUnusedVariables",
      "warning src/plain.js:1 lint/correctness/noUnusedVariables",
      "error src/my dir/bad.js:2 lint/suspicious/noDebugger",
      "error src/plain.js:2 lint/suspicious/noDebugger",
    ]);
  });

  it("CodeQL style: index-only locations keep their path; rule default levels; pass, accepted and absent results left out; rejected and underReview suppressions do not suppress", () => {
    expect(brief(parseSarif(fixture("codeql-style-index-only.sarif"), "codeql.sarif", WS))).toEqual([
      "error src/my dir/query.js:12 js/sql-injection",
      "note src/server.js:3 js/unused-local-variable",
      "warning src/server.js:20 js/missing-rate-limiting",
      "error src/server.js:30 js/sql-injection",
    ]);
  });

  it("a relative, percent-encoded URI without a base is decoded, and an unmapped %SRCROOT% is the repository root", () => {
    const doc = JSON.stringify({
      version: "2.1.0",
      runs: [
        {
          results: [
            {
              ruleId: "r",
              message: { text: "m" },
              locations: [
                {
                  physicalLocation: { artifactLocation: { uri: "a%20b/c%23d.py" }, region: { startLine: 2 } },
                },
              ],
            },
            {
              ruleId: "r",
              message: { text: "m" },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: "e.py", uriBaseId: "%SRCROOT%" },
                    region: { startLine: 1 },
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(parseSarif(doc, "x.sarif", WS).map((f) => f.path)).toEqual(["a b/c#d.py", "e.py"]);
  });

  it("levels reach the annotations: error a failure, warning a warning, note a notice", () => {
    const findings = parseSarif(fixture("codeql-style-index-only.sarif"), "codeql.sarif", WS).map((f) => ({
      ...f,
      onAddedLine: true,
    }));
    const report = makeReport({ external: { lint: { files: ["codeql.sarif"], findings } } });
    expect(buildAnnotations(report).map((a) => `${a.annotation_level} ${a.path}:${a.start_line}`)).toEqual([
      "failure src/my dir/query.js:12",
      "notice src/server.js:3",
      "warning src/server.js:20",
      "failure src/server.js:30",
    ]);
  });
});
