// Podman creates containers one at a time behind a lock; a stack's 50 probes sent together each
// waited for all the others and passed their own call timeout. Creates go a few at a time there,
// through Podman's own create (src/engine/providers/podman/libpod.ts).
import { Readable } from "node:stream";
import type Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { DIALECTS } from "../helpers/engine.js";

function engineOf(headers: Record<string, string>) {
  let inFlight = 0;
  let most = 0;
  let n = 0;
  const docker = {
    modem: {
      // Podman's own create (POST /libpod/containers/create) answers { Id }; GET /_ping names the
      // engine: Podman in Libpod-API-Version.
      dial: (opts: { path?: string }, done: (err: Error | null, res?: unknown) => void) => {
        if (opts.path?.endsWith("/libpod/containers/create"))
          return void docker.createContainer().then(
            (c) => done(null, { Id: c.id }),
            (err: Error) => done(err),
          );
        done(null, Object.assign(Readable.from(["OK"]), { headers: { "api-version": "1.41", ...headers } }));
      },
    },
    createContainer: async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return { id: `c${n++}` };
    },
  } as { modem: unknown; createContainer: () => Promise<{ id: string }> };
  return {
    engine: new DockerEngine(docker as unknown as Docker, undefined, undefined, DIALECTS),
    most: () => most,
  };
}

describe("containers created at once", () => {
  it("Podman: at most 4 creates in flight, and every one of 50 is created", async () => {
    const { engine, most } = engineOf({ "libpod-api-version": "4.3.1" });
    const ids = await Promise.all(Array.from({ length: 50 }, () => engine.createContainer({ Image: "x" })));
    expect(new Set(ids).size).toBe(50);
    expect(most()).toBe(4);
  });

  it("a create that fails frees its slot for the next", async () => {
    const { engine } = engineOf({ "libpod-api-version": "4.3.1" });
    let calls = 0;
    (engine.docker as unknown as { createContainer: () => Promise<unknown> }).createContainer = async () => {
      if (calls++ < 4) throw new Error("no space left on device");
      return { id: "ok" };
    };
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => engine.createContainer({ Image: "x" })),
    );
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(4);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
  });

  it("Docker: not limited", async () => {
    const { engine, most } = engineOf({ server: "Docker/20.10.24+dfsg1 (linux)" });
    await Promise.all(Array.from({ length: 20 }, () => engine.createContainer({ Image: "x" })));
    expect(most()).toBe(20);
  });
});
