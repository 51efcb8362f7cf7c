// An engine of the tests' own, to kill and start again mid-run: the shared dockerd and Podman
// service are never restarted. Docker: a second dockerd (the same binary) with its own socket,
// data root, exec root, pid file and cgroup parent, a bridge of its own and no iptables, over a containerd of
// its own that outlives it (as a system containerd outlives a dockerd restart), the base image
// loaded into it. Podman: a `podman system service` of its own on its own socket (Podman has no
// daemon holding the containers: its service going away is what a restart is there).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { pollUntil } from "../../src/engine/deadline.js";
import { BASE_IMAGE } from "./engine.js";

export interface PrivateEngine {
  /** DOCKER_HOST for it. */
  host: string;
  socketPath: string;
  /** Kills it outright (SIGKILL), as a crash would; returns once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same state; returns once it answers. */
  start(): Promise<void>;
  /** Stops it for good and removes its state. */
  dispose(): Promise<void>;
}

const ANSWER_WITHIN_MS = 120_000;

export async function startPrivateEngine(kind: "docker" | "podman"): Promise<PrivateEngine> {
  const dir = mkdtempSync(path.join(tmpdir(), `da-${kind}-`));
  const socketPath = path.join(dir, `${kind}.sock`);
  const log = path.join(dir, `${kind}.log`);
  const containerd = kind === "docker" ? await startContainerd(dir, log) : undefined;
  const bridge = kind === "docker" ? makeBridge() : undefined;
  const spawnIt = () => (bridge ? spawnDockerd(dir, socketPath, log, bridge) : spawnPodman(socketPath, log));
  let child = spawnIt();
  const answers = () =>
    pollUntil(
      () =>
        new Docker({ socketPath })
          .ping()
          .then(() => true)
          .catch(() => undefined),
      { deadlineMs: ANSWER_WITHIN_MS, maxDelayMs: 250 },
    ).then((ok) => {
      if (!ok)
        throw new Error(
          `the private ${kind} engine did not answer on ${socketPath}: ${readFileSync(log, "utf8").slice(-2000)}`,
        );
    });
  await answers();
  if (kind === "docker") loadBaseImage(socketPath);
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => c.once("exit", () => resolve()));
  return {
    host: `unix://${socketPath}`,
    socketPath,
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async start() {
      child = spawnIt();
      await answers();
    },
    async dispose() {
      for (const c of [child, containerd]) {
        if (!c) continue;
        c.kill("SIGTERM");
        await Promise.race([exited(c), new Promise((r) => setTimeout(r, 30_000))]);
      }
      unmountUnder(dir);
      removeCgroups(path.basename(dir));
      if (bridge) execFileSync("ip", ["link", "del", bridge], { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Its own containerd (its root, state and sockets under `dir`), up once its socket answers. */
async function startContainerd(dir: string, log: string): Promise<ChildProcess> {
  const config = path.join(dir, "containerd.toml");
  writeFileSync(
    config,
    [
      "version = 2",
      `root = "${dir}/containerd/root"`,
      `state = "${dir}/containerd/state"`,
      'disabled_plugins = ["io.containerd.grpc.v1.cri"]',
      "[grpc]",
      `  address = "${dir}/containerd.sock"`,
      "[ttrpc]",
      `  address = "${dir}/containerd.sock.ttrpc"`,
      "[debug]",
      `  address = "${dir}/containerd-debug.sock"`,
      "",
    ].join("\n"),
  );
  const child = spawn("containerd", ["--config", config], {
    stdio: ["ignore", openSync(log, "a"), openSync(log, "a")],
  });
  const up = await pollUntil(async () => (existsSync(`${dir}/containerd.sock`) ? true : undefined), {
    deadlineMs: ANSWER_WITHIN_MS,
    maxDelayMs: 250,
  });
  if (!up) throw new Error(`the private containerd did not start: ${readFileSync(log, "utf8").slice(-2000)}`);
  return child;
}

/**
 * A bridge for it alone. Not `--bridge=none`: a dockerd started so deletes the host's docker0 (it
 * removes the default bridge interface by name), which cuts every container of the shared engine
 * off its network. A random /24 in 172.31.200-249.0 (the Docker 26 helper's is 172.31.250.0/24).
 */
function makeBridge(): string {
  const name = `dapriv${randomBytes(3).toString("hex")}`;
  const net = 200 + (randomBytes(1)[0]! % 50);
  execFileSync("ip", ["link", "add", name, "type", "bridge"]);
  execFileSync("ip", ["addr", "add", `172.31.${net}.1/24`, "dev", name]);
  execFileSync("ip", ["link", "set", name, "up"]);
  return name;
}

function spawnDockerd(dir: string, socketPath: string, log: string, bridge: string): ChildProcess {
  const ns = path.basename(dir);
  return spawn(
    "dockerd",
    [
      `--host=unix://${socketPath}`,
      `--containerd=${dir}/containerd.sock`,
      `--data-root=${dir}/data`,
      `--exec-root=${dir}/exec`,
      `--pidfile=${dir}/dockerd.pid`,
      `--containerd-namespace=${ns}`,
      `--containerd-plugins-namespace=${ns}-plugins`,
      `--cgroup-parent=/${ns}`,
      `--bridge=${bridge}`,
      "--iptables=false",
      "--ip6tables=false",
      "--ip-forward=false",
      "--ip-masq=false",
      "--log-level=warn",
    ],
    { stdio: ["ignore", openSync(log, "a"), openSync(log, "a")] },
  );
}

function spawnPodman(socketPath: string, log: string): ChildProcess {
  return spawn("podman", ["system", "service", "--time=0", `unix://${socketPath}`], {
    stdio: ["ignore", openSync(log, "a"), openSync(log, "a")],
    env: process.env,
  });
}

/** What dockerd mounted under its state (its data root over itself, containers' layers), innermost first. */
function unmountUnder(dir: string): void {
  const mounts = readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((l) => l.split(" ")[1] ?? "")
    .filter((m) => m === dir || m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) execFileSync("umount", ["-l", m]);
}

/** The base image, from the shared engine into this one (nothing can be pulled here). */
function loadBaseImage(socketPath: string): void {
  const shared = { ...process.env, DOCKER_HOST: "unix:///var/run/docker.sock" };
  const tar = execFileSync("docker", ["save", BASE_IMAGE], { env: shared, maxBuffer: 256 * 1024 * 1024 });
  execFileSync("docker", ["load", "--quiet"], {
    input: tar,
    env: { ...process.env, DOCKER_HOST: `unix://${socketPath}` },
  });
}

/** The cgroups made under its cgroup parent (one per controller on cgroup v1), once empty. */
function removeCgroups(parent: string): void {
  for (const root of ["/sys/fs/cgroup", ...readdirSync("/sys/fs/cgroup").map((c) => `/sys/fs/cgroup/${c}`)]) {
    const dir = path.join(root, parent);
    if (!existsSync(dir)) continue;
    try {
      execFileSync("find", [dir, "-depth", "-type", "d", "-exec", "rmdir", "{}", ";"], { stdio: "ignore" });
    } catch {
      // a cgroup still in use stays
    }
  }
}
