// The network of a runner behind a company proxy, on this machine: a real HTTP CONNECT proxy that
// records every tunnel it opens, and fronts for the GitHub double on another address or with TLS
// (a self-signed certificate made by openssl), as on a GitHub Enterprise Server. Host names nobody
// resolves (ghes.test) reach the test's servers only through the proxy's routes, so a request
// that went around the proxy fails instead of passing unnoticed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { createServer as createTlsServer } from "node:tls";

export interface LoopbackProxy {
  /** http://127.0.0.1:PORT, for HTTPS_PROXY and HTTP_PROXY. */
  url: string;
  /** What it was asked, in order: `CONNECT host:port` per tunnel, `METHOD URL` for anything else. */
  relayed: string[];
  close(): Promise<void>;
}

const portOf = (server: Server | ReturnType<typeof createTlsServer>) =>
  (server.address() as AddressInfo).port;

const listen = (server: Server | ReturnType<typeof createTlsServer>, host = "127.0.0.1") =>
  new Promise<void>((resolve) => server.listen(0, host, resolve));

const closing = (server: Server | ReturnType<typeof createTlsServer>, sockets: Set<Socket>) => () => {
  for (const s of sockets) s.destroy();
  return new Promise<void>((resolve) => server.close(() => resolve()));
};

/** Pipes two sockets both ways; either one failing ends both. */
function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
}

/**
 * A tunnelling proxy: CONNECT host:port opens a TCP connection to `routes[host:port]` (another
 * HOST:PORT) when routed, else to host:port itself. Requests in absolute form (forwarding) are
 * recorded and refused: undici tunnels every request, so one arriving here is a finding.
 */
export async function startProxy(routes: Record<string, string> = {}): Promise<LoopbackProxy> {
  const relayed: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    relayed.push(`${req.method} ${req.url}`);
    res.writeHead(502, { "content-type": "text/plain" }).end("this proxy only tunnels (CONNECT)\n");
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("connect", (req, client: Socket, head) => {
    relayed.push(`CONNECT ${req.url}`);
    const target = routes[req.url ?? ""] ?? req.url ?? "";
    const [host, port] = [target.replace(/:\d+$/, ""), Number(target.split(":").pop())];
    const upstream = connect(port, host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      splice(client, upstream);
    });
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
  });
  await listen(server);
  return { url: `http://127.0.0.1:${portOf(server)}`, relayed, close: closing(server, sockets) };
}

/**
 * An address of this machine that is not loopback (the Docker bridge's, say): reached without any
 * proxy, yet not exempt from one as 127.0.0.1 and localhost always are. NO_PROXY is tested on it.
 */
export const LAN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((a) => a?.family === "IPv4" && !a.internal)?.address;

export interface Front {
  /** The port it listens on, at the `host` it was given. */
  port: number;
  /** With TLS: the certificate, for NODE_EXTRA_CA_CERTS (it is its own authority). */
  caFile?: string;
  close(): Promise<void>;
}

/**
 * A front on `host` for a plain HTTP server on 127.0.0.1:`targetPort` (the GitHub double): TCP
 * passed through, or with `tlsNames` HTTPS for those names and `host`, as an Enterprise Server.
 */
export async function startFront(
  targetPort: number,
  opts: { host: string; tlsNames?: string[] },
): Promise<Front> {
  const dir = mkdtempSync(path.join(tmpdir(), "da-front-"));
  const pass = (client: Socket) => splice(client, connect(targetPort, "127.0.0.1"));
  // Every run of the tool on this machine asks each host listener off loopback whether an engine
  // answers there (GET /_ping: containment.network, the build pre-flight), and other test files run
  // the tool while this front listens on the LAN address: such an ask is closed here, never passed
  // to the double, which would rightly count a request GitHub does not know. (Over TLS it fails the
  // handshake and never reaches the double.)
  const passUnlessEngineAsk = (client: Socket, first: Buffer) => {
    if (first.toString("latin1").startsWith("GET /_ping")) return void client.destroy();
    const upstream = connect(targetPort, "127.0.0.1");
    upstream.write(first);
    splice(client, upstream);
  };
  let caFile: string | undefined;
  let server: Server | ReturnType<typeof createTlsServer>;
  if (opts.tlsNames) {
    const key = path.join(dir, "key.pem");
    caFile = path.join(dir, "cert.pem");
    selfSignedCertificate(key, caFile, opts.tlsNames, opts.host);
    server = createTlsServer({ key: readFileSync(key), cert: readFileSync(caFile) }, (tls) =>
      pass(tls as unknown as Socket),
    );
  } else {
    server = createNetServer((client) =>
      client.once("data", (first) => passUnlessEngineAsk(client, first)),
    ) as unknown as Server;
  }
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await listen(server, opts.host);
  const close = closing(server, sockets);
  return {
    port: portOf(server),
    caFile,
    close: async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A self-signed P-256 certificate for DNS `names` and the IP `address`, valid two days. */
function selfSignedCertificate(key: string, cert: string, names: string[], address: string): void {
  const san = [...names.map((n) => `DNS:${n}`), `IP:${address}`].join(",");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
      .concat(["-keyout", key, "-out", cert, "-days", "2", "-subj", `/CN=${names[0] ?? address}`])
      .concat(["-addext", `subjectAltName=${san}`]),
    { stdio: "pipe" },
  );
}
