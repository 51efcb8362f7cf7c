// The BuildKit session's gRPC server (src/engine/providers/docker/buildkit.ts), spoken to as the
// engine speaks to it: an HTTP/2 client over the one connection, unary gRPC calls. The real-engine
// builds (tests/docker/build.test.ts: secrets, builds longer than the health-check interval) hold
// it against BuildKit itself; this holds the wire format and the refusals.
import http2 from "node:http2";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GRPC, serveUnary, sessionMethods } from "../../src/engine/providers/docker/buildkit.js";
import { decodeFields, encodeFields, str } from "../../src/engine/providers/docker/protowire.js";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A session serving `secrets`, and a client connected to it as the engine is. */
async function session(secrets: Record<string, string>) {
  const sock = path.join(
    os.tmpdir(),
    `da-session-${process.pid}-${Math.random().toString(16).slice(2)}.sock`,
  );
  const server = net.createServer((socket) => closers.push(serveUnary(socket, sessionMethods(secrets))));
  await new Promise<void>((r) => server.listen(sock, r));
  const client = http2.connect("http://session", { createConnection: () => net.connect(sock) });
  client.on("error", () => undefined);
  closers.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

/** One unary call: the reply's messages and its grpc-status trailer. */
function call(client: http2.ClientHttp2Session, method: string, message: Buffer, raw?: Buffer) {
  return new Promise<{ status: number; contentType: string; messages: Buffer[]; grpcMessage?: string }>(
    (resolve, reject) => {
      const req = client.request({
        ":method": "POST",
        ":path": method,
        "content-type": "application/grpc",
        te: "trailers",
      });
      let contentType = "";
      const chunks: Buffer[] = [];
      req.on("response", (h) => {
        contentType = String(h["content-type"]);
      });
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("trailers", (t) => {
        const body = Buffer.concat(chunks);
        const messages: Buffer[] = [];
        for (let i = 0; i + 5 <= body.length; i += 5 + body.readUInt32BE(i + 1))
          messages.push(body.subarray(i + 5, i + 5 + body.readUInt32BE(i + 1)));
        resolve({
          status: Number(t["grpc-status"]),
          contentType,
          messages,
          grpcMessage: t["grpc-message"] ? decodeURIComponent(String(t["grpc-message"])) : undefined,
        });
      });
      req.on("error", reject);
      const head = Buffer.alloc(5);
      head.writeUInt32BE(message.length, 1);
      req.end(raw ?? Buffer.concat([head, message]));
    },
  );
}

describe("the BuildKit session's gRPC server", () => {
  it("serves a secret by its id, as one gRPC message with status OK", async () => {
    const client = await session({ token: "s3cr3t-value" });
    const r = await call(client, "/moby.buildkit.secrets.v1.Secrets/GetSecret", encodeFields([[1, "token"]]));
    expect(r.contentType).toBe("application/grpc");
    expect(r.status).toBe(GRPC.OK);
    expect(r.messages).toHaveLength(1);
    expect(str(decodeFields(r.messages[0]!), 1)).toBe("s3cr3t-value");
  });

  it("a secret it was not given is NOT_FOUND, naming the id and never another secret's value", async () => {
    const client = await session({ token: "s3cr3t-value" });
    const r = await call(client, "/moby.buildkit.secrets.v1.Secrets/GetSecret", encodeFields([[1, "other"]]));
    expect(r.status).toBe(GRPC.NOT_FOUND);
    expect(r.messages).toEqual([]);
    expect(r.grpcMessage).toBe("secret other not found");
  });

  it("answers the health check SERVING and credentials anonymously (an empty message)", async () => {
    const client = await session({});
    const health = await call(client, "/grpc.health.v1.Health/Check", Buffer.alloc(0));
    expect(health.status).toBe(GRPC.OK);
    expect(health.messages[0]).toEqual(encodeFields([[1, 1]]));
    const auth = await call(client, "/moby.filesync.v1.Auth/Credentials", encodeFields([[1, "docker.io"]]));
    expect(auth.status).toBe(GRPC.OK);
    expect(auth.messages).toEqual([Buffer.alloc(0)]);
  });

  it("a method it does not serve is UNIMPLEMENTED; a compressed or malformed message is INTERNAL", async () => {
    const client = await session({});
    const unknown = await call(client, "/moby.filesync.v1.FileSync/DiffCopy", Buffer.alloc(0));
    expect(unknown.status).toBe(GRPC.UNIMPLEMENTED);
    const compressed = Buffer.from([1, 0, 0, 0, 0]);
    const r = await call(client, "/grpc.health.v1.Health/Check", Buffer.alloc(0), compressed);
    expect(r.status).toBe(GRPC.INTERNAL);
    const short = await call(client, "/grpc.health.v1.Health/Check", Buffer.alloc(0), Buffer.from([0, 0]));
    expect(short.status).toBe(GRPC.INTERNAL);
  });

  it("serves several calls on one connection, as the engine makes them", async () => {
    const client = await session({ a: "one", b: "two" });
    const [a, b, h] = await Promise.all([
      call(client, "/moby.buildkit.secrets.v1.Secrets/GetSecret", encodeFields([[1, "a"]])),
      call(client, "/moby.buildkit.secrets.v1.Secrets/GetSecret", encodeFields([[1, "b"]])),
      call(client, "/grpc.health.v1.Health/Check", Buffer.alloc(0)),
    ]);
    expect(str(decodeFields(a.messages[0]!), 1)).toBe("one");
    expect(str(decodeFields(b.messages[0]!), 1)).toBe("two");
    expect(h.status).toBe(GRPC.OK);
  });
});
