// What a subject that did not answer listens on, from the kernel's socket tables: recorded from
// a container running `python3 -m http.server 8080 --bind 127.0.0.1`, a socket on 0.0.0.0:5000
// with a connection to it, and one on [::]:9000.
import { describe, expect, it } from "vitest";
import { explainListening, parseListeners } from "../../src/suites/lifecycle/listening.js";

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:1388 00000000:0000 0A 00000000:00000001 00:00000000 00000000 10001        0 560329 2 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000 10001        0 560331 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1388 0100007F:96EE 01 00000000:00000000 00:00000000 00000000 10001        0 0 1 0000000000000000 20 4 30 10 -1
   3: 0100007F:96EE 0100007F:1388 01 00000000:00000000 00:00000000 00000000 10001        0 560330 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:2328 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 10001        0 560332 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 10001        0 560333 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:1F92 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 10001        0 560334 1 0000000000000000 100 0 0 10 0
   3: B80D0120000000000000000001000000:1F93 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 10001        0 560335 1 0000000000000000 100 0 0 10 0
`;

describe("parseListeners", () => {
  it("reads listening sockets only, with IPv4 and IPv6 addresses as people write them", () => {
    expect(parseListeners(TCP + TCP6)).toEqual([
      { address: "0.0.0.0", port: 5000 },
      { address: "127.0.0.1", port: 8080 },
      { address: "::", port: 9000 },
      { address: "::1", port: 8081 },
      { address: "::ffff:127.0.0.1", port: 8082 },
      { address: "2001:db8::1", port: 8083 },
    ]);
  });

  it("ignores what is not a socket table", () => {
    expect(parseListeners("cat: can't open '/proc/net/tcp6': No such file or directory\n")).toEqual([]);
  });
});

describe("explainListening", () => {
  const found = parseListeners(TCP + TCP6);

  it("names a server bound to loopback, which the published port cannot reach", () => {
    const why = explainListening(found, 8080);
    expect(why?.note).toBe(
      "it listens on 127.0.0.1:8080 only: loopback inside the container, which the published port cannot reach",
    );
    expect(why?.fix).toContain("0.0.0.0:8080");
    expect(explainListening(found, 8081)?.note).toContain("[::1]:8081 only");
    expect(explainListening(found, 8082)?.note).toContain("[::ffff:127.0.0.1]:8082 only");
  });

  it("says nothing when something reachable listens on the port: the fault is in what it answers", () => {
    expect(explainListening(found, 5000)).toBeUndefined();
    expect(explainListening(found, 9000)).toBeUndefined();
    // Network "none": the checks ask from inside, where loopback is reachable.
    expect(explainListening(found, 8080, true)).toBeUndefined();
  });

  it("names the ports it does listen on when the inventory's is not among them", () => {
    const why = explainListening(parseListeners(TCP), 3000);
    expect(why?.note).toBe("nothing listens on port 3000; it listens on 0.0.0.0:5000, 127.0.0.1:8080");
    expect(why?.fix).toMatch(/set the inventory's port/);
  });

  it("says when nothing listens at all", () => {
    const why = explainListening([], 8080);
    expect(why?.note).toBe("nothing in the container listens on any TCP port");
    // A slow starter may simply not be listening yet.
    expect(why?.fix).toMatch(/raise startupTimeoutMs/);
  });
});
