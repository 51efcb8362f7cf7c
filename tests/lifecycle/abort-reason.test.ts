// What a case cut short says: the subject's own deadline is told apart from a deadline of the
// whole run (a caller's AbortSignal.timeout) and from a cancellation; each subject's signal joins
// its deadline to the run's, as src/pipeline-run.ts does.
import { describe, expect, it } from "vitest";
import { abortReason, subjectDeadline } from "../../src/suites/lifecycle/run.js";

const aborted = (s: AbortSignal) =>
  new Promise<void>((resolve) => (s.aborted ? resolve() : s.addEventListener("abort", () => resolve())));

describe("why a subject's work was cut", () => {
  it("names the subject's own deadline, with its length", async () => {
    const s = AbortSignal.any([new AbortController().signal, subjectDeadline(20)]);
    await aborted(s);
    expect(abortReason(s)).toBe("the subject's deadline passed (0 s)");
  });

  it("says the run's deadline when the run's own timeout fired first, not the subject's", async () => {
    const s = AbortSignal.any([AbortSignal.timeout(10), subjectDeadline(60 * 60_000)]);
    await aborted(s);
    expect(abortReason(s)).toBe("the run's deadline passed");
  });

  it("says the run was cancelled, and why", () => {
    const run = new AbortController();
    run.abort(new Error("SIGTERM received"));
    expect(abortReason(AbortSignal.any([run.signal, subjectDeadline(60_000)]))).toBe(
      "run cancelled (SIGTERM received)",
    );
  });
});
