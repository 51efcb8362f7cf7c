// lifecycle.stop on the real engine: the engine says whether the subject was still running when
// it was asked to stop (its 304), so a subject that died after it was ready is a FAIL that says
// so, never an "exited after SIGTERM" pass, and a subject that exits on TERM passes.
import { afterAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { newRunId, ownerLabels } from "../../src/engine/ownership.js";
import type { Subject } from "../../src/inventory/schema.js";
import { stopSubject } from "../../src/suites/lifecycle/stop.js";
import { hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";

describe.skipIf(!hasEngine)("lifecycle.stop", () => {
  const engine = newEngine();
  const owner = newRunId();
  const subject = { stopTimeoutMs: 5000, init: false, writableRoots: ["/tmp"] } as unknown as Subject;
  const ctx = {
    engine,
    owner,
    subject,
    workspace: ".",
    log: { info() {}, warn() {}, group: (_: string, f: () => unknown) => f() },
    signal: new AbortController().signal,
    probeImage: PROBE_IMAGE,
  } as unknown as Parameters<typeof stopSubject>[0];
  afterAll(() => cleanupOwned(engine, { owner }, { trigger: "test" }));

  async function started(script: string, stopSignal?: string): Promise<string> {
    const id = await engine.createContainer({
      Image: PROBE_IMAGE,
      Entrypoint: ["/bin/sh", "-c", script],
      Cmd: [],
      Labels: ownerLabels(owner, "subject"),
      ...(stopSignal ? { StopSignal: stopSignal } : {}),
    });
    await engine.start(id);
    return id;
  }

  it("fails a subject that exited before it was asked to stop, with its exit", async () => {
    const id = await started("echo bye; exit 3");
    await engine.wait(id, 20_000);
    const draft = await stopSubject(ctx, id);
    expect(draft.status).toBe("fail");
    expect(draft.message).toContain("before it was asked to stop");
    expect(draft.evidence).toMatchObject({ exitCode: 3 });
  });

  it("names the log's known cause and its fix when it died on its own after it was ready", async () => {
    const id = await started("echo 'OSError: [Errno 98] Address already in use' >&2; exit 1");
    await engine.wait(id, 20_000);
    const draft = await stopSubject(ctx, id);
    expect(draft.status).toBe("fail");
    expect(draft.message).toMatch(
      // The duration as the report words it: milliseconds, or seconds past one (a slow engine's).
      /^exited with code 1 after (?:\d+ ms|\d+(?:\.\d+)? s) while running, before it was asked to stop: the port is already in use inside the container \(last log line: OSError: \[Errno 98\] Address already in use\)$/,
    );
    expect(draft.remediation).toMatch(/^make only one process listen on the port/);
  });

  it("passes a subject that exits on SIGTERM, with the time it took", async () => {
    const id = await started("trap 'exit 0' TERM; while :; do sleep 0.1; done");
    const draft = await stopSubject(ctx, id);
    expect(draft.status).toBe("pass");
    expect(draft.message).toMatch(/^exited 0 after SIGTERM in \d+ ms$/);
  });

  it("fails an image whose STOPSIGNAL is SIGKILL: it is killed at once, never asked to stop", async () => {
    // The image's STOPSIGNAL is the pull request's: SIGKILL cannot be handled, so a subject that
    // never shuts down cleanly would otherwise always "exit within its grace".
    const id = await started("while :; do sleep 0.1; done", "SIGKILL");
    const draft = await stopSubject(ctx, id, "SIGKILL");
    expect(draft.status, draft.message).toBe("fail");
    expect(draft.message).toMatch(/SIGKILL.*never asked to stop/);
    expect(draft.remediation).toMatch(/STOPSIGNAL/);
  });
});
