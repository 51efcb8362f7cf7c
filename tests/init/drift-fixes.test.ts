// Drift that helps: unpinned cases that ran are said once per subject, with the inventory file,
// the place and the exact JSON lines that pin them (the lines `init --update` writes); pinned
// cases that did not run keep a failure with a fix of their own that never drops a pin.
import { describe, expect, it } from "vitest";
import { ALL_CASES, CASES_BY_SUITE, SUITES } from "../../src/cases/index.js";
import { applyInsertions, isObject, valueAt } from "../../src/inventory/json-layout.js";
import { planPins } from "../../src/inventory/pins.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { checkCompleteness } from "../../src/inventory/verify.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { computeVerdict } from "../../src/report/model.js";
import { renderText } from "../../src/report/text.js";
import { allCases, makeCase, makeReport } from "../helpers/report.js";
import { generatedInventory } from "./generated.js";

const PATH = "acceptance/inventory.json";

function completeness(text: string, cases = allCases("app"), over: Record<string, unknown> = {}) {
  const { inventory, sha256 } = parseInventory(PATH, text);
  return checkCompleteness(inventory, cases, {
    suites: [...SUITES],
    subjects: inventory.subjects.map((s) => s.name),
    requireComplete: true,
    path: PATH,
    sha256,
    text,
    ...over,
  });
}

/** A person pasting each fix's lines where it says: into that list, or as keys of that object. */
function pasted(text: string, fixes: NonNullable<ReturnType<typeof completeness>["fixes"]>): string {
  const doc = JSON.parse(text);
  for (const f of fixes) {
    for (const a of f.add) {
      const at = a.at === "" ? [] : a.at.split(".").flatMap((seg) => seg.split(/\[(\d+)\]/).filter(Boolean));
      const place = valueAt(
        doc,
        at.map((x) => (/^\d+$/.test(x) ? Number(x) : x)),
      );
      if (Array.isArray(place)) place.push(...JSON.parse(`[${a.lines.join("\n")}]`));
      else if (isObject(place)) Object.assign(place, JSON.parse(`{${a.lines.join("\n")}}`));
      else throw new Error(`the fix names ${a.at}, which is not in the file`);
    }
  }
  return JSON.stringify(doc, null, 2);
}

const FIRST = `{
  "schemaVersion": 1,
  "subjects": [{ "name": "app", "build": { "context": "." }, "port": 8080 }]
}
`;

describe("the issue's first inventory: name, build, port and no suites", () => {
  const inv = completeness(FIRST);
  // Every case of the catalogue runs and none is pinned: the count per suite, in the suites' order.
  const perSuite = SUITES.map((s) => `${s} ${CASES_BY_SUITE[s].length}`).join(", ");

  it("is one fix for the subject with the lines that pin every case, not a line per case", () => {
    expect(inv.complete).toBe(false);
    expect(inv.fixes).toHaveLength(1);
    const [fix] = inv.fixes!;
    expect(fix).toMatchObject({
      subjects: ["app"],
      kind: "unexpected",
      problem: `${ALL_CASES.length} cases ran that ${PATH} does not pin (${perSuite})`,
      fix: `pin them: \`docker-acceptance init --update\` adds these lines to ${PATH} (or add them by hand)`,
    });
    expect(fix!.add).toHaveLength(1);
    expect(fix!.add[0]).toMatchObject({ at: "", line: 1 });
    expect(fix!.add[0]!.lines[0]).toBe('"suites": {');
  });

  it("prints one drift item with its fix and lines, and still fails the run", () => {
    const report = makeReport({
      subjects: [{ name: "app", phases: [] }],
      cases: allCases("app"),
      inventory: inv,
    });
    expect(computeVerdict(report)).toBe("fail");
    const text = renderText(report);
    expect(text).toContain(`Inventory drift in ${PATH} (the run fails until it is fixed):`);
    expect(text.match(/^ {2}- app: /gm)).toHaveLength(1);
    expect(text).not.toMatch(/unexpected lifecycle\.build/);
    expect(text).toContain('        "suites": {');
    expect(text).toContain('              "containment.masked_paths"');
  });

  it("is complete once the lines are pasted where the fix says, or once `init --update` writes them", () => {
    expect(completeness(pasted(FIRST, inv.fixes!)).complete).toBe(true);
    const wanted = SUITES.map((suite) => ({
      subject: "app",
      suite,
      ids: inv.drift.find((d) => d.suite === suite)!.unexpected,
    }));
    expect(completeness(applyInsertions(FIRST, planPins(FIRST, wanted))).complete).toBe(true);
  });
});

describe("a fix names the list the subject's pins live in", () => {
  it("a required list lacking cases: those cases, at that list's line", () => {
    const text = `{
  "schemaVersion": 1,
  "subjects": [{ "name": "web", "image": "w" }, { "name": "api", "image": "a" }],
  "suites": {
    "lifecycle": {
      "required": ["lifecycle.build", "lifecycle.create", "lifecycle.ready", "lifecycle.probes", "lifecycle.limits"],
      "subjects": { "api": ["lifecycle.build"] }
    }
  }
}
`;
    const cases = [...allCases("web"), ...allCases("api")].filter((c) => c.suite === "lifecycle");
    const inv = completeness(text, cases, { suites: ["lifecycle"] });
    expect(inv.fixes?.map((f) => [f.subjects, f.add.map((a) => [a.at, a.line, a.lines])])).toEqual([
      [["web"], [["suites.lifecycle.required", 6, ['"lifecycle.stop",', '"lifecycle.cleanup"']]]],
      [
        ["api"],
        [
          [
            "suites.lifecycle.subjects.api",
            7,
            [
              '"lifecycle.create",',
              '"lifecycle.ready",',
              '"lifecycle.probes",',
              '"lifecycle.limits",',
              '"lifecycle.stop",',
              '"lifecycle.cleanup"',
            ],
          ],
        ],
      ],
    ]);
    expect(completeness(pasted(text, inv.fixes!), cases, { suites: ["lifecycle"] }).complete).toBe(true);
  });

  it("subjects that need the same lines share one fix", () => {
    const text =
      '{ "schemaVersion": 1, "subjects": [{ "name": "web", "image": "w" }, { "name": "api", "image": "a" }] }';
    const inv = completeness(text, [...allCases("web"), ...allCases("api")]);
    expect(inv.fixes?.map((f) => f.subjects)).toEqual([["web", "api"]]);
  });

  it("names a non-default inventory in the command, quoted when the shell needs it", () => {
    const inv = completeness(FIRST, allCases("app"), { path: "ci/my inventory.json" });
    expect(inv.fixes![0]!.fix).toContain(
      "`docker-acceptance init --update --inventory 'ci/my inventory.json'`",
    );
  });

  it("when this change's file pins them already (the base judges), says they count once merged", () => {
    const pinned = `{ "schemaVersion": 1, "subjects": [{ "name": "app", "image": "a" }], "suites": ${JSON.stringify(
      {
        lifecycle: {
          required: allCases("app")
            .filter((c) => c.suite === "lifecycle")
            .map((c) => c.id),
        },
        containment: {
          required: allCases("app")
            .filter((c) => c.suite === "containment")
            .map((c) => c.id),
        },
      },
    )} }`;
    const base = parseInventory(PATH, FIRST).inventory;
    const inv = checkCompleteness(base, allCases("app"), {
      suites: [...SUITES],
      subjects: ["app"],
      requireComplete: true,
      path: PATH,
      sha256: "",
      text: pinned,
    });
    expect(inv.fixes).toEqual([
      expect.objectContaining({
        add: [],
        fix: `${PATH} as changed here pins them already, but the base's pins judge this run: they count once the change is merged`,
      }),
    ]);
  });
});

describe("pinned cases that did not run keep their own fix", () => {
  const text = `{ "schemaVersion": 1, "subjects": [{ "name": "web", "image": "w" }], "suites": { "lifecycle": { "required": ["lifecycle.build", "lifecycle.stop"] } } }`;

  it("missing: why it did not run is in the errors; no fix drops a pin", () => {
    const inv = completeness(text, [makeCase({ id: "lifecycle.build" })], { suites: ["lifecycle"] });
    expect(inv.fixes).toEqual([
      {
        subjects: ["web"],
        kind: "missing",
        problem: "1 pinned case did not run: lifecycle.stop",
        fix: "find in the run's errors why they did not run; a case that no longer applies loses its pin only in a change a maintainer reviews",
        add: [],
      },
    ]);
  });

  it("a subject the change removed owes its pins: restore it, or merge the removal knowingly", () => {
    const inv = completeness(text, [], { suites: ["lifecycle"], subjects: [], removed: ["gone"] });
    expect(inv.fixes?.[0]).toMatchObject({
      subjects: ["gone"],
      kind: "missing",
      problem: "is declared in the base's inventory but not in this change's: its 2 pinned cases did not run",
    });
    expect(inv.fixes?.[0]?.fix).toMatch(/^restore subject "gone" in acceptance\/inventory\.json/);
  });

  it("skipped: a pinned case must run, not skip", () => {
    const cases = [makeCase({ id: "lifecycle.build" }), makeCase({ id: "lifecycle.stop", status: "skip" })];
    const inv = completeness(text, cases, { suites: ["lifecycle"] });
    expect(inv.fixes?.map((f) => [f.kind, f.problem])).toEqual([
      ["skipped", "1 pinned case skipped: lifecycle.stop"],
    ]);
  });
});

describe("on generated inventories", () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))(
    "seed %d: the lines, pasted where the fix says, make it complete",
    (seed) => {
      const text = generatedInventory(seed);
      const names = parseInventory(PATH, text).inventory.subjects.map((s) => s.name);
      const cases = names.flatMap((n) => allCases(n));
      const inv = completeness(text, cases);
      for (const f of inv.fixes ?? []) expect(f.kind).toBe("unexpected");
      expect(new Set((inv.fixes ?? []).flatMap((f) => f.subjects)).size).toBe(
        (inv.fixes ?? []).flatMap((f) => f.subjects).length,
      );
      expect(completeness(pasted(text, inv.fixes ?? []), cases).complete).toBe(true);
    },
  );
});

describe("the markdown of a forged report", () => {
  it("escapes the lines and names: nothing can open a tag, a link or a mention", () => {
    const report = makeReport({
      inventory: {
        path: PATH,
        sha256: "a".repeat(64),
        complete: false,
        requireComplete: true,
        drift: [
          { subject: "web", suite: "lifecycle", missing: [], unexpected: ["lifecycle.build"], skipped: [] },
        ],
        fixes: [
          {
            subjects: ["@octocat"],
            kind: "unexpected",
            problem: "[x](https://evil.example) ran",
            fix: "pin <b>it</b>",
            add: [
              {
                at: "suites</code>",
                line: 3,
                lines: ['"</pre><img src=x onerror=alert(1)>",', "@admin #12"],
              },
            ],
          },
        ],
      },
    });
    const md = renderMarkdown(report, { target: "comment" });
    expect(md).not.toMatch(/<img|<b>|(?<!\\)\]\(https/);
    expect(md).toContain("&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(md).not.toMatch(/@octocat|@admin/);
  });
});
