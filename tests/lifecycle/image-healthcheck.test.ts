// The image's own HEALTHCHECK as lifecycle.probes holds it: read from the image's config as the
// engine runs it, run at once, passed at its first success, failed at once when the command does
// not exist, and tried again otherwise (a service may warm up after its readiness signal).
import { describe, expect, it, vi } from "vitest";
import type { Engine, ImageHealthcheck } from "../../src/engine/provider.js";
import { type ImageInspect, imageView } from "../../src/engine/providers/docker/translate.js";
import { EngineError } from "../../src/errors.js";
import { BOUNDS } from "../../src/inventory/rules.js";
import type { Subject } from "../../src/inventory/schema.js";
import type { CaseContext } from "../../src/suites/lifecycle/case.js";
import { holdImageCheck, imageCheckToHold } from "../../src/suites/lifecycle/image-healthcheck.js";

const inspect = (Healthcheck: unknown) =>
  imageView(
    { Id: "sha256:1", Created: "2026-11-30T00:00:00Z", Config: { Healthcheck } } as ImageInspect,
    (t) => t,
  ).healthcheck;

describe("the image's HEALTHCHECK, read from its config", () => {
  it("runs CMD-SHELL through /bin/sh -c and CMD as written, with the engine's defaults", () => {
    expect(inspect({ Test: ["CMD-SHELL", "curl -f http://127.0.0.1/ || exit 1"] })).toEqual({
      test: ["CMD-SHELL", "curl -f http://127.0.0.1/ || exit 1"],
      argv: ["/bin/sh", "-c", "curl -f http://127.0.0.1/ || exit 1"],
      timeoutMs: 30_000,
      retries: 3,
      startPeriodMs: 0,
    });
    expect(
      inspect({
        Test: ["CMD", "/app/health"],
        Timeout: 2_000_000_000,
        Retries: 5,
        StartPeriod: 60_000_000_000,
      }),
    ).toMatchObject({ argv: ["/app/health"], timeoutMs: 2000, retries: 5, startPeriodMs: 60_000 });
  });

  it("is none for NONE (a disabled check), an empty test and no HEALTHCHECK", () => {
    expect(inspect({ Test: ["NONE"] })).toBeUndefined();
    expect(inspect({ Test: [] })).toBeUndefined();
    expect(inspect(undefined)).toBeUndefined();
  });
});

const check: ImageHealthcheck = {
  test: ["CMD-SHELL", "x"],
  argv: ["/bin/sh", "-c", "x"],
  timeoutMs: 30_000,
  retries: 3,
  startPeriodMs: 0,
};
const subject = (more: Partial<Subject> = {}) => ({ startupTimeoutMs: 2000, probes: [], ...more }) as Subject;

/** An engine whose exec answers in turn (the last answer repeats); an Error is thrown. */
function answering(...answers: ({ exitCode: number; output: string } | Error)[]) {
  let runs = 0;
  const engine = {
    execCommand: async () => {
      const answer = answers[Math.min(runs++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as Engine;
  return (s = subject()) =>
    ({ engine, subject: s, signal: new AbortController().signal }) as unknown as CaseContext;
}

describe("holding the image's HEALTHCHECK", () => {
  it("passes at its first success, after failures while the service warms up", async () => {
    const ctx = answering(
      { exitCode: 1, output: "curl: (7) Failed to connect" },
      { exitCode: 0, output: "" },
    )();
    expect(await holdImageCheck(ctx, "c1", check)).toMatchObject({ ok: true, runs: 2 });
  });

  it("fails at once when the shell says the command does not exist, with what it said", async () => {
    for (const output of [
      "/bin/sh: 1: curl: not found\n",
      "sh: curl: not found\n",
      "bash: line 1: curl: command not found\n",
    ]) {
      const result = await holdImageCheck(answering({ exitCode: 1, output })(), "c1", check);
      expect(result).toMatchObject({ ok: false, runs: 1, got: `exit 1 (${output.trim()})` });
    }
    const missing = await holdImageCheck(answering({ exitCode: 127, output: "" })(), "c1", check);
    expect(missing).toMatchObject({ ok: false, runs: 1, got: "exit 127" });
  });

  it("fails once the start-up time-out has passed with `retries` failures in a row", async () => {
    const result = await holdImageCheck(answering({ exitCode: 1, output: "not ready\n" })(), "c1", check);
    expect(result).toMatchObject({ ok: false, got: "exit 1 (not ready)" });
    expect(result.runs).toBeGreaterThanOrEqual(3);
  });

  it("holds a check that asks for a thousand hours and a million retries no longer than a start-up may take", async () => {
    // The start period and the retries are the image's, so the pull request's: unbounded, the
    // case ran on for as long as they asked.
    vi.useFakeTimers();
    try {
      const ctx = answering({ exitCode: 1, output: "never\n" })(subject({ startupTimeoutMs: 1000 }));
      let done: Awaited<ReturnType<typeof holdImageCheck>> | undefined;
      void holdImageCheck(ctx, "c1", { ...check, startPeriodMs: 1000 * 3600_000, retries: 1_000_000 }).then(
        (r) => {
          done = r;
        },
      );
      await vi.advanceTimersByTimeAsync(BOUNDS.startupTimeoutMs + 5_000);
      expect(done).toMatchObject({ ok: false, got: "exit 1 (never)" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("tries again for the check's own start period when it is longer than the start-up time-out", async () => {
    const fail = { exitCode: 1, output: "warming up\n" };
    const ctx = answering(fail, fail, fail, { exitCode: 0, output: "" })(subject({ startupTimeoutMs: 500 }));
    expect(await holdImageCheck(ctx, "c1", { ...check, startPeriodMs: 10_000 })).toMatchObject({
      ok: true,
      runs: 4,
    });
    const without = answering(fail, fail, fail, { exitCode: 0, output: "" })(
      subject({ startupTimeoutMs: 500 }),
    );
    expect(await holdImageCheck(without, "c1", check)).toMatchObject({ ok: false, runs: 3 });
  });

  it("counts a run past its time-out, or in a container that stopped, as a failure; the engine's other errors stand", async () => {
    const timedOut = new EngineError("exec in c1: no answer within 2000 ms", "timeout");
    const slow = await holdImageCheck(answering(timedOut)(subject({ startupTimeoutMs: 100 })), "c1", {
      ...check,
      timeoutMs: 2000,
      retries: 1,
    });
    expect(slow).toMatchObject({ ok: false, got: "no exit code (no exit within 100 ms)" });
    const stopped = new EngineError("container c1 is not running", "engine", 409);
    const gone = await holdImageCheck(answering(stopped)(subject({ startupTimeoutMs: 100 })), "c1", {
      ...check,
      retries: 1,
    });
    expect(gone).toMatchObject({ ok: false, got: "no exit code (the container is not running)" });
    const unreachable = new EngineError("connect ENOENT /var/run/docker.sock", "unreachable");
    await expect(holdImageCheck(answering(unreachable)(), "c1", check)).rejects.toBe(unreachable);
  });

  it("is left to the inventory when it already waits on or probes the HEALTHCHECK", () => {
    expect(imageCheckToHold(subject(), check)).toBe(check);
    expect(
      imageCheckToHold(subject({ readiness: { type: "healthcheck" } } as Partial<Subject>), check),
    ).toBeUndefined();
    expect(
      imageCheckToHold(subject({ probes: [{ type: "healthcheck" }] } as Partial<Subject>), check),
    ).toBeUndefined();
    expect(imageCheckToHold(subject(), undefined)).toBeUndefined();
  });
});
