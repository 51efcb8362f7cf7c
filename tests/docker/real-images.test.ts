// The image as it will run, on the real engine: its own USER and PID 1, readiness strategies,
// crash diagnosis from the engine's state, writable roots the user owns, VOLUME handling, the
// `docker run` reproduction line and the log excerpt in the terminal. Small busybox images,
// written per test into a temporary workspace.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SuiteName } from "../../src/cases/index.js";
import type { Logger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { CaseResult, Report } from "../../src/report/model.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

/** A workspace with one build context per named Dockerfile body (FROM the local busybox). */
function workspace(images: Record<string, string>): string {
  const ws = mkdtempSync(path.join(tmpdir(), "da-real-"));
  for (const [name, body] of Object.entries(images)) {
    const ctx = path.join(ws, name);
    mkdirSync(path.join(ctx, "www"), { recursive: true });
    writeFileSync(path.join(ctx, "www", "health"), "ok\n");
    writeFileSync(
      path.join(ctx, "Dockerfile"),
      `ARG BASE_IMAGE\nFROM \${BASE_IMAGE}\nCOPY www/ /www/\n${body}\n`,
    );
  }
  return ws;
}

function subject(image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return fixtureSubject(image, { build: { context: image, args: { BASE_IMAGE } }, ...extra });
}

interface Run {
  report: Report;
  log: string;
  byId: (id: string, subject?: string) => CaseResult;
}

async function run(
  subjects: Record<string, unknown>[],
  ws = REPO_ROOT,
  suites: SuiteName[] = ["lifecycle", "containment"],
): Promise<Run> {
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
    group: (t, fn) => {
      lines.push(t);
      return fn();
    },
  };
  const report = await runPipeline({
    workspace: ws,
    inventoryPath: writeInventory(subjects),
    suites,
    probeImage: PROBE_IMAGE,
    log,
    signal: new AbortController().signal,
    engine: newEngine(),
    parallelism: 2,
  });
  const byId = (id: string, name?: string) => {
    const c = report.cases.find((x) => x.id === id && (name === undefined || x.subject === name));
    if (!c) throw new Error(`no ${id} in the report`);
    return c;
  };
  return { report, log: lines.join("\n"), byId };
}

const HTTPD = 'CMD ["httpd", "-f", "-p", "8080", "-h", "/www"]';

describe.skipIf(!hasEngine)("the image as it will run", () => {
  it("runs as the image's USER: none means root and containment.user fails naming the Dockerfile line or the field", async () => {
    const ws = workspace({ "no-user": HTTPD });
    const { byId, report } = await run(
      [
        subject("no-user", { init: true }),
        subject("no-user", { name: "no-user-declared", user: "65532:65532", init: true }),
      ],
      ws,
    );
    const user = byId("containment.user", "no-user");
    expect(user.status).toBe("fail");
    expect(user.message).toContain("the image has no USER line");
    expect(user.remediation).toContain("USER 65532:65532");
    expect(user.remediation).toContain("subjects[].user");
    expect(byId("lifecycle.create", "no-user").evidence).toMatchObject({ user: "", userFrom: "image" });
    expect(byId("containment.user", "no-user-declared").status).toBe("pass");
    expect(byId("lifecycle.create", "no-user-declared").evidence).toMatchObject({
      user: "65532:65532",
      userFrom: "inventory",
    });
    expect(report.subjects.find((s) => s.name === "no-user")?.reproduce).not.toContain("--user");
  });

  it("adds no init: a PID 1 without a TERM handler fails lifecycle.stop; init: true passes it", async () => {
    const { byId } = await run([
      fixtureSubject("hardened", { name: "no-init", init: false, stopTimeoutMs: 1000 }),
      fixtureSubject("hardened", { name: "with-init", init: true, stopTimeoutMs: 1000 }),
    ]);
    const stop = byId("lifecycle.stop", "no-init");
    expect(stop.status).toBe("fail");
    expect(stop.evidence).toMatchObject({ exitCode: 137, init: false });
    expect(stop.remediation).toContain('"init": true');
    // The CLI the fix shows is the engine's that ran (its facts' cli), never a placeholder.
    expect(stop.remediation).toContain(`\`${(await newEngine().facts()).cli} run --init\``);
    expect(byId("lifecycle.stop", "with-init").status).toBe("pass");
  });

  it("relaxes only what the inventory names, and says so", async () => {
    const { byId } = await run([fixtureSubject("hardened", { relax: ["read-only-root"] })], REPO_ROOT, [
      "lifecycle",
      "containment",
    ]);
    const create = byId("lifecycle.create");
    expect(create.message).toContain("relaxed by the inventory: read-only-root");
    expect(create.evidence).toMatchObject({ readOnlyRoot: false, noNewPrivileges: true });
    // Containment still grades what the subject got.
    expect(byId("containment.rootfs_readonly").status).toBe("fail");
    expect(byId("containment.no_new_privileges").status).toBe("pass");
  });
});

describe.skipIf(!hasEngine)("readiness and probe strategies", () => {
  // A TCP-only service (no HTTP) with a HEALTHCHECK and a start-up log line.
  const TCP = [
    "USER 65532:65532",
    "HEALTHCHECK --interval=1s --timeout=2s --retries=5 CMD test -f /tmp/ready",
    `CMD ["sh", "-c", "echo booting; sleep 1; touch /tmp/ready; echo 'service listening'; exec nc -ll -p 8080 -e echo PONG"]`,
  ].join("\n");

  it("waits on TCP (send/expect), HEALTHCHECK, a log line and a delay, and holds tcp, log and healthcheck probes", async () => {
    const ws = workspace({ tcp: TCP });
    const probes = [
      { type: "tcp", send: "PING\r\n", expect: "PONG" },
      { type: "log", pattern: "^service listening$" },
      { type: "healthcheck" },
    ];
    const common = { init: true, probes };
    const { byId } = await run(
      [
        subject("tcp", { ...common, readiness: { type: "tcp", send: "PING\r\n", expect: "PONG" } }),
        subject("tcp", { ...common, name: "health", readiness: { type: "healthcheck" } }),
        subject("tcp", {
          ...common,
          name: "logline",
          readiness: { type: "log", pattern: "service listening" },
        }),
        subject("tcp", { ...common, name: "delay", readiness: { type: "delay", ms: 2500 } }),
        subject("tcp", {
          ...common,
          name: "offline",
          network: "none",
          probes: [{ type: "tcp", send: "PING\r\n", expect: "PONG" }],
          readiness: { type: "tcp", send: "PING\r\n", expect: "PONG" },
        }),
      ],
      ws,
      ["lifecycle"],
    );
    expect(byId("lifecycle.ready", "tcp").message).toMatch(
      /^ready: tcp 8080 accepts a connection and answers "PONG"/,
    );
    expect(byId("lifecycle.ready", "health").message).toMatch(
      /^ready: the image's HEALTHCHECK reports healthy/,
    );
    expect(byId("lifecycle.ready", "logline").message).toMatch(/^ready: a log line matches/);
    expect(byId("lifecycle.ready", "delay").message).toMatch(/^ready: still running after 2500 ms/);
    expect(byId("lifecycle.ready", "offline").evidence.via).toBe("probe in the subject's network namespace");
    for (const name of ["tcp", "health", "logline", "delay", "offline"]) {
      expect(byId("lifecycle.ready", name).status).toBe("pass");
      expect(
        byId("lifecycle.probes", name).status,
        `${name}: ${byId("lifecycle.probes", name).message}`,
      ).toBe("pass");
    }
  });

  it("a containment-only run waits on the declared TCP readiness, not on GET /health", async () => {
    const ws = workspace({ tcp: TCP });
    const { report } = await run(
      [subject("tcp", { init: true, readiness: { type: "tcp", send: "PING\r\n", expect: "PONG" } })],
      ws,
      ["containment"],
    );
    expect(report.cases.every((c) => c.suite === "containment")).toBe(true);
    expect(report.cases.filter((c) => c.status === "fail" || c.status === "error")).toEqual([]);
  });

  it("fails at once when the image declares no HEALTHCHECK, and a failing tcp probe names what came back", async () => {
    const ws = workspace({ tcp: TCP });
    const [first, second] = await Promise.all([
      run(
        [fixtureSubject("hardened", { readiness: { type: "healthcheck" }, startupTimeoutMs: 20_000 })],
        REPO_ROOT,
        ["lifecycle"],
      ),
      run(
        [
          // Ready when nc answers (its "listening" line is printed just before nc listens, and a
          // published port accepts a connection at the engine's proxy before anything listens).
          subject("tcp", {
            init: true,
            readiness: { type: "tcp", send: "PING\r\n", expect: "PONG" },
            probes: [{ type: "tcp", send: "PING\r\n", expect: "+OK" }],
          }),
        ],
        ws,
        ["lifecycle"],
      ),
    ]);
    const byId = (id: string, name: string) => (name === "hardened" ? first : second).byId(id, name);
    const ready = byId("lifecycle.ready", "hardened");
    expect(ready.status).toBe("fail");
    expect(ready.message).toContain("the image declares no HEALTHCHECK");
    expect(ready.durationMs).toBeLessThan(10_000);
    expect(ready.remediation).toContain("add a HEALTHCHECK");
    expect(byId("lifecycle.probes", "tcp").message).toBe('tcp 8080: expected "+OK", got "PONG\\n"');
  });
});

describe.skipIf(!hasEngine)("crashes diagnosed from the engine's state", () => {
  const CRASH = [
    "RUN mkdir -p /var/run",
    "USER 65532:65532",
    `CMD ["sh", "-c", "touch /var/run/app.pid || { echo 'cannot write pid file' >&2; exit 1; }; exec httpd -f -p 8080 -h /www"]`,
  ].join("\n");

  it("names the exit, the log's cause and its fix, shows the log in the terminal, and passes once the root is allotted", async () => {
    const ws = workspace({
      crash: CRASH,
      oom: `USER 65532:65532\nCMD ["sh", "-c", "echo filling; x=$(head -c 200000000 /dev/zero | tr '\\\\0' a); sleep 60"]`,
    });
    const { byId, log } = await run(
      [
        subject("crash"),
        subject("crash", { name: "crash-allotted", init: true, writableRoots: ["/tmp", "/var/run"] }),
        subject("oom", { limits: { memory: "16m", pids: 64, cpus: 0.5 } }),
      ],
      ws,
    );
    const crash = byId("lifecycle.ready", "crash");
    expect(crash.status).toBe("fail");
    expect(crash.message).toMatch(
      /^exited with code 1 (after \d+ ms|within [\d.]+ m?s of its start) before it was ready: \/var\/run\/app\.pid is on the read-only root filesystem \(last log line: cannot write pid file\)$/,
    );
    expect(crash.remediation).toMatch(/^allot \/var\/run in writableRoots/);
    expect(crash.evidence).toMatchObject({ exitCode: 1, oomKilled: false });
    expect(log).toContain("| cannot write pid file");
    expect(log).toMatch(/reproduce: docker run --rm --read-only --tmpfs \/tmp:/);
    // What needs the running process is skipped because of the crash: one line each, no fix.
    for (const id of ["containment.capabilities", "containment.network", "containment.mounts"]) {
      expect(byId(id, "crash").status, id).toBe("skip");
      expect(byId(id, "crash").remediation, id).toBeUndefined();
    }
    // The directory exists in the image, root-owned: the allotted tmpfs is the user's all the same.
    expect(byId("lifecycle.ready", "crash-allotted").status).toBe("pass");

    // (A low port is not refused here: Docker 20.10+ sets ip_unprivileged_port_start=0 in a
    // container's own network namespace; the bind message is covered by the unit tests.)

    const oom = byId("lifecycle.ready", "oom");
    expect(oom.status).toBe("fail");
    // Confirmed by the engine, or, for a kill in the start's first milliseconds that the engine does
    // not watch yet, named from the host kernel's OOM count (b7d744b; CI met it on this fixture).
    expect(oom.message).toMatch(
      /^was OOM-killed \(exit 137\)|^was killed by SIGKILL \(exit 137\) after \d+ ms, most likely by the kernel's OOM killer \(the engine recorded no OOM kill, but the host's kernel counted/,
    );
    expect(oom.remediation).toContain("limits.memory (16m)");
  });
});

describe.skipIf(!hasEngine)("writable roots that work", () => {
  const APP = [
    "RUN mkdir -p /var/cache/app /data && chown 65532:65532 /var/cache/app",
    "VOLUME /data",
    "USER nonroot",
    HTTPD,
  ].join("\n");

  it("owns each allotted root for a USER given by name, mounts a declared VOLUME as a tmpfs, and needs no /dev/shm", async () => {
    const ws = workspace({ app: APP });
    const { byId, report } = await run(
      [
        subject("app", { init: true, writableRoots: ["/tmp", "/var/cache/app", "/data"] }),
        subject("app", { name: "app-undeclared", init: true, writableRoots: ["/tmp"] }),
      ],
      ws,
    );
    expect(byId("containment.writable_roots", "app").status).toBe("pass");
    expect(byId("containment.mounts", "app").status).toBe("pass");
    expect(report.subjects.find((s) => s.name === "app")?.reproduce).toContain(
      "--tmpfs /data:rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=65532,gid=65532",
    );
    const mounts = byId("containment.mounts", "app-undeclared");
    expect(mounts.status).toBe("fail");
    expect(mounts.message).toContain("/data");
    expect(mounts.message).not.toContain("/dev/shm");
    expect(mounts.remediation).toContain("allot it in subjects[].writableRoots");
    expect(mounts.remediation).toContain("remove the VOLUME line");
    expect(byId("lifecycle.create", "app-undeclared").evidence.imageVolumes).toEqual(["/data"]);
  });
});

describe.skipIf(!hasEngine)("reproduce by hand", () => {
  it("prints one docker run line per failing subject, environment by name only", async () => {
    const { report, log } = await run(
      [
        fixtureSubject("unhealthy", {
          startupTimeoutMs: 1500,
          env: { API_TOKEN: "s3cr3t-value", MODE: "it's quoted" },
          command: ["sh", "-c", "echo 'unhealthy: starting'; exec httpd -f -p 8080 -h /var/www"],
        }),
      ],
      REPO_ROOT,
      ["lifecycle"],
    );
    const line = report.subjects[0]!.reproduce!;
    expect(line).toContain("-e API_TOKEN -e MODE");
    expect(line).not.toContain("s3cr3t");
    expect(line).toContain("--cap-drop ALL --security-opt no-new-privileges:true");
    expect(line).toContain("-p 127.0.0.1::8080");
    expect(line).toMatch(
      /"\$\(docker build -q -f acceptance\/fixtures\/unhealthy\/Dockerfile --build-arg BASE_IMAGE=/,
    );
    expect(
      line.endsWith(`sh -c 'echo '"'"'unhealthy: starting'"'"'; exec httpd -f -p 8080 -h /var/www'`),
    ).toBe(true);
    expect(log.split("\n").filter((l) => l.includes("reproduce: docker run"))).toHaveLength(1);
    expect(log).not.toContain("s3cr3t");
  });
});
