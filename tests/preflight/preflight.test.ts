// The build pre-flight's decision (src/preflight/), without an engine: what is asked from this
// process and from the build's network, how an answer is read, when every build is refused, and
// the run around a refusal on the engine double (the build's ERROR, the cases behind it, cleanup,
// a prebuilt image untouched). The same on real engines, attacked: tests/docker/build-preflight.test.ts.
// Every server here listens on loopback, which no other run's pre-flight asks (but its engine's own
// address and loopback's 2375 where builds share the host's network).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOwned } from "../../src/engine/cleanup.js";
import type { Engine, EngineFacts, ProbeSpec } from "../../src/engine/provider.js";
import { interpret } from "../../src/engine/providers/memory/script.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { answerSettled, askPing } from "../../src/preflight/ask.js";
import { confirmAsks, hostAddress, inProcessAsks } from "../../src/preflight/asks.js";
import { parseConfirmation } from "../../src/preflight/confirm.js";
import { decidePreflight, type Heard, heard, preflightFailed } from "../../src/preflight/decide.js";
import { buildPreflight, IN_PROCESS_ASK_MS } from "../../src/preflight/index.js";
import { writeInventory } from "../helpers/inventory.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

const ENGINE_ANSWER =
  "HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\nContent-Type: text/plain; charset=utf-8\r\nServer: Docker/20.10.24 (linux)\r\n\r\nOK";
const BRIDGE = { mode: "bridge" } as const;
const HOST = { mode: "host", why: "builds share the host's network here" } as const;
const hex = (s: string) => Buffer.from(s, "latin1").toString("hex");

describe("reading an answer", () => {
  it("an engine is an HTTP answer with Api-Version, and says what it is; others are not", () => {
    expect(heard("10.0.0.1:2375", { connected: true, answer: ENGINE_ANSWER })).toEqual({
      address: "10.0.0.1:2375",
      answer: "engine",
      says: "Docker/20.10.24 (linux), API 1.41",
    });
    expect(
      heard("a:1", { connected: true, answer: "HTTP/1.0 301 Moved\r\nLocation: http://x/\r\n\r\n" }),
    ).toEqual({ address: "a:1", answer: "http" });
    expect(heard("a:1", { connected: true, answer: "SSH-2.0-OpenSSH_9.6\r\n" }).answer).toBe("none");
    expect(heard("a:1", { connected: false, answer: ENGINE_ANSWER }).answer).toBe("none");
    // What a server says of itself reaches the report printable and short.
    const odd = heard("a:1", {
      connected: true,
      answer: `HTTP/1.1 200 OK\r\nApi-Version: 1.41\x1b[31m\r\nServer: ${"x".repeat(500)}\r\n\r\n`,
    });
    expect(odd.says).toMatch(/^x{60}, API 1\.41\?\[31m$/);
  });

  it("an answer is settled once it is not HTTP, or once its headers have ended", () => {
    expect(answerSettled("HTT")).toBe(false);
    expect(answerSettled("SSH-2.0")).toBe(true);
    expect(answerSettled("HTTP/1.1 200 OK\r\nApi-Version: 1.41\r\n")).toBe(false);
    expect(answerSettled(ENGINE_ANSWER)).toBe(true);
  });
});

describe("where it asks", () => {
  const reach = {
    targets: [
      { ip: "127.0.0.1", port: 2375 },
      { ip: "::1", port: 2375 },
      { ip: "10.1.0.4", port: 2376 },
      { ip: "172.17.0.1", port: 9000 },
    ],
    ports: [2375, 8080],
  };

  it("on a bridge: never loopback (the build's own), the gateway's ports at this host's address", () => {
    expect(inProcessAsks(reach, BRIDGE, "192.0.2.2")).toEqual([
      { ip: "10.1.0.4", port: 2376 },
      { ip: "172.17.0.1", port: 9000 },
      { ip: "192.0.2.2", port: 2375, atGateway: true },
      { ip: "192.0.2.2", port: 8080, atGateway: true },
    ]);
    // A host with no address off loopback: the gateway's ports have nowhere to be asked from here.
    expect(inProcessAsks(reach, BRIDGE, undefined).every((a) => !a.atGateway)).toBe(true);
  });

  it("on the host's network: the engine's own loopback address and loopback's 2375 too", () => {
    const asks = inProcessAsks(reach, HOST, "192.0.2.2");
    expect(asks).toContainEqual({ ip: "127.0.0.1", port: 2375 });
    expect(asks.filter((a) => a.ip === "127.0.0.1")).toHaveLength(1);
  });

  it("the probe asks what answered like an engine; on a bridge the gateway's ports at its own gateway", () => {
    const engines = [
      { ip: "10.1.0.4", port: 2376 },
      { ip: "192.0.2.2", port: 8080, atGateway: true as const },
    ];
    expect(confirmAsks(engines, BRIDGE)).toEqual({
      targets: [
        { ip: "10.1.0.4", port: 2376 },
        { ip: "192.0.2.2", port: 8080 },
      ],
      ports: [8080],
    });
    expect(confirmAsks(engines, HOST).ports).toEqual([]);
  });

  it("this host's address is an IPv4 one off loopback", () => {
    expect(
      hostAddress({
        lo: [{ address: "127.0.0.1", family: "IPv4", internal: true } as never],
        eth0: [
          { address: "fe80::1", family: "IPv6", internal: false } as never,
          { address: "192.0.2.2", family: "IPv4", internal: false } as never,
        ],
      }),
    ).toBe("192.0.2.2");
    expect(hostAddress({ lo: [{ address: "127.0.0.1", family: "IPv4", internal: true } as never] })).toBe(
      undefined,
    );
  });
});

describe("the decision", () => {
  const none: Heard = { address: "192.0.2.2:22", answer: "none" };
  const engine: Heard = {
    address: "192.0.2.2:2375",
    answer: "engine",
    says: "Docker/20.10.24 (linux), API 1.41",
  };

  it("nothing answers like an engine: every build runs, no probe, and the evidence says what was asked", () => {
    const gate = decidePreflight({ network: BRIDGE, fromTool: [none], unasked: 3 });
    expect(gate.refused).toBeUndefined();
    expect(gate.note).toBeUndefined();
    expect(gate.evidence).toEqual({
      buildNetwork: "the engine's default bridge",
      askedFromThisTool: ["192.0.2.2:22: none"],
      hostListenersNotAsked: 3,
    });
  });

  it("an engine answers from the build's network: every build is an ERROR naming it, what answered, and the host's fix", () => {
    const fromBuild: Heard = { ...engine, address: "172.17.0.1:2375" };
    const gate = decidePreflight({
      network: BRIDGE,
      fromTool: [none, engine],
      confirmation: { asked: [{ ...engine, answer: "none" }, fromBuild] },
    });
    expect(gate.refused?.status).toBe("error");
    expect(gate.refused?.message).toBe(
      "not built: an engine's API answers from the network this build's RUN steps run in (the engine's default bridge network) at 172.17.0.1:2375 (Docker/20.10.24 (linux), API 1.41): a RUN step there controls the engine (it could remove this runner's containers and images, start a privileged container, read other containers' environments) before anything is judged",
    );
    expect(gate.refused?.remediation).toContain("This is the host's configuration, not the pull request's");
    expect(gate.refused?.remediation).toContain("on a unix socket or on 127.0.0.1 only");
    expect(gate.refused?.remediation).toContain("TLS client certificates");
    expect(gate.refused?.remediation).toContain("stop the socket proxy listening at 172.17.0.1:2375");
    expect(gate.refused?.evidence).toMatchObject({
      engineApiAt: ["172.17.0.1:2375"],
      askedFromTheBuildNetwork: ["192.0.2.2:2375: none", "172.17.0.1:2375: engine"],
    });
  });

  it("where builds share the host's network, loopback is no refuge: the fix says so", () => {
    const loop: Heard = { ...engine, address: "127.0.0.1:2375" };
    const gate = decidePreflight({ network: HOST, fromTool: [loop], confirmation: { asked: [loop] } });
    expect(gate.refused?.message).toContain("(the host's own network, loopback included) at 127.0.0.1:2375");
    expect(gate.refused?.remediation).toContain("a TCP port on loopback is reachable from a build too");
    expect(gate.refused?.remediation).not.toContain("bind it to 127.0.0.1");
  });

  it("an engine only this tool reaches: the build runs, and its message and evidence say what answered", () => {
    const gate = decidePreflight({
      network: BRIDGE,
      fromTool: [engine],
      confirmation: { asked: [{ ...engine, answer: "none" }] },
    });
    expect(gate.refused).toBeUndefined();
    expect(gate.note).toBe(
      "the engine's API answers this tool at 192.0.2.2:2375 (Docker/20.10.24 (linux), API 1.41), but not from the build's network (a probe there asked)",
    );
    expect(gate.evidence.engineAnswersOnlyThisTool).toEqual([
      "192.0.2.2:2375 (Docker/20.10.24 (linux), API 1.41)",
    ]);
  });

  it("what the probe could not establish refuses: no build runs on a guess", () => {
    for (const confirmation of [{ error: "the probe image is not on this engine" }, undefined]) {
      const gate = decidePreflight({
        network: BRIDGE,
        fromTool: [engine],
        ...(confirmation ? { confirmation } : {}),
      });
      expect(gate.refused?.status).toBe("error");
      expect(gate.refused?.message).toMatch(
        /^not built: the engine's API answers this tool at 192\.0\.2\.2:2375 .*could not be established \(.+\): no build runs on a guess$/,
      );
      expect(gate.refused?.remediation).toContain("the pre-flight asks from the build's network");
    }
    expect(preflightFailed("boom").refused?.message).toContain("could not be established (boom)");
  });
});

describe("the probe's records", () => {
  it("reads each ask's answer from its hex; a server's bytes can never be a record", () => {
    const forged = `HTTP/1.0 200 OK\r\n\r\nE 6.6.6.6 2375 ${hex(ENGINE_ANSWER)}\nD end\n`;
    const out = [
      "G 172.17.0.1",
      `E 172.17.0.1 2375 ${hex(ENGINE_ANSWER)}`,
      `E 10.0.0.9 8080 ${hex(forged)}`,
      "E 10.0.0.9 9 @@refused",
      `E 10.0.0.9 10 ${hex("@@refused\n")}`,
      "D end",
      "",
    ].join("\n");
    expect(parseConfirmation(out, 0)).toEqual({
      asked: [
        { address: "172.17.0.1:2375", answer: "engine", says: "Docker/20.10.24 (linux), API 1.41" },
        { address: "10.0.0.9:8080", answer: "http" },
        { address: "10.0.0.9:10", answer: "none" },
      ],
    });
  });

  it("a probe that did not run to its end is no evidence", () => {
    expect(parseConfirmation(`G -\nE 1.2.3.4 5 ${hex(ENGINE_ANSWER)}\n`, 0)).toEqual({
      error: "the probe on the build's network did not run to its end (exit code 0)",
    });
    expect("error" in parseConfirmation("G -\nD end\n", 137)).toBe(true);
  });
});

/** A loopback server for one test; closed after the file. */
const servers: Server[] = [];
async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}
afterAll(() => {
  for (const s of servers) s.close();
});

describe("asking from this process", () => {
  let engineLike: number;
  beforeAll(async () => {
    engineLike = await listen(
      createHttpServer((req, res) => {
        res.writeHead(req.url === "/_ping" ? 200 : 404, {
          "Api-Version": "1.41",
          Server: "Docker/20.10.24 (linux)",
        });
        res.end("OK");
      }) as unknown as Server,
    );
  });

  it("an engine's answer, read to its headers' end", async () => {
    const x = await askPing("127.0.0.1", engineLike, 1000);
    expect(heard("a", x)).toMatchObject({ answer: "engine", says: "Docker/20.10.24 (linux), API 1.41" });
  });

  it("a banner that is not HTTP ends the ask at once; a silent listener at the bound; a closed port at once", async () => {
    const banner = await listen(createServer((s) => s.write("SSH-2.0-OpenSSH_9.6\r\n")));
    const silent = await listen(createServer((s) => s.on("error", () => undefined)));
    const closed = createServer();
    const free = await listen(closed);
    await new Promise<void>((ok) => closed.close(() => ok()));
    let t = performance.now();
    expect(await askPing("127.0.0.1", banner, 5000)).toEqual({
      connected: true,
      answer: "SSH-2.0-OpenSSH_9.6\r\n",
    });
    expect(performance.now() - t).toBeLessThan(1000);
    t = performance.now();
    expect(await askPing("127.0.0.1", silent, 300)).toEqual({ connected: true, answer: "" });
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    expect(await askPing("127.0.0.1", free, 1000)).toEqual({ connected: false, answer: "" });
  });

  it("never follows a redirect, and reads at most 2,048 bytes of an answer that does not end", async () => {
    const asked: string[] = [];
    const redirect = await listen(
      createServer((s) =>
        s.on("data", (d) => {
          asked.push(d.toString("latin1").split("\r\n")[0]!);
          s.end(`HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:${engineLike}/_ping\r\n\r\n`);
        }),
      ),
    );
    expect(heard("a", await askPing("127.0.0.1", redirect, 1000)).answer).toBe("http");
    expect(asked).toEqual(["GET /_ping HTTP/1.0"]);
    const endless = await listen(
      createServer((s) => {
        s.on("error", () => undefined);
        s.write(`HTTP/1.1 200 OK\r\nX: ${"y".repeat(100_000)}`);
      }),
    );
    expect((await askPing("127.0.0.1", endless, 2000)).answer).toHaveLength(2048);
  });
});

/** A probe answer as the build network's probe would give it, for `records` ("ip port answer"). */
function probeSays(records: [string, number, string][]) {
  return {
    stdout: ["G -", ...records.map(([ip, port, a]) => `E ${ip} ${port} ${hex(a)}`), "D end", ""].join("\n"),
  };
}

/**
 * The engine double, reached (as its networkApi says) at a loopback engine-like server, its builds
 * on the host's network (so that address is one a build reaches), its pre-flight probe answering
 * `confirm` and every other probe as `sh -c` would.
 */
async function doubleWithExposedApi(confirm: (spec: ProbeSpec) => { stdout: string; exitCode?: number }) {
  const port = await listen(
    createHttpServer((_req, res) =>
      res.writeHead(200, { "Api-Version": "1.41", Server: "Fake/1" }).end("OK"),
    ) as unknown as Server,
  );
  const engine = memoryEngine();
  const facts: EngineFacts = await engine.facts();
  const probes: ProbeSpec[] = [];
  engine.facts = async () => ({ ...facts, buildNetwork: HOST });
  (engine as Engine).networkApi = () => ({ host: "127.0.0.1", port });
  engine.answerProbes((spec) => {
    if (spec.script.name === "da-build-preflight") {
      probes.push(spec);
      const c = confirm(spec);
      return { stdout: c.stdout, stderr: "", exitCode: c.exitCode ?? 0 };
    }
    const p = interpret(["sh", "-c", spec.script.text]);
    return { stdout: p.stdout, stderr: p.stderr, exitCode: p.exit?.code ?? 0 };
  });
  return { engine, port, probes };
}

describe("the pre-flight, end to end on the engine double", () => {
  it("nothing answering like an engine costs no probe, and at most one ask's bound", async () => {
    const engine = memoryEngine();
    let probed = 0;
    engine.answerProbes(() => {
      probed++;
      return { stdout: "", stderr: "", exitCode: 0 };
    });
    // On the host's network, so that a loopback listener is one the build reaches and is asked.
    const facts = await engine.facts();
    engine.facts = async () => ({ ...facts, buildNetwork: HOST });
    const silent = await listen(createServer((s) => s.on("error", () => undefined)));
    const listeners = { any: [], at: [{ ip: "127.0.0.1", port: silent }], unasked: 0 };
    const t = performance.now();
    const gate = await buildPreflight({ engine, owner: "da-0", probeImage: MEMORY_BASE, listeners });
    // All asks at once: a silent listener holds the whole pre-flight no longer than its own bound.
    expect(performance.now() - t).toBeLessThan(IN_PROCESS_ASK_MS + 500);
    expect(gate.evidence.askedFromThisTool).toContain(`127.0.0.1:${silent}: none`);
    expect(gate.refused).toBeUndefined();
    expect(probed).toBe(0);
  });

  it("an engine that answers only this tool: one probe, on the build's network, as nobody; the build may run", async () => {
    const { engine, port, probes } = await doubleWithExposedApi(() =>
      probeSays([["127.0.0.1", 1, "@@refused\n"]]),
    );
    const gate = await buildPreflight({ engine, owner: "da-1", probeImage: MEMORY_BASE });
    expect(gate.refused).toBeUndefined();
    expect(gate.note).toContain(`answers this tool at 127.0.0.1:${port} (Fake/1, API 1.41)`);
    expect(probes).toHaveLength(1);
    expect(probes[0]).toMatchObject({ user: "65534:65534", namespaces: { net: "host" }, capabilities: [] });
    expect(probes[0]!.env.DA_TARGETS).toBe(`127.0.0.1 ${port}`);
  });

  it("refused: the built subject's lifecycle.build is an ERROR, the cases behind it skip, a prebuilt image runs, cleanup runs", async () => {
    const { engine, port } = await doubleWithExposedApi((spec) =>
      probeSays([["127.0.0.1", Number(spec.env.DA_TARGETS!.split(" ")[1]), ENGINE_ANSWER]]),
    );
    const ws = mkdtempSync(path.join(tmpdir(), "da-preflight-"));
    mkdirSync(path.join(ws, "ctx"));
    writeFileSync(path.join(ws, "ctx", "Dockerfile"), `FROM ${MEMORY_BASE}\nRUN touch /built\n`);
    const prebuilt = {
      name: "prebuilt",
      image: MEMORY_BASE,
      command: ["sh", "-c", "echo listening; sleep 300"],
      network: "none",
      readiness: { type: "log", pattern: "listening" },
      startupTimeoutMs: 3000,
      stopTimeoutMs: 1000,
    };
    const built = { ...prebuilt, name: "built", image: undefined, build: { context: "ctx" } };
    const report = await runPipeline({
      workspace: ws,
      inventoryPath: writeInventory([built, prebuilt], { suites: { lifecycle: { required: [] } } }),
      suites: ["lifecycle", "containment"],
      probeImage: MEMORY_BASE,
      log: silentLogger,
      signal: new AbortController().signal,
      engine,
    });
    const of = (subject: string) => report.cases.filter((c) => c.subject === subject);
    const build = of("built").find((c) => c.id === "lifecycle.build")!;
    expect(build.status).toBe("error");
    expect(build.message).toContain(`at 127.0.0.1:${port} (Docker/20.10.24 (linux), API 1.41)`);
    for (const c of of("built").filter((x) => x.id !== "lifecycle.build" && x.id !== "lifecycle.cleanup"))
      expect(c.status, c.id).toBe("skip");
    expect(of("built").find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    // The prebuilt image ran nothing of the pull request's before it is judged: it is judged as ever.
    expect(of("prebuilt").find((c) => c.id === "lifecycle.build")).toMatchObject({ status: "pass" });
    expect(of("prebuilt").find((c) => c.id === "lifecycle.ready")?.status).toBe("pass");
    expect(report.verdict).toBe("error");
    expect(report.cleanup?.completed).toBe(true);
    const left = await listOwned(engine, { owner: report.runId });
    expect([...left.containers, ...left.images]).toEqual([]);
  });

  it("a probe that cannot run refuses every build", async () => {
    const { engine } = await doubleWithExposedApi(() => ({ stdout: "", exitCode: 1 }));
    const gate = await buildPreflight({ engine, owner: "da-2", probeImage: MEMORY_BASE });
    expect(gate.refused?.message).toContain("did not run to its end (exit code 1)");
    const missing = await buildPreflight({ engine, owner: "da-3", probeImage: "registry.invalid/probe:1" });
    expect(missing.refused?.message).toMatch(/could not be established \(.*registry\.invalid\/probe:1/);
  });
});
