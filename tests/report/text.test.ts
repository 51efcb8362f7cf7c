import { describe, expect, it } from "vitest";
import { renderText } from "../../src/report/text.js";
import { makeCase, makeReport } from "./fixtures.js";

describe("renderText", () => {
  it("lists failures before passes, gives each failure its remediation and ends on the verdict", () => {
    const report = makeReport({
      cases: [
        makeCase({ id: "lifecycle.build", status: "pass", durationMs: 4000 }),
        makeCase({
          id: "containment.user",
          status: "fail",
          message: "runs as uid 0",
          remediation: "add `USER 10001` to the Dockerfile",
          location: { path: "Dockerfile", line: 3 },
        }),
        makeCase({ id: "containment.seccomp", status: "skip", message: "not measurable" }),
      ],
    });
    const text = renderText(report);
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^FAIL\s+web containment\.user/);
    expect(lines[1]).toMatch(/^SKIP\s+web containment\.seccomp/);
    expect(lines[2]).toMatch(/^PASS\s+web lifecycle\.build\s+4\.0s/);
    expect(text).toContain("web containment.user (Dockerfile:3): runs as uid 0");
    expect(text).toContain("fix: add `USER 10001` to the Dockerfile");
    expect(text).toMatch(/Cleanup: 2 removed, 0 retained, 0 failed; verified by list containers/);
    expect(lines.at(-1)).toMatch(
      /^Verdict: FAIL {2}1 passed, 1 failed, 1 skipped of 3 at aaaaaaaaaaaa in 12\.3s$/,
    );
  });

  it("strips terminal escape sequences and newlines from untrusted messages", () => {
    const report = makeReport({
      cases: [
        makeCase({
          id: "lifecycle.ready",
          status: "fail",
          message: "boom\u001b[2J\u001b]0;pwned\u0007\nnext",
        }),
      ],
    });
    const text = renderText(report);
    expect(text).not.toContain("\u001b");
    expect(text).not.toContain("\u0007");
    expect(text).toContain("boom[2J]0;pwned ⏎ next");
  });

  it("says when cleanup could not be verified", () => {
    const base = makeReport();
    const report = makeReport({
      cleanup: { ...base.cleanup!, completed: false, remaining: [{ kind: "container", id: "x" }] },
    });
    expect(renderText(report)).toContain("NOT verified (1 owned object(s) remain)");
    expect(report.verdict).toBe("fail");
  });
});
