// The engine contract: what the pipeline relies on from any provider, as cases every provider
// runs (the in-memory double in tests/engine/contract-memory.test.ts, the real engine at
// DOCKER_HOST in tests/docker/contract.test.ts: Docker in the Docker leg, Podman in its leg).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupOwned, listOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, OWNER_LABEL, ownedTag, ownerLabels, SUBJECT_LABEL } from "../../src/engine/ownership.js";
import {
  BuildFailedError,
  type ContainerStatus,
  type Engine,
  type LaunchSpec,
} from "../../src/engine/provider.js";
import { readBack } from "../../src/engine/readback.js";
import { EngineError } from "../../src/errors.js";

export interface ContractSetup {
  engine: Engine;
  /** A base image with /bin/sh, echo, sleep and /etc/passwd. */
  image: string;
  /** The hardened settings this engine is known to accept and not apply (README, Engines). */
  knownDeviations: string[];
}

/** A hardened subject running `script` under sh, labelled as `owner`'s. */
export function specFor(owner: string, name: string, image: string, script: string): LaunchSpec {
  return {
    name: `${owner}-${name}`,
    image,
    user: "65534:65534",
    env: { GREETING: "hello" },
    command: ["sh", "-c", script],
    labels: { ...ownerLabels(owner, "subject"), [SUBJECT_LABEL]: name },
    init: false,
    readOnlyRoot: true,
    capabilities: { drop: ["ALL"], add: [] },
    noNewPrivileges: true,
    namespaces: { net: "none" },
    limits: { memoryBytes: 64 * 1024 * 1024, memorySwapBytes: 64 * 1024 * 1024, pids: 32, nanoCpus: 5e8 },
    tmpfs: { "/tmp": "rw,noexec,nosuid,nodev,size=16m,mode=1777" },
    publish: [],
    stop: { signal: "SIGTERM", timeoutSec: 1 },
  };
}

function workspace(dockerfile: string): string {
  const root = mkdtempSync(path.join(tmpdir(), "da-contract-"));
  mkdirSync(path.join(root, "ctx"));
  writeFileSync(path.join(root, "ctx", "Dockerfile"), dockerfile);
  return path.join(root, "ctx");
}

export function engineContract(name: string, setup: () => ContractSetup): void {
  describe(`engine contract: ${name}`, () => {
    const { engine, image, knownDeviations } = setup();
    const owner = newRunId();
    afterAll(async () => {
      await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    });

    it("names itself: kind, name, the CLI of its reproduction lines, its defaults", async () => {
      const facts = await engine.facts();
      expect(facts.kind).toMatch(/^[a-z]+$/);
      expect(facts.name).not.toBe("");
      expect(facts.cli).toMatch(/^[a-z]+$/);
      expect(Array.isArray(facts.defaults.capabilities)).toBe(true);
      expect(facts.defaults.engineFiles).toContain("/etc/hosts");
      await engine.ping();
      const line = await engine.reproduce(specFor(owner, "r", image, "sleep 300"), { ref: image });
      expect(line.startsWith(`${facts.cli} run `)).toBe(true);
    });

    it("creates from a launch spec and reads back what it applied, before and after start", async () => {
      const spec = specFor(owner, "svc", image, "echo up; sleep 300");
      const id = await engine.create(spec);
      const created = await engine.inspect(id);
      expect(created).toMatchObject({ id, name: spec.name, user: "65534:65534", readonlyRootfs: true });
      expect(created.state).toMatchObject({ running: false, status: "created" });
      expect(created.labels[OWNER_LABEL]).toBe(owner);
      // "ALL", or (Podman) every capability it would otherwise grant, named.
      const facts = await engine.facts();
      expect(
        created.capDrop.includes("ALL") ||
          facts.defaults.capabilities.every((c) => created.capDrop.includes(c)),
      ).toBe(true);
      expect(created.capAdd).toEqual([]);
      // Security settings cross the seam typed: no-new-privileges on, the engine's default seccomp.
      expect(created.security).toMatchObject({
        noNewPrivileges: { value: true },
        seccomp: { kind: "default" },
      });
      expect(created.security.untyped).toEqual([]);
      expect(Object.keys(created.tmpfs)).toContain("/tmp");
      expect([created.memory, created.pidsLimit, created.nanoCpus]).toEqual([64 * 1024 * 1024, 32, 5e8]);
      expect(created.modes.net).toBe("none");
      await engine.start(id);
      const running = await engine.inspect(id);
      expect(running.state.running).toBe(true);
      expect(running.state.pid).toBeGreaterThan(0);
      await expect.poll(async () => (await engine.logs(id)).stdout, { timeout: 5000 }).toBe("up\n");
    });

    it("reads back the hardened settings it applied: only its known deviations differ from the spec", async () => {
      const spec = specFor(owner, "hardened", image, "sleep 300");
      spec.namespaces = { net: "none", ipc: "none", cgroup: "private" };
      const id = await engine.create(spec);
      const deviations = readBack(spec, await engine.inspect(id));
      expect(deviations.map((d) => d.setting).sort()).toEqual([...knownDeviations].sort());
      // Each is one the engine's facts declare it cannot show, so lifecycle.create says so, never "ignored".
      expect(Object.keys((await engine.facts()).unreadable ?? {}).sort()).toEqual(
        [...knownDeviations].sort(),
      );
      await engine.removeContainer(id);
    });

    it("a process that exits reports its code (wait, inspect) and its stdout and stderr apart", async () => {
      const id = await engine.create(specFor(owner, "crash", image, "echo out; echo err >&2; exit 3"));
      await engine.start(id);
      expect(await engine.wait(id, 20_000)).toBe(3);
      const view = await engine.inspect(id);
      expect(view.state).toMatchObject({ running: false, exitCode: 3, oomKilled: false });
      const logs = await engine.logs(id);
      expect(logs).toEqual({ stdout: "out\n", stderr: "err\n" });
      // A tail of 1: the last line of each stream (Docker) or of both together (Podman), no more.
      const tail = await engine.logs(id, 1);
      expect(["out\nerr\n", "err\n", "out\n"]).toContain(tail.stdout + tail.stderr);
    });

    it("a line written in parts comes back whole, in a tail too (a crash's last line keeps its start)", async () => {
      const script =
        "echo -n 'setpriv: setresuid failed' >&2; sleep 0.2; echo ': Operation not permitted' >&2; exit 1";
      const id = await engine.create(specFor(owner, "parts", image, script));
      await engine.start(id);
      expect(await engine.wait(id, 20_000)).toBe(1);
      expect((await engine.logs(id, 40)).stderr).toBe("setpriv: setresuid failed: Operation not permitted\n");
      expect((await engine.logs(id)).stderr).toBe("setpriv: setresuid failed: Operation not permitted\n");
    });

    it("stop: PID 1 that ignores the stop signal is killed after the grace (137)", async () => {
      const id = await engine.create(specFor(owner, "stubborn", image, "sleep 300"));
      await engine.start(id);
      const started = Date.now();
      expect(await engine.stop(id, 1)).toBe("killed");
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect((await engine.inspect(id)).state).toMatchObject({ running: false, exitCode: 137 });
      // Stopping what no longer runs says so: nothing received the signal.
      expect(await engine.stop(id, 1)).toBe("not running");
    });

    it("stop: a process that exits on the stop signal within the grace was not killed", async () => {
      const id = await engine.create(
        specFor(owner, "obliging", image, "trap 'exit 0' TERM; sleep 300 & wait"),
      );
      await engine.start(id);
      expect(await engine.stop(id, 10)).toBe("exited");
      expect((await engine.inspect(id)).state).toMatchObject({ running: false, exitCode: 0 });
    });

    it("lists by the owned-objects query (owner, subject, status); removal makes a container gone (404)", async () => {
      const id = await engine.create(specFor(owner, "listed", image, "sleep 300"));
      const mine = await engine.listContainers({ owner, subject: "listed" });
      expect(mine.map((c) => c.id)).toEqual([id]);
      // Names as given, never with Docker's leading '/'.
      expect(mine[0]?.names[0]).toBe(`${owner}-listed`);
      expect((await engine.listContainers({ owner: true })).map((c) => c.id)).toContain(id);
      const running = await engine.listContainers({ owner, status: ["running"] });
      expect(running.map((c) => c.id)).not.toContain(id);
      await engine.start(id);
      await engine.removeContainer(id);
      expect(await engine.listContainers({ subject: "listed", owner })).toEqual([]);
      const gone = await engine.inspect(id).catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(EngineError);
      expect((gone as EngineError).statusCode).toBe(404);
    });

    it("reads security settings back typed: no-new-privileges on or unsaid, the default seccomp, nothing untyped", async () => {
      const on = await engine.inspect(await engine.create(specFor(owner, "sec-on", image, "sleep 300")));
      const off = await engine.inspect(
        await engine.create({ ...specFor(owner, "sec-off", image, "sleep 300"), noNewPrivileges: false }),
      );
      expect(on.security.noNewPrivileges).toMatchObject({ value: true, said: expect.any(String) });
      expect(off.security.noNewPrivileges?.value).not.toBe(true);
      for (const view of [on, off]) {
        expect(view.security.seccomp.kind).toBe("default");
        expect(view.security.appArmor?.kind).not.toBe("unconfined");
        expect(view.security.selinux.filter((o) => o.kind === "disable")).toEqual([]);
        expect(view.security.untyped).toEqual([]);
      }
      // The read-back reads the typed form: asked on, got unsaid is a deviation.
      const asked = specFor(owner, "sec-on", image, "sleep 300");
      expect(readBack(asked, on).map((d) => d.setting)).not.toContain("no-new-privileges");
      expect(readBack(asked, off).map((d) => d.setting)).toContain("no-new-privileges");
    });

    it("the owned-objects query: labels (a key, or a key and its value), a part of a name, an ID's beginning, any of several states", async () => {
      const tagged = { ...specFor(owner, "query-a", image, "sleep 300") };
      tagged.labels = { ...tagged.labels, "org.docker-acceptance.test.tier": "web" };
      const a = await engine.create(tagged);
      const b = await engine.create(specFor(owner, "query-b", image, "sleep 300"));
      await engine.start(b);
      const ids = async (query: Parameters<Engine["listContainers"]>[0]) =>
        (await engine.listContainers({ owner, ...query })).map((c) => c.id).sort();
      const key = "org.docker-acceptance.test.tier";
      expect(await ids({ labels: [{ key }] })).toEqual([a]);
      expect(await ids({ labels: [{ key, value: "web" }] })).toEqual([a]);
      expect(await ids({ labels: [{ key, value: "db" }] })).toEqual([]);
      // Every label must hold: one that does and one that does not select nothing.
      expect(
        await ids({
          labels: [
            { key, value: "web" },
            { key: SUBJECT_LABEL, value: "query-b" },
          ],
        }),
      ).toEqual([]);
      expect(await ids({ names: ["query-"] })).toEqual([a, b].sort());
      expect(await ids({ names: ["query-b", "query-a"] })).toEqual([a, b].sort());
      // A name's text is not a pattern: a dot matches a dot only.
      expect(await ids({ names: ["query.a"] })).toEqual([]);
      expect(await ids({ ids: [a.slice(0, 12)] })).toEqual([a]);
      // An ID's beginning, never a part from its middle.
      expect(await ids({ ids: [a.slice(6, 18)] })).toEqual([]);
      expect(await ids({ status: ["created"], names: ["query-"] })).toEqual([a]);
      expect(await ids({ status: ["created", "running"], names: ["query-"] })).toEqual([a, b].sort());
      expect(await ids({ role: "subject", subject: "query-b" })).toEqual([b]);
      expect(await ids({ role: "probe", names: ["query-"] })).toEqual([]);
      // Another run's owner lists none of these; any run's lists them.
      expect((await engine.listContainers({ owner: newRunId() })).map((c) => c.id)).toEqual([]);
      expect((await engine.listContainers({ owner: true, names: ["query-"] })).map((c) => c.id)).toEqual(
        expect.arrayContaining([a, b]),
      );
      await Promise.all([a, b].map((id) => engine.removeContainer(id)));
    });

    it("refuses a second container of the same name", async () => {
      await engine.create(specFor(owner, "twin", image, "sleep 300"));
      const second = await engine.create(specFor(owner, "twin", image, "sleep 300")).catch((e: unknown) => e);
      expect(second).toBeInstanceOf(EngineError);
      // Docker and the double say 409 (conflict); Podman's compatible API 500, naming the name.
      expect([409, 500]).toContain((second as EngineError).statusCode);
      expect((second as EngineError).message).toContain(`${owner}-twin`);
    });

    it("reads a file from a container's image (created, not started); undefined when missing", async () => {
      const id = await engine.create(specFor(owner, "files", image, "sleep 300"));
      expect((await engine.readFile(id, "/etc/passwd"))?.toString("utf8")).toMatch(/^root:/m);
      expect(await engine.readFile(id, "/no/such/file")).toBeUndefined();
    });

    it("says what is at a path of a container's image (created, not started): its type and mode", async () => {
      const id = await engine.create(specFor(owner, "stat", image, "sleep 300"));
      expect(await engine.statPath(id, "/etc/passwd")).toMatchObject({ type: "file" });
      // The base's /tmp is anyone's to write, and sticky; /etc is not anyone's.
      expect(await engine.statPath(id, "/tmp")).toEqual({ type: "directory", mode: 0o1777 });
      const etc = await engine.statPath(id, "/etc");
      expect(etc?.type).toBe("directory");
      expect((etc?.mode ?? 0) & 0o002).toBe(0);
      expect(await engine.statPath(id, "/no/such/dir")).toBeUndefined();
    });

    it("pauses a running container and thaws it: a second thaw is false, a stopped one cannot be paused", async () => {
      const id = await engine.create(specFor(owner, "freeze", image, "sleep 300"));
      await expect(engine.pause(id)).rejects.toBeInstanceOf(EngineError);
      await engine.start(id);
      await engine.pause(id);
      expect((await engine.inspect(id)).state.status).toBe("paused");
      // Listed as paused: the status filter takes several values, any of them.
      const listed = async (status: ContainerStatus[]) =>
        (await engine.listContainers({ owner, status })).map((c) => c.id);
      expect(await listed(["running"])).not.toContain(id);
      expect(await listed(["running", "paused"])).toContain(id);
      expect(await engine.unpause(id)).toBe(true);
      expect((await engine.inspect(id)).state).toMatchObject({ status: "running", running: true });
      expect(await engine.unpause(id)).toBe(false);
      await engine.pause(id);
      // A paused container is removed as any other (the run's cleanup never waits on a thaw).
      await engine.removeContainer(id);
      await expect(engine.unpause(id)).rejects.toMatchObject({ statusCode: 404 });
    });

    it("runs a trusted probe to completion: its whole output and exit code, and no probe left once its removal settles", async () => {
      const out = await engine.probe({
        image,
        labels: ownerLabels(owner, "probe"),
        script: { name: "da-contract", text: "echo measured; echo note >&2; exit 4" },
        user: "65534:65534",
        env: {},
        namespaces: { net: "none" },
        capabilities: [],
        timeoutMs: 20_000,
      });
      const { removed, ...output } = out;
      expect(output).toEqual({ stdout: "measured\n", stderr: "note\n", exitCode: 4 });
      // An engine may answer before the probe's container is gone: `removed` says when it is.
      await removed;
      const probes = await engine.listContainers({ owner, role: "probe" });
      expect(probes).toEqual([]);
    });

    it("a probe whose output says it is whole is handed over then, its exit not waited for", async () => {
      const started = Date.now();
      const { removed, ...output } = await engine.probe({
        image,
        labels: ownerLabels(owner, "probe"),
        // Whole at "done": what follows (a long sleep) is not waited for.
        script: { name: "da-contract", text: "echo measured; echo done; sleep 60" },
        user: "65534:65534",
        env: {},
        namespaces: { net: "none" },
        capabilities: [],
        timeoutMs: 90_000,
        complete: (stdout) => stdout.endsWith("done\n"),
      });
      expect(output.stdout).toBe("measured\ndone\n");
      expect(output.exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(45_000);
      await removed;
      const probes = await engine.listContainers({ owner, role: "probe" });
      expect(probes).toEqual([]);
    });

    it("a probe prepared ahead is created and not started: it runs once when asked, or is removed unstarted", async () => {
      const spec = (text: string) => ({
        image,
        labels: ownerLabels(owner, "probe"),
        script: { name: "da-contract", text },
        user: "65534:65534",
        env: {},
        namespaces: { net: "none" },
        capabilities: [],
        timeoutMs: 20_000,
      });
      const probes = async () => engine.listContainers({ owner, role: "probe" });
      const kept = await engine.prepareProbe(spec("echo ran; exit 3"));
      const dropped = await engine.prepareProbe(spec("echo never"));
      const waiting = await probes();
      expect(waiting).toHaveLength(2);
      // Nothing of either has run: a prepared probe is a created container, not a started one.
      expect(waiting.map((c) => c.state)).toEqual(["created", "created"]);
      await dropped.discard();
      await dropped.discard(); // a second discard is nothing
      const { removed, ...output } = await kept.run();
      expect(output).toEqual({ stdout: "ran\n", stderr: "", exitCode: 3 });
      await removed;
      await expect(kept.run()).rejects.toThrow(/runs once/);
      await kept.discard(); // after its run: nothing (its own removal is the run's)
      expect(await probes()).toEqual([]);
    });

    it("builds from a context: labelled, tagged, its USER and VOLUME read back; a failing step is BuildFailedError", async () => {
      const ctx = workspace(`FROM ${image}\nUSER 1000:1000\nVOLUME /data\n`);
      const tag = ownedTag(owner, "built");
      const built = await engine.build({
        context: readBuildContext(ctx, "Dockerfile"),
        tag,
        labels: ownerLabels(owner, "subject"),
        timeoutMs: 120_000,
      });
      const view = await engine.inspectImage(built.imageId);
      expect(view).toMatchObject({ id: built.imageId, user: "1000:1000", volumes: ["/data"] });
      expect(view.tags).toContain(tag);
      expect(view.labels[OWNER_LABEL]).toBe(owner);
      const listed = await engine.listImages({ owner });
      expect(listed.map((i) => i.id)).toContain(built.imageId);
      // By tag: exactly, or by the run's prefix; another owner's prefix lists none of it.
      expect((await engine.listImages({ tag })).map((i) => i.id)).toEqual([built.imageId]);
      expect((await engine.listImages({ tag: { prefix: ownedTag(owner) } })).map((i) => i.id)).toContain(
        built.imageId,
      );
      expect(await engine.listImages({ tag: { prefix: ownedTag(newRunId()) } })).toEqual([]);
      expect(await engine.listImages({ owner, role: "probe" })).toEqual([]);
      const broken = workspace(`FROM ${image}\nRUN exit 3\n`);
      const failed = await engine
        .build({
          context: readBuildContext(broken, "Dockerfile"),
          tag: ownedTag(owner, "broken"),
          labels: ownerLabels(owner, "subject"),
          timeoutMs: 120_000,
        })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BuildFailedError);
      // BuildKit says "exit code: 3", the legacy builder "returned a non-zero code: 3", Podman "exit status 3".
      expect((failed as BuildFailedError).reason).toMatch(/(exit code|non-zero code|exit status):? 3\b/);
    }, 180_000);

    it("a missing image: inspect is a 404, ensureImage an error naming it", async () => {
      const missing = `docker-acceptance/absent:${owner.slice(3, 15)}`;
      const err = await engine.inspectImage(missing).catch((e: unknown) => e);
      expect((err as EngineError).statusCode).toBe(404);
      await expect(engine.ensureImage(missing, 20_000)).rejects.toThrow(missing);
    }, 60_000);

    it("owned objects are removed by cleanup and its listing proves none left", async () => {
      const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
      expect(evidence.completed).toBe(true);
      const left = await listOwned(engine, { owner });
      expect([...left.containers, ...left.images]).toEqual([]);
    }, 120_000);
  });
}
