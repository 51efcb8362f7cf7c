// The engine's API over TCP, reachable from inside the subject's network. Either the run reaches
// its engine at tcp://127.0.0.1:<port> through a forwarder to the engine's socket (as a runner whose
// DOCKER_HOST names a TCP daemon, or a Docker-in-Docker service, does), or the run uses the socket
// and the forwarder is someone else's (a socket proxy on a port of its choosing, on every address or
// on one of the host's). Reachable, whatever runs in the subject controls the engine, and
// containment.network FAILs naming the address. Bound to loopback only, nothing in the subject's
// network reaches it, and the case passes saying what it asked. The hardened fixture either way.
//
// A forwarder the host's containers can reach is an engine every test's subject and build could
// reach: it serves only this test's own process (the tool's engine calls and its pre-flight's asks)
// and the subjects of its own test's run (tests/helpers/engine-forwarder.ts), and hangs up on any
// other, so the other test files running meanwhile see no engine. Not the run's probes either: the
// build pre-flight's confirming probe (src/preflight/) would otherwise refuse the build whose
// subject this test needs running, as it must on a real host.
import type { Server } from "node:net";
import { networkInterfaces } from "node:os";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { newRunId } from "../../src/engine/ownership.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { DIALECTS, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { engineForwarder, ENGINE_SOCKET as SOCKET } from "../helpers/engine-forwarder.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

/**
 * A TCP listener on `address` that forwards a connection to the engine's unix socket when it comes
 * from this process or from a subject of `owner`'s run, and hangs up on any other.
 */
async function forwarder(address: string, owner: string): Promise<{ server: Server; port: number }> {
  return engineForwarder(address, { owner, roles: ["subject"] });
}

/** The run, with the forwarder on `bind`; through it (`via: "tcp"`) or through the socket. */
async function networkCase(bind: string, via: "tcp" | "socket" = "tcp") {
  const runId = newRunId();
  const { server, port } = await forwarder(bind, runId);
  servers.push(server);
  const engine =
    via === "tcp"
      ? new DockerEngine(
          new Docker({ host: "127.0.0.1", port, protocol: "http" }),
          undefined,
          undefined,
          DIALECTS,
        )
      : newEngine();
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
    runId,
  });
  owners.push(report.runId);
  return { report, port, c: report.cases.find((x) => x.id === "containment.network")! };
}

/** An IPv4 address of this host other than loopback and the engines' bridges (eth0's, on a runner). */
const LAN = Object.entries(networkInterfaces())
  .filter(([name]) => !/^(docker|cni-|podman|br-|veth)/.test(name))
  .flatMap(([, list]) => list ?? [])
  .find((a) => a.family === "IPv4" && !a.internal)?.address;

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

    it("a socket proxy on a port of its own, on every address: containment.network fails naming it at the gateway", async () => {
      // The run itself uses the socket: no address of its engine says where to look.
      const { port, c } = await networkCase("0.0.0.0", "socket");
      expect(c.status, c.message).toBe("fail");
      expect(c.message).toMatch(
        new RegExp(
          `^the engine's API answers from inside the subject's network at \\d+\\.\\d+\\.\\d+\\.\\d+:${port}:`,
        ),
      );
    }, 180_000);

    it.skipIf(!LAN)(
      "a socket proxy bound to one of the host's addresses: reached there, and named",
      async () => {
        const { port, c } = await networkCase(LAN!, "socket");
        expect(c.status, c.message).toBe("fail");
        expect(c.message).toContain(`answers from inside the subject's network at ${LAN}:${port}:`);
      },
      180_000,
    );

    it("on loopback only: not reachable from the subject's network, and the pass says what it asked", async () => {
      const { port, c } = await networkCase("127.0.0.1");
      expect(c.status, c.message).toBe("pass");
      expect(c.message).toMatch(
        new RegExp(
          `the engine's API does not answer from its network \\(asked 127\\.0\\.0\\.1:${port}, [^)]*\\b\\d+\\.\\d+\\.\\d+\\.\\d+:2375\\b[^)]*\\)$`,
        ),
      );
    }, 180_000);
  },
);
