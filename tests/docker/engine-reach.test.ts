// The engine's API over TCP, reachable from inside the subject's network: the run reaches its
// engine at tcp://127.0.0.1:<port> through a forwarder to the engine's socket (as a runner whose
// DOCKER_HOST names a TCP daemon, or a Docker-in-Docker service, does). Bound to every address,
// the forwarder answers at the subject's gateway: whatever runs in the subject controls the engine,
// and containment.network FAILs naming the address. Bound to loopback only, nothing in the subject's
// network reaches it, and the case passes saying what it asked. The hardened fixture either way.
import { createServer, connect as netConnect, type Server } from "node:net";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { DIALECTS, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

const SOCKET = (process.env.DOCKER_HOST ?? "unix:///var/run/docker.sock").replace(/^unix:\/\//, "");

/** A TCP listener on `address` that forwards every connection to the engine's unix socket. */
async function forwarder(address: string): Promise<{ server: Server; port: number }> {
  const server = createServer((client) => {
    const engine = netConnect(SOCKET);
    client.pipe(engine).pipe(client);
    const end = () => {
      client.destroy();
      engine.destroy();
    };
    client.on("error", end);
    engine.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const port = (server.address() as { port: number }).port;
  return { server, port };
}

async function networkCase(bind: string) {
  const { server, port } = await forwarder(bind);
  servers.push(server);
  const engine = new DockerEngine(
    new Docker({ host: "127.0.0.1", port, protocol: "http" }),
    undefined,
    undefined,
    DIALECTS,
  );
  const report = await runPipeline({
    workspace: REPO_ROOT,
    inventoryPath: writeInventory([fixtureSubject("hardened")], {
      suites: { containment: { required: ["containment.network"] } },
    }),
    suites: ["containment"],
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
    engine,
  });
  owners.push(report.runId);
  return { report, port, c: report.cases.find((x) => x.id === "containment.network")! };
}

const servers: Server[] = [];
const owners: string[] = [];

describe.skipIf(!hasEngine || !SOCKET.startsWith("/"))(
  "the engine's API from inside the subject's network",
  () => {
    afterAll(async () => {
      for (const owner of owners) await cleanupOwned(newEngine(), { owner }, { trigger: "test" });
      for (const s of servers) s.close();
    });

    it("on every address: answers at the subject's gateway, and containment.network fails naming it", async () => {
      const { report, port, c } = await networkCase("0.0.0.0");
      expect(c.status, c.message).toBe("fail");
      expect(c.message).toMatch(
        new RegExp(
          `^the engine's API answers from inside the subject's network at \\d+\\.\\d+\\.\\d+\\.\\d+:${port}: whatever runs in it controls the engine$`,
        ),
      );
      expect(c.remediation).toMatch(/Never let the engine's API listen where a container can reach it/);
      expect(report.cleanup?.completed).toBe(true);
    }, 180_000);

    it("on loopback only: not reachable from the subject's network, and the pass says what it asked", async () => {
      const { port, c } = await networkCase("127.0.0.1");
      expect(c.status, c.message).toBe("pass");
      expect(c.message).toMatch(
        new RegExp(
          `the engine's API does not answer from its network \\(asked 127\\.0\\.0\\.1:${port}, \\d+\\.\\d+\\.\\d+\\.\\d+:2375, \\d+\\.\\d+\\.\\d+\\.\\d+:${port}\\)$`,
        ),
      );
    }, 180_000);
  },
);
