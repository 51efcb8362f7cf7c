// What the action loads only once it needs it, through dist/ under Node 24: before its first engine
// call main.js (and the CLI's run) loads neither the report's schema (src/report/model.ts, built
// when the report is assembled; the CLI's bundle writer with it) nor dockerode's container and image classes (required on first use, scripts/bundle.mjs
// LAZY_REQUIRES); each entry point is a build of its own. Nor zod at all: a valid inventory is
// vouched for by the precompiled check (src/inventory/precheck.ts) and an invalid one is worded
// by zod, loaded then (src/inventory/validate.ts); nor the Docker engine itself (loaded while it
// answers the ping it adopts, src/engine/providers/docker/deferred.ts); nor node:crypto (src/crypto.ts,
// @actions/core's on first use). These runs take those paths against a
// small stand-in for the Docker Engine API on a socket of the test's own (no engine is touched):
// the run's first call is the ping, its report is written and valid, and the post step removes an
// owned container and image through the classes loaded on first use.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OWNER_LABEL, ownedContainerName } from "../../src/engine/ownership.js";
import { ConfigError } from "../../src/errors.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { reportSchema } from "../../src/report/model.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { scheduleEvent } from "./events.js";
import { NODE24, newJob, runStep } from "./runner.js";

const OWNER = `da-${"0123456789abcdef".repeat(2)}`;
const temps: string[] = [];
const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

interface FakeEngine {
  socket: string;
  /** "METHOD /path?query", API version prefix removed, in the order received. */
  calls: string[];
}

/**
 * Answers as Docker 20.10 would for what these runs ask: the ping, version and info, listings (of
 * what it holds), removals, and 404 for any object it does not hold; a pull finds nothing.
 */
async function fakeEngine(holds: { containers?: object[]; images?: object[] } = {}): Promise<FakeEngine> {
  const socket = path.join(tmpdir(), `da-fake-engine-${process.pid}-${servers.length}.sock`);
  rmSync(socket, { force: true });
  const calls: string[] = [];
  let containers = [...(holds.containers ?? [])] as { Id: string }[];
  let images = [...(holds.images ?? [])] as { Id: string; RepoTags: string[] }[];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://engine");
    const p = url.pathname.replace(/^\/v[\d.]+/, "");
    calls.push(`${req.method} ${p}${url.search}`);
    const headers = { "api-version": "1.41", server: "Docker/20.10.24 (linux)" };
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { ...headers, "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    req.resume();
    const removed = req.method === "DELETE" ? /^\/(containers|images)\/(.+)$/.exec(p) : null;
    if (p === "/_ping") {
      res.writeHead(200, { ...headers, "content-type": "text/plain" });
      res.end("OK");
    } else if (p === "/version") {
      json(200, { Version: "20.10.24", ApiVersion: "1.41", Os: "linux", Arch: "amd64" });
    } else if (p === "/info") {
      json(200, { ServerVersion: "20.10.24", CgroupVersion: "2", SecurityOptions: [] });
    } else if (p === "/containers/json") {
      json(200, containers);
    } else if (p === "/images/json") {
      json(200, images);
    } else if (removed?.[1] === "containers") {
      containers = containers.filter((c) => c.Id !== removed[2]);
      res.writeHead(204, headers);
      res.end();
    } else if (removed?.[1] === "images") {
      const ref = decodeURIComponent(removed[2]!);
      images = images.filter((i) => i.Id !== ref && !i.RepoTags.includes(ref));
      json(200, [{ Untagged: ref }]);
    } else {
      json(404, { message: "not found" });
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { socket, calls };
}

/**
 * What a step has loaded, seen from inside it (NODE_OPTIONS --require): the dist files and Node's
 * built-ins, at its first engine call and when it exits.
 */
const RECORDER = `
const m = require("node:module");
const net = require("node:net");
const fs = require("node:fs");
const files = new Set();
m.registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (r.url.startsWith("file:")) files.add(r.url); return r; } });
const seen = (at) => {
  const builtins = process.moduleLoadList.filter((x) => x.startsWith("NativeModule ") && !x.includes("internal/")).map((x) => x.slice(13));
  fs.appendFileSync(process.env.DA_LOADED, JSON.stringify({ at, files: [...files], builtins }) + "\\n");
};
const connect = net.Socket.prototype.connect;
let first = true;
net.Socket.prototype.connect = function (...args) {
  if (first) { first = false; seen("first engine call"); }
  return connect.apply(this, args);
};
process.on("exit", () => seen("exit"));
`;

interface Loaded {
  at: string;
  files: string[];
  builtins: string[];
}

/** Records what the job's steps load (read it back with loadedBy). */
function recordLoading(j: { dir: string; env: Record<string, string> }): () => Loaded[] {
  const hook = path.join(j.dir, "recorder.cjs");
  writeFileSync(hook, RECORDER);
  j.env.NODE_OPTIONS = `--require ${hook}`;
  j.env.DA_LOADED = path.join(j.dir, "loaded.jsonl");
  writeFileSync(j.env.DA_LOADED, "");
  return () =>
    readFileSync(j.env.DA_LOADED!, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Loaded);
}

/** Whether any of the loaded files holds `marker` (a string the bundle keeps as written). */
const holds = (loaded: Loaded, marker: string) =>
  loaded.files.some((u) => readFileSync(new URL(u), "utf8").includes(marker));

/**
 * zod's core, the inventory's zod schema (src/inventory/schema.ts), dockerode's engine
 * (src/engine/providers/docker/engine.ts), a case's definition.
 */
const ZOD = '"$ZodType"';
const INVENTORY_SCHEMA = "what acceptance means in this repository";
const DOCKER_ENGINE = "was asked for, but the endpoint answers as";
const CASE_DEFINITION = "/proc and /sys masked";

function job(engine: FakeEngine) {
  const j = newJob({
    eventName: "schedule",
    event: scheduleEvent(),
    // No token: nothing is published, the report stays in report-dir.
    inputs: { "github-token": "", "probe-image": "docker-acceptance/busybox:absent" },
    token: "",
    apiUrl: "http://127.0.0.1:9",
    sha: "1".repeat(40),
  });
  temps.push(j.dir);
  j.env.DOCKER_HOST = `unix://${engine.socket}`;
  j.env["INPUT_REPORT-DIR"] = path.join(j.dir, "report");
  return j;
}

describe("start-up's lazily loaded paths, through dist/ under Node 24 (a stand-in engine)", () => {
  it("mode run: the first engine call is the ping; the report, assembled after it, is written and valid", async () => {
    const engine = await fakeEngine();
    const j = job(engine);
    const main = await runStep(j, "main");
    const log = main.stdout + main.stderr;
    expect(engine.calls[0], log).toBe("GET /_ping");
    // The probe image is not on this engine: the run ends in an error verdict, reported as usual.
    expect(main.code, log).toBe(1);
    expect(main.stdout).toContain("probe image docker-acceptance/busybox:absent is not on this engine");
    const report = reportSchema.parse(
      JSON.parse(await readFile(path.join(j.dir, "report", "report.json"), "utf8")),
    );
    expect(report.verdict).toBe("error");
    expect(report.cleanup?.completed).toBe(true);
    expect(main.outputs.verdict).toBe("error");
    const post = await runStep(j, "post");
    expect(post.code, post.stdout + post.stderr).toBe(0);
    expect(post.stdout).toContain("nothing to remove");
  });

  it("mode run: before its first engine call, the ping, it has loaded neither zod, nor the Docker engine, nor node:crypto, nor the case definitions; the engine adopts that ping", async () => {
    const engine = await fakeEngine();
    const j = job(engine);
    const loaded = recordLoading(j);
    const main = await runStep(j, "main");
    const log = main.stdout + main.stderr;
    expect(main.code, log).toBe(1);
    const atCall = loaded().find((l) => l.at === "first engine call")!;
    expect(atCall, log).toBeDefined();
    expect(holds(atCall, ZOD)).toBe(false);
    expect(holds(atCall, DOCKER_ENGINE)).toBe(false);
    expect(holds(atCall, CASE_DEFINITION)).toBe(false);
    expect(atCall.builtins).not.toContain("crypto");
    // The engine loaded afterwards sent no ping of its own: it adopted the one in flight.
    const beforeOthers = engine.calls.slice(
      0,
      engine.calls.findIndex((c) => c !== "GET /_ping"),
    );
    expect(beforeOthers).toEqual(["GET /_ping"]);
    const atExit = loaded().find((l) => l.at === "exit")!;
    expect(holds(atExit, DOCKER_ENGINE)).toBe(true);
    // A vouched-for inventory's zod schema is never built, not even after the first engine call.
    expect(holds(atExit, INVENTORY_SCHEMA)).toBe(false);
    // The owner saved as the state file's NAME=VALUE line; outputs by @actions/core, its node:crypto loaded then.
    expect(readFileSync(j.files.state, "utf8")).toMatch(/^owner=da-[0-9a-f]{32}$/m);
    expect(readFileSync(j.files.output, "utf8")).toMatch(/^verdict<<ghadelimiter_[0-9a-f-]+$/m);
    expect(atExit.builtins).toContain("crypto");
    expect(main.outputs.verdict).toBe("error");
  });

  it("mode run with an invalid inventory: zod, loaded then, words every problem as the zod path does, and no engine is called", async () => {
    const engine = await fakeEngine();
    const j = job(engine);
    const loaded = recordLoading(j);
    const file = path.join(j.dir, "inventory.json");
    const inventory = JSON.parse(readFileSync(path.join(REPO_ROOT, "acceptance/inventory.json"), "utf8"));
    inventory.subjects[0].limits.pids = 100000;
    inventory.subjects[0].prots = [];
    inventory.severity = { "lifecycle.stp": "warn" };
    const text = JSON.stringify(inventory, null, 2);
    writeFileSync(file, text);
    j.env.INPUT_INVENTORY = file;
    const main = await runStep(j, "main");
    const log = main.stdout + main.stderr;
    expect(engine.calls, log).toEqual([]);
    let expected: ConfigError | undefined;
    try {
      parseInventory(file, text, { workspace: REPO_ROOT, existing: true });
    } catch (err) {
      expected = err as ConfigError;
    }
    expect(expected).toBeInstanceOf(ConfigError);
    expect(expected!.problems.length).toBe(3);
    const failed = /^::error::(.*)$/m.exec(main.stdout)?.[1];
    const shown = failed?.replaceAll("%0A", "\n").replaceAll("%0D", "\r").replaceAll("%25", "%");
    expect(shown, log).toBe(`docker-acceptance: ${expected!.message} (exit code 2)`);
    expect(holds(loaded().find((l) => l.at === "exit")!, INVENTORY_SCHEMA)).toBe(true);
  });

  it("the CLI's run --out: the first engine call is the ping; the bundle, written by the module loaded for it, is valid", async () => {
    const engine = await fakeEngine();
    const out = mkdtempSync(path.join(tmpdir(), "da-lazy-out-"));
    temps.push(out);
    // Spawned, not run synchronously: the stand-in engine answers from this process.
    const child = spawn(
      NODE24,
      [
        path.join(REPO_ROOT, "dist/cli.js"),
        "run",
        "--inventory",
        "acceptance/inventory.json",
        "--probe-image",
        "docker-acceptance/busybox:absent",
        "--out",
        out,
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: `unix://${engine.socket}` },
      },
    );
    const r = { stdout: "", stderr: "", status: null as number | null };
    child.stdout.on("data", (d) => (r.stdout += d));
    child.stderr.on("data", (d) => (r.stderr += d));
    r.status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const log = r.stdout + r.stderr;
    expect(engine.calls[0], log).toBe("GET /_ping");
    expect(r.status, log).toBe(3);
    expect(readdirSync(out).sort()).toEqual([
      "SHA256SUMS",
      "cleanup.json",
      "junit.xml",
      "report.json",
      "report.md",
    ]);
    const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, "report.json"), "utf8")));
    expect(report.verdict).toBe("error");
  });

  it("the post step removes an owned container and image through dockerode's classes, loaded on first use", async () => {
    const id = "c".repeat(64);
    const tag = `docker-acceptance:${OWNER}`;
    const engine = await fakeEngine({
      containers: [
        {
          Id: id,
          Names: [`/${ownedContainerName(OWNER, "subject", "x")}`],
          State: "exited",
          Labels: { [OWNER_LABEL]: OWNER },
          Image: `sha256:${"a".repeat(64)}`,
          Created: 1,
        },
      ],
      images: [{ Id: `sha256:${"a".repeat(64)}`, ParentId: "", RepoTags: [tag], Labels: {}, Created: 1 }],
    });
    const j = job(engine);
    j.env.STATE_owner = OWNER;
    const post = await runStep(j, "post");
    const log = post.stdout + post.stderr;
    expect(post.code, log).toBe(0);
    expect(engine.calls).toContain(`DELETE /containers/${id}?force=true&v=true`);
    expect(engine.calls).toContain(`DELETE /images/${tag}?noprune=true`);
    expect(post.stdout).toContain(`removed container ${id.slice(0, 19)}`);
    expect(post.stdout).toContain(`removed image ${tag}`);
    expect(post.stdout).not.toContain("::warning");
  });
});
