// JUnit XML for other CI tools (test reporters, GitLab, Jenkins): one <testsuite> per subject x
// suite, one <testcase> per case, plus a "run" suite for what is not a case but decides the verdict
// (inventory completeness, artifact pins, cleanup), so a tool reading only this file is not greener
// than the run. Derived from the Report alone.
import { SUITES } from "../cases/suites.js";
import type { CaseResult, Report } from "./model.js";

/** Text safe in XML 1.0 content and attributes: markup escaped, characters XML forbids made visible. */
export function xmlEscape(text: string, attribute = false): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "&") out += "&amp;";
    else if (ch === "<") out += "&lt;";
    else if (ch === ">") out += "&gt;";
    else if (ch === '"') out += "&quot;";
    else if (ch === "'") out += "&apos;";
    // Attribute values are whitespace-normalised by parsers; character references survive it.
    else if (attribute && (ch === "\n" || ch === "\r" || ch === "\t")) out += `&#${code};`;
    else if (ch === "\n" || ch === "\r" || ch === "\t") out += ch;
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xfffe || code === 0xffff) {
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    } else if (code >= 0xd800 && code <= 0xdfff)
      out += "\ufffd"; // a lone surrogate
    else out += ch;
  }
  return out;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

interface Outcome {
  tag: "failure" | "error" | "skipped";
  type: string;
  message: string;
  body: string;
}

interface Testcase {
  classname: string;
  name: string;
  timeMs: number;
  outcome?: Outcome;
}

function caseToTestcase(c: CaseResult): Testcase {
  const classname = `docker-acceptance.${c.subject}.${c.suite}`;
  const tc: Testcase = { classname, name: c.id, timeMs: c.durationMs };
  if (c.status === "pass") return tc;
  const body = [
    c.message,
    c.remediation ? `fix: ${c.remediation}` : "",
    c.location ? `at: ${c.location.path}${c.location.line ? `:${c.location.line}` : ""}` : "",
    Object.keys(c.evidence).length ? `evidence: ${JSON.stringify(c.evidence, null, 2)}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const message = c.message || c.status;
  if (c.status === "skip") tc.outcome = { tag: "skipped", type: "skip", message, body };
  else if (c.status === "error") tc.outcome = { tag: "error", type: "error", message, body };
  // A `warn`-severity failure still failed; its type says it does not fail the run.
  else tc.outcome = { tag: "failure", type: c.severity, message, body };
  return tc;
}

/** The "run" suite: what is not a case but decides the verdict, a failure where it failed. */
function runTestcases(r: Report): Testcase[] {
  return [
    ...(r.inventory ? [inventoryTestcase(r.inventory)] : []),
    ...r.artifacts.map(artifactTestcase),
    ...(r.cleanup ? [cleanupTestcase(r.cleanup)] : []),
    ...r.errors.map(
      (e): Testcase => ({
        classname: RUN_CLASS,
        name: `error ${e.kind}`,
        timeMs: 0,
        outcome: { tag: "error", type: e.kind, message: e.message, body: e.message },
      }),
    ),
  ];
}

const RUN_CLASS = "docker-acceptance.run";

/** One testcase of the run suite: a failure when it failed. */
function runTestcase(name: string, timeMs: number, failure?: Omit<Outcome, "tag">): Testcase {
  return {
    classname: RUN_CLASS,
    name,
    timeMs,
    ...(failure ? { outcome: { tag: "failure" as const, ...failure } } : {}),
  };
}

function inventoryTestcase(inv: NonNullable<Report["inventory"]>): Testcase {
  const body = inv.drift
    .map(
      (d) =>
        `${d.subject} / ${d.suite}: missing [${d.missing.join(", ")}] skipped [${d.skipped.join(", ")}] unexpected [${d.unexpected.join(", ")}]`,
    )
    .join("\n");
  return runTestcase(
    "inventory.complete",
    0,
    inv.complete
      ? undefined
      : {
          type: inv.requireComplete ? "fail" : "warn",
          message: `the cases that ran differ from ${inv.path}`,
          body,
        },
  );
}

function artifactTestcase(a: Report["artifacts"][number]): Testcase {
  return runTestcase(
    `artifact ${a.path}`,
    0,
    a.ok
      ? undefined
      : {
          type: "fail",
          message: a.actual === null ? `${a.path} is missing` : `${a.path} does not match its pin`,
          body: `expected sha256 ${a.expected}\nactual   sha256 ${a.actual ?? "(missing)"}`,
        },
  );
}

function cleanupTestcase(c: NonNullable<Report["cleanup"]>): Testcase {
  return runTestcase(
    "cleanup",
    c.durationMs,
    c.completed
      ? undefined
      : {
          type: "fail",
          message: `${c.remaining.length} owned object(s) left after cleanup`,
          body: c.remaining.map((o) => `${o.kind} ${o.id}`).join("\n"),
        },
  );
}

function renderSuite(
  name: string,
  cases: Testcase[],
  timestamp: string,
  properties: Record<string, string> = {},
): string {
  const count = (tag: string) => cases.filter((c) => c.outcome?.tag === tag).length;
  const time = cases.reduce((t, c) => t + c.timeMs, 0);
  const lines = [
    `  <testsuite name="${xmlEscape(name, true)}" tests="${cases.length}" failures="${count("failure")}" errors="${count("error")}" skipped="${count("skipped")}" time="${seconds(time)}" timestamp="${xmlEscape(timestamp, true)}">`,
  ];
  const props = Object.entries(properties);
  if (props.length > 0) {
    // <properties> comes first in a <testsuite> (the JUnit schemas Jenkins and others validate).
    lines.push(
      "    <properties>",
      ...props.map(
        ([k, v]) => `      <property name="${xmlEscape(k, true)}" value="${xmlEscape(v, true)}"/>`,
      ),
      "    </properties>",
    );
  }
  for (const c of cases) {
    const open = `    <testcase classname="${xmlEscape(c.classname, true)}" name="${xmlEscape(c.name, true)}" time="${seconds(c.timeMs)}"`;
    if (!c.outcome) {
      lines.push(`${open}/>`);
      continue;
    }
    const o = c.outcome;
    lines.push(
      `${open}>`,
      `      <${o.tag} message="${xmlEscape(o.message, true)}" type="${xmlEscape(o.type, true)}">${xmlEscape(o.body)}</${o.tag}>`,
      "    </testcase>",
    );
  }
  lines.push("  </testsuite>");
  return lines.join("\n");
}

export function renderJunit(report: Report): string {
  // Subjects in report order, then any subject that only appears in cases; suites in case order.
  const groups = new Map<string, Testcase[]>();
  for (const s of report.subjects) for (const suite of SUITES) groups.set(`${s.name} / ${suite}`, []);
  for (const c of report.cases) {
    const key = `${c.subject} / ${c.suite}`;
    groups.set(key, [...(groups.get(key) ?? []), caseToTestcase(c)]);
  }
  const suites = [...groups].filter(([, cases]) => cases.length > 0);
  const run = runTestcases(report);
  const all = [...suites.flatMap(([, cases]) => cases), ...run];
  const count = (tag: string) => all.filter((c) => c.outcome?.tag === tag).length;
  const note = countsNote(report.cases.length, run.length);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...(note ? [`<!-- ${note} -->`] : []),
    // Jenkins' strict junit-10.xsd allows no `skipped` on <testsuites> (each <testsuite> has it).
    `<testsuites name="${xmlEscape(`${report.tool.name} ${report.tool.version}`, true)}" tests="${all.length}" failures="${count("failure")}" errors="${count("error")}" time="${seconds(report.durationMs)}">`,
    ...suites.map(([name, cases]) => renderSuite(name, cases, report.startedAt)),
    ...(run.length > 0
      ? [
          renderSuite("run", run, report.startedAt, {
            "docker-acceptance.cases": String(report.cases.length),
            "docker-acceptance.run-checks": String(run.length),
            "docker-acceptance.note": note,
          }),
        ]
      : []),
    "</testsuites>",
    "",
  ].join("\n");
}

/**
 * Why this file counts more tests than the report counts cases: the "run" suite's checks decide
 * the verdict too (so a reader of this file alone is not greener than the run) but are not cases.
 */
function countsNote(cases: number, runChecks: number): string {
  if (runChecks === 0) return "";
  return `${cases + runChecks} tests: the report's ${cases} cases, plus ${runChecks} run-level check(s) in the "run" suite (inventory completeness, artifact pins, cleanup, run errors), which decide the verdict but are not cases`;
}
