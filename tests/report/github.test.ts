// What each GitHub surface shows of the report, rendered in report/ (github/ only carries it): the
// check run's conclusion and title, and the digest a comment remembers to tell "unchanged".
import { describe, expect, it } from "vitest";
import { checkTitle, conclusionFor, contentDigest, renderCheckRun } from "../../src/report/github.js";
import { makeCase, makeReport } from "./fixtures.js";

const failing = () =>
  makeReport({
    cases: [
      makeCase({ id: "lifecycle.build", status: "pass" }),
      makeCase({ id: "containment.user", status: "fail", message: "uid 0", remediation: "add USER" }),
      makeCase({ id: "containment.seccomp", status: "skip" }),
    ],
  });

describe("the check run's output", () => {
  it("concludes by verdict: pass success, warn neutral, fail and error failure", () => {
    expect(["pass", "warn", "fail", "error"].map((v) => conclusionFor(v as "pass"))).toEqual([
      "success",
      "neutral",
      "failure",
      "failure",
    ]);
  });

  it("titles with the verdict and counts only (errors count as failed), no untrusted text", () => {
    expect(checkTitle(failing())).toBe("FAIL: 1 failed, 1 passed, 1 skipped");
  });

  it("never lets a fork's own result turn the check green, and says so first", () => {
    const pass = makeReport();
    const out = renderCheckRun(pass, { checkName: "acceptance (fork, unverified)", unverified: true });
    expect(out.conclusion).toBe("neutral");
    expect(out.title).toMatch(/^UNVERIFIED \(fork's own workflow\) PASS: /);
    expect(renderCheckRun(pass, { checkName: "acceptance" }).conclusion).toBe("success");
  });
});

describe("the comment's content digest", () => {
  it("ignores durations and run ids, and changes with any case's outcome or words", () => {
    const a = failing();
    const slower = { ...a, runId: "da-ffffffffffffffffffffffffffffffff", durationMs: a.durationMs * 3 };
    slower.cases = a.cases.map((c) => ({ ...c, durationMs: c.durationMs + 1000 }));
    expect(contentDigest(slower)).toBe(contentDigest(a));
    const reworded = { ...a, cases: a.cases.map((c) => ({ ...c, message: `${c.message}!` })) };
    expect(contentDigest(reworded)).not.toBe(contentDigest(a));
  });
});
