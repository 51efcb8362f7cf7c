import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/report/markdown.js";
import { alignmentReportSchema } from "../../src/report/model.js";
import { makeReport } from "../helpers/report.js";

describe("the alignment review in the report", () => {
  it("lists open RFCs the change touches and flags Tier 2 points as ALIGNMENT FLAG, escaped", () => {
    const alignment = alignmentReportSchema.parse({
      configured: true,
      source: "git diff base...HEAD",
      findings: [
        {
          tier: 2,
          kind: "rfc",
          title: "Touches paths of open RFC 007",
          concern: "the sandbox layout is under discussion",
          path: "src/sandbox.py",
          line: 3,
          reviewers: ["@alice"],
          ref: "RFC 007",
        },
      ],
      openRfcs: [
        { number: "007", title: "Sandbox <b>layout</b>", status: "In Review", paths: ["src/sandbox.py"] },
      ],
      summary: "0 mechanical issues to fix, 1 alignment points for human review, 0 RFC conflicts",
    });
    const md = renderMarkdown(makeReport({ alignment }), { target: "comment" });
    expect(md).toContain("| Alignment | ⚠️ 0 blocking, 1 for discussion, 0 advisory |");
    expect(md).toContain("💬 ALIGNMENT FLAG: **Touches paths of open RFC 007**");
    expect(md).toContain("**Open RFCs Context**");
    expect(md).toContain(
      "RFC 007: Sandbox &lt;b&gt;layout&lt;/b&gt; (In Review) · <code>src/sandbox.py</code>",
    );
    expect(md).not.toContain("<b>layout</b>");
    expect(md).not.toMatch(/(^|[^\u200d])@alice/);
  });

  it("says when the review is not configured", () => {
    const alignment = alignmentReportSchema.parse({ configured: false, summary: "not configured" });
    expect(renderMarkdown(makeReport({ alignment }), { target: "file" })).toContain(
      "| Alignment | ➖ not configured",
    );
  });
});
