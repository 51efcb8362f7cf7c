// `init --update` adds what an inventory lacks in the file's own layout and nothing else: every
// original byte stays, in order; every pin stays, in order; nothing is removed; a second run adds
// nothing. Held on hand-written layouts and on generated inventories nobody wrote by hand.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CASES_BY_SUITE, SUITES, type SuiteName } from "../../src/cases/index.js";
import type { Draft } from "../../src/commands/init/draft.js";
import { planUpdate } from "../../src/commands/init/update.js";
import { init } from "../../src/commands/init.js";
import { ConfigError } from "../../src/errors.js";
import { pinnedCases } from "../../src/inventory/reading.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { checkCompleteness } from "../../src/inventory/verify.js";
import { commandLine } from "../helpers/cli.js";
import { allCases } from "../helpers/report.js";
import { generatedInventory } from "./generated.js";
import { repoCopy } from "./repos.js";

const NO_DRAFT: Draft = { subjects: [], sources: [], notes: [] };
const update = (text: string, draft = NO_DRAFT) => planUpdate("inventory.json", text, draft, "/nonexistent");

/** `a` is `b` with characters added, none removed or reordered. */
function isSubsequence(a: string, b: string): boolean {
  let i = 0;
  for (const ch of b) if (ch === a[i]) i++;
  return i === a.length;
}

function pinsOf(text: string, subject: string, suite: SuiteName): string[] {
  return pinnedCases(parseInventory("inventory.json", text).inventory, suite, subject) ?? [];
}

/** The invariants every update keeps, whatever the layout. */
function holds(before: string): string {
  const plan = update(before);
  const after = plan.text;
  expect(isSubsequence(before, after), "every original byte stays, in order").toBe(true);
  const inv = parseInventory("inventory.json", after).inventory;
  for (const s of inv.subjects) {
    for (const suite of SUITES) {
      const was = pinsOf(before, s.name, suite);
      const now = pinsOf(after, s.name, suite);
      expect(now.slice(0, was.length), "existing pins stay first, in order").toEqual(was);
      expect(new Set(now), `${s.name}/${suite} pins every current case`).toEqual(
        new Set([...was, ...CASES_BY_SUITE[suite]]),
      );
    }
  }
  const cases = inv.subjects.flatMap((s) => allCases(s.name));
  const opts = {
    suites: [...SUITES],
    subjects: inv.subjects.map((s) => s.name),
    requireComplete: true,
    path: "i",
    sha256: "",
  };
  expect(checkCompleteness(inv, cases, opts).complete).toBe(true);
  const again = update(after);
  expect(again.insertions, "a second update adds nothing").toEqual([]);
  expect(again.text).toBe(after);
  return after;
}

const SUBJECT = '{ "name": "web", "image": "web:1" }';

describe("init --update on hand-written layouts", () => {
  it("adds a whole suites block after the last key when the file has none", () => {
    const before = `{\n  "schemaVersion": 1,\n  "subjects": [${SUBJECT}]\n}\n`;
    const after = holds(before);
    expect(
      after.startsWith(
        `{\n  "schemaVersion": 1,\n  "subjects": [${SUBJECT}],\n  "suites": {\n    "lifecycle": {\n`,
      ),
    ).toBe(true);
    expect(after.endsWith("    }\n  }\n}\n")).toBe(true);
  });

  it("appends to a one-per-line list with its indentation, and to a one-line list on its line", () => {
    const before = [
      "{",
      '    "schemaVersion": 1,',
      `    "subjects": [${SUBJECT}],`,
      '    "suites": {',
      '        "lifecycle": {',
      '            "required": [',
      '                "lifecycle.build"',
      "            ]",
      "        },",
      '        "containment": { "required": ["containment.user", "containment.seccomp"] }',
      "    }",
      "}",
      "",
    ].join("\n");
    const after = holds(before);
    expect(after).toContain('                "lifecycle.build",\n                "lifecycle.create",\n');
    expect(after).toContain(
      '"required": ["containment.user", "containment.seccomp", "containment.capabilities", ',
    );
  });

  it("adds to a subject's own list (which replaces `required` for it), and to `{}` and `[]`", () => {
    const before = JSON.stringify(
      {
        schemaVersion: 1,
        subjects: [
          { name: "web", image: "w" },
          { name: "api", image: "a" },
        ],
        suites: { lifecycle: { required: [], subjects: { api: ["lifecycle.stop"] } } },
        severity: {},
      },
      null,
      "\t",
    );
    const after = holds(before);
    expect(pinsOf(after, "api", "lifecycle")[0]).toBe("lifecycle.stop");
    expect(after).toContain('\t\t\t"required": [\n\t\t\t\t"lifecycle.build",');
  });

  it("keeps a minified file on one line", () => {
    const after = holds(`{"schemaVersion":1,"subjects":[${SUBJECT}],"suites":{}}`);
    expect(after.includes("\n")).toBe(false);
  });

  it("never removes: pins of cases the run does not have stay, with the file's other fields", () => {
    const before = `{ "schemaVersion": 1, "subjects": [${SUBJECT}], "suites": { "lifecycle": { "required": ["lifecycle.stop", "lifecycle.build"] } }, "severity": { "lifecycle.stop": "warn" } }\n`;
    const after = holds(before);
    expect(parseInventory("i", after).inventory.severity).toEqual({ "lifecycle.stop": "warn" });
  });

  it("refuses an inventory that does not load, naming the file and the problem, and writes nothing", async () => {
    expect(() => update('{ "schemaVersion": 1, "subjects": [] }')).toThrow(ConfigError);
    const ws = repoCopy("web-app");
    const file = path.join(ws, "acceptance/inventory.json");
    await init(...commandLine("init", ["--workspace", ws]), () => {});
    const broken = readFileSync(file, "utf8").replace('"port": 8000', '"port": "8000"');
    writeFileSync(file, broken);
    await expect(init(...commandLine("init", ["--workspace", ws, "--update"]), () => {})).rejects.toThrow(
      /subjects\[0\]\.port: expected a number, got a string \("8000"\) \(fix: write 8000 without quotes\)/,
    );
    expect(readFileSync(file, "utf8")).toBe(broken);
  });
});

describe("init --update adds subjects found since", () => {
  it("appends a new compose service as a subject, keeps the existing ones, and pins its cases", async () => {
    const ws = repoCopy("compose-stack");
    await init(...commandLine("init", ["--workspace", ws]), () => {});
    const file = path.join(ws, "acceptance/inventory.json");
    const first = readFileSync(file, "utf8");
    // A fourth service appears, built from a Dockerfile of its own.
    const compose = path.join(ws, "compose.yaml");
    writeFileSync(
      compose,
      readFileSync(compose, "utf8").replace(
        "  db:\n",
        '  worker:\n    build: ./web\n    expose: ["7000"]\n\n  db:\n',
      ),
    );
    let out = "";
    await init(...commandLine("init", ["--workspace", ws, "--update"]), (t: string) => {
      out += t;
    });
    const after = readFileSync(file, "utf8");
    expect(isSubsequence(first, after)).toBe(true);
    const inv = parseInventory(file, after).inventory;
    expect(inv.subjects.map((s) => [s.name, s.port])).toEqual([
      ["web", 8080],
      ["api", 9000],
    ]);
    // web/Dockerfile is web's already: the same build is not a second subject.
    expect(out).toContain("pins every current case and declares every subject found: nothing to add");
    writeFileSync(
      compose,
      readFileSync(compose, "utf8").replace("build: ./web\n    expose", "build: ./api\n    expose"),
    );
    await init(...commandLine("init", ["--workspace", ws, "--update"]), () => {});
    const third = parseInventory(file, readFileSync(file, "utf8")).inventory;
    expect(third.subjects.map((s) => [s.name, s.port])).toEqual([
      ["web", 8080],
      ["api", 9000],
      ["worker", 7000],
    ]);
    for (const suite of SUITES)
      expect(pinnedCases(third, suite, "worker")).toEqual([...CASES_BY_SUITE[suite]]);
  });
});

describe("init --update on generated inventories", () => {
  it.each(Array.from({ length: 60 }, (_, i) => i + 1))("seed %d", (seed) => {
    holds(generatedInventory(seed));
  });
});
