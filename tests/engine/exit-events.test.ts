// The engine's events followed from before a start (src/engine/providers/docker/events.ts): an
// OOM notice that Docker logs after the exit is still read, a plain kill is not called one, and a
// stream that breaks is resumed where it stopped or, failing that, says the verdict is unknown.
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EngineLoad, MAX_CALL_TIMEOUT_MS, withTimeout } from "../../src/engine/deadline.js";
import { ExitEvents } from "../../src/engine/providers/docker/events.js";
import { noticeWindowMs } from "../../src/engine/providers/docker/oom.js";
import { EngineError } from "../../src/errors.js";

function event(id: string, action: string, timeNano: bigint): string {
  return `{"Type":"container","Action":"${action}","Actor":{"ID":"${id}"},"timeNano":${timeNano}}\n`;
}

function engineEvents() {
  const opened: { since: string; stream: PassThrough }[] = [];
  let refuse = false;
  const events = new ExitEvents(async (since) => {
    if (refuse) throw new Error("connect ECONNREFUSED");
    const stream = new PassThrough();
    opened.push({ since, stream });
    return stream;
  });
  return { events, opened, refuseFromNow: () => (refuse = true) };
}

describe("exits followed from before the start", () => {
  it("an OOM notice logged after the exit, within the window, is an OOM kill", async () => {
    const { events, opened } = engineEvents();
    await events.follow("c1");
    const answer = events.oomKilled("c1", 2000, 10_000);
    opened[0]!.stream.write(event("c1", "die", 10n ** 18n));
    await new Promise((r) => setTimeout(r, 300));
    opened[0]!.stream.write(event("c1", "oom", 10n ** 18n + 500_000_000n));
    expect(await answer).toBe(true);
  });

  it("a kill with no notice within the window after its exit is not one", async () => {
    const { events, opened } = engineEvents();
    await events.follow("c2");
    opened[0]!.stream.write(event("other", "oom", 10n ** 18n)); // another container's notice
    opened[0]!.stream.write(event("c2", "die", 10n ** 18n + 1n));
    const started = Date.now();
    expect(await events.oomKilled("c2", 300, 10_000)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("a stream that breaks is opened again from the last event read, and what it replays counts", async () => {
    const { events, opened } = engineEvents();
    await events.follow("c3");
    opened[0]!.stream.write(event("c3", "die", 1_700_000_000_123_456_789n));
    opened[0]!.stream.destroy(new Error("socket hang up"));
    await new Promise((r) => setTimeout(r, 20));
    expect(opened).toHaveLength(2);
    expect(opened[1]!.since).toBe("1700000000.123456789"); // the engine's clock, where it stopped
    opened[1]!.stream.write(event("c3", "oom", 1_700_000_000_200_000_000n));
    expect(await events.oomKilled("c3", 2000, 10_000)).toBe(true);
  });

  it("a stream that breaks and cannot be opened again leaves the verdict unknown, not false", async () => {
    const { events, opened, refuseFromNow } = engineEvents();
    await events.follow("c4");
    refuseFromNow();
    opened[0]!.stream.destroy(new Error("socket hang up"));
    expect(await events.oomKilled("c4", 2000, 10_000)).toBeUndefined();
  });

  it("a container not followed is not answered (its event log is read instead)", async () => {
    const { events } = engineEvents();
    expect(await events.oomKilled("never-started-here", 10, 10)).toBeUndefined();
  });

  it("the notice window grows with the engine's time per call, within bounds", () => {
    expect(noticeWindowMs(undefined)).toBe(2000);
    expect(noticeWindowMs(100)).toBe(4000);
    expect(noticeWindowMs(60_000)).toBe(30_000);
  });

  it("once the kernel counted an OOM kill while the container ran, its notice is waited for longer", () => {
    expect(noticeWindowMs(undefined, 1)).toBe(10_000);
    expect(noticeWindowMs(100, 3)).toBe(10_000);
    expect(noticeWindowMs(60_000, 1)).toBe(30_000);
    // None counted: the window as before (and the engine asks nothing then: see the contract test).
    expect(noticeWindowMs(100, 0)).toBe(4000);
  });
});

describe("deadlines that scale with the engine's load", () => {
  // The engine's answers take exactly as long as each test says: a busy machine's timers do not.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  /** A call the engine answers after `ms` (of the fake clock, advanced here). */
  const answered = async (load: EngineLoad, ms: number, kind?: "start") => {
    const call = load.track(() => new Promise((r) => setTimeout(r, ms)), true, kind);
    await vi.advanceTimersByTimeAsync(ms);
    return call;
  };

  it("an idle engine gives a call its base allowance; a queued one adds the engine's share", async () => {
    const load = new EngineLoad();
    expect(load.deadlineMs(30_000)).toBe(30_000);
    await answered(load, 50);
    const idle = load.deadlineMs(30_000);
    expect(idle).toBeGreaterThan(30_000);
    expect(idle).toBeLessThan(30_500);
    // Twenty calls in flight: the next one waits behind them.
    const pending = Array.from({ length: 20 }, () => answered(load, 200));
    expect(load.queued).toBe(20);
    expect(load.deadlineMs(30_000) - 30_000).toBeGreaterThan(20 * (idle - 30_000));
    await Promise.all(pending);
  });

  it("is bounded, so a hung engine still ends every call", async () => {
    const load = new EngineLoad();
    await answered(load, 2000);
    const pending = Array.from({ length: 200 }, () => answered(load, 10));
    expect(load.deadlineMs(30_000)).toBe(MAX_CALL_TIMEOUT_MS);
    await Promise.all(pending);
  });

  it("never cuts an allowance a call states itself: a 15-minute build keeps its 15 minutes", async () => {
    // The ceiling once cut every build at 10 minutes, reported as an engine that did not answer.
    const load = new EngineLoad();
    expect(load.deadlineMs(15 * 60_000)).toBe(15 * 60_000);
    await answered(load, 2000);
    const pending = Array.from({ length: 200 }, () => answered(load, 10));
    expect(load.deadlineMs(15 * 60_000)).toBe(15 * 60_000);
    await Promise.all(pending);
  });

  it("after a time-out, adds nothing for the load until the engine answers again", async () => {
    const load = new EngineLoad();
    await answered(load, 100);
    await expect(
      load.track(() => Promise.reject(new EngineError("x: no answer within 1 ms", "timeout")), true),
    ).rejects.toThrow();
    expect(load.deadlineMs(30_000)).toBe(30_000);
    await answered(load, 10);
    expect(load.deadlineMs(30_000)).toBeGreaterThan(30_000);
  });

  it("measures starts apart: slow starts lengthen the next start's deadline, not an inspect's", async () => {
    const load = new EngineLoad();
    await answered(load, 10);
    const inspectShare = load.deadlineMs(30_000) - 30_000;
    expect(load.deadlineMs(30_000, "start")).toBe(load.deadlineMs(30_000)); // no start measured yet
    await answered(load, 400, "start");
    expect(load.deadlineMs(30_000) - 30_000).toBe(inspectShare);
    expect(load.deadlineMs(30_000, "start") - 30_000).toBeGreaterThan(20 * inspectShare);
  });

  it("a deadline read again when it falls due gives a call the time it has grown to", async () => {
    vi.useRealTimers(); // withTimeout's own timers: the clock it reads must move by itself
    const late = () => new Promise<string>((r) => setTimeout(() => r("answered"), 300));
    await expect(withTimeout("inspect x", 100, late)).rejects.toThrow(/^inspect x: no answer within \d+ ms$/);
    const sent = Date.now();
    // 100 ms when sent; by the time those are up, what the engine showed meanwhile grants 600.
    const grown = () => (Date.now() - sent < 50 ? 100 : 600);
    expect(await withTimeout("inspect x", grown, late)).toBe("answered");
  });
});
