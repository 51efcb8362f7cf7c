// What an open port speaks when it never answered HTTP, heard from the client side exactly as a
// published port is heard: real servers on loopback (TLS from Node's own stack with a throwaway
// certificate, a banner greeter, a binary protocol, a silent one, HTTP itself, an endless talker).
import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIENT_HELLO,
  classifySpeech,
  EXCHANGE_BYTES,
  hearOnHost,
} from "../../src/suites/lifecycle/speaks.js";

const servers: net.Server[] = [];

async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

async function selfSigned(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), "da-speaks-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  await promisify(execFile)("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=localhost",
    "-days",
    "1",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  return { key: await readFile(key), cert: await readFile(cert) };
}

const ports: Record<string, number> = {};

beforeAll(async () => {
  ports.tls = await listen(tls.createServer(await selfSigned(), (s) => s.end("hello over TLS\n")));
  ports.banner = await listen(
    net.createServer((s) => {
      s.on("error", () => undefined);
      s.write("220 mail.example.org ESMTP Postfix\r\n");
    }),
  );
  ports.binary = await listen(
    net.createServer((s) => {
      s.on("error", () => undefined);
      s.on("data", () => s.end(Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x80, 0x81, 0x02, 0x03])));
    }),
  );
  ports.h2c = await listen(http2.createServer() as unknown as net.Server);
  ports.silent = await listen(net.createServer((s) => s.on("error", () => undefined)));
  ports.http = await listen(http.createServer((_req, res) => res.writeHead(503).end("starting")));
  ports.endless = await listen(
    net.createServer((s) => {
      s.on("error", () => undefined);
      const more = () => s.writable && s.write("x".repeat(4096), more);
      more();
    }),
  );
});

afterAll(() => {
  for (const s of servers) s.close();
});

describe("what a listening port that never answered HTTP speaks", () => {
  it("a TLS-only server: it answers the ClientHello with a handshake record", async () => {
    const heard = await hearOnHost(ports.tls!);
    expect(heard.tls[0]).toBe(0x16); // a handshake record: the ServerHello
    const speech = classifySpeech(heard, 8443);
    expect(speech?.kind).toBe("tls");
    expect(speech?.note).toBe(
      "port 8443 answers a TLS handshake, not plain HTTP: it serves TLS (HTTPS) only",
    );
    expect(speech?.fix).toContain('readiness { "type": "tcp" }');
  });

  it("a server that speaks first: its banner, escaped and bounded", async () => {
    const speech = classifySpeech(await hearOnHost(ports.banner!), 8080);
    expect(speech?.kind).toBe("banner");
    expect(speech?.note).toBe(
      'port 8080 does not speak HTTP: it greets every connection with "220 mail.example.org ESMTP Postfix", another protocol\'s banner',
    );
  });

  it("an HTTP/2-only server (h2c, gRPC): its SETTINGS frame", async () => {
    const speech = classifySpeech(await hearOnHost(ports.h2c!), 50051);
    expect(speech?.kind).toBe("http2");
    expect(speech?.note).toBe(
      "port 50051 sends HTTP/2 frames, not an HTTP/1.1 answer: it speaks HTTP/2 only (an h2c or gRPC server)",
    );
  });

  it("a binary answer to an HTTP request is shown as its first bytes", async () => {
    const speech = classifySpeech(await hearOnHost(ports.binary!), 8080);
    expect(speech?.kind).toBe("other");
    expect(speech?.note).toBe(
      "port 8080 answers an HTTP request with bytes that are not HTTP (00 01 ff fe 80 81 02 03)",
    );
  });

  it("a silent one says it accepts and answers nothing, never 'nothing listens'", async () => {
    const speech = classifySpeech(await hearOnHost(ports.silent!), 8080);
    expect(speech?.kind).toBe("silent");
    expect(speech?.note).toMatch(
      /^port 8080 accepts connections but answers neither an HTTP request nor a TLS handshake/,
    );
  });

  it("an HTTP answer of any status is HTTP: no diagnosis", async () => {
    expect(classifySpeech(await hearOnHost(ports.http!), 8080)).toBeUndefined();
  });

  it("reads at most its bound from a server that never stops talking", async () => {
    const heard = await hearOnHost(ports.endless!);
    for (const b of [heard.banner, heard.http, heard.tls])
      expect(b.length).toBeLessThanOrEqual(EXCHANGE_BYTES);
    expect(classifySpeech(heard, 8080)?.note).toBe(
      'port 8080 does not speak HTTP: it greets every connection with "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…", another protocol\'s banner',
    );
  });

  it("a banner's control characters and quotes never reach the message raw", () => {
    const speech = classifySpeech(
      {
        banner: Buffer.from('evil\x1b[31m "quoted" `code` <b>\r\nsecond line'),
        http: Buffer.alloc(0),
        tls: Buffer.alloc(0),
      },
      8080,
    );
    expect(speech?.note).toContain('"evil·[31m \\"quoted\\" `code` <b>"');
    expect(speech?.note).not.toContain("second line");
  });

  it("the ClientHello is one well-formed TLS handshake record", () => {
    expect([...CLIENT_HELLO.subarray(0, 3)]).toEqual([0x16, 0x03, 0x01]);
    expect(CLIENT_HELLO.readUInt16BE(3)).toBe(CLIENT_HELLO.length - 5);
    expect(CLIENT_HELLO[5]).toBe(1); // client_hello
  });
});
