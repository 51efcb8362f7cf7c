// `check` freezes each container it grades only while its probe reads it, and thaws it on every
// path: after a normal read, and when the run is stopped by SIGTERM in the middle of the read.
// Through the bundled CLI (dist/cli.js), on the real engine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { newRunId } from "../../src/engine/ownership.js";
import type { Engine } from "../../src/engine/provider.js";
import { whileFrozen } from "../../src/engine/trusted-probe.js";
import { EngineError } from "../../src/errors.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { hardenedSubject } from "../containment/faults.js";
import { runCli } from "../helpers/cli.js";
import {
  BASE_IMAGE,
  cleanupProblems,
  dockerOptions,
  hasEngine,
  newEngine,
  PROBE_IMAGE,
} from "../helpers/engine.js";

describe.skipIf(!hasEngine)("check freezes what it reads, and always thaws it", () => {
  const engine = newEngine();
  const owner = newRunId();
  let id = "";

  const state = async () => (await engine.inspect(id)).state;

  beforeAll(async () => {
    const options = dockerOptions(planLaunch(hardenedSubject, BASE_IMAGE, owner, `${owner}-frozen`));
    id = await engine.createContainer({ ...options, Cmd: ["httpd", "-f", "-p", "8080", "-h", "/var/www"] });
    await engine.start(id);
  });

  afterAll(async () => {
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
  });

  it("is paused while its probe runs, and running again after", async () => {
    const run = runCli(["check", "--container", id, "--probe-image", PROBE_IMAGE, "--format", "json"]);
    const seen = new Set<string>();
    let done = false;
    run.then(() => {
      done = true;
    });
    while (!done) {
      seen.add((await state()).status);
      await new Promise((r) => setTimeout(r, 10));
    }
    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(seen).toContain("paused");
    expect(await state()).toMatchObject({ status: "running", running: true });
  }, 60_000);

  it("a container its owner paused stays paused, and no write-probe result of it is called a pass", async () => {
    await engine.pause(id);
    try {
      const result = await runCli([
        "check",
        "--container",
        id,
        "--probe-image",
        PROBE_IMAGE,
        "--format",
        "json",
      ]);
      expect((await state()).status).toBe("paused");
      const report = JSON.parse(result.stdout) as {
        cases: { id: string; status: string; message: string }[];
      };
      const writes = report.cases.find((c) => c.id === "containment.writable_roots")!;
      expect(writes.status).toBe("error");
      expect(writes.message).toMatch(/did not pause it/);
    } finally {
      await engine.unpause(id);
    }
  }, 60_000);

  it("SIGTERM while it is paused: the run thaws it before it exits", async () => {
    const run = runCli(["check", "--container", id, "--probe-image", PROBE_IMAGE, "--format", "json"]);
    const until = Date.now() + 30_000;
    while ((await state()).status !== "paused" && Date.now() < until)
      await new Promise((r) => setTimeout(r, 5));
    expect((await state()).status).toBe("paused");
    run.child.kill("SIGTERM");
    const result = await run;
    expect(result.code).toBe(143);
    expect(await state()).toMatchObject({ status: "running", running: true });
  }, 60_000);

  // runc gives up on a freeze it cannot finish in its short window (a task busy in the kernel on a
  // loaded host) with "unable to freeze" and thaws what it froze; CI once read that as an ERROR of
  // containment.writable_roots. The real engine, with its first N pauses refused that way.
  const DOCKER_SAYS = "(HTTP code 500) server error - OCI runtime pause failed: unable to freeze: unknown";
  // Podman relays only that the runtime failed, not why.
  const PODMAN_SAYS = `(HTTP code 500) server error - pause 710f4e938513: \`/usr/bin/runc pause ${"7".repeat(64)}\` failed: exit status 1`;
  const refusing = (times: number, says = DOCKER_SAYS): Engine => {
    let left = times;
    return new Proxy(engine, {
      get(target, key, receiver) {
        if (key === "pause" && left > 0)
          return async () => {
            left--;
            throw new EngineError(says, "engine", 500);
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };

  it.each([
    ["Docker's words", DOCKER_SAYS],
    ["Podman's words", PODMAN_SAYS],
  ])(
    "a freeze the runtime could not finish (%s) is asked again, and holds",
    async (_, says) => {
      const seen: string[] = [];
      const { freeze } = await whileFrozen(refusing(3, says), id, async (frozen) => {
        seen.push(String(frozen), (await state()).status);
      });
      expect(freeze.held).toBe(true);
      expect(seen).toEqual(["true", "paused"]);
      expect(await state()).toMatchObject({ status: "running", running: true });
    },
    60_000,
  );

  it("a freeze refused every time is not held, says how often it was asked, and leaves it running", async () => {
    const seen: string[] = [];
    const { freeze } = await whileFrozen(refusing(9), id, async (frozen) => {
      seen.push(String(frozen), (await state()).status);
    });
    expect(freeze).toEqual({
      held: false,
      reason: expect.stringMatching(/did not pause it \(.*unable to freeze.*; asked 5 times\)/),
    });
    expect(seen).toEqual(["false", "running"]);
    expect(await state()).toMatchObject({ status: "running", running: true });
  }, 60_000);
});
