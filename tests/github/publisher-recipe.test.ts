// The recipe for a new publish target (issue #28 items 4 and 5): one module calling definePublisher,
// and its test. In a copy of the tree, a throwaway publisher with an option and a step output of its
// own is added and nothing else is edited by hand: `npm run docs` lists it
// (src/github/publishers/index.ts), declares its input and its output in action.yml and the README,
// the request parses its input, publishReport runs it in its place, its slice is in PublishResult
// under its name and its output is set from it (and emptied before publishing, as every declared
// publisher output is); the structure check passes.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/inventory.js";
import { bundleAndRun, copyTree, runIn } from "../helpers/tree-copy.js";

const NEW_PUBLISHER = `// A throwaway publish target: writes the verdict to a file named by its own input.
import { definePublisher } from "./types.js";

export const verdictFilePublisher = definePublisher({
  name: "verdictFile",
  title: "verdict file",
  rank: 15,
  options: {
    verdictFile: {
      input: "verdict-file",
      kind: "string",
      help: "a file to write the verdict to",
      description: "Write the verdict to this file as well. Empty: no file.",
    },
  },
  remote: false,
  initial: () => ({ outcome: "off" as "written" | "off" }),
  applies: (_run, own) => own.verdictFile !== "",
  reserve: () => 0,
  async publish(run, own) {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(own.verdictFile, run.report.verdict);
    return { outcome: "written" };
  },
  describe: (s) => \`verdict file \${s.outcome}\`,
  outputs: {
    "verdict-file-outcome": {
      description: "\`written\` when the verdict file was written, else \`off\`.",
      value: (s) => s.outcome,
    },
  },
});
`;

/** Bundled in the copy and run there: what a door does with the new input. */
const PROBE = `import { publishReport } from "./src/github/publish.js";
import { describePublished, PUBLISHER_OUTPUTS, publishedOutputs } from "./src/github/publishers/gathered.js";
import { STEP_OUTPUTS } from "./src/action/step-outputs.js";
import { parseRequest } from "./src/request/parse.js";
import { publishingOptions } from "./src/request/publishing.js";
const [file] = process.argv.slice(2);
const request = parseRequest({ verdictFile: file, jobSummary: "false" }, ["verdictFile", "jobSummary"], "input");
const report = { verdict: "fail", cases: [], subjects: [] };
const result = await publishReport(report, { publishing: publishingOptions(request) });
console.log(JSON.stringify({
  slice: result.verdictFile,
  line: describePublished(result),
  outputs: publishedOutputs(result),
  emptied: Object.keys(PUBLISHER_OUTPUTS),
  declared: Object.keys(STEP_OUTPUTS),
}));
`;

let copy: string;
const run = (args: string[]) => runIn(copy, args);

beforeAll(() => {
  copy = copyTree("da-recipe-");
  writeFileSync(path.join(copy, "src/github/publishers/verdict-file.ts"), NEW_PUBLISHER);
  run(["scripts/docs.mjs"]);
}, 120_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("a new publisher is its module (and its test)", () => {
  it("npm run docs lists it by rank and declares its input and output in action.yml and the README; nothing else changes", () => {
    const list = readFileSync(path.join(copy, "src/github/publishers/index.ts"), "utf8");
    expect(list).toContain('import { verdictFilePublisher } from "./verdict-file.js";');
    expect(list).toMatch(
      /PUBLISHERS = \[\s*jobSummaryPublisher,\s*verdictFilePublisher,\s*commentPublisher,/,
    );
    const action = parse(readFileSync(path.join(copy, "action.yml"), "utf8"));
    expect(action.inputs["verdict-file"]).toEqual({
      description: "Write the verdict to this file as well. Empty: no file.",
      required: false,
      default: "",
    });
    expect(action.outputs["verdict-file-outcome"]).toEqual({
      description: "`written` when the verdict file was written, else `off`.",
    });
    // In the publishers' place among the outputs: by rank, before the comment's.
    const outputs = Object.keys(action.outputs);
    expect(outputs.indexOf("verdict-file-outcome")).toBe(outputs.indexOf("comment-id") - 1);
    const readme = readFileSync(path.join(copy, "README.md"), "utf8");
    expect(readme).toContain(
      "| `verdict-file` | — | Write the verdict to this file as well. Empty: no file. | — |",
    );
    expect(readme).toContain(
      "| `verdict-file-outcome` | `written` when the verdict file was written, else `off`. |",
    );
    // Only these generated files differ from the repository's, besides the new module; the others
    // npm run docs writes are as they were.
    const generated = ["src/github/publishers/index.ts", "action.yml", "README.md"];
    const others = [
      "src/cases/containment/index.ts",
      "src/cases/lifecycle/index.ts",
      "src/cases/ids.ts",
      "src/suites/containment/graders/index.ts",
      "src/inventory/precheck-plan.json",
      "acceptance/inventory.schema.json",
      "acceptance/report.schema.json",
      "docs/architecture.md",
    ];
    const changed = [...generated, ...others].filter(
      (f) => readFileSync(path.join(copy, f), "utf8") !== readFileSync(path.join(REPO_ROOT, f), "utf8"),
    );
    expect(changed).toEqual(generated);
    expect(run(["scripts/docs.mjs", "--check"])).toMatch(/in sync/);
  });

  it("the request parses its input and publishReport runs it, its slice under its name, its output from it", async () => {
    const target = path.join(copy, "verdict.txt");
    const out = JSON.parse(await bundleAndRun(copy, PROBE, [target]));
    expect(out.slice).toEqual({ outcome: "written" });
    expect(out.line).toBe(
      "published: verdict file written, comment not-applicable, check run skipped, 0 GitHub API request(s)",
    );
    expect(readFileSync(target, "utf8")).toBe("fail");
    expect(out.outputs).toEqual({ "verdict-file-outcome": "written" });
    expect(out.emptied).toEqual(["verdict-file-outcome", "comment-id", "check-run-id", "check-run-url"]);
    expect(out.declared).toContain("verdict-file-outcome");
  }, 60_000);

  it("the structure check passes with it", () => {
    expect(run([path.join(copy, "scripts/check-structure.mjs"), "--root", copy])).toMatch(
      /0 new or grown, 0 fixed but still listed/,
    );
  }, 60_000);

  it("docs:check fails while action.yml's outputs differ from the declarations", () => {
    const check = () => {
      try {
        run(["scripts/docs.mjs", "--check"]);
        return undefined;
      } catch (err) {
        return err as { status: number; stderr: string };
      }
    };
    // In sync after `npm run docs` (the first test checks it).
    const actionFile = path.join(copy, "action.yml");
    const moduleFile = path.join(copy, "src/github/publishers/verdict-file.ts");
    const [actionText, moduleText] = [readFileSync(actionFile, "utf8"), readFileSync(moduleFile, "utf8")];
    try {
      // action.yml edited by hand: its output no longer says what the module declares.
      writeFileSync(actionFile, actionText.replace("else `off`.", "else `off` (edited)."));
      expect(check()).toMatchObject({ status: 1, stderr: expect.stringMatching(/out of date: action\.yml/) });
      writeFileSync(actionFile, actionText);
      // The declaration changed, action.yml (and so the README) not regenerated.
      writeFileSync(moduleFile, moduleText.replace('"verdict-file-outcome"', '"verdict-file-written"'));
      expect(check()).toMatchObject({
        status: 1,
        stderr: expect.stringMatching(/out of date: action\.yml, README\.md/),
      });
    } finally {
      writeFileSync(actionFile, actionText);
      writeFileSync(moduleFile, moduleText);
    }
  }, 60_000);

  it("docs:check fails while the list or action.yml is stale", () => {
    writeFileSync(
      path.join(copy, "src/github/publishers/late.ts"),
      NEW_PUBLISHER.replaceAll("verdictFile", "lateFile")
        .replaceAll("verdict-file", "late-file")
        .replace("rank: 15", "rank: 90"),
    );
    let failed: { status: number; stderr: string } | undefined;
    try {
      run(["scripts/docs.mjs", "--check"]);
    } catch (err) {
      failed = err as { status: number; stderr: string };
    }
    expect(failed?.status).toBe(1);
    expect(failed?.stderr).toMatch(/out of date: src\/github\/publishers\/index\.ts/);
  }, 60_000);
});
