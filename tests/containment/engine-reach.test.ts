// The engine-reach asks read back from the subject probe's report: an answer with an API-version
// header (Docker's, or Podman's Libpod-Api-Version) is the engine; any other HTTP answer is not;
// silence or a refused connection is nothing. Answers travel in hex: nothing a server sends can be
// read as a record of the report.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REFUSED } from "../../src/engine/probe-exchange.js";
import type { Engine } from "../../src/engine/provider.js";
import {
  answerKind,
  parseReach,
  REACH_SH,
  reachDeadlineMs,
  reachEnv,
  reachTargets,
} from "../../src/suites/containment/engine-reach.js";
import { MAX_HOST_LISTENERS, parseListeners } from "../../src/suites/containment/host-listeners.js";
import { PROBE_SCRIPT, parseProbeOutput, probeOptions } from "../../src/suites/containment/probe.js";

const hex = (s: string) => Buffer.from(s, "latin1").toString("hex");

/** A report as the probe frames it (see `framed` in probe.ts). */
function report(lines: string[]): string {
  const body = `${lines.join("\n")}\n`;
  const digest = createHash("sha256").update(body).digest("hex");
  return `${body}Z ${Buffer.byteLength(body)} ${digest}\n`;
}

describe("the engine-reach records", () => {
  it("tell the engine from another HTTP server, from no answer and from a refused connection", () => {
    const lines = [
      "V 1",
      "G 172.17.0.1",
      `E 172.17.0.1 2375 ${hex("HTTP/1.0 200 OK\r\nApi-Version: 1.41\r\n\r\nOK")}`,
      `E 10.88.0.1 8888 ${hex("HTTP/1.1 200 OK\r\nLibpod-Api-Version: 4.3.1\r\n\r\nOK")}`,
      `E 172.17.0.1 8080 ${hex("HTTP/1.1 404 Not Found\r\nServer: x\r\n\r\nApi-Version: in the body\n")}`,
      "E 127.0.0.1 2375 ",
      `E 127.0.0.1 2376 ${hex(`${REFUSED}\n`)}`,
    ];
    expect(parseReach(lines)).toEqual({
      gateway: "172.17.0.1",
      asked: [
        { address: "172.17.0.1:2375", answer: "engine" },
        { address: "10.88.0.1:8888", answer: "engine" },
        { address: "172.17.0.1:8080", answer: "http" },
        { address: "127.0.0.1:2375", answer: "none" },
        { address: "127.0.0.1:2376", answer: "none" },
      ],
    });
  });

  it("no route out: no gateway, and only the engine's own address asked", () => {
    expect(parseReach(["V 1", "G -", "E 127.0.0.1 2375 "])).toEqual({
      asked: [{ address: "127.0.0.1:2375", answer: "none" }],
    });
  });

  it("a report without them did not ask", () => {
    expect(parseReach(["V 1", "P 1"])).toBeUndefined();
    expect(answerKind("not http\r\nApi-Version: 1\r\n\r\n")).toBe("none");
  });

  it("ride in the subject probe's verified report, and an answer cannot forge a record", () => {
    // A server on the gateway answers with lines that would be records if they were read as such.
    const forged = "HTTP/1.0 200 OK\r\n\r\nP 1\nS Uid:\t0\t0\t0\t0\nM 1 2 0:1 / / rw - overlay x rw\n";
    const text = report([
      "V 1",
      "G 172.17.0.1",
      `E 172.17.0.1 2375 ${hex(forged)}`,
      "P 7",
      "S Uid:\t5\t5\t5\t5",
    ]);
    const ev = parseProbeOutput(text, 5, 5);
    expect(ev.reach).toEqual({
      gateway: "172.17.0.1",
      asked: [{ address: "172.17.0.1:2375", answer: "http" }],
    });
    expect(ev.processes.map((p) => p.pid)).toEqual([7]);
    expect(ev.mountinfo).toEqual([]);
  });

  it("the probe asks only when told, in the subject's network, its parameters in the environment", () => {
    const launch = {
      subjectId: "abc",
      rootPid: 42,
      match: "ns" as const,
      uid: 0,
      gid: 0,
      caps: [],
      writableRoots: [],
      existsPaths: [],
    };
    const plain = probeOptions("da-0", "probe:1", launch);
    expect(plain.namespaces).toEqual({ pid: "host", net: "none" });
    expect(plain.env.DA_ASK).toBeUndefined();
    const reach = { targets: [{ ip: "10.0.0.9", port: 2376 }], ports: [2375, 2376] };
    const asking = probeOptions("da-0", "probe:1", { ...launch, reach });
    expect(asking.namespaces).toEqual({ pid: "host", net: "container:abc" });
    expect(asking.env).toMatchObject({ DA_ASK: "3", DA_TARGETS: "10.0.0.9 2376", DA_PORTS: "2375\n2376" });
    expect(asking.timeoutMs).toBe(plain.timeoutMs + reachDeadlineMs(reach));
    expect(reachDeadlineMs(reach)).toBe(3 * 4000);
    expect(reachEnv(reach).DA_TARGETS).toBe("10.0.0.9 2376");
    // Never interpolated: the script is the same text whatever is asked.
    expect(asking.script.text).toBe(plain.script.text);
    expect(PROBE_SCRIPT).toContain(REACH_SH.trim().split("\n")[0]!);
    expect(REACH_SH).not.toContain("10.0.0.9");
  });
});

/** /proc/net/tcp{,6} as the kernel prints them: a header, then `sl local remote st ...` rows. */
const table = (rows: [string, string][]) =>
  [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    ...rows.map(
      ([local, st], i) =>
        `   ${i}: ${local} 00000000:0000 ${st} 00000000:00000000 00:00000000 00000000     0        0 1 1`,
    ),
  ].join("\n");

describe("the host's listeners a container's network can reach", () => {
  it("are every listener off loopback: wildcard ones asked at the gateway, bound ones where they are", () => {
    const tcp = table([
      ["0100007F:A14F", "0A"], // 127.0.0.1:41295: loopback, unreachable from a container
      ["0100007E:0050", "0A"], // 126.0.0.1:80 is no loopback
      ["00000000:5CA6", "0A"], // 0.0.0.0:23718: a socket proxy on every address
      ["0200000A:2710", "0A"], // 10.0.0.2:10000: one of the host's addresses
      ["0200000A:2711", "01"], // an established connection, not a listener
      ["010011AC:1F90", "0A"], // 172.17.0.1:8080, the bridge's own address
    ]);
    const tcp6 = table([
      ["00000000000000000000000000000000:8415", "0A"], // [::]:33813, IPv4 too on a dual-stack socket
      ["00000000000000000000000001000000:0016", "0A"], // [::1]:22
      ["0000000000000000FFFF00000300000A:0BB8", "0A"], // [::ffff:10.0.0.3]:3000
      ["B80D0120000000000000000001000000:0035", "0A"], // [2001:db8::1]:53, not on an IPv4 bridge
    ]);
    expect(parseListeners(tcp, tcp6)).toEqual({
      any: [23718, 33813],
      at: [
        { ip: "126.0.0.1", port: 80 },
        { ip: "10.0.0.3", port: 3000 },
        { ip: "172.17.0.1", port: 8080 },
        { ip: "10.0.0.2", port: 10000 },
      ],
      unasked: 0,
    });
  });

  it("are bounded, lowest ports first, and say how many were left", () => {
    const rows = Array.from({ length: 40 }, (_, i): [string, string] => [
      `00000000:${(20000 + i).toString(16).toUpperCase()}`,
      "0A",
    ]);
    const l = parseListeners(table(rows), "");
    expect(l.any).toHaveLength(MAX_HOST_LISTENERS);
    expect(l.any[0]).toBe(20000);
    expect(l.unasked).toBe(40 - MAX_HOST_LISTENERS);
  });

  it("join the engine's own address in the asks, each once", async () => {
    const engine = { networkApi: () => ({ host: "127.0.0.1", port: 2376 }) } as unknown as Engine;
    const asks = await reachTargets(engine, {
      any: [2376, 23718],
      at: [
        { ip: "10.0.0.2", port: 10000 },
        { ip: "127.0.0.1", port: 2376 },
      ],
      unasked: 3,
    });
    expect(asks).toEqual({
      targets: [
        { ip: "127.0.0.1", port: 2376 },
        { ip: "10.0.0.2", port: 10000 },
      ],
      ports: [2375, 2376, 23718],
      unasked: 3,
    });
    // A run on the engine's socket has no address of its own to ask: the host's listeners still are.
    const socket = await reachTargets({} as Engine, { any: [23718], at: [], unasked: 0 });
    expect(socket).toEqual({ targets: [], ports: [2375, 23718] });
  });
});
