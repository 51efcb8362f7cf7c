// A fault proxy in front of an engine's socket, for tests: every call passes through unchanged
// unless a rule matches it, and then it is delayed, stalled (held past the tool's deadline, with
// or without the engine applying it), answered with an error status the engine never gave, or cut
// off mid-answer. Upgraded connections (exec, BuildKit's session) are passed through as bytes.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export type Fault =
  /** Forwarded after `ms`. */
  | { kind: "latency"; ms: number }
  /** Never answered; `forward`: the engine still receives (and applies) it, its answer is dropped. */
  | { kind: "stall"; forward: boolean }
  /** Answered with `status` (500, 502, ...) without reaching the engine. */
  | { kind: "status"; status: number; message?: string }
  /** Forwarded; the connection is cut once `afterBytes` of the answer's body have passed. */
  | { kind: "drop"; afterBytes: number };

export interface FaultRule {
  method?: string;
  /**
   * Matched against the request's path and query, API version prefix removed
   * ("/containers/create?name=x"); a function can name a container by the ID its create got (idOf).
   */
  path: RegExp | ((path: string) => boolean);
  fault: Fault;
  /** How many matching calls it takes (default: every one). */
  times?: number;
}

export interface ProxiedCall {
  method: string;
  path: string;
  fault?: Fault["kind"];
}

export class EngineProxy {
  readonly calls: ProxiedCall[] = [];
  private readonly rules: (FaultRule & { left: number })[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly ids = new Map<string, string>();

  private constructor(
    readonly socketPath: string,
    private readonly upstream: string,
    private readonly server: http.Server,
  ) {}

  /** Listens on a new socket in the temp directory, forwarding to `upstream` (a unix socket path). */
  static async start(upstream: string): Promise<EngineProxy> {
    const socketPath = path.join(tmpdir(), `da-proxy-${randomBytes(4).toString("hex")}.sock`);
    const server = http.createServer();
    const proxy = new EngineProxy(socketPath, upstream, server);
    server.on("request", (req, res) => proxy.handle(req, res));
    server.on("upgrade", (req, socket, head) => proxy.upgrade(req, socket as net.Socket, head));
    server.on("connection", (s) => {
      proxy.sockets.add(s);
      s.on("close", () => proxy.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return proxy;
  }

  /** DOCKER_HOST for a client that should go through the proxy. */
  get host(): string {
    return `unix://${this.socketPath}`;
  }

  /** The ID the engine gave the container created (through this proxy) under a name ending so. */
  idOf(nameEnd: string): string | undefined {
    return [...this.ids].find(([name]) => name.endsWith(nameEnd))?.[1];
  }

  add(rule: FaultRule): void {
    this.rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.rules.length = 0;
  }

  /** The calls a rule's fault was applied to. */
  faulted(kind?: Fault["kind"]): ProxiedCall[] {
    return this.calls.filter((c) => c.fault && (!kind || c.fault === kind));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }

  private match(method: string, url: string): Fault | undefined {
    const rule = this.rules.find(
      (r) =>
        r.left > 0 &&
        (!r.method || r.method === method) &&
        (typeof r.path === "function" ? r.path(apiPath(url)) : r.path.test(apiPath(url))),
    );
    if (!rule) return undefined;
    rule.left--;
    return rule.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Podman's own create (libpod) names the container in its body, not its query: the body is
    // read first (a create body is small) and the call is matched as the compatible one would be.
    let named: Awaited<ReturnType<typeof namedCreate>>;
    try {
      named = await namedCreate(req);
    } catch {
      res.destroy();
      return;
    }
    const url = named?.url ?? req.url ?? "/";
    const fault = this.match(req.method ?? "GET", url);
    this.calls.push({ method: req.method ?? "GET", path: apiPath(url), fault: fault?.kind });
    if (fault?.kind === "latency") await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === "status") {
      req.resume();
      const body = JSON.stringify({ message: fault.message ?? `injected ${fault.status}` });
      res.writeHead(fault.status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (fault?.kind === "stall" && !fault.forward) {
      req.resume();
      return; // held until the client gives up
    }
    this.forward(req, res, fault, named);
  }

  private forward(
    req: IncomingMessage,
    res: ServerResponse,
    fault: Fault | undefined,
    named?: { url: string; body: Buffer },
  ): void {
    const up = http.request({
      socketPath: this.upstream,
      method: req.method,
      path: req.url,
      headers: req.headers,
    });
    if (named) up.end(named.body);
    else req.pipe(up);
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    up.on("response", (answer) => {
      this.noteCreated(req.method, named?.url ?? req.url ?? "", answer);
      if (fault?.kind === "stall") {
        answer.resume(); // the engine answered; the client never hears it
        return;
      }
      const headers = { ...answer.headers };
      delete headers.connection;
      delete headers["keep-alive"];
      delete headers["transfer-encoding"];
      res.writeHead(answer.statusCode ?? 502, headers);
      res.flushHeaders();
      let passed = 0;
      answer.on("data", (chunk: Buffer) => {
        if (fault?.kind === "drop" && passed + chunk.length >= fault.afterBytes) {
          res.write(chunk.subarray(0, Math.max(0, fault.afterBytes - passed)));
          res.socket?.destroy();
          answer.destroy();
          return;
        }
        passed += chunk.length;
        res.write(chunk);
      });
      answer.on("end", () => res.end());
      answer.on("error", () => res.destroy());
    });
  }

  /** A create's answer names the container's ID: kept by the name it was created under. */
  private noteCreated(method: string | undefined, url: string, answer: IncomingMessage): void {
    const name = /^\/containers\/create\?(?:.*&)?name=([^&]+)/.exec(apiPath(url))?.[1];
    if (method !== "POST" || !name) return;
    let body = "";
    answer.on("data", (c: Buffer) => {
      body += c.toString();
    });
    answer.on("end", () => {
      const id = /"Id"\s*:\s*"([0-9a-f]{64})"/.exec(body)?.[1];
      if (id) this.ids.set(decodeURIComponent(name), id);
    });
  }

  /** An upgraded connection (101): the request head is written as received, then bytes both ways. */
  private upgrade(req: IncomingMessage, client: net.Socket, head: Buffer): void {
    this.calls.push({ method: req.method ?? "GET", path: apiPath(req.url ?? "/") });
    const up = net.connect(this.upstream);
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    up.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length) up.write(head);
    up.pipe(client).pipe(up);
    const end = () => {
      up.destroy();
      client.destroy();
    };
    up.on("error", end);
    client.on("error", end);
    up.on("close", end);
    client.on("close", end);
  }
}

/**
 * "/v1.41/containers/create?name=x" -> "/containers/create?name=x"; Podman's own API the same way
 * ("/v4.0.0/libpod/containers/{id}/json" -> "/containers/{id}/json").
 */
function apiPath(url: string): string {
  return url.replace(/^\/v\d+(\.\d+)*(?=\/)/, "").replace(/^\/libpod(?=\/)/, "");
}

/** The create body's size at most: a libpod create of this tool's is a few KiB. */
const CREATE_BODY_LIMIT = 1024 * 1024;

/**
 * A libpod create (its name in the body): read whole, and its URL as the compatible create's
 * ("/containers/create?name=<name>"), the body kept to forward. Any other call: undefined.
 */
async function namedCreate(req: IncomingMessage): Promise<{ url: string; body: Buffer } | undefined> {
  const url = req.url ?? "/";
  if (req.method !== "POST" || !/^\/containers\/create(\?|$)/.test(apiPath(url))) return undefined;
  if (!/^\/v[\d.]+\/libpod\//.test(url) || /[?&]name=/.test(url)) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > CREATE_BODY_LIMIT) throw new Error(`a libpod create body over ${CREATE_BODY_LIMIT} bytes`);
    chunks.push(c);
  }
  const body = Buffer.concat(chunks);
  let name: unknown;
  try {
    name = (JSON.parse(body.toString("utf8")) as { name?: unknown }).name;
  } catch {
    name = undefined;
  }
  const query = typeof name === "string" && name ? `?name=${encodeURIComponent(name)}` : "";
  return { url: `${url.replace(/\?.*$/, "")}${query}`, body };
}
