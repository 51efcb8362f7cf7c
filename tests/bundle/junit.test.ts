// junit.xml as another CI tool reads it: parsed by a real XML parser (Python's, strict), one
// testsuite per subject x suite, one testcase per case, failures and skips marked.
import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CONTAINMENT_CASES, LIFECYCLE_CASES } from "../../src/cases/index.js";
import { renderJunit, xmlEscape } from "../../src/report/junit.js";
import { allCases, makeCase, makeCleanup, makeReport } from "../helpers/report.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;

/** Parses with xml.etree (rejects anything not well-formed XML 1.0) and returns the tree as JSON. */
function parse(xml: string): Suites {
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
def node(e): return {"tag": e.tag, "attrs": dict(e.attrib), "text": e.text or "", "children": [node(c) for c in e]}
print(json.dumps(node(root)))`;
  return JSON.parse(execFileSync("python3", ["-c", script], { input: xml }).toString());
}
interface Suites {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: Suites[];
}

describe.skipIf(!hasPython && !process.env.CI)("renderJunit", () => {
  const report = makeReport({
    subjects: [
      { name: "web", phases: [] },
      { name: "api", phases: [] },
    ],
    cases: [
      ...allCases("web").map((c) =>
        c.id === "containment.user"
          ? {
              ...c,
              status: "fail" as const,
              durationMs: 1500,
              message: "runs as 0:0 <root> & \u001b[31mred\u001b[0m",
              remediation: "add `USER 65532:65532` to the Dockerfile",
              evidence: { uid: 0 },
            }
          : c.id === "lifecycle.probes"
            ? { ...c, status: "skip" as const, message: "not ready" }
            : c,
      ),
      makeCase({ id: "lifecycle.build", subject: "api", status: "error", message: "engine gone" }),
      makeCase({
        id: "containment.seccomp",
        subject: "api",
        status: "fail",
        severity: "warn",
        message: "unconfined",
      }),
    ],
    artifacts: [{ path: "app/Dockerfile", expected: "a".repeat(64), actual: "b".repeat(64), ok: false }],
    cleanup: makeCleanup(),
  });
  const tree = parse(renderJunit(report));

  it("has one testsuite per subject x suite, then the run-level suite, with counts", () => {
    expect(tree.tag).toBe("testsuites");
    expect(tree.attrs).toEqual({
      name: expect.stringContaining("docker-acceptance"),
      // Every case for web, one lifecycle and one containment case for api, two run-level checks.
      tests: String(LIFECYCLE_CASES.length + CONTAINMENT_CASES.length + 1 + 1 + 2),
      failures: "3",
      errors: "1",
      time: "12.345",
    });
    expect(
      tree.children.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures, s.attrs.skipped]),
    ).toEqual([
      ["web / lifecycle", String(LIFECYCLE_CASES.length), "0", "1"],
      ["web / containment", String(CONTAINMENT_CASES.length), "1", "0"],
      ["api / lifecycle", "1", "0", "0"],
      ["api / containment", "1", "1", "0"],
      ["run", "2", "1", "0"],
    ]);
  });

  it("is valid under Jenkins' strict junit-10.xsd (the rules checked element by element)", () => {
    expect(junit10Problems(tree)).toEqual([]);
    // The check has teeth: the attribute the strict schema refuses on <testsuites> is caught.
    expect(junit10Problems({ ...tree, attrs: { ...tree.attrs, skipped: "1" } })).toEqual([
      "testsuites: attribute skipped is not allowed",
    ]);
  });

  it("counts what the report counts, and says in the file why the run suite's checks are more", () => {
    const testcases = tree.children.flatMap((s) => s.children.filter((c) => c.tag === "testcase"));
    const run = tree.children.find((s) => s.attrs.name === "run")!;
    const runChecks = run.children.filter((c) => c.tag === "testcase").length;
    expect(Number(tree.attrs.tests)).toBe(testcases.length);
    expect(testcases.length - runChecks).toBe(report.cases.length);
    const props = Object.fromEntries(
      run.children.find((c) => c.tag === "properties")!.children.map((p) => [p.attrs.name, p.attrs.value]),
    );
    expect(props["docker-acceptance.cases"]).toBe(String(report.cases.length));
    expect(props["docker-acceptance.run-checks"]).toBe(String(runChecks));
    expect(props["docker-acceptance.note"]).toBe(
      `${testcases.length} tests: the report's ${report.cases.length} cases, plus ${runChecks} run-level check(s) in the "run" suite (inventory completeness, artifact pins, cleanup, run errors), which decide the verdict but are not cases`,
    );
    expect(renderJunit(report)).toContain(`<!-- ${props["docker-acceptance.note"]} -->`);
  });

  it("per-case durations add up to each suite's time", () => {
    for (const suite of tree.children) {
      const cases = suite.children.filter((c) => c.tag === "testcase");
      const sum = cases.reduce((t, c) => t + Number(c.attrs.time), 0);
      expect(Number(suite.attrs.time)).toBeCloseTo(sum, 2);
    }
  });

  it("marks a failure with its message, fix and evidence, the duration in seconds", () => {
    const web = tree.children[1]!;
    const user = web.children.find((c) => c.attrs.name === "containment.user")!;
    expect(user.attrs).toEqual({
      classname: "docker-acceptance.web.containment",
      name: "containment.user",
      time: "1.500",
    });
    const failure = user.children[0]!;
    expect(failure.tag).toBe("failure");
    expect(failure.attrs.type).toBe("fail");
    // Markup survives as text; the terminal escape (forbidden in XML) is made visible instead.
    expect(failure.attrs.message).toBe("runs as 0:0 <root> & \\u001b[31mred\\u001b[0m");
    expect(failure.text).toContain("fix: add `USER 65532:65532` to the Dockerfile");
    expect(failure.text).toContain('"uid": 0');
  });

  it("marks skips, errors, warn-severity failures and a pin mismatch", () => {
    const tc = (suite: number, name: string) =>
      tree.children[suite]!.children.find((c) => c.attrs.name === name)!;
    expect(tc(0, "lifecycle.probes").children[0]).toMatchObject({
      tag: "skipped",
      attrs: { message: "not ready" },
    });
    expect(tc(0, "lifecycle.build").children).toEqual([]);
    expect(tc(2, "lifecycle.build").children[0]).toMatchObject({
      tag: "error",
      attrs: { message: "engine gone" },
    });
    expect(tc(3, "containment.seccomp").children[0]).toMatchObject({
      tag: "failure",
      attrs: { type: "warn" },
    });
    const pin = tc(4, "artifact app/Dockerfile").children[0]!;
    expect(pin.attrs.message).toBe("app/Dockerfile does not match its pin");
    expect(pin.text).toBe(`expected sha256 ${"a".repeat(64)}\nactual   sha256 ${"b".repeat(64)}`);
    expect(tc(4, "cleanup").children).toEqual([]);
  });

  it("escapes every character XML cannot carry", () => {
    const nasty = "a<b>&\"'\u0000\u0007\u000b\ud800z\n\tend]]>";
    expect(xmlEscape(nasty)).toBe("a&lt;b&gt;&amp;&quot;&apos;\\u0000\\u0007\\u000b\ufffdz\n\tend]]&gt;");
    const r = makeReport({
      cases: [makeCase({ id: "lifecycle.build", subject: "web", status: "fail", message: nasty })],
    });
    const parsed = parse(renderJunit(r));
    const failure = parsed.children[0]!.children[0]!.children[0]!;
    expect(failure.attrs.message).toBe("a<b>&\"'\\u0000\\u0007\\u000b\ufffdz\n\tend]]>");
  });
});

/**
 * The rules of Jenkins xUnit's junit-10.xsd, the strictest common JUnit dialect, as they apply
 * to what we write: allowed and required attributes, allowed children, the time pattern.
 */
const JUNIT10: Record<string, { attrs: string[]; required: string[]; children: string[] }> = {
  testsuites: {
    attrs: ["name", "time", "tests", "failures", "errors"],
    required: [],
    children: ["testsuite"],
  },
  testsuite: {
    attrs: [
      "name",
      "tests",
      "failures",
      "errors",
      "group",
      "time",
      "skipped",
      "timestamp",
      "hostname",
      "id",
      "package",
      "file",
      "log",
      "url",
    ],
    required: ["name", "tests", "failures", "errors"],
    children: ["testsuite", "properties", "testcase", "system-out", "system-err"],
  },
  testcase: {
    attrs: ["name", "time", "classname", "group"],
    required: ["name"],
    children: ["skipped", "error", "failure", "system-out", "system-err"],
  },
  properties: { attrs: [], required: [], children: ["property"] },
  property: { attrs: ["name", "value"], required: ["name", "value"], children: [] },
  failure: { attrs: ["type", "message"], required: [], children: [] },
  error: { attrs: ["type", "message"], required: [], children: [] },
  skipped: { attrs: ["type", "message"], required: [], children: [] },
};
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

function junit10Problems(node: Suites, at = node.tag): string[] {
  const rule = JUNIT10[node.tag];
  if (!rule) return [`${at}: element ${node.tag} is not allowed`];
  const out: string[] = [];
  for (const a of Object.keys(node.attrs))
    if (!rule.attrs.includes(a)) out.push(`${at}: attribute ${a} is not allowed`);
  for (const a of rule.required) if (!(a in node.attrs)) out.push(`${at}: attribute ${a} is required`);
  if ((node.tag === "testsuites" || node.tag === "testsuite") && node.attrs.time !== undefined) {
    if (!SUREFIRE_TIME.test(node.attrs.time))
      out.push(`${at}: time ${node.attrs.time} is not a SUREFIRE_TIME`);
  }
  for (const c of node.children) {
    if (!rule.children.includes(c.tag)) out.push(`${at}: child ${c.tag} is not allowed`);
    else out.push(...junit10Problems(c, `${at}/${c.tag}`));
  }
  return out;
}
