// Progress by the clock, on a fake clock: a line each 15 s of silence naming what runs and for how
// long, none once the work is done, a step's own start line counting as the interval's line.
// (The real 35 s build step on both engines is tests/docker/progress.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../src/log.js";
import { BuildProgress, outputBlock, withHeartbeat } from "../../src/suites/lifecycle/progress.js";

let lines: string[];
const log: Logger = {
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m) => lines.push(m),
  group: (_t, fn) => fn(),
};

beforeEach(() => {
  lines = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("progress by the clock", () => {
  it("a long wait says what it waits for every 15 s, and nothing once it is over", async () => {
    let done!: () => void;
    const work = withHeartbeat(
      log,
      (ms) => `  ready: waiting until GET /health answers 200 (${Math.round(ms / 1000)} s of 120 s)`,
      () => new Promise<void>((resolve) => (done = resolve)),
    );
    await vi.advanceTimersByTimeAsync(46_000);
    expect(lines).toEqual([
      "  ready: waiting until GET /health answers 200 (15 s of 120 s)",
      "  ready: waiting until GET /health answers 200 (30 s of 120 s)",
      "  ready: waiting until GET /health answers 200 (45 s of 120 s)",
    ]);
    done();
    await work;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(lines).toHaveLength(3);
  });

  it("a build names its running steps and their time; a step's start is that interval's line", async () => {
    const p = new BuildProgress(log);
    p.step({ name: "[1/3] FROM base", state: "running" });
    p.step({ name: "[1/3] FROM base", state: "done" });
    await vi.advanceTimersByTimeAsync(5_000);
    p.step({ name: "[2/3] RUN make", state: "running" });
    await vi.advanceTimersByTimeAsync(14_000); // 14 s after the step's own line: nothing yet
    expect(lines).toEqual(["  build: [1/3] FROM base", "  build: [2/3] RUN make"]);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(lines.slice(2)).toEqual(["  build: running [2/3] RUN make (15 s); 20 s in all"]);
    p.step({ name: "[2/3] RUN make", state: "done" });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(lines.at(-1)).toBe(
      "  build: working (no step running: exporting or waiting for the engine); 35 s in all",
    );
    p.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(lines).toHaveLength(4);
  });

  it("a step's name from the build is made terminal-safe", () => {
    const p = new BuildProgress(log);
    p.step({ name: "[2/3] RUN echo \u001b]0;owned\u0007", state: "running" });
    p.stop();
    expect(lines[0]).not.toMatch(/[\u001b\u0007]/);
  });

  it("a failing step's output: its last lines, counted when more, each terminal-safe", () => {
    const out = outputBlock("step x failed; its output (last lines)", "a\n\nb\nc\u001b[2J\nd\n", 2);
    const [title, more, c, d] = out.split("\n");
    expect([title, more, d]).toEqual([
      "      step x failed; its output (last lines):",
      "      | (2 earlier line(s) in the report)",
      "      | d",
    ]);
    expect(c).toMatch(/^ {6}\| c.*\[2J$/);
    expect(out).not.toContain("\u001b");
  });
});
