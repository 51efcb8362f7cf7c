// The adversarial matrix (acceptance/fixtures/adversarial/probe/probe.json): subjects that attack
// the trusted probe's pipes, /proc entries, signals and write probes, and name things in the
// report's own format. Each runs on the real engine (Docker and Podman) under the hardened launch;
// its real weaknesses must still fail, exactly, every other case must pass, and nothing it plants
// may reach a case. One attacker tries for 30 seconds while the probe reads it again and again.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, ownedTag, ownerLabels } from "../../src/engine/ownership.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { createBody } from "../../src/engine/providers/docker/translate.js";
import type { CaseResult } from "../../src/report/model.js";
import {
  collectEvidence,
  gradeContainment,
  type HostNamespaces,
  measureHostNamespaces,
  runContainment,
} from "../../src/suites/containment/index.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { applyDeviation, hardenedSubject, resolveVars } from "../containment/faults.js";
import { failsOn } from "../helpers/differences.js";
import {
  BASE_IMAGE,
  cleanupProblems,
  DIALECTS,
  ENGINE_KIND,
  hasEngine,
  newEngine,
  PROBE_IMAGE,
} from "../helpers/engine.js";

const DIR = path.resolve("acceptance/fixtures/adversarial/probe");

interface AdversarialFixture {
  name: string;
  attack: string;
  goal: string;
  launch?: Record<string, unknown>;
  exec?: { User: string; Cmd: string[] };
  sockets?: string[];
  target?: { allowedHostPaths?: { path: string; readOnly: boolean }[]; writableRoots?: string[] };
  ready?: string;
  fails: string[];
  never?: string[];
  mentions?: Record<string, string>;
  engines?: string[];
}

const fixtures = (
  JSON.parse(readFileSync(path.join(DIR, "probe.json"), "utf8")) as { fixtures: AdversarialFixture[] }
).fixtures.filter((f) => !f.engines || f.engines.includes(ENGINE_KIND ?? "docker"));

/**
 * What an attacker plants, standing alone: its forged pid 4242, not the same digits inside another
 * number (a published host port of 42425 is no forgery).
 */
function standingAlone(planted: string): RegExp {
  return new RegExp(`(?<![0-9A-Za-z])${planted.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9A-Za-z])`);
}

/**
 * The engine as it is, except that it never freezes anything while claiming it did: what holds
 * against an attacker left running is the channel alone (defence in depth under the freeze).
 */
class NoFreezeEngine extends DockerEngine {
  constructor() {
    super(undefined, undefined, undefined, DIALECTS);
  }
  override async pause(): Promise<void> {}
  override async unpause(): Promise<boolean> {
    return true;
  }
}

/** What an attacker says when it reached a process of the probe: none may appear. */
const REACHED = /attacker: (forged|wrote into|killed|pre-empted)/;

const failing = (rs: CaseResult[]) =>
  rs
    .filter((r) => r.status === "fail")
    .map((r) => r.id)
    .sort();

/** A subject of the adversarial image running one attack, laid over the hardened launch. */
async function startAttacker(
  engine: DockerEngine,
  image: string,
  owner: string,
  f: AdversarialFixture,
  vars: Record<string, string>,
): Promise<string> {
  const base = createBody(planLaunch(hardenedSubject, image, owner, `${owner}-${f.name}`).spec);
  const opts = applyDeviation({ ...base, Cmd: [`/attacks/${f.attack}.sh`] }, f.launch, vars);
  const id = await engine.createContainer(opts);
  await engine.start(id);
  if (f.exec) {
    const exec = await engine.docker
      .getContainer(id)
      .exec({ ...f.exec, AttachStdout: false, AttachStderr: false });
    await exec.start({ Detach: true });
  }
  // An attack that takes a while to make (thousands of processes) says when it is made.
  for (let i = 0; f.ready && i < 600 && !(await engine.logs(id)).stdout.includes(f.ready); i++)
    await new Promise((r) => setTimeout(r, 100));
  if (f.ready) expect((await engine.logs(id)).stdout).toContain(f.ready);
  return id;
}

describe.skipIf(!hasEngine)("the probe's evidence against a subject that attacks it", () => {
  const engine = newEngine();
  const owner = newRunId();
  const hostDir = mkdtempSync(path.join(tmpdir(), "da-adversarial-"));
  const servers: Server[] = [];
  let image = "";
  let host: Promise<HostNamespaces>;

  const grade = (
    id: string,
    f: AdversarialFixture,
    vars: Record<string, string>,
    on: DockerEngine = engine,
  ) =>
    runContainment(
      {
        containerId: id,
        subject: f.name,
        writableRoots: f.target?.writableRoots ?? hardenedSubject.writableRoots,
        allowedCapabilities: hardenedSubject.capabilities,
        allowedHostPaths: resolveVars(f.target?.allowedHostPaths ?? [], vars),
        network: hardenedSubject.network,
      },
      { engine: on, owner, probeImage: PROBE_IMAGE, host },
    );

  beforeAll(async () => {
    image = ownedTag(owner, "adversarial");
    await engine.build({
      context: readBuildContext(DIR, "Dockerfile"),
      tag: image,
      labels: ownerLabels(owner, "subject"),
      buildArgs: { BASE_IMAGE },
      timeoutMs: 90_000,
    });
    for (const name of new Set(fixtures.flatMap((f) => f.sockets ?? []))) {
      const server = createServer();
      await new Promise<void>((ok) => server.listen(path.join(hostDir, name), ok));
      servers.push(server);
    }
    host = measureHostNamespaces(engine, owner, PROBE_IMAGE);
  });

  afterAll(async () => {
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    for (const s of servers) s.close();
    rmSync(hostDir, { recursive: true, force: true });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
  });

  // One attacker at a time: each spins on the shared machine's two cores while it runs.
  it.each(fixtures.map((f) => [f.name, f] as const))(
    "%s: the attacker's goal is not reached",
    async (name, f) => {
      const vars = { HOST_DIR: hostDir };
      const id = await startAttacker(engine, image, owner, f, vars);
      try {
        await new Promise((r) => setTimeout(r, 300)); // the attack is under way
        const results = await grade(id, f, vars);
        const byId = Object.fromEntries(results.map((x) => [x.id, `${x.status}: ${x.message}`]));
        expect(results.map((x) => x.id)).toEqual([...CONTAINMENT_CASES]);
        const expected = failsOn(ENGINE_KIND, f.fails, true, name);
        expect({ goal: f.goal, failing: failing(results) }, JSON.stringify(byId, null, 2)).toEqual({
          goal: f.goal,
          failing: expected,
        });
        for (const x of results.filter((c) => !expected.includes(c.id)))
          expect(x.status, `${x.id}: ${x.message}`).toBe("pass");
        const text = JSON.stringify(results);
        for (const planted of f.never ?? []) expect(text, f.goal).not.toMatch(standingAlone(planted));
        for (const [caseId, words] of Object.entries(f.mentions ?? {}))
          expect(results.find((x) => x.id === caseId)!.message).toContain(words);
        // The probe ran where the attacker could not even see it: it never touched a process of it.
        expect((await engine.logs(id)).stdout).not.toMatch(REACHED);
      } finally {
        await engine.removeContainer(id);
      }
    },
    // One containment run; a loaded Podman took more than a minute for some (the verdict was right).
    180_000,
  );

  it("a subject that races the probe for 30 seconds never gets a forged report believed", async () => {
    const f = fixtures.find((x) => x.name === "forge-report")!;
    const id = await startAttacker(engine, image, owner, f, {});
    const verdicts: string[] = [];
    const target = {
      containerId: id,
      subject: f.name,
      writableRoots: hardenedSubject.writableRoots,
      allowedCapabilities: hardenedSubject.capabilities,
      network: hardenedSubject.network,
    };
    try {
      // Thirty seconds of racing, and at least three reads in them however slow the engine is (a
      // loaded Podman takes seconds a read): each read is a window the attacker tries to win.
      const until = Date.now() + 30_000;
      while (Date.now() < until || verdicts.length < 3) {
        const ev = await collectEvidence(target, { engine, owner, probeImage: PROBE_IMAGE, host });
        expect(ev.freeze).toMatchObject({ held: true });
        const user = gradeContainment(ev, target).find((x) => x.id === "containment.user")!;
        verdicts.push(`${user.status}: ${user.message}`);
      }
      const { stdout } = await engine.logs(id);
      // The attacker was at work the whole time (its own count of tries), and every read was true.
      expect(stdout).toMatch(/attacker: \d+ tries/);
      expect(stdout).not.toMatch(REACHED);
      expect(verdicts.length).toBeGreaterThanOrEqual(3);
      for (const v of verdicts) expect(v).toMatch(/^fail: process .* supplementary group 0/);
    } finally {
      await engine.removeContainer(id);
    }
  }, 240_000);

  it("left running (no freeze), the attackers still never reach the probe's report", async () => {
    const unfrozen = new NoFreezeEngine();
    for (const name of ["forge-report", "inject-lines", "kill-probe", "preempt-write"]) {
      const f = fixtures.find((x) => x.name === name)!;
      const id = await startAttacker(engine, image, owner, f, {});
      try {
        await new Promise((r) => setTimeout(r, 300));
        for (let round = 0; round < 3; round++) {
          const results = await grade(id, f, {}, unfrozen);
          expect({ name, failing: failing(results) }).toEqual({
            name,
            failing: failsOn(ENGINE_KIND, f.fails, true, name),
          });
          expect(JSON.stringify(results)).not.toMatch(standingAlone("4242"));
        }
        expect((await engine.logs(id)).stdout).not.toMatch(REACHED);
      } finally {
        await engine.removeContainer(id);
      }
    }
  }, 180_000);
});
