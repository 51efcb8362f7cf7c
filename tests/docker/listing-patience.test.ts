// A listing on a loaded engine: Podman answers one only after taking each container's lock, so it
// can take minutes while the engine is alive and well. The listing waits as long as the engine
// keeps answering its ping (a slow verdict, not an ERROR), and ends as a time-out once it does not.
// The engine is reached through the fault proxy, with a base allowance of 1.5 s instead of 30 s.
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { DIALECTS, hasEngine } from "../helpers/engine.js";
import { EngineProxy } from "../helpers/engine-proxy.js";

const upstream = (process.env.DOCKER_HOST ?? "unix:///var/run/docker.sock").replace(/^unix:\/\//, "");
const BASE_MS = 1500;

describe.skipIf(!hasEngine)("a listing the engine answers late", () => {
  let proxy: EngineProxy;
  let engine: DockerEngine;

  beforeAll(async () => {
    proxy = await EngineProxy.start(upstream);
    engine = new DockerEngine(new Docker({ socketPath: proxy.socketPath }), BASE_MS, undefined, DIALECTS);
    await engine.ping();
  });
  afterAll(() => proxy.close());

  it("waits past the base allowance while the engine answers its ping, and returns the listing", async () => {
    proxy.clear();
    proxy.add({
      method: "GET",
      path: /^\/containers\/json/,
      times: 1,
      fault: { kind: "latency", ms: 4 * BASE_MS },
    });
    const sent = Date.now();
    const list = await engine.listContainers({ labels: [{ key: "org.docker-acceptance.none", value: "1" }] });
    expect(list).toEqual([]);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(4 * BASE_MS);
    // The engine was asked whether it was alive while the listing waited.
    expect(proxy.calls.filter((c) => c.path.startsWith("/_ping")).length).toBeGreaterThan(0);
  });

  it("ends as a time-out, naming the silence, once the engine stops answering its ping too", async () => {
    proxy.clear();
    proxy.add({ method: "GET", path: /^\/images\/json/, fault: { kind: "stall", forward: false } });
    proxy.add({ method: "GET", path: /^\/_ping/, fault: { kind: "stall", forward: false } });
    const sent = Date.now();
    await expect(
      engine.listImages({ labels: [{ key: "org.docker-acceptance.none", value: "1" }] }),
    ).rejects.toThrow(
      /^list images: no answer within \d+ ms, and the engine stopped answering meanwhile \(ping: no answer/,
    );
    // One base allowance before the ping is sent, the ping's own 10 s (plus the load's share).
    expect(Date.now() - sent).toBeLessThan(30_000);
    proxy.clear();
  }, 60_000);
});
