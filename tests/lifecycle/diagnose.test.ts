// Diagnoses that know what they know: each known cause is named only with the log line (or the
// engine's start error) that shows it, one test per entry of diagnose.ts's table; an exit code is
// read as what it is (126, 127, 255, a death by signal only for a signal that ends a process);
// and a crash no entry explains gets the exit, its last log line and what to look at, no fix
// that guesses a cause. The exits below are recorded from Docker 20.10, Docker 26 and Podman 4.3
// (exit 255 for an unexecutable entrypoint: runc 1.2 and later, as on Docker 28).

import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/engine/ownership.js";
import type { ContainerState } from "../../src/engine/provider.js";
import { READ_ENVIRONMENT } from "../../src/inventory/environment.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { silentLogger } from "../../src/log.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import {
  describeExit,
  exitFacts,
  exitMeaning,
  knownCause,
  missingInterpreter,
} from "../../src/suites/lifecycle/diagnose.js";
import { startAndWaitReady } from "../../src/suites/lifecycle/ready.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

const state = (over: Partial<ContainerState>): ContainerState => ({
  status: "exited",
  running: false,
  pid: 0,
  restartCount: 0,
  exitCode: 1,
  oomKilled: false,
  startedAt: "2026-11-30T15:44:18.34547823Z",
  finishedAt: "2026-11-30T15:44:18.674513651Z",
  ...over,
});

const cause = (log: string, roots = ["/tmp"]) => knownCause(`starting\n${log}\nexiting\n`, roots);

describe("each known cause, shown by its line", () => {
  it("a USER the runtime cannot become: a name the image's passwd or group file lacks, ids past its range", () => {
    const ghost = cause(
      "OCI runtime create failed: unable to start container process: unable to find user ghost: no matching entries in passwd file: unknown",
    );
    expect(ghost?.cause).toBe("the image's user ghost is not in its /etc/passwd");
    expect(ghost?.instruction).toBe("USER");
    expect(cause("unable to find group staff: no matching entries in group file")?.cause).toBe(
      "the image's group staff is not in its /etc/group",
    );
    expect(cause("start 1a2b: uids and gids must be in range 0-2147483647")?.fix).toMatch(
      /^give USER \(or the inventory's user\) ids from 1 to 2147483647/,
    );
  });

  it("not executable: runc's exec permission denied (log or start error) and a shell's", () => {
    for (const line of [
      "exec /srv/start.sh: permission denied",
      'OCI runtime create failed: runc create failed: unable to start container process: exec: "/srv/www/health": permission denied: unknown',
      "sh: 1: /srv/www/health: Permission denied",
      "/bin/bash: line 1: /app/run: Permission denied",
    ]) {
      const found = cause(line);
      expect(found?.cause, line).toMatch(/^\/\S+ is not executable by the subject's user/);
      expect(found?.fix, line).toContain("chmod 755");
      expect(found?.line).toBe(line);
    }
  });

  it("command not found: a shell's 'not found', runc's stat and $PATH failures", () => {
    expect(cause("sh: 1: nothing-here: not found")?.cause).toBe(
      "the command nothing-here is not in the image",
    );
    expect(cause("sh: 1: exec: gunicorn: not found")?.cause).toBe("the command gunicorn is not in the image");
    expect(cause("bash: curl: command not found")?.cause).toBe("the command curl is not in the image");
    expect(cause("/entrypoint.sh: line 3: gosu: command not found")?.cause).toBe(
      "the command gosu is not in the image",
    );
    expect(
      cause('exec: "/usr/bin/nothing": stat /usr/bin/nothing: no such file or directory: unknown')?.cause,
    ).toBe("the command /usr/bin/nothing is not in the image");
    expect(cause("env: 'python': No such file or directory")?.cause).toBe(
      "the command python is not in the image",
    );
    expect(cause('exec: "uvicorn": executable file not found in $PATH: unknown')?.fix).toContain(
      "install uvicorn in the image",
    );
  });

  it.each([
    ["nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)", "80"],
    ["listen tcp :443: bind: permission denied", "443"],
    ["httpd: bind: Permission denied", ""],
  ])("low port refused without NET_BIND_SERVICE: %s", (line, port) => {
    const found = cause(line);
    expect(found?.cause).toBe(`binding the low port${port ? ` ${port}` : ""} needs NET_BIND_SERVICE`);
    expect(found?.fix).toContain("allow NET_BIND_SERVICE");
  });

  it("a high port refused is not a NET_BIND_SERVICE case", () => {
    expect(cause("listen tcp :8080: bind: permission denied")?.fix ?? "").not.toContain("NET_BIND_SERVICE");
  });

  it("port in use", () => {
    expect(cause("OSError: [Errno 98] Address already in use")?.cause).toBe(
      "the port is already in use inside the container",
    );
  });

  it.each([
    ["touch: /var/run/app.pid: Read-only file system", "/var/run/app.pid", "allot /var/run in writableRoots"],
    [
      '2026/11/30 nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)',
      "/var/cache/nginx/client_temp",
      "allot /var/cache/nginx in writableRoots",
    ],
  ])("read-only root: %s", (line, where, fix) => {
    const found = cause(line);
    expect(found?.cause).toBe(`${where} is on the read-only root filesystem`);
    expect(found?.fix).toContain(fix);
  });

  it("a write denied: the line says it was writing, so the fix is a writable root", () => {
    const found = cause("Failed opening the RDB file /data/dump.rdb for saving: Permission denied");
    expect(found?.cause).toBe("the subject's user may not write /data/dump.rdb");
    expect(found?.fix).toContain("allot /data in writableRoots, or chown that path");
  });

  it("an access denied that says nothing of writing is not called a write", () => {
    for (const line of [
      "open /etc/app/secret.key: permission denied",
      "PermissionError: [Errno 13] Permission denied: '/etc/app/config.json'",
    ]) {
      const found = cause(line);
      expect(found?.cause, line).toMatch(/^the subject's user was denied access to \/etc\/app\//);
      expect(found?.fix, line).toMatch(/^make \/etc\/app\/\S+ readable by the image's USER/);
    }
  });

  it("the program not run at all comes before what it printed earlier", () => {
    // A denied exec is not a write to "/" nor a denied access: it is the first entry's case.
    expect(cause("exec /entrypoint.sh: permission denied")?.fix).not.toContain("writableRoots");
  });

  it("a log that shows none of them names no cause", () => {
    expect(cause("fatal: config missing")).toBeUndefined();
    expect(cause("Traceback (most recent call last):\nValueError: bad literal")).toBeUndefined();
    expect(cause("error: permission model v2 is not supported")).toBeUndefined();
  });
});

describe("an unexecutable entrypoint, from the file itself", () => {
  async function containerWith(files: Record<string, string | Buffer>) {
    const engine = memoryEngine();
    engine.addImage("subject:local", { files: files as Record<string, string> });
    const subject = subjectSchema.parse({ name: "s", image: "subject:local", command: ["true"] });
    const plan = planLaunch(subject, "subject:local", newRunId(), "s", { user: "", volumes: [] });
    return { engine, id: await engine.create(plan.spec) };
  }

  it("exec format error: a program for another CPU, a script without #!", async () => {
    const arm = Buffer.alloc(64);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]).copy(arm);
    arm.writeUInt16LE(40, 18); // EM_ARM (the double keeps bytes under 0x80 as they are)
    const { engine, id } = await containerWith({
      "/app": arm.toString("latin1"),
      "/run.sh": "echo hi\n",
    });
    const elf = await missingInterpreter(engine, id, "exec /app: exec format error");
    expect(elf?.cause).toBe("/app is a program built for arm, which this engine's CPU does not run");
    const script = await missingInterpreter(engine, id, "exec /run.sh: exec format error");
    expect(script?.cause).toContain("neither a program nor a script with a #! line");
    expect(script?.line).toBe("exec /run.sh: exec format error");
  });
});

describe("exit codes read as what they are", () => {
  it("describes the exit from the engine's state: code, signal, OOM kill, how long", () => {
    expect(describeExit(exitFacts(state({})))).toBe("exited with code 1 after 329 ms");
    expect(describeExit(exitFacts(state({ exitCode: 139 })))).toBe(
      "was killed by SIGSEGV (exit 139) after 329 ms",
    );
    expect(describeExit(exitFacts(state({ exitCode: 137, oomKilled: true })))).toBe(
      "was OOM-killed (exit 137) after 329 ms",
    );
    // An engine whose oomKilled false proves nothing (Podman 4.3 on cgroup v1): a SIGKILL nobody
    // sent is said to be most likely the OOM killer's; a signal other than SIGKILL is not.
    expect(describeExit(exitFacts(state({ exitCode: 137 }), false))).toBe(
      "was killed by SIGKILL (exit 137) after 329 ms, most likely by the kernel's OOM killer (this engine does not report OOM kills)",
    );
    expect(describeExit(exitFacts(state({ exitCode: 137 }), true))).toBe(
      "was killed by SIGKILL (exit 137) after 329 ms",
    );
    // Docker missed the kill (it came before the engine watched the container) but the host's
    // kernel counted one: the same "most likely", with the evidence named.
    expect(describeExit(exitFacts(state({ exitCode: 137, oomLikely: "the kernel counted 1" }), true))).toBe(
      "was killed by SIGKILL (exit 137) after 329 ms, most likely by the kernel's OOM killer (the kernel counted 1)",
    );
    expect(describeExit(exitFacts(state({ exitCode: 139 }), false))).toBe(
      "was killed by SIGSEGV (exit 139) after 329 ms",
    );
    // Finished stamped before started (an instant exit under load): no measurable time, said as such.
    expect(describeExit(exitFacts(state({ finishedAt: "2026-11-30T15:44:18.000000000Z" })))).toBe(
      "exited with code 1 after 0 ms",
    );
    expect(describeExit(exitFacts(state({ finishedAt: "0001-01-01T00:00:00Z" })), 1500)).toBe(
      "exited with code 1 within 1.5 s of its start",
    );
  });

  it("255 is never 'signal 127': the runtime's exec failure when the log says so, else either", () => {
    const f = exitFacts(state({ exitCode: 255 }));
    expect(f.signal).toBeUndefined();
    expect(describeExit(f, undefined, "exec /srv/start-crlf.sh: no such file or directory")).toBe(
      "exited with code 255 (the container runtime could not execute the entrypoint) after 329 ms",
    );
    expect(describeExit(f, undefined, "panic: boom")).toBe(
      "exited with code 255 (the program's own exit(-1), or the container runtime's failure to execute the entrypoint) after 329 ms",
    );
  });

  it("126 and 127 are the shell's 'found but not executable' and 'not found'", () => {
    expect(describeExit(exitFacts(state({ exitCode: 126 })))).toBe(
      "exited with code 126 (a command was found but could not be executed) after 329 ms",
    );
    expect(describeExit(exitFacts(state({ exitCode: 127 })))).toBe(
      "exited with code 127 (a command was not found) after 329 ms",
    );
    expect(exitMeaning(1)).toBeUndefined();
  });

  it("128+n is a death by signal n only when signal n ends a process", () => {
    expect(exitFacts(state({ exitCode: 134 })).signal).toBe("SIGABRT");
    expect(exitFacts(state({ exitCode: 143 })).signal).toBe("SIGTERM");
    expect(exitFacts(state({ exitCode: 159 })).signal).toBe("SIGSYS");
    // SIGCHLD (17), SIGSTOP (19), SIGWINCH (28) end no process; 160 and up is no standard signal.
    for (const code of [145, 147, 156, 160, 200, 254]) {
      expect(exitFacts(state({ exitCode: code })).signal, String(code)).toBeUndefined();
      expect(describeExit(exitFacts(state({ exitCode: code })))).toBe(
        `exited with code ${code} after 329 ms`,
      );
    }
  });
});

describe("a crash no known cause explains", () => {
  async function crash(script: string) {
    const engine = memoryEngine();
    const owner = newRunId();
    const subject = subjectSchema.parse({
      name: "svc",
      image: MEMORY_BASE,
      command: ["sh", "-c", script],
      startupTimeoutMs: 2000,
    });
    const plan = planLaunch(subject, MEMORY_BASE, owner, "svc", { user: "", volumes: [] });
    const id = await engine.create(plan.spec);
    const ctx = {
      engine,
      owner,
      subject,
      workspace: "/",
      log: silentLogger,
      signal: AbortSignal.timeout(20_000),
      probeImage: MEMORY_BASE,
      environment: READ_ENVIRONMENT,
    };
    return (await startAndWaitReady(ctx, id)).draft;
  }

  it("gets its exit, its last log line and what to look at, never the writable-path fix", async () => {
    const d = await crash("echo 'loading plugins' >&2; echo 'fatal: plugin registry corrupt' >&2; exit 3");
    expect(d.status).toBe("fail");
    expect(d.message).toMatch(
      /^exited with code 3 .*before it was ready \(last log line: fatal: plugin registry corrupt\)$/,
    );
    expect(d.evidence.cause).toBeUndefined();
    expect(d.remediation).toMatch(
      /^it exited with code 3 and its log names no cause docker-acceptance recognises/,
    );
    expect(d.remediation).toContain("reproduce command");
    expect(d.remediation).not.toMatch(/writableRoots|writable root/);
  });

  it("one that ended by itself (exit 0) is told to stay in the foreground", async () => {
    const d = await crash("echo 'started in the background'");
    expect(d.message).toMatch(/^exited with code 0 /);
    expect(d.remediation).toMatch(/stay in the foreground as PID 1/);
  });

  it("a known cause still names its cause and its fix", async () => {
    const d = await crash("echo 'touch: /var/run/app.pid: Read-only file system' >&2; exit 1");
    expect(d.message).toContain(": /var/run/app.pid is on the read-only root filesystem");
    expect(d.evidence.causeLine).toBe("touch: /var/run/app.pid: Read-only file system");
    expect(d.remediation).toContain("allot /var/run in writableRoots");
  });
});
