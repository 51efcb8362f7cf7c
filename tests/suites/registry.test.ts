// The one registry of suites: every list of suites or cases (ID types, inventory enums, report
// tables, JUnit groups, README tables, check-mode fixes) is derived from it, so a suite or case
// added there shows everywhere and nothing a report carries goes unlisted.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import { generateCaseDocs, renderCaseTables } from "../../scripts/docs.mjs";
import {
  ALL_CASES,
  CONTAINMENT_CASES,
  caseDef,
  fillCli,
  remediationOf,
  SUITE_REGISTRY,
  SUITES,
  suiteOf,
} from "../../src/cases/index.js";
import { ALLOWANCE_LABELS, checkModeFix } from "../../src/commands/check-stack.js";
import { renderJunit } from "../../src/report/junit.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/model.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import { hardenedInspect } from "../helpers/evidence.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { makeCase, makeReport } from "../helpers/report.js";

const FORMS = ["inventory", "cli", "compose"] as const;

describe("the registry of suites", () => {
  it("defines each case once, under its suite's prefix, with a title and what it measures", () => {
    expect(new Set(ALL_CASES).size).toBe(ALL_CASES.length);
    for (const suite of SUITE_REGISTRY) {
      expect(suite.cases.length, suite.name).toBeGreaterThan(0);
      for (const c of suite.cases) {
        expect(c.id.startsWith(`${suite.name}.`), c.id).toBe(true);
        expect(suiteOf(c.id)).toBe(suite.name);
        expect(c.title.length, c.id).toBeGreaterThan(3);
        expect(c.measures.length, c.id).toBeGreaterThan(20);
      }
    }
    expect(ALL_CASES).toEqual(SUITE_REGISTRY.flatMap((s) => s.cases.map((c) => c.id)));
  });

  it("gives every containment case a fix in each form, and a grader that judges it", () => {
    for (const id of CONTAINMENT_CASES)
      for (const form of FORMS)
        expect(caseDef(id)?.remediation?.[form]?.length, `${id} ${form}`).toBeGreaterThan(20);
    // No evidence at all: every case is judged (none is missing or passes), each with its fix.
    const graded = gradeContainment(
      { inspect: hardenedInspect(), probe: { error: "no probe" }, host: { error: "no host" } },
      { subject: "web", writableRoots: ["/tmp"], allowedCapabilities: [], network: "bridge" },
    );
    expect(graded.map((r) => r.id)).toEqual([...CONTAINMENT_CASES]);
    for (const r of graded.filter((x) => x.status !== "pass"))
      expect(r.remediation).toBe(caseDef(r.id)?.remediation?.inventory);
  });

  it("names no engine in a fix: a CLI command is written {cli} and filled from the engine facts", () => {
    // A path such as /var/lib/docker is not an engine named to the reader.
    const engineName = /(?<![/.-])\b(docker|podman)\b(?![-./])/i;
    for (const id of ALL_CASES)
      for (const form of FORMS) {
        const text = caseDef(id)?.remediation?.[form];
        if (text) expect(text, `${id} ${form}`).not.toMatch(engineName);
      }
    // The containment fixes are flags and compose keys (graders and check mode have no engine
    // facts to fill {cli} from); a CLI command is the lifecycle cases' (filled in run.ts).
    for (const id of CONTAINMENT_CASES)
      for (const form of FORMS)
        expect(caseDef(id)?.remediation?.[form], `${id} ${form}`).not.toContain("{cli}");
    expect(fillCli("run `{cli} run --user 1:1`", { cli: "podman" })).toBe("run `podman run --user 1:1`");
    expect(fillCli("`{cli} load`")).toBe("`docker load`");
    for (const id of ALL_CASES)
      for (const form of FORMS)
        expect(remediationOf(id, form, { cli: "podman" }) ?? "").not.toContain("{cli}");
  });

  it("derives the inventory schema's case enums (the committed schema file is checked against the code in tests/inventory)", () => {
    const schema = JSON.stringify(
      JSON.parse(readFileSync(path.join(REPO_ROOT, "acceptance/inventory.schema.json"), "utf8")),
    );
    for (const suite of SUITE_REGISTRY) {
      const ids = suite.cases.map((c) => c.id);
      expect(schema, suite.name).toContain(JSON.stringify(ids));
    }
  });

  it("says check mode's fixes in the registry's cli and compose forms", () => {
    for (const id of CONTAINMENT_CASES) {
      const fix = caseDef(id)!.remediation!;
      const failed = makeCase({ id, status: "fail", remediation: fix.inventory });
      expect(checkModeFix(failed, { kind: "run" })).toBe(fix.cli);
      expect(checkModeFix(failed, { kind: "compose", project: "p", service: "s" })).toBe(
        `In service \`s\` of compose project \`p\`: ${fix.compose}`,
      );
    }
  });

  it("names only the allowance labels check mode reads", () => {
    const known = new Set<string>(Object.values(ALLOWANCE_LABELS));
    for (const id of ALL_CASES)
      for (const form of FORMS)
        for (const label of (caseDef(id)?.remediation?.[form] ?? "").match(
          /org\.docker-acceptance\.[a-z-]+/g,
        ) ?? [])
          expect(known.has(label), `${id} ${form}: ${label}`).toBe(true);
  });
});

describe("reports derived from the registry", () => {
  it("lists every registered suite in Automated Checks and in JUnit", () => {
    const md = renderMarkdown(makeReport(), { target: "comment" });
    const junit = renderJunit(makeReport());
    for (const suite of SUITES) {
      const n = SUITE_REGISTRY.find((s) => s.name === suite)!.cases.length;
      expect(md).toContain(`| ${suite} · web | ✅ ${n}/${n} passed |`);
      expect(junit).toContain(`<testsuite name="web / ${suite}" tests="${n}"`);
    }
  });

  it("never drops the cases of a suite the table does not know (a report from a newer version)", () => {
    const report = makeReport();
    const extra = { ...makeCase({ id: "images.scan", status: "fail" }), suite: "images" };
    const withExtra = { ...report, cases: [...report.cases, extra] } as unknown as Report;
    expect(renderMarkdown(withExtra, { target: "comment" })).toContain(
      "| images · web | ❌ 0/1 passed (1 failed) |",
    );
    expect(renderJunit(withExtra)).toContain('<testsuite name="web / images" tests="1"');
  });
});

describe("the README's case tables", () => {
  it("are generated from the registry and in sync", () => {
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    expect(generateCaseDocs(readme, SUITE_REGISTRY)).toBe(readme);
    const tables = renderCaseTables(SUITE_REGISTRY);
    expect(Object.keys(tables)).toEqual(SUITES.map((s) => `cases-${s}`));
    for (const id of ALL_CASES) expect(readme).toContain(`| \`${id}\` | **${caseDef(id)!.title}**`);
  });
});
