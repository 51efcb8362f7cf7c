// The probes' nc exchange (src/engine/probe-exchange.ts) on the real engine, against a server that
// answers late (0.5 s after the request) and hangs up when the client half-closes (Node's default:
// allowHalfOpen false). Busybox nc half-closes at its input's end, so a request piped into nc as it
// is (`printf req | nc`, the old in-namespace prelude) races such a server and gets nothing; the
// exchange keeps nc's input open while the answer comes, and still ends when the answer has come,
// not at its bound. Through each user of it: the in-namespace checks' ask and tcpx
// (src/checks/netns.ts) and the subject probe's engine-reach asks (src/suites/containment/engine-reach.ts).
// The probe runs in the host's network so the server can be this test's own, on loopback.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRELUDE } from "../../src/checks/netns.js";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { newRunId } from "../../src/engine/ownership.js";
import { parseExchange } from "../../src/engine/probe-exchange.js";
import { runProbe, trustedProbe } from "../../src/engine/trusted-probe.js";
import { parseReach, REACH_SH } from "../../src/suites/containment/engine-reach.js";
import { hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";

const ANSWER = "HTTP/1.0 200 OK\r\nApi-Version: 1.47\r\nContent-Length: 2\r\n\r\nOK";
const LATE_MS = 500;
const owner = newRunId();
let server: Server;
let port = 0;
/** Connections that saw their client half-close before the answer was due. */
let hungUp = 0;

function probe(body: string, env: Record<string, string> = {}) {
  const spec = trustedProbe(
    owner,
    PROBE_IMAGE,
    { name: "da-exchange-test", text: body },
    { user: "65534:65534", env: { DA_PORT: String(port), ...env }, namespaces: { net: "host" } },
  );
  return runProbe(newEngine(), spec, undefined, 30_000);
}

describe.skipIf(!hasEngine)("the probes' nc exchange against a late answer", () => {
  beforeAll(async () => {
    server = createServer((c) => {
      let due = false;
      c.on("error", () => {});
      c.on("end", () => {
        if (!due) hungUp++;
      });
      c.once("data", () =>
        setTimeout(() => {
          due = true;
          if (c.writable) c.end(ANSWER);
        }, LATE_MS),
      );
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.close();
    await cleanupOwned(newEngine(), { owner }, { trigger: "test" });
  });

  it("a request piped into nc as it is gets nothing from it (the server really hangs up on a half-close)", async () => {
    const before = hungUp;
    const run = await probe(
      String.raw`printf 'GET / HTTP/1.0\r\n\r\n' | nc -w 5 127.0.0.1 "$DA_PORT" 2>/dev/null; echo "@@done"`,
    );
    expect(run.stdout).toBe("@@done\n");
    expect(hungUp).toBe(before + 1);
  }, 60_000);

  it("the in-namespace checks' ask and tcpx get the late answer, and end when it has come", async () => {
    const started = performance.now();
    const run = await probe(
      `${PRELUDE}
echo "@@begin 0"; ask GET / 8; echo; echo "@@end 0"
echo "@@begin 1"; tcpx 8; echo; echo "@@end 1"
`,
      { DA_SEND: "PING\r\n" },
    );
    const ms = performance.now() - started;
    const block = (i: number) =>
      new RegExp(`@@begin ${i}\\n([\\s\\S]*?)\\n@@end ${i}\\n`).exec(run.stdout)?.[1];
    expect(block(0)).toBe(ANSWER);
    expect(parseExchange(block(1))).toEqual({ connected: true, answer: ANSWER });
    // Each exchange lasted about as long as the answer took, not its 8 s bound.
    expect(ms).toBeLessThan(8_000);
  }, 60_000);

  it("a refused connection is no connection, known at once (no watcher holding nc's output for a second)", async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, "127.0.0.1", ok));
    const free = (closed.address() as { port: number }).port;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const run = await probe(
      `${PRELUDE}
s=$(cut -d' ' -f1 /proc/uptime)
echo "@@begin 0"; tcpx 3; echo; echo "@@end 0"
echo "@@took $s $(cut -d' ' -f1 /proc/uptime)"
`,
      { DA_PORT: String(free), DA_SEND: "x" },
    );
    const block = /@@begin 0\n([\s\S]*?)\n@@end 0\n/.exec(run.stdout)?.[1];
    expect(parseExchange(block)).toEqual({ connected: false, answer: "" });
    const [, from, to] = /@@took (\S+) (\S+)/.exec(run.stdout) ?? [];
    // busybox `timeout`'s watcher wakes once a second: through it, this took a second or more.
    expect(Number(to) - Number(from)).toBeLessThan(0.9);
  }, 60_000);

  it("the subject probe's engine-reach ask reads the late answer as the engine", async () => {
    const run = await probe(`set -fu\nIFS='\n'\n${REACH_SH}`, {
      DA_ASK: "5",
      DA_TARGETS: `127.0.0.1 ${port}`,
      DA_PORTS: "",
    });
    const reach = parseReach(run.stdout.split("\n"));
    expect(reach?.asked).toEqual([{ address: `127.0.0.1:${port}`, answer: "engine" }]);
  }, 60_000);
});
