// The engine-reach asks read back from the subject probe's report: an answer with an API-version
// header (Docker's, or Podman's Libpod-Api-Version) is the engine; any other HTTP answer is not;
// silence or a refused connection is nothing. Answers travel in hex: nothing a server sends can be
// read as a record of the report.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { REFUSED } from "../../src/engine/probe-exchange.js";
import {
  answerKind,
  parseReach,
  REACH_SH,
  reachDeadlineMs,
  reachEnv,
} from "../../src/suites/containment/engine-reach.js";
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
