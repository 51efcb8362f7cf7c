// The Docker API engine as createEngine() gives it (src/engine/providers/docker/deferred.ts): its
// first call, the ping, leaves before the engine's code is loaded and is adopted by it as its own
// first call. Against a stand-in for the Engine API on a socket of the test's own: one ping on the
// wire, its answer naming the engine (no further call for the facts), its deadline counted from
// its sending, a refusal worded as the engine words it; other calls load the engine and go through it.

import { rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import type { Endpoint } from "../../src/engine/provider.js";
import { dockerDialect } from "../../src/engine/providers/docker/dialect.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { dockerApiEngine } from "../../src/engine/providers/docker/index.js";
import { podmanDialect } from "../../src/engine/providers/podman/index.js";
import { EngineError } from "../../src/errors.js";

const DIALECTS = [dockerDialect, podmanDialect];
const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A stand-in engine: answers /_ping as Docker 20.10 does (or never, `silent`), lists nothing. */
async function standIn(opts: { silent?: boolean } = {}) {
  const socket = path.join(tmpdir(), `da-deferred-${process.pid}-${servers.length}.sock`);
  rmSync(socket, { force: true });
  const calls: string[] = [];
  let closed = 0;
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${(req.url ?? "").replace(/^\/v[\d.]+/, "")}`);
    req.on("close", () => closed++);
    if (opts.silent) return;
    const headers = { "api-version": "1.41", server: "Docker/20.10.24 (linux)", ostype: "linux" };
    if (req.url === "/_ping") {
      res.writeHead(200, { ...headers, "content-type": "text/plain" });
      res.end("OK");
    } else {
      res.writeHead(200, { ...headers, "content-type": "application/json" });
      res.end("[]");
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  const endpoint: Endpoint = { provider: "docker", host: `unix://${socket}`, from: "named" } as Endpoint;
  return { socket, endpoint, calls, closed: () => closed };
}

describe("the Docker API engine, loaded while its first call is answered", () => {
  it("sends one ping, whose headers name the engine: its facts need no further call", async () => {
    const engine = await standIn();
    const e = dockerApiEngine(engine.endpoint, undefined, DIALECTS);
    await e.ping();
    expect(engine.calls).toEqual(["GET /_ping"]);
    expect((await e.facts()).kind).toBe("docker");
    expect(engine.calls).toEqual(["GET /_ping"]);
  });

  it("any other first call loads the engine and is sent by it", async () => {
    const engine = await standIn();
    const e = dockerApiEngine(engine.endpoint, undefined, DIALECTS);
    expect(await e.listContainers({ owner: "da-x" })).toEqual([]);
    expect(engine.calls[0]).toMatch(/^GET \/containers\/json/);
  });

  it("a ping that finds no engine fails as the engine's own ping fails", async () => {
    const socket = path.join(tmpdir(), `da-deferred-none-${process.pid}.sock`);
    const e = dockerApiEngine(
      { provider: "docker", host: `unix://${socket}`, from: "named" } as Endpoint,
      undefined,
      DIALECTS,
    );
    const direct = new DockerEngine(new Docker({ socketPath: socket }), undefined, undefined, DIALECTS);
    const [a, b] = await Promise.allSettled([e.ping(), direct.ping()]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("rejected");
    const [ea, eb] = [(a as PromiseRejectedResult).reason, (b as PromiseRejectedResult).reason];
    expect(ea).toBeInstanceOf(EngineError);
    expect({ kind: ea.kind, message: ea.message }).toEqual({ kind: eb.kind, message: eb.message });
  });

  it("a ping left unanswered times out at its deadline, counted from its sending, and is abandoned", async () => {
    const engine = await standIn({ silent: true });
    const e = dockerApiEngine(engine.endpoint, undefined, DIALECTS);
    const t0 = Date.now();
    await expect(e.ping(300)).rejects.toThrow(/ping: no answer within/);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(engine.calls).toEqual(["GET /_ping"]);
    await expect.poll(() => engine.closed()).toBe(1);
  });

  it("the engine's measured pace is the ping's own round trip, however long the engine took to load", async () => {
    const engine = await standIn();
    const { DeferredEngine } = await import("../../src/engine/providers/docker/deferred.js");
    const { dockerEngineOver } = await import("../../src/engine/providers/docker/engine.js");
    const modem = new Docker({ socketPath: engine.socket }).modem;
    let loaded: DockerEngine | undefined;
    const e = new DeferredEngine(modem, async (first) => {
      await new Promise((resolve) => setTimeout(resolve, 400)); // a slow load, answered long before
      loaded = dockerEngineOver(modem, undefined, DIALECTS, first);
      return loaded;
    });
    await e.ping();
    expect(engine.calls).toEqual(["GET /_ping"]);
    expect(loaded!.load.perCallMs).toBeLessThan(300);
  });

  it("says where the API listens, and settles, without loading the engine", async () => {
    let loads = 0;
    const { DeferredEngine } = await import("../../src/engine/providers/docker/deferred.js");
    const modem = new Docker({ host: "10.0.0.1", port: 2376, protocol: "http" }).modem;
    const e = new DeferredEngine(modem, async () => {
      loads++;
      throw new Error("not loaded");
    });
    expect(e.networkApi()).toEqual({ host: "10.0.0.1", port: 2376 });
    await e.settle(10);
    expect(loads).toBe(0);
    const unix = dockerApiEngine(
      { provider: "docker", host: "unix:///x.sock", from: "named" } as Endpoint,
      undefined,
      DIALECTS,
    );
    expect(unix.networkApi?.()).toBeUndefined();
  });
});
