// A TCP forwarder to the engine's unix socket (socat, docker-socket-proxy), for the tests that put
// the engine's API where a container or a build can reach it. Such a forwarder is an engine for
// EVERY test running meanwhile: each run's build pre-flight asks the host's listeners, and every
// subject probe too. So it serves only its own test's run, and hangs up on anyone else:
//   - this test's own process (the tool's engine calls, its pre-flight's asks), told by the
//     client socket being one of this process's file descriptors;
//   - the run's containers of the roles given: on a bridge by their address, on the host's network
//     (a probe with `net: host`) by the process holding the client socket being in one of them;
//   - a request carrying the run's token (`X-Da-Token`): a build's RUN step is no container the
//     engine lists, so the attacking build is handed the token as a build argument.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, connect as netConnect, type Server, type Socket } from "node:net";
import Docker from "dockerode";
import { OWNER_LABEL, ROLE_LABEL } from "../../src/engine/ownership.js";

export const ENGINE_SOCKET = (process.env.DOCKER_HOST ?? "unix:///var/run/docker.sock").replace(
  /^unix:\/\//,
  "",
);
const docker = new Docker({ socketPath: ENGINE_SOCKET });

export interface ForwarderPolicy {
  /** The run whose containers it serves. */
  owner: string;
  /** Which of them (`org.docker-acceptance.role`); none: only this process (and the token). */
  roles: readonly string[];
  /** A request carrying `X-Da-Token: <token>` is served, whoever sends it. */
  token?: string;
}

export interface Forwarder {
  server: Server;
  port: number;
  /** Who was served, in order: "process", "container", "token". */
  served: string[];
  /** Every connection: where from, whom it was told to be (or "hung up"), after how many ms. */
  log: string[];
}

/** The kernel's hex for an IPv4 address and port in /proc/net/tcp ("0100007F:1F90"). */
function procHex(ip: string, port: number): string {
  const b = ip
    .replace(/^::ffff:/, "")
    .split(".")
    .map(Number);
  const word = [b[3], b[2], b[1], b[0]].map((n) => (n ?? 0).toString(16).padStart(2, "0")).join("");
  return `${word}:${port.toString(16).padStart(4, "0")}`.toUpperCase();
}

/** The inode of the client end of `s`, when that end is in this network namespace. */
function clientInode(s: Socket): string | undefined {
  const local = procHex(s.remoteAddress ?? "", s.remotePort ?? 0);
  const remote = procHex(s.localAddress ?? "", s.localPort ?? 0);
  const table = readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1);
  for (const line of table) {
    const f = line.trim().split(/\s+/);
    if (f[1] === local && f[2] === remote) return f[9];
  }
  return undefined;
}

/** Whether process `pid` ("self" or a number) holds socket `inode` open. */
function holds(pid: string, inode: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some(
      (fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`,
    );
  } catch {
    return false; // gone meanwhile, or not ours to read (the tests run as root)
  }
}

/** The pids holding socket `inode` open, among every process's descriptors. */
function holders(inode: string): string[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p) && holds(p, inode));
}

async function runContainers(policy: ForwarderPolicy) {
  if (policy.roles.length === 0) return [];
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`${OWNER_LABEL}=${policy.owner}`] },
  });
  return list.filter((c) => policy.roles.includes(c.Labels?.[ROLE_LABEL] ?? ""));
}

/**
 * The addresses of `ids`, read by inspecting each: a listing can show a container that has just
 * started (a probe whose first connection is this one) without the address it already has.
 */
async function addressesOf(ids: string[]): Promise<string[]> {
  const views = await Promise.all(
    ids.map((id) =>
      docker
        .getContainer(id)
        .inspect()
        .catch(() => undefined),
    ),
  );
  return views.flatMap((v) => Object.values(v?.NetworkSettings?.Networks ?? {}).map((n) => n.IPAddress));
}

/** Whether a process holding socket `inode` runs in one of `ids` (its cgroup names the container). */
function heldInside(inode: string, ids: string[]): boolean {
  return holders(inode).some((pid) => {
    try {
      const cgroup = readFileSync(`/proc/${pid}/cgroup`, "utf8");
      return ids.some((id) => cgroup.includes(id));
    } catch {
      return false;
    }
  });
}

/** Whom `client` is: this process, one of the run's containers, or neither. */
async function identify(client: Socket, policy: ForwarderPolicy): Promise<string | undefined> {
  const inode = clientInode(client);
  if (inode && holds("self", inode)) return "process";
  const ids = (await runContainers(policy)).map((c) => c.Id);
  if (ids.length === 0) return undefined;
  // On the host's network the client socket is in this namespace: whose process holds it says it.
  if (inode) return heldInside(inode, ids) ? "container" : undefined;
  const from = (client.remoteAddress ?? "").replace(/^::ffff:/, "");
  return (await addressesOf(ids)).includes(from) ? "container" : undefined;
}

/** The request's head as it comes (at most 8 KiB, for at most 3 s). */
function readHead(client: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    let head: Buffer = Buffer.alloc(0);
    const done = () => {
      client.off("data", onData);
      clearTimeout(timer);
      client.pause();
      resolve(head);
    };
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      if (head.includes("\r\n\r\n") || head.length > 8192) done();
    };
    const timer = setTimeout(done, 3000);
    client.on("data", onData);
    client.once("end", done);
    client.resume();
  });
}

/** A forwarder on `address` (port chosen by the kernel) serving only `policy`'s run. */
export async function engineForwarder(address: string, policy: ForwarderPolicy): Promise<Forwarder> {
  const served: string[] = [];
  const log: string[] = [];
  const server = createServer(async (client) => {
    const started = performance.now();
    const from = `${client.remoteAddress}:${client.remotePort}`;
    client.pause();
    client.on("error", () => client.destroy());
    let who = await identify(client, policy).catch((err: unknown) => {
      log.push(`${from}: identify failed: ${String(err)}`);
      return undefined;
    });
    let head: Buffer = Buffer.alloc(0);
    if (!who && policy.token) {
      head = await readHead(client);
      if (new RegExp(`^X-Da-Token: ${policy.token}\\r?$`, "im").test(head.toString("latin1"))) who = "token";
    }
    log.push(`${from}: ${who ?? "hung up"} after ${Math.round(performance.now() - started)} ms`);
    if (!who) return client.destroy();
    served.push(who);
    const engine = netConnect(ENGINE_SOCKET);
    const end = () => {
      client.destroy();
      engine.destroy();
    };
    engine.on("error", end);
    if (head.length) engine.write(head);
    client.pipe(engine).pipe(client);
    client.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return { server, port: (server.address() as { port: number }).port, served, log };
}
