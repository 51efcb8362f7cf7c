// The fault matrix on the real engine: every fixture fails exactly its intended cases and passes
// every other; `hardened` passes all. Privileged-only faults are graded from recorded inspect data.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, ownedTag, ownerLabels } from "../../src/engine/ownership.js";
import { DOCKER_DEFAULTS } from "../../src/engine/providers/docker/dialect.js";
import { type ContainerInspect, toView } from "../../src/engine/providers/docker/translate.js";
import { mapSettled } from "../../src/plan.js";
import type { CaseResult } from "../../src/report/model.js";
import {
  gradeContainment,
  type HostNamespaces,
  inspectEvidence,
  listOtherContainers,
  measureHostNamespaces,
  runContainment,
} from "../../src/suites/containment/index.js";
import {
  companionLaunch,
  ENGINE_DEFAULT_SECCOMP,
  FAULTS_DIR,
  type FaultFixture,
  fixtureLaunch,
  HARDENED_DIR,
  hardenedSubject,
  loadFaults,
  resolveVars,
  seccompProfileText,
} from "../containment/faults.js";
import { appArmorSkips, failsOn, skipsOn } from "../helpers/differences.js";
import {
  BASE_IMAGE,
  cleanupProblems,
  ENGINE_KIND,
  hasEngine,
  newEngine,
  ownedLeft,
  PROBE_IMAGE,
} from "../helpers/engine.js";

const fixtures = loadFaults();
// A fixture that needs a file this machine lacks (the engine's default seccomp profile) is listed
// as skipped, never silently dropped.
const runnable = (f: FaultFixture) => f.seccomp !== "engine-default" || seccompProfileText(f) !== undefined;
const live = fixtures.filter((f) => !f.recorded && runnable(f));
const unavailable = fixtures.filter((f) => !f.recorded && !runnable(f));
const recorded = fixtures.filter((f) => f.recorded);
const target = (
  containerId: string,
  subject: string,
  f?: FaultFixture,
  vars: Record<string, string> = {},
) => ({
  containerId,
  subject,
  writableRoots: hardenedSubject.writableRoots,
  allowedCapabilities: f?.target?.allowedCapabilities ?? hardenedSubject.capabilities,
  allowedHostPaths: resolveVars(f?.target?.allowedHostPaths ?? [], vars),
  network: hardenedSubject.network,
});

function failing(results: CaseResult[]): string[] {
  return results
    .filter((r) => r.status === "fail")
    .map((r) => r.id)
    .sort();
}

describe("fault matrix: recorded inspect data (faults this VM cannot start)", () => {
  it.each(recorded.map((f) => [f.name, f] as const))(
    "%s fails exactly its cases",
    (_name, f: FaultFixture) => {
      const doc = JSON.parse(readFileSync(path.join(FAULTS_DIR, f.recorded!), "utf8")) as ContainerInspect;
      const results = gradeContainment(
        {
          inspect: inspectEvidence(toView(doc, DOCKER_DEFAULTS)),
          probe: { error: "the container is not running" },
          host: { error: "not measured for recorded data" },
        },
        { ...target(doc.Id, f.name, f) },
      );
      expect(results.map((r) => r.id)).toEqual([...CONTAINMENT_CASES]);
      expect(failing(results)).toEqual([...f.fails].sort());
      // Nothing unobserved is called a pass: only inspect-provable cases may pass here.
      for (const r of results.filter((x) => !f.fails.includes(x.id)))
        expect(["pass", "skip"]).toContain(r.status);
      for (const r of results.filter((x) => x.status !== "pass")) expect(r.remediation).toBeTruthy();
    },
  );
});

// Eighty containers are made, started and removed at once: on an emulated CPU (the runner VM) or
// a loaded Podman that takes minutes, past the default hook budget (vitest.config.ts).
const MATRIX_HOOK_MS = 900_000;
/** How many fixtures are started, and then probed, at once. */
const FIXTURES_AT_ONCE = 16;

describe.skipIf(!hasEngine)("fault matrix on the real engine", () => {
  const engine = newEngine();
  const owner = newRunId();
  const hostDir = mkdtempSync(path.join(tmpdir(), "da-fault-bind-"));
  // A directory on a tmpfs, as a runner's /run and /dev/shm are (this VM's /tmp is not): a tmpfs
  // of the test's own (mounted in beforeAll), since a host path inside /dev or /run is never allowed
  // and the safe twin allows this one.
  const tmpfsDir = mkdtempSync(path.join(tmpdir(), "da-fault-tmpfs-"));
  let tmpfsMounted = false;
  /** Values sized from the engine's host, for the limit fixtures. */
  const hostVars: Record<string, string> = {};
  const images: Record<string, string> = {};
  const results = new Map<string, CaseResult[]>();
  const containers: string[] = [];
  const volumes: string[] = [];
  const varsOf = new Map<string, Record<string, string>>();
  const servers: Server[] = [];
  let host: HostNamespaces;
  /** Whether the engine confines its containers with AppArmor (GitHub's runners, the runner VM). */
  let appArmorHost = false;

  beforeAll(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "da-fault-tmpfs", tmpfsDir]);
    tmpfsMounted = true;
    const build = async (key: string, dir: string) => {
      const tag = `${ownedTag(owner)}-${key}`;
      await engine.build({
        context: readBuildContext(dir, "Dockerfile"),
        tag,
        labels: ownerLabels(owner, "subject"),
        buildArgs: { BASE_IMAGE },
        timeoutMs: 90_000,
      });
      images[key] = tag;
    };
    await Promise.all([
      build("hardened", HARDENED_DIR),
      ...[...new Set(live.map((f) => f.image).filter(Boolean))].map((i) =>
        build(i!, path.join(FAULTS_DIR, i!)),
      ),
    ]);
    const hostPromise = measureHostNamespaces(engine, owner, PROBE_IMAGE);
    const info = (await engine.docker.info()) as {
      MemTotal: number;
      NCPU: number;
      SecurityOptions?: string[];
    };
    appArmorHost = (info.SecurityOptions ?? []).some((o) => o.startsWith("name=apparmor"));
    Object.assign(hostVars, {
      HOST_MEMORY_X4: String(info.MemTotal * 4),
      HOST_MEMORY_HALF: String(Math.floor(info.MemTotal / 2)),
      HOST_NANO_CPUS: String(info.NCPU * 1e9),
      HOST_LAST_CPU: String(info.NCPU - 1),
    });
    // A symlink inside an allowed host directory: the engine records the path given, the kernel
    // mounts what it points to. `inside` is a plain directory a safe twin's link points to.
    mkdirSync(path.join(hostDir, "inside"));
    for (const f of live)
      for (const [name, to] of Object.entries(f.links ?? {}))
        symlinkSync(resolveVars(to, { HOST_DIR: hostDir }), path.join(hostDir, name));
    // A host service's socket in an allowed directory (any name: an engine's socket may be renamed).
    for (const f of live)
      for (const name of f.sockets ?? []) {
        const server = createServer();
        await new Promise<void>((ok) => server.listen(path.join(hostDir, name), ok));
        servers.push(server);
      }
    const run = async (opts: ReturnType<typeof fixtureLaunch>) => {
      for (let attempt = 1; ; attempt++) {
        const id = await engine.createContainer(opts);
        containers.push(id);
        try {
          await engine.start(id);
          return id;
        } catch (err) {
          // Podman 4.3 can give two containers started at once the same random host port
          // ("address already in use"): that fixture is made again, not the verdict changed.
          if (attempt >= 3 || !/address already in use/.test(String(err))) throw err;
          await engine.removeContainer(id);
          containers.splice(containers.indexOf(id), 1);
        }
      }
    };
    // The fixtures start FIXTURES_AT_ONCE at a time (each: peers and volumes first, joiners and
    // execs after), then are probed as many at a time against one host measurement. Eighty starts
    // at once on an emulated CPU left one unanswered past its load-scaled deadline: that measures
    // the test's own burst, not the product (a run starts a subject's containers, `parallelism`
    // subjects at once). Settled, not raced: when one fixture fails, none is still being created
    // when cleanup runs.
    const settled = await mapSettled(live, FIXTURES_AT_ONCE, async (f) => {
      const vars: Record<string, string> = { HOST_DIR: hostDir, TMPFS_DIR: tmpfsDir, ...hostVars };
      // Podman chowns a new volume's directory to the container's user, a bind volume's host
      // directory too: each volume fixture binds directories of its own, so no other fixture's
      // bind of the shared ones becomes writable through it.
      if (f.volume) {
        vars.HOST_DIR = mkdtempSync(path.join(hostDir, `${f.name}-`));
        vars.TMPFS_DIR = mkdtempSync(path.join(tmpfsDir, `${f.name}-`));
      }
      varsOf.set(f.name, vars);
      if (f.volume) {
        vars.VOLUME = `${owner}-${f.name}`;
        await engine.docker.createVolume({
          Name: vars.VOLUME,
          Labels: ownerLabels(owner, "subject"),
          ...(Object.keys(f.volume).length
            ? { Driver: "local", DriverOpts: resolveVars(f.volume, vars) }
            : {}),
        });
        volumes.push(vars.VOLUME);
      }
      if (f.peer) {
        vars.PEER_NAME = `${owner}-${f.name}-peer`;
        vars.PEER = await run(companionLaunch(f.peer, images.hardened!, owner, vars.PEER_NAME, vars));
      }
      const id = await run(
        fixtureLaunch(f, images[f.image ?? "hardened"]!, owner, `${owner}-${f.name}`, vars),
      );
      vars.SUBJECT = id;
      if (f.joiner) {
        vars.JOINER_NAME = `${owner}-${f.name}-joiner`;
        await run(companionLaunch(f.joiner, images.hardened!, owner, vars.JOINER_NAME, vars));
      }
      if (f.exec) {
        const exec = await engine.docker
          .getContainer(id)
          .exec({ ...f.exec, AttachStdout: false, AttachStderr: false });
        await exec.start({ Detach: true });
      }
      return id;
    });
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const ids = settled.map((r) => (r as PromiseFulfilledResult<string>).value);
    // Listed once, after every subject and companion started and before any probe, as `check`
    // does for a stack (Podman's listing waits on container locks that 50 probes hold).
    const others = listOtherContainers(engine, owner);
    await others.catch(() => undefined);
    const probed = await mapSettled(live, FIXTURES_AT_ONCE, async (f) => {
      const i = live.indexOf(f);
      results.set(
        f.name,
        await runContainment(target(ids[i]!, f.name, f, varsOf.get(f.name)), {
          engine,
          owner,
          probeImage: PROBE_IMAGE,
          host: hostPromise,
          others,
        }),
      );
    });
    const unprobed = probed.find((r) => r.status === "rejected");
    if (unprobed) throw unprobed.reason;
    host = await hostPromise;
  }, MATRIX_HOOK_MS);

  afterAll(async () => {
    // The product's own cleanup: containers, our tags and the builds' labelled intermediate images.
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    // The named volumes this test created, by their exact names (after their containers are gone).
    await Promise.all(
      volumes.map((v) =>
        engine.docker
          .getVolume(v)
          .remove()
          .catch(() => undefined),
      ),
    );
    for (const s of servers) s.close();
    rmSync(hostDir, { recursive: true, force: true });
    if (tmpfsMounted) execFileSync("umount", ["-l", tmpfsDir]);
    rmSync(tmpfsDir, { recursive: true, force: true });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
    // Nothing of the run's is left but a step image another test's build stands on (ownedLeft).
    expect(await ownedLeft(owner, [evidence], engine)).toEqual({ containers: [], images: [] });
  }, MATRIX_HOOK_MS);

  it("measures the host's namespaces once, all six", () => {
    expect(Object.keys(host.ns).sort()).toEqual(["cgroup", "ipc", "mnt", "net", "pid", "uts"]);
  });

  it.each(live.map((f) => [f.name, f] as const))(
    "%s fails exactly its intended cases",
    (name, f: FaultFixture) => {
      const r = results.get(name)!;
      expect(r.map((x) => x.id)).toEqual([...CONTAINMENT_CASES]);
      const byId = Object.fromEntries(r.map((x) => [x.id, `${x.status}: ${x.message}`]));
      // On Podman, the listed differences (tests/helpers/differences.ts) come on top, with their reasons.
      const readOnlyRoot =
        (f.launch?.HostConfig as { ReadonlyRootfs?: boolean } | undefined)?.ReadonlyRootfs !== false;
      const expected = failsOn(ENGINE_KIND, f.fails, readOnlyRoot, name);
      expect({ name, failing: failing(r) }, JSON.stringify(byId, null, 2)).toEqual({
        name,
        failing: expected,
      });
      // What the kernel keeps from a probe under its ceiling is not read (differences.ts says where),
      // nor, on a host with AppArmor, what the engine's default profile keeps from it.
      const lsm = appArmorSkips(appArmorHost, name);
      for (const id of lsm?.cases ?? []) expect(r.find((x) => x.id === id)!.message).toMatch(lsm!.says);
      const refusedByLsm = r.filter((x) => x.status === "skip" && lsm?.says.test(x.message)).map((x) => x.id);
      const unread = [...skipsOn(ENGINE_KIND, name, readOnlyRoot), ...(lsm?.cases ?? []), ...refusedByLsm];
      // Everything else is a measured pass: no skip hides anything on a running subject.
      for (const x of r.filter((c) => unread.includes(c.id)))
        expect(x.status, `${x.id}: ${x.message}`).toBe("skip");
      for (const x of r.filter((c) => !expected.includes(c.id) && !unread.includes(c.id)))
        expect(x.status, `${x.id}: ${x.message}`).toBe("pass");
      for (const x of r.filter((c) => c.status === "fail")) {
        expect(x.remediation).toBeTruthy();
        expect(x.subject).toBe(name);
      }
      if (f.safe) expect(f.fails).toEqual([]);
      // The finding names what it is about (the other container, the syscalls let through).
      for (const [id, text] of Object.entries(resolveVars(f.mentions ?? {}, varsOf.get(name)!)))
        expect(
          r.find((x) => x.id === id)!.message,
          JSON.stringify(r.find((x) => x.id === id)!.evidence),
        ).toContain(text);
    },
  );

  // Without the profile file these twins cannot run: a skip on a developer's machine, a failure in CI
  // (scripts/seccomp-default.sh provides it there).
  (process.env.CI === "true" ? it : it.skip).each(unavailable.map((f) => [f.name] as const))(
    "%s (needs the engine's default seccomp profile file: bash scripts/seccomp-default.sh)",
    () => {
      expect.fail(`no default seccomp profile at ${ENGINE_DEFAULT_SECCOMP}; set DA_SECCOMP_DEFAULT`);
    },
  );

  it("removes each probe as soon as its output is read", async () => {
    const probes = await engine.listContainers({ owner, role: "probe" });
    expect(probes).toEqual([]);
  });

  it("leaves the graded containers running", async () => {
    const states = await Promise.all(containers.map(async (id) => (await engine.inspect(id)).state.running));
    expect(states.every(Boolean)).toBe(true);
  });
});
