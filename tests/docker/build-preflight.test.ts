// Issue #24, harm to the runner: the pull request writes the Dockerfile, so its RUN steps run
// during the build, with network, before anything is judged. The attacking fixture
// (acceptance/fixtures/adversarial/inputs/engine-from-build/) lists the engine's containers and
// creates a marker container through every address it is given and its gateway. Where an engine's
// API answers on the build's network (a socket proxy on every address, or on one of the host's),
// the run's pre-flight refuses every build: lifecycle.build is an ERROR naming the address, nothing
// of the pull request is built or run (no marker, no image), the report is written and nothing
// owned is left. Bound to loopback only, a build on a bridge reaches nothing and builds as ever.
//
// Each forwarder is an engine every test running meanwhile could reach: it serves only this
// test's process (the tool's own asks), its run's probe containers (the pre-flight's confirming
// probe) and a request carrying its run's token (the attacking build, handed the token), and hangs
// up on anyone else (tests/helpers/engine-forwarder.ts): other test files' pre-flights hear
// nothing like an engine from it, and build as ever.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { LIFECYCLE_CASES } from "../../src/cases/index.js";
import { cleanupOwned, listOwned } from "../../src/engine/cleanup.js";
import { newRunId } from "../../src/engine/ownership.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { hostAddress } from "../../src/preflight/asks.js";
import { verifyBundle, writeBundle } from "../../src/report/bundle.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/model.js";
import { expectedOn } from "../helpers/differences.js";
import { BASE_IMAGE, DIALECTS, ENGINE_KIND, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { ENGINE_SOCKET, engineForwarder } from "../helpers/engine-forwarder.js";
import { REPO_ROOT, writeInventory } from "../helpers/inventory.js";

const FIXTURE = "acceptance/fixtures/adversarial/inputs/engine-from-build";
const docker = new Docker({ socketPath: ENGINE_SOCKET });

/** An IPv4 address of this host off loopback (eth0's, on a runner): where a bound proxy listens. */
const LAN = hostAddress();

const servers: Server[] = [];
const owners: string[] = [];
const markers: string[] = [];

interface Attack {
  /** Where the forwarder listens. */
  bind: string;
  /** Which of the run's containers it serves (none: only this process, as a firewall would). */
  roles: string[];
  /** Whether the attacking build is handed the token the forwarder serves. */
  token: boolean;
  /** How the run reaches its engine: the socket, or through the forwarder. */
  via: "socket" | "tcp";
}

/** The attacking subject through one run with a forwarder as `attack` says; its report, bundled. */
async function attackRun(attack: Attack) {
  const runId = newRunId();
  const token = randomBytes(12).toString("hex");
  const fwd = await engineForwarder(attack.bind, {
    owner: runId,
    roles: attack.roles,
    ...(attack.token ? { token } : {}),
  });
  servers.push(fwd.server);
  const marker = `da-pf-marker-${randomBytes(6).toString("hex")}`;
  markers.push(marker);
  const at = attack.bind === "0.0.0.0" ? (LAN ?? "127.0.0.1") : attack.bind;
  const engine =
    attack.via === "tcp"
      ? new DockerEngine(
          new Docker({ host: "127.0.0.1", port: fwd.port, protocol: "http" }),
          undefined,
          undefined,
          DIALECTS,
        )
      : newEngine();
  const subject = {
    name: "engine-from-build",
    build: {
      context: FIXTURE,
      args: {
        BASE_IMAGE,
        ENGINE_AT: `${at}:${fwd.port}`,
        MARKER: marker,
        ...(attack.token ? { TOKEN: token } : {}),
      },
    },
    port: 8080,
    limits: { memory: "64m", pids: 64, cpus: 0.5 },
    init: true,
    startupTimeoutMs: 15_000,
    stopTimeoutMs: 3_000,
  };
  const report = await runPipeline({
    workspace: REPO_ROOT,
    inventoryPath: writeInventory([subject], { suites: { lifecycle: { required: [...LIFECYCLE_CASES] } } }),
    suites: ["lifecycle"],
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
    engine,
    runId,
  });
  owners.push(runId);
  // Closed with its run: a forwarder left listening would be asked by the next run's pre-flight.
  fwd.server.close();
  const out = path.join(mkdtempSync(path.join(tmpdir(), "da-preflight-")), "bundle");
  await writeBundle(out, report, { markdown: renderMarkdown(report, { target: "file" }) });
  const build = report.cases.find((c) => c.id === "lifecycle.build")!;
  return { report, build, port: fwd.port, at, marker, out, served: fwd.served, log: fwd.log };
}

/** The containers named `marker`: the attack's proof that a RUN step drove the engine. */
async function markerContainers(marker: string): Promise<string[]> {
  const list = await docker.listContainers({ all: true, filters: { name: [marker] } });
  return list.filter((c) => c.Names.some((n) => n.replace(/^\//, "") === marker)).map((c) => c.Id);
}

/** The build never ran: no marker, nothing of the run's left (no image), the bundle is sealed. */
async function expectNothingBuilt(r: Awaited<ReturnType<typeof attackRun>>): Promise<void> {
  expect(await markerContainers(r.marker)).toEqual([]);
  expect(r.report.cleanup?.completed, JSON.stringify(r.report.cleanup)).toBe(true);
  expect(await listOwned(newEngine(), { owner: r.report.runId })).toEqual({ containers: [], images: [] });
  expect(existsSync(path.join(r.out, "report.json"))).toBe(true);
  // Sealed and whole: every check holds but completeness (the cases behind the build were skipped).
  const verified = await verifyBundle(r.out);
  const failed = verified.checks.filter((c) => c.status === "fail").map((c) => c.check);
  expect(failed, JSON.stringify(verified.checks)).toEqual(["completeness"]);
}

/** Every lifecycle case after the build is blocked behind it; the cleanup still ran and passed. */
function expectBlockedBehindBuild(report: Report): void {
  for (const c of report.cases.filter((x) => x.id !== "lifecycle.build" && x.id !== "lifecycle.cleanup"))
    expect(c, c.id).toMatchObject({ status: "skip", message: "not run: lifecycle.build did not pass" });
  expect(report.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
  expect(report.verdict).toBe("error");
}

describe.skipIf(!hasEngine || !ENGINE_SOCKET.startsWith("/"))(
  "a build's RUN step that drives the engine (issue #24): refused before it runs",
  () => {
    afterAll(async () => {
      for (const m of markers)
        for (const id of await markerContainers(m)) await docker.getContainer(id).remove({ force: true });
      for (const owner of owners) await cleanupOwned(newEngine(), { owner }, { trigger: "test" });
      for (const s of servers) s.close();
    });

    it("a socket proxy on every address: lifecycle.build is an ERROR naming it, and the build never ran", async () => {
      const r = await attackRun({ bind: "0.0.0.0", roles: ["probe"], token: true, via: "socket" });
      expect(r.build.status, `${r.build.message}; forwarder: ${r.log.join("; ")}`).toBe("error");
      expect(r.build.message).toMatch(
        new RegExp(
          `^not built: an engine's API answers from the network this build's RUN steps run in .* at [\\d.]+:${r.port} \\(`,
        ),
      );
      expect(r.build.message).toContain("API 1.");
      expect(r.build.remediation).toMatch(/unix socket/);
      expect(r.build.remediation).toContain(`stop the socket proxy listening at`);
      expect(r.build.remediation).toContain("not the pull request's");
      expectBlockedBehindBuild(r.report);
      await expectNothingBuilt(r);
      // The forwarder heard the tool and the run's confirming probe, never the build.
      expect(r.served).toContain("container");
      expect(r.served).not.toContain("token");
    }, 180_000);

    it.skipIf(!LAN)(
      "a socket proxy bound to one of the host's addresses: refused, naming that address",
      async () => {
        const r = await attackRun({ bind: LAN!, roles: ["probe"], token: true, via: "socket" });
        expect(r.build.status, `${r.build.message}; forwarder: ${r.log.join("; ")}`).toBe("error");
        expect(r.build.message).toContain(` at ${LAN}:${r.port} (`);
        expectBlockedBehindBuild(r.report);
        await expectNothingBuilt(r);
      },
      180_000,
    );

    it("the run's engine on a loopback TCP address: a build on a bridge cannot reach it and builds as ever; one on the host's network is refused", async () => {
      const r = await attackRun({ bind: "127.0.0.1", roles: ["probe"], token: true, via: "tcp" });
      const expected = expectedOn(ENGINE_KIND, "engine-from-build-loopback", "lifecycle.build", "pass");
      expect(r.build.status, `${r.build.message}; forwarder: ${r.log.join("; ")}`).toBe(expected);
      if (expected === "pass") {
        // Nothing answered like an engine where the build runs: no probe was needed, and the
        // attack's own asks reached only the build's loopback.
        expect(r.build.evidence.preflight).toMatchObject({ buildNetwork: "the engine's default bridge" });
        expect(
          r.report.cases.every((c) => c.status === "pass"),
          JSON.stringify(r.report.cases),
        ).toBe(true);
        expect(await markerContainers(r.marker)).toEqual([]);
        expect(r.served).not.toContain("token");
      } else {
        expect(r.build.message).toContain(
          `the host's own network, loopback included) at 127.0.0.1:${r.port} (`,
        );
        expect(r.build.remediation).toContain("a TCP port on loopback is reachable from a build too");
        await expectNothingBuilt(r);
      }
    }, 180_000);

    it("an engine only this tool reaches (the proxy refuses containers, as a firewall would): the build runs, and says what answered", async () => {
      const r = await attackRun({ bind: "0.0.0.0", roles: [], token: false, via: "socket" });
      expect(r.build.status, `${r.build.message}; forwarder: ${r.log.join("; ")}`).toBe("pass");
      expect(r.build.message).toMatch(
        new RegExp(
          `; the engine's API answers this tool at [\\d.]+:${r.port} \\(.*\\), but not from the build's network`,
        ),
      );
      expect(r.build.evidence.preflight).toMatchObject({
        engineAnswersOnlyThisTool: [expect.stringContaining(`:${r.port} (`)],
      });
      expect(await markerContainers(r.marker)).toEqual([]);
      expect(r.served).toEqual(expect.arrayContaining(["process"]));
      expect(r.served).not.toContain("container");
    }, 180_000);
  },
);
