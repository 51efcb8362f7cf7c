// The fault matrix on the real engine: every fixture fails exactly its intended cases and passes
// every other; `hardened` passes all. Privileged-only faults are graded from recorded inspect data.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import type { ContainerInspect } from "../../src/engine/docker.js";
import { newRunId, OWNER_LABEL, ownedTag, ownerLabels, ROLE_LABEL } from "../../src/engine/ownership.js";
import type { CaseResult } from "../../src/report/model.js";
import {
  gradeContainment,
  type HostNamespaces,
  inspectEvidence,
  measureHostNamespaces,
  runContainment,
} from "../../src/suites/containment/index.js";
import { CONTAINMENT_CASES } from "../../src/suites/ids.js";
import {
  FAULTS_DIR,
  type FaultFixture,
  fixtureLaunch,
  HARDENED_DIR,
  hardenedSubject,
  loadFaults,
} from "../containment/faults.js";
import { failsOn } from "../helpers/differences.js";
import { BASE_IMAGE, ENGINE_KIND, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";

const fixtures = loadFaults();
const live = fixtures.filter((f) => !f.recorded);
const recorded = fixtures.filter((f) => f.recorded);
const target = (containerId: string, subject: string) => ({
  containerId,
  subject,
  writableRoots: hardenedSubject.writableRoots,
  allowedCapabilities: hardenedSubject.capabilities,
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
          inspect: inspectEvidence(doc),
          probe: { error: "the container is not running" },
          host: { error: "not measured for recorded data" },
        },
        { ...target(doc.Id, f.name) },
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

describe.skipIf(!hasEngine)("fault matrix on the real engine", () => {
  const engine = newEngine();
  const owner = newRunId();
  const hostDir = mkdtempSync(path.join(tmpdir(), "da-fault-bind-"));
  const images: Record<string, string> = {};
  const results = new Map<string, CaseResult[]>();
  const containers: string[] = [];
  let host: HostNamespaces;

  beforeAll(async () => {
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
    // All fixtures start concurrently, then are probed concurrently against one host measurement.
    const ids = await Promise.all(
      live.map(async (f) => {
        const opts = fixtureLaunch(f, images[f.image ?? "hardened"]!, owner, `${owner}-${f.name}`, hostDir);
        const id = await engine.createContainer(opts);
        containers.push(id);
        await engine.start(id);
        return id;
      }),
    );
    await Promise.all(
      live.map(async (f, i) => {
        results.set(
          f.name,
          await runContainment(target(ids[i]!, f.name), {
            engine,
            owner,
            probeImage: PROBE_IMAGE,
            host: hostPromise,
          }),
        );
      }),
    );
    host = await hostPromise;
  });

  afterAll(async () => {
    // The product's own cleanup: containers, our tags and the builds' labelled intermediate images.
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    rmSync(hostDir, { recursive: true, force: true });
    expect(evidence.completed).toBe(true);
    expect(await engine.listContainers({ label: [`${OWNER_LABEL}=${owner}`] })).toEqual([]);
    expect(await engine.listImages({ label: [`${OWNER_LABEL}=${owner}`] }, true)).toEqual([]);
  });

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
      const expected = failsOn(ENGINE_KIND, f.fails, readOnlyRoot);
      expect({ name, failing: failing(r) }, JSON.stringify(byId, null, 2)).toEqual({
        name,
        failing: expected,
      });
      if (ENGINE_KIND === "podman") {
        expect(byId["containment.namespaces"]).toMatch(/cgroup with the host/);
        if (readOnlyRoot) expect(byId["containment.mounts"]).toMatch(/\/run, .*\/var\/tmp/);
      }
      // Everything else is a measured pass: no skip hides anything on a running subject.
      for (const x of r.filter((c) => !expected.includes(c.id)))
        expect(x.status, `${x.id}: ${x.message}`).toBe("pass");
      for (const x of r.filter((c) => c.status === "fail")) {
        expect(x.remediation).toBeTruthy();
        expect(x.subject).toBe(name);
      }
    },
  );

  it("removes each probe as soon as its output is read", async () => {
    const probes = await engine.listContainers({ label: [`${OWNER_LABEL}=${owner}`, `${ROLE_LABEL}=probe`] });
    expect(probes).toEqual([]);
  });

  it("leaves the graded containers running", async () => {
    const states = await Promise.all(containers.map(async (id) => (await engine.inspect(id)).State.Running));
    expect(states.every(Boolean)).toBe(true);
  });
});
