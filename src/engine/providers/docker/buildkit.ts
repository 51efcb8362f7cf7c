// BuildKit builds through the engine's /build endpoint (version 2) with a gRPC session over its
// /session endpoint, as `docker build` does. The session serves registry credentials (anonymous),
// secrets (values the caller read from the environment) and the health check BuildKit polls.
// The status stream (protobuf StatusResponse in `moby.buildkit.trace` messages) becomes a
// readable, bounded log. The session's three unary methods are served by a small gRPC server on
// Node's own HTTP/2 (the engine dials in over the hijacked connection, h2c): a gRPC library
// would be 280 KB to load for three calls. Loaded with a dynamic import by builds only.
import { randomUUID } from "node:crypto";
import http2 from "node:http2";
import type { Duplex } from "node:stream";
import type Docker from "dockerode";
import type { BuildStep, BuildStepEvent } from "../../provider.js";
import { all, bool, decodeFields, encodeFields, has, num, str } from "./protowire.js";

interface BuildkitRequest {
  /** The context as a tar stream (src/engine/context.ts contextTar). */
  context: NodeJS.ReadableStream;
  dockerfile: string;
  tag: string;
  labels: Record<string, string>;
  buildArgs: Record<string, string>;
  target?: string;
  /** Secret id -> value, served to `RUN --mount=type=secret,id=...` and never logged. */
  secrets: Record<string, string>;
  abortSignal: AbortSignal;
  /** Each rendered log line, secrets already masked. */
  onLine: (line: string) => void;
  /** Each step as it starts and ends (names masked too). */
  onStep?: (event: BuildStepEvent) => void;
}

interface BuildkitOutcome {
  imageId?: string;
  /** The engine's final error, when the build failed. */
  failure?: string;
  steps: BuildStep[];
}

const STEP_OUTPUT_LIMIT = 4096;

/** gRPC status codes the session answers with. */
export const GRPC = { OK: 0, NOT_FOUND: 5, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;

/** A unary method: the request message in, the response message (or a status) out. */
type UnaryReply = { message: Buffer } | { code: number; details: string };
type UnaryHandler = (request: Buffer) => UnaryReply;

/** The session's methods (protobuf described by hand: the bundle carries no .proto files). */
export function sessionMethods(secrets: Record<string, string>): Record<string, UnaryHandler> {
  return {
    // No Username/Secret: anonymous, the engine's own credentials apply.
    "/moby.filesync.v1.Auth/Credentials": () => ({ message: Buffer.alloc(0) }),
    "/moby.buildkit.secrets.v1.Secrets/GetSecret": (request) => {
      const id = str(decodeFields(request), 1);
      const value = Object.hasOwn(secrets, id) ? secrets[id] : undefined;
      return value === undefined
        ? { code: GRPC.NOT_FOUND, details: `secret ${id} not found` }
        : { message: encodeFields([[1, Buffer.from(value, "utf8")]]) };
    },
    "/grpc.health.v1.Health/Check": () => ({ message: encodeFields([[1, 1]]) }), // SERVING
  };
}

/**
 * A gRPC server for unary methods on one connection the peer dials as an HTTP/2 client (h2c):
 * each request is one length-prefixed message (uncompressed), each answer one message and the
 * `grpc-status` trailer. Returns how to close it.
 */
export function serveUnary(socket: Duplex, methods: Record<string, UnaryHandler>): () => void {
  const server = http2.createServer();
  const sessions = new Set<http2.Http2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("error", () => undefined); // the engine hanging up ends the session, nothing more
  });
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("error", () => undefined);
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const reply = answer(methods, String(headers[":path"]), Buffer.concat(chunks));
      if (stream.destroyed || stream.closed) return;
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () =>
        stream.sendTrailers(
          "code" in reply
            ? { "grpc-status": String(reply.code), "grpc-message": encodeURIComponent(reply.details) }
            : { "grpc-status": String(GRPC.OK) },
        ),
      );
      stream.end("message" in reply ? frame(reply.message) : undefined);
    });
  });
  server.emit("connection", socket);
  return () => {
    for (const s of sessions) s.destroy();
    server.close();
    socket.destroy();
  };
}

function answer(methods: Record<string, UnaryHandler>, path: string, body: Buffer): UnaryReply {
  const handler = methods[path];
  if (!handler) return { code: GRPC.UNIMPLEMENTED, details: `${path} is not served by this session` };
  // One message: a compressed flag (0: we announce no compression) and a 4-byte length.
  if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5)
    return { code: GRPC.INTERNAL, details: "expected one uncompressed message" };
  return handler(body.subarray(5));
}

/** One length-prefixed gRPC message. */
function frame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

/** Opens the session on the engine; returns its id and how to close it. */
async function openSession(docker: Docker, secrets: Record<string, string>) {
  const id = randomUUID();
  const methods = sessionMethods(secrets);
  const socket = await new Promise<Duplex>((resolve, reject) =>
    docker.modem.dial(
      {
        method: "POST",
        path: "/session",
        hijack: true,
        headers: {
          Upgrade: "h2c",
          "X-Docker-Expose-Session-Uuid": id,
          "X-Docker-Expose-Session-Name": "docker-acceptance",
          "X-Docker-Expose-Session-Grpc-Method": Object.keys(methods),
        },
        statusCodes: { 101: true, 200: true, 500: "server error" },
      } as never,
      (err: unknown, s: unknown) => (err ? reject(err) : resolve(s as Duplex)),
    ),
  );
  return { id, close: serveUnary(socket, methods) };
}

/** Folds StatusResponse messages into steps and readable `#n` lines, as `docker build --progress=plain`. */
export class StatusLog {
  private readonly byDigest = new Map<string, BuildStep & { started?: number; shown: boolean }>();
  constructor(
    private readonly emit: (line: string) => void,
    private readonly mask: (text: string) => string = (t) => t,
    private readonly onStep: (event: BuildStepEvent) => void = () => undefined,
  ) {}

  get steps(): BuildStep[] {
    return [...this.byDigest.values()]
      .filter((s) => s.shown)
      .map(({ n, name, cached, durationMs, error, outputTail }) => ({
        n,
        name,
        cached,
        durationMs,
        error,
        outputTail: this.mask(outputTail),
      }));
  }

  /** One `moby.buildkit.trace` aux payload (base64 protobuf). */
  add(base64: string): void {
    const fields = decodeFields(Buffer.from(base64, "base64"));
    for (const v of all(fields, 1)) this.vertex(decodeFields(v));
    for (const l of all(fields, 3)) this.output(decodeFields(l));
  }

  private step(digest: string) {
    let s = this.byDigest.get(digest);
    if (!s) {
      s = { n: this.byDigest.size + 1, name: "", cached: false, outputTail: "", shown: false };
      this.byDigest.set(digest, s);
    }
    return s;
  }

  private vertex(fields: ReturnType<typeof decodeFields>): void {
    const s = this.step(str(fields, 1));
    s.name = str(fields, 3) || s.name;
    const step = (state: BuildStepEvent["state"]) => this.onStep({ name: this.mask(s.name), state });
    if (!s.shown && (has(fields, 5) || bool(fields, 4))) {
      s.shown = true;
      this.emit(`#${s.n} ${this.mask(s.name)}`);
      if (!bool(fields, 4)) step("running");
    }
    if (has(fields, 5)) s.started ??= seconds(fields, 5);
    if (bool(fields, 4) && !s.cached) {
      s.cached = true;
      this.emit(`#${s.n} CACHED`);
      step("cached");
    }
    const error = str(fields, 7);
    if (error && !s.error) {
      s.error = this.mask(error);
      this.emit(`#${s.n} ERROR: ${s.error}`);
      step("failed");
    }
    if (has(fields, 6) && s.durationMs === undefined) {
      s.durationMs = s.started !== undefined ? Math.round((seconds(fields, 6) - s.started) * 1000) : 0;
      if (!s.cached && !s.error) {
        this.emit(`#${s.n} DONE ${(s.durationMs / 1000).toFixed(1)}s`);
        step("done");
      }
    }
  }

  private output(fields: ReturnType<typeof decodeFields>): void {
    const s = this.step(str(fields, 1));
    const text = all(fields, 4)[0]?.toString("utf8") ?? "";
    s.outputTail = (s.outputTail + text).slice(-STEP_OUTPUT_LIMIT);
    for (const line of text.split(/\r?\n/)) if (line.trim()) this.emit(`#${s.n} ${this.mask(line)}`);
  }
}

function seconds(f: ReturnType<typeof decodeFields>, no: number): number {
  const ts = decodeFields(all(f, no)[0] ?? Buffer.alloc(0));
  return num(ts, 1) + num(ts, 2) / 1e9;
}

/** One BuildKit build: session open, /build with version 2, status decoded, session closed. */
export async function buildWithBuildKit(docker: Docker, req: BuildkitRequest): Promise<BuildkitOutcome> {
  const mask = maskSecrets(Object.values(req.secrets));
  const status = new StatusLog(req.onLine, mask, req.onStep);
  const session = await openSession(docker, req.secrets);
  let imageId: string | undefined;
  let failure: string | undefined;
  try {
    const stream = await docker.buildImage(req.context, {
      t: req.tag,
      dockerfile: req.dockerfile,
      labels: req.labels,
      buildargs: req.buildArgs,
      ...(req.target ? { target: req.target } : {}),
      // A number, not dockerode's "2": that string makes dockerode open its own session, which
      // serves no secrets and loads .proto files from disk. The query string is the same.
      version: 2,
      session: session.id,
      abortSignal: req.abortSignal,
    } as unknown as Docker.ImageBuildOptions);
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err) => (err ? reject(err) : resolve()),
        (ev: { id?: string; aux?: unknown; error?: string; stream?: string }) => {
          if (ev.id === "moby.buildkit.trace" && typeof ev.aux === "string") status.add(ev.aux);
          else if (ev.id === "moby.image.id") imageId = (ev.aux as { ID?: string })?.ID;
          else if (ev.error) failure = mask(ev.error);
          else if (ev.stream?.trim()) req.onLine(mask(ev.stream.trimEnd()));
        },
      );
    });
  } finally {
    session.close();
  }
  return { imageId, failure, steps: status.steps };
}

/** Replaces each secret value (3+ characters: shorter ones would shred the log) with ***. */
export function maskSecrets(values: string[]): (text: string) => string {
  const masked = values.filter((v) => v.length >= 3).sort((a, b) => b.length - a.length);
  return (text) => masked.reduce((t, v) => t.split(v).join("***"), text);
}
