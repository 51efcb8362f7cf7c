// Each check kind on its own (src/checks/kinds/): its messages, its check from the host where a
// unit test can run one, and its network-namespace twin against a fake engine that records the
// probe it was asked to run and answers as the probe's script would.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckTarget } from "../../src/checks/kind.js";
import { delayKind } from "../../src/checks/kinds/delay.js";
import { healthcheckKind } from "../../src/checks/kinds/healthcheck.js";
import { httpKind } from "../../src/checks/kinds/http.js";
import { logKind } from "../../src/checks/kinds/log.js";
import { tcpKind } from "../../src/checks/kinds/tcp.js";
import { probeKind, probeSchema, readinessKind, readinessSchema } from "../../src/checks/registry.js";
import type { Engine, ProbeSpec } from "../../src/engine/provider.js";
import { ConfigError } from "../../src/errors.js";
import { parseInventory } from "../../src/inventory/validate.js";

interface Fake {
  probes: ProbeSpec[];
  health: ({ status: string; lastOutput?: string } | undefined)[];
  log: string;
  answer: (spec: ProbeSpec) => string;
}

function target(over: Partial<CheckTarget> & { fake?: Partial<Fake> } = {}): { t: CheckTarget; fake: Fake } {
  const fake: Fake = { probes: [], health: [], log: "", answer: () => "", ...over.fake };
  const engine = {
    probe: async (spec: ProbeSpec) => {
      fake.probes.push(spec);
      return { stdout: fake.answer(spec), stderr: "", exitCode: 0 };
    },
    inspect: async () => ({
      state: { health: fake.health.length > 1 ? fake.health.shift() : fake.health[0] },
    }),
    logs: async () => ({ stdout: fake.log, stderr: "" }),
  } as unknown as Engine;
  const netns = { engine, owner: "da-0", probeImage: "probe:1", containerId: "c1", port: 8080 };
  const t: CheckTarget = {
    engine,
    signal: AbortSignal.timeout(10_000),
    containerId: "c1",
    port: 8080,
    offline: false,
    netns,
    deadlineMs: 2000,
    ...over,
  };
  return { t, fake };
}

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

describe("http", () => {
  it("waits from the host until the path answers the status, and says what it last saw", async () => {
    let n = 0;
    server = createServer((req, res) => {
      res.statusCode = req.url === "/ready" && ++n >= 3 ? 204 : 503;
      res.end("body of the answer");
    });
    await new Promise<void>((ok) => server!.listen(0, "127.0.0.1", ok));
    const hostPort = (server.address() as AddressInfo).port;
    const r = readinessSchema.parse({ type: "http", path: "/ready", expectStatus: 204 });
    const out = await readinessKind(r).wait(r, target({ hostPort }).t);
    expect(out).toMatchObject({ ready: true, via: `127.0.0.1:${hostPort}`, last: "status 204" });
    expect(out.attempts).toBe(3);
    const p = probeSchema.parse({ path: "/other", bodyContains: "answer" });
    const [held] = await probeKind(p).checkAll([p], target({ hostPort }).t);
    expect(held).toMatchObject({ name: "GET /other", ok: false, expected: '200 with "answer"', got: "503" });
  });

  it("offline: one probe container polls the path; every probe is asked in one more", async () => {
    const { t, fake } = target({
      offline: true,
      fake: {
        answer: (s) =>
          s.env.DA_PATH
            ? "@@ready\n"
            : "@@begin 0\nHTTP/1.0 200 OK\r\nX: y\r\n\r\nhello there\n@@end 0\n@@begin 1\n\n@@end 1\n",
      },
    });
    const r = readinessSchema.parse({ type: "http", path: "/h" });
    expect(await readinessKind(r).wait(r, t)).toEqual({
      ready: true,
      attempts: 1,
      via: "probe in the subject's network namespace",
    });
    expect(fake.probes[0]!.env).toMatchObject({
      DA_PATH: "/h",
      DA_STATUS: "200",
      DA_DEADLINE: "2",
      DA_PORT: "8080",
    });
    expect(fake.probes[0]!.namespaces).toEqual({ net: "container:c1" });
    const ps = [
      probeSchema.parse({ path: "/", bodyContains: "hello" }),
      probeSchema.parse({ path: "/gone" }),
    ];
    const results = await probeKind(ps[0]!).checkAll(ps, t);
    expect(fake.probes).toHaveLength(2);
    expect(fake.probes[1]!.env.DA_REQUESTS).toBe("GET /\nGET /gone");
    expect(results.map((x) => [x.ok, x.got])).toEqual([
      [true, "200"],
      [false, "no answer"],
    ]);
  });

  it("describes itself and adds the health path to the evidence", () => {
    const r = readinessSchema.parse({ type: "http" });
    expect(httpKind.readiness!.describe(r as never, 80)).toBe("GET /health answers 200");
    expect(readinessKind(r).evidence!(r)).toEqual({ healthPath: "/health" });
    expect(readinessKind(r).asks).toBe("http");
  });
});

describe("an HTTP path from the inventory goes on the request line as written, or is refused at load", () => {
  it("a space, a line break, a non-ASCII character or a bare % in a readiness path, a probe path or healthPath: the field and the encoding", () => {
    const err = (() => {
      try {
        parseInventory(
          "inventory.json",
          JSON.stringify({
            schemaVersion: 1,
            subjects: [
              { name: "a", image: "x", healthPath: "/a b" },
              { name: "b", image: "x", readiness: { type: "http", path: "/h\r\nX: y" } },
              {
                name: "c",
                image: "x",
                probes: [{ path: "/ü" }, { path: "/100%" }, { path: "/ok%20x?q=1&r=%2F" }],
              },
            ],
          }),
        );
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`)).toEqual([
      'subjects[0].healthPath: is not a request path: " " cannot go on an HTTP request line as it is (fix: percent-encode it (%20))',
      'subjects[1].readiness.path: is not a request path: "\\r" cannot go on an HTTP request line as it is (fix: percent-encode it (%0D))',
      'subjects[2].probes[0].path: is not a request path: "ü" cannot go on an HTTP request line as it is (fix: percent-encode it (%C3%BC))',
      'subjects[2].probes[1].path: is not a request path: a "%" must start an escape of two hex digits (fix: write a literal "%" as %25)',
    ]);
  });

  it("offline, each probe's path is sent as written (no decoding that could throw on an escape)", async () => {
    const { t, fake } = target({ offline: true, fake: { answer: () => "" } });
    const p = probeSchema.parse({ path: "/x%E0%A4?y=%25" });
    await httpKind.probe!.checkAll([p as never], t);
    expect(fake.probes[0]!.env?.DA_REQUESTS).toBe("GET /x%E0%A4?y=%25");
  });
});

describe("tcp", () => {
  it("offline: waits with send and expect in the environment; a probe reads one exchange", async () => {
    const { t, fake } = target({
      offline: true,
      fake: { answer: (s) => (s.env.DA_DEADLINE ? "@@timeout\n" : "@@begin 0\n+PONG\r\n@@end 0\n") },
    });
    const r = readinessSchema.parse({ type: "tcp", send: "PING\r\n", expect: "+PONG" });
    expect((await readinessKind(r).wait(r, t)).ready).toBe(false);
    expect(fake.probes[0]!.env).toMatchObject({ DA_SEND: "PING\r\n", DA_EXPECT: "+PONG" });
    const p = probeSchema.parse({ type: "tcp", send: "PING\r\n", expect: "PONG" });
    const [held] = await tcpKind.probe!.checkAll([p as never], t);
    expect(held).toMatchObject({ name: "tcp 8080", ok: true, got: JSON.stringify("+PONG\r") });
    expect(tcpKind.readiness!.describe(r as never, 6379)).toBe(
      'tcp 6379 accepts a connection and answers "+PONG"',
    );
  });

  it("a refused connection in the namespace is no connection", async () => {
    const { t } = target({ offline: true, fake: { answer: () => "@@begin 0\n@@refused\n\n@@end 0\n" } });
    const p = probeSchema.parse({ type: "tcp" });
    const [held] = await probeKind(p).checkAll([p], t);
    expect(held).toMatchObject({ ok: false, expected: "a connection", got: "connection refused" });
  });
});

describe("healthcheck", () => {
  it("gives up at once on an image without HEALTHCHECK, and its fix says to add one", async () => {
    const r = readinessSchema.parse({ type: "healthcheck" });
    const out = await readinessKind(r).wait(r, target().t);
    expect(out).toMatchObject({ ready: false, attempts: 1, last: "the image declares no HEALTHCHECK" });
    expect(healthcheckKind.readiness!.notReadyFix!(out)).toMatch(/^add a HEALTHCHECK to the Dockerfile/);
    expect(healthcheckKind.readiness!.notReadyFix!({ ...out, last: "health starting" })).toBeUndefined();
  });

  it("waits through starting; a probe waits for the image's own check to decide", async () => {
    const states = () => [{ status: "starting" }, { status: "starting" }, { status: "healthy" }];
    const r = readinessSchema.parse({ type: "healthcheck" });
    expect(await readinessKind(r).wait(r, target({ fake: { health: states() } }).t)).toMatchObject({
      ready: true,
      attempts: 3,
      last: "health healthy",
    });
    const p = probeSchema.parse({ type: "healthcheck" });
    const [held] = await probeKind(p).checkAll([p], target({ fake: { health: states() } }).t);
    expect(held).toMatchObject({ name: "HEALTHCHECK", ok: true, got: "healthy" });
  });
});

describe("log", () => {
  it("matches a line in linear time, from readiness and from a probe", async () => {
    const { t } = target({ fake: { log: "boot\nReady to accept connections\n" } });
    const r = readinessSchema.parse({ type: "log", pattern: "^Ready to (accept|serve)" });
    expect(await readinessKind(r).wait(r, t)).toMatchObject({ ready: true, via: "the subject's log" });
    const p = probeSchema.parse({ type: "log", pattern: "^crash" });
    const [held] = await probeKind(p).checkAll([p], t);
    expect(held).toMatchObject({ name: "log /^crash/", ok: false, got: "no matching line" });
    expect(logKind.readiness!.describe(r as never, 1)).toBe("a log line matches /^Ready to (accept|serve)/");
  });
});

describe("delay", () => {
  it("is ready after its time when that fits the deadline, and is no probe", async () => {
    const r = readinessSchema.parse({ type: "delay", ms: 30 });
    expect(await readinessKind(r).wait(r, target().t)).toEqual({
      ready: true,
      attempts: 1,
      via: "a fixed delay",
    });
    const long = readinessSchema.parse({ type: "delay", ms: 5000 });
    expect((await readinessKind(long).wait(long, target({ deadlineMs: 20 }).t)).ready).toBe(false);
    expect(delayKind.probe).toBeUndefined();
    expect(probeSchema.safeParse({ type: "delay", ms: 30 }).success).toBe(false);
  });
});
