// What a port that something listens on speaks, when it never answered HTTP: "last: no answer"
// reads as if nothing listened, while the usual causes are a server that serves only TLS and one
// that speaks another protocol (HTTP/2 only, as gRPC does; SSH, SMTP, a database). Three short exchanges tell them apart:
// wait for what it sends unasked (a banner), send a plain HTTP request, send a TLS ClientHello.
// Each is bounded in bytes and time; everything read is the subject's text, shown escaped. From
// the host for a published port (our own sockets), from a trusted probe on network "none".
import net from "node:net";

/** What came back from each exchange (empty: nothing within the time, or the peer closed). */
export interface Exchanges {
  /** Sent by the server before we said anything. */
  banner: Buffer;
  /** The answer to a plain HTTP/1.1 request. */
  http: Buffer;
  /** The answer to a TLS ClientHello. */
  tls: Buffer;
}

/** What the port speaks instead of HTTP, with its fix; undefined when it did answer HTTP. */
interface Speech {
  note: string;
  fix: string;
  /** tls, http2 (frames only), banner, other (bytes that are not HTTP) or silent. */
  kind: "tls" | "http2" | "banner" | "other" | "silent";
}

/** Each exchange reads at most this much and waits at most this long. */
export const EXCHANGE_BYTES = 512;
const EXCHANGE_MS = 1500;

export const HTTP_REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

/**
 * A minimal TLS 1.2 ClientHello (common ECDHE/RSA suites, the groups and signature algorithms
 * every stack takes): any TLS server answers it with a handshake record (ServerHello, 0x16 0x03)
 * or an alert (0x15 0x03); a TLS 1.3-only one with a protocol_version alert. The random is fixed:
 * no session is ever completed.
 */
export const CLIENT_HELLO: Buffer = (() => {
  const suites = [0xc02f, 0xc030, 0xc02b, 0xc02c, 0xcca8, 0xcca9, 0x009c, 0x009d, 0x002f, 0x0035];
  const u16 = (n: number) => [n >> 8, n & 0xff];
  const ext = (type: number, body: number[]) => [...u16(type), ...u16(body.length), ...body];
  const extensions = [
    ...ext(0x000a, [...u16(6), ...u16(0x001d), ...u16(0x0017), ...u16(0x0018)]), // supported_groups
    ...ext(0x000b, [1, 0]), // ec_point_formats: uncompressed
    ...ext(0x000d, [...u16(8), ...u16(0x0401), ...u16(0x0501), ...u16(0x0403), ...u16(0x0804)]),
  ];
  const hello = [
    3,
    3, // client_version TLS 1.2
    ...new Array<number>(32).fill(0x2a), // random
    0, // session_id
    ...u16(suites.length * 2),
    ...suites.flatMap(u16),
    1,
    0, // compression: null
    ...u16(extensions.length),
    ...extensions,
  ];
  const handshake = [1, 0, ...u16(hello.length), ...hello];
  return Buffer.from([0x16, 3, 1, ...u16(handshake.length), ...handshake]);
})();

const isTlsRecord = (b: Buffer) => b.length >= 2 && (b[0] === 0x16 || b[0] === 0x15) && b[1] === 3;
/** An HTTP/2 server's first frame is SETTINGS (type 4) on stream 0: what h2c and gRPC servers send. */
const isHttp2Settings = (b: Buffer) => b.length >= 9 && b[3] === 0x04 && b.readUInt32BE(5) === 0;

/** Printable ASCII of the first line, at most 80 characters: what a person recognises a protocol by. */
function shownText(b: Buffer): string {
  const line = b.toString("latin1").split(/\r?\n/, 1)[0] ?? "";
  const printable = line.replace(/[^\x20-\x7e]/g, "·");
  return JSON.stringify(printable.length > 80 ? `${printable.slice(0, 79)}…` : printable);
}

function isMostlyText(b: Buffer): boolean {
  const head = b.subarray(0, 64);
  const printable = [...head].filter((x) => (x >= 0x20 && x < 0x7f) || x === 9 || x === 10 || x === 13);
  return head.length > 0 && printable.length >= head.length * 0.9;
}

/** The first bytes as hex, for an answer that is not text. */
function shownBytes(b: Buffer): string {
  return `${b.subarray(0, 16).toString("hex").replace(/(..)/g, "$1 ").trim()}${b.length > 16 ? " …" : ""}`;
}

/** What the three exchanges say the port speaks; undefined when it answered HTTP after all. */
export function classifySpeech(exchanges: Exchanges, port: number): Speech | undefined {
  if (exchanges.http.subarray(0, 5).toString("latin1") === "HTTP/") return undefined;
  if (isTlsRecord(exchanges.tls) || isTlsRecord(exchanges.http))
    return {
      kind: "tls",
      note: `port ${port} answers a TLS handshake, not plain HTTP: it serves TLS (HTTPS) only`,
      fix: `serve plain HTTP on ${port} for the checks (terminate TLS in front of the service, or add a plain health port and point the inventory's port and readiness at it), or declare readiness { "type": "tcp" } for a TLS-only port`,
    };
  // Its SETTINGS come unasked (the server's preface) or in answer to the request.
  if (isHttp2Settings(exchanges.banner) || isHttp2Settings(exchanges.http))
    return {
      kind: "http2",
      note: `port ${port} sends HTTP/2 frames, not an HTTP/1.1 answer: it speaks HTTP/2 only (an h2c or gRPC server)`,
      fix: `serve an HTTP/1.1 health endpoint for the checks (a second port the inventory's port and readiness point at), or declare readiness { "type": "tcp" } for an HTTP/2-only port`,
    };
  if (exchanges.banner.length > 0)
    return {
      kind: "banner",
      note: `port ${port} does not speak HTTP: it greets every connection with ${isMostlyText(exchanges.banner) ? shownText(exchanges.banner) : `binary bytes (${shownBytes(exchanges.banner)})`}, another protocol's banner`,
      fix: `point the inventory's port at the service's HTTP port, or declare the readiness it does support (tcp, with send/expect for its protocol)`,
    };
  if (exchanges.http.length > 0)
    return {
      kind: "other",
      note: `port ${port} answers an HTTP request with ${isMostlyText(exchanges.http) ? shownText(exchanges.http) : `bytes that are not HTTP (${shownBytes(exchanges.http)})`}`,
      fix: `point the inventory's port at the service's HTTP port, or declare the readiness it does support (tcp, with send/expect for its protocol)`,
    };
  return {
    kind: "silent",
    note: `port ${port} accepts connections but answers neither an HTTP request nor a TLS handshake within ${EXCHANGE_MS / 1000} s, and sends nothing unasked`,
    fix: `check what the service on ${port} speaks (its log says what it started); if it is still starting, raise startupTimeoutMs in the inventory`,
  };
}

/** One exchange with 127.0.0.1:port: connect, send (if anything), read until the bound, close or time. */
function exchange(port: number, send: string | Buffer | undefined, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = net.connect({ host: "127.0.0.1", port });
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      socket.destroy();
      resolve(Buffer.concat(chunks).subarray(0, EXCHANGE_BYTES));
    };
    const timer = setTimeout(finish, EXCHANGE_MS);
    signal?.addEventListener("abort", finish, { once: true });
    socket.on("connect", () => {
      if (send !== undefined) socket.write(send);
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCHANGE_BYTES) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
  });
}

/** The exchanges with a published port, one after another (4.5 s at most); a banner ends them. */
export async function hearOnHost(port: number, signal?: AbortSignal): Promise<Exchanges> {
  const banner = await exchange(port, undefined, signal);
  // A server that speaks first has said what it speaks: its answers would start with it too.
  if (banner.length > 0) return { banner, http: Buffer.alloc(0), tls: Buffer.alloc(0) };
  const http = await exchange(port, HTTP_REQUEST, signal);
  const tls = await exchange(port, CLIENT_HELLO, signal);
  return { banner, http, tls };
}
