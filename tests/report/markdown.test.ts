import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { BUDGETS, measure, renderMarkdown } from "../../src/report/markdown.js";
import { computeVerdict, type Report } from "../../src/report/model.js";
import { makeCase, makeReport } from "./fixtures.js";

const MARKER = "<!-- docker-acceptance:acceptance -->";
const HOSTILE = [
  "</details>",
  "```",
  "<img src=x onerror=alert(1)>",
  "@org/team",
  "<!-- docker-acceptance:acceptance -->",
  "| cell | break |",
  "[click](https://evil.example)",
  "\u001b[31mred\u001b[0m",
  "\u202eevil bidi",
  "x".repeat(5000),
].join(" ");

function hostileReport(failures: number): Report {
  const cases = Array.from({ length: failures }, (_, i) =>
    makeCase({
      id: `containment.case_${i}`,
      subject: i % 2 ? "api" : "web",
      status: "fail",
      message: `failure ${i}: ${HOSTILE}`,
      remediation: `fix ${i}: ${HOSTILE}`,
      location: { path: `Dockerfile</code><script>${i}`, line: i + 1 },
    }),
  );
  cases.push(
    makeCase({ id: "lifecycle.build", status: "pass" }),
    makeCase({ id: "lifecycle.ready", status: "skip", message: HOSTILE }),
  );
  const logLine = `${HOSTILE}\n`;
  const r = makeReport({
    subjects: ["web", "api"].map((name) => ({
      name: `${name}<b>@${name}</b>`,
      phases: [
        { name: "build", startMs: 0, durationMs: 1000 },
        { name: "ready:\nsection evil", startMs: 1000, durationMs: 500 },
      ],
      logExcerpt: logLine.repeat(300),
      buildLog: logLine.repeat(300),
    })),
    cases,
    errors: [],
  });
  r.verdict = computeVerdict(r);
  return r;
}

/** Renders as GitHub would (GFM) and returns the HTML, so assertions see what a reader sees. */
function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false }) as string;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe("renderMarkdown: a failing run with 20 failures and hostile strings", () => {
  const report = hostileReport(20);

  for (const target of ["comment", "check-summary", "check-text", "job-summary"] as const) {
    it(`${target}: stays within budget and lets no HTML, mention or marker through`, () => {
      const md = renderMarkdown(report, { target, marker: target === "comment" ? MARKER : undefined });
      const budget = BUDGETS[target]!;
      expect(measure(md, budget.unit)).toBeLessThanOrEqual(budget.limit);
      // Our marker exactly once (first line) on the comment; never a forged one anywhere.
      expect(count(md, "<!-- docker-acceptance")).toBe(target === "comment" ? 1 : 0);
      if (target === "comment") expect(md.startsWith(MARKER)).toBe(true);
      // No mention survives: every @ is followed by the zero-width joiner.
      expect(md).not.toMatch(/@[A-Za-z0-9]/);
      // No raw tag from the input in the markdown source.
      expect(md).not.toMatch(/<img|<script|<b>|<\/code><script/i);
      expect(md).not.toContain("\u001b");
      expect(md).not.toContain("\u202e");
      const out = html(md);
      expect(out).not.toMatch(/<img|<script|<a /i);
      // Our own <details> stay balanced: the input's </details> did not close one.
      expect(count(out, "<details>")).toBe(count(out, "</details>"));
      expect(out).toContain("&lt;/details&gt;");
    });
  }

  it("comment: shows every section in order and all 20 failures with their fixes", () => {
    const md = renderMarkdown(report, { target: "comment", marker: MARKER });
    const out = html(md);
    const headings = [...out.matchAll(/<h[23][^>]*>(.*?)<\/h[23]>/g)].map((m) => m[1]);
    expect(headings).toEqual([
      "❌ docker-acceptance: FAIL",
      "Automated Checks",
      "Tier 1: Fixes Required",
      "Tier 2: Alignment Discussion",
      "Cleanup",
      "Summary",
    ]);
    const tier1 = out.slice(out.indexOf("Tier 1"), out.indexOf("Tier 2"));
    expect(count(tier1, "<li>")).toBe(20);
    for (let i = 0; i < 20; i++) expect(tier1).toContain(`fix ${i}:`);
    // The hostile | did not split the per-case table's rows into extra columns.
    for (const row of out.match(/<tr>[\s\S]*?<\/tr>/g) ?? [])
      expect(count(row, "<td")).toBeLessThanOrEqual(7);
    expect(md).toContain("head `aaaaaaaaaaaa`");
  });

  it("check-text carries a mermaid gantt whose labels cannot inject mermaid syntax", () => {
    const md = renderMarkdown(report, { target: "check-text" });
    const block = md.slice(md.indexOf("```mermaid"), md.indexOf("```", md.indexOf("```mermaid") + 3) + 3);
    const lines = block.split("\n");
    expect(lines.slice(0, 4)).toEqual(["```mermaid", "gantt", "  dateFormat x", "  axisFormat %M:%S"]);
    expect(lines.filter((l) => l.startsWith("  section "))).toEqual([
      "  section web_b__web_/b_",
      "  section api_b__api_/b_",
    ]);
    expect(lines).toContain("  build 1.0s :0, 1000");
    expect(lines).toContain("  ready__section evil 500ms :1000, 1500");
  });
});

describe("renderMarkdown: budgets and degradation", () => {
  it("an oversized report degrades step by step, says so, and keeps every failure's headline", () => {
    const report = hostileReport(20);
    const full = renderMarkdown(report, { target: "file" });
    expect(measure(full, "chars")).toBeGreaterThan(BUDGETS.comment!.limit);
    const comment = renderMarkdown(report, { target: "comment", marker: MARKER });
    expect(comment.length).toBeLessThanOrEqual(65_536);
    expect(comment).toMatch(
      /> \[!NOTE\]\n> Shortened to fit the 65,536-character PR comment limit: passing detail collapsed/,
    );
    for (let i = 0; i < 20; i++) expect(comment).toContain(`failure ${i}:`);
    expect(full).not.toContain("Shortened to fit");
  });

  it("counts bytes, not characters, for the check summary", () => {
    // 4-byte emoji: 30,000 of them are 60,000 UTF-16 units but 120,000 bytes.
    const emoji = "🐳".repeat(400);
    const report = makeReport({
      cases: Array.from({ length: 300 }, (_, i) =>
        makeCase({ id: `containment.c${i}`, status: "fail", message: emoji, remediation: emoji }),
      ),
    });
    const md = renderMarkdown(report, { target: "check-summary" });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(65_535);
    expect(md).toContain("Shortened to fit the 65,535-byte check run summary limit");
    expect(md).toMatch(/more items to fix in report\.json/);
  });

  it("a small passing report is rendered in full with no shortening note", () => {
    const md = renderMarkdown(makeReport(), { target: "comment" });
    expect(md).not.toContain("Shortened");
    expect(md).toContain("## ✅ docker-acceptance: PASS");
    expect(md).toContain("_Nothing to fix._");
    expect(md).toContain("<details><summary>All 3 cases with durations</summary>");
  });
});

describe("renderMarkdown: Automated Checks", () => {
  it("summarises suites per subject, inventory, artifacts and external tests and lint", () => {
    const report = makeReport({
      artifacts: [
        { path: "Dockerfile", expected: "a".repeat(64), actual: "a".repeat(64), ok: true },
        { path: "entry.sh", expected: "b".repeat(64), actual: "c".repeat(64), ok: false, line: 12 },
      ],
      external: {
        tests: { passed: 41, skipped: 2, failed: 1, files: ["junit.xml"] },
        lint: { findings: [{ path: "a.py", line: 3, rule: "E501", message: "long" }], files: ["ruff.sarif"] },
      },
    });
    const out = html(renderMarkdown(report, { target: "check-summary" }));
    expect(out).toContain("<td>Tests</td>\n<td>❌ Tests: 41 passed, 2 skipped, 1 failed</td>");
    expect(out).toContain("<td>Lint</td>\n<td>⚠️ Lint: 1 finding</td>");
    expect(out).toContain("<td>Artifact verification</td>\n<td>❌ 1/2 match their pinned sha256</td>");
    expect(out).toContain("<td>lifecycle · web</td>\n<td>✅ 2/2 passed</td>");
    // The mismatch is a fix, pointing at the inventory line that pins it.
    expect(out).toMatch(
      /artifact <code>entry\.sh<\/code>: expected sha256 <code>bbbbbbbbbbbb…<\/code>, got <code>cccccccccccc…<\/code> at <code>acceptance\/inventory\.json:12<\/code>/,
    );
    const clean = makeReport({ external: { lint: { findings: [], files: ["eslint.sarif"] } } });
    expect(renderMarkdown(clean, { target: "comment" })).toContain("| Lint | ✅ Lint: PASS |");
  });
});

describe("escape", () => {
  it("keeps `code` in remediations as code, escaped, and nothing else changes meaning", async () => {
    const { escapeInlineWithCode } = await import("../../src/report/escape.js");
    const md = escapeInlineWithCode("add `USER 10001` then `<img src=x onerror=1>` and **bold** @team `a|b`");
    expect(md).toBe(
      "add <code>USER 10001</code> then <code>&lt;img src=x onerror=1&gt;</code> and \\*\\*bold\\*\\* @\u200dteam <code>a&#124;b</code>",
    );
  });
});
