// Subjects that hide a thread's credentials behind its process's leader
// (acceptance/fixtures/adversarial/threads/): the kernel keeps uids, groups, capabilities,
// no-new-privileges, seccomp, the LSM label and namespaces per thread, and /proc/<pid>/status is
// the leader's alone. Every thread the subject runs is measured, or the leader speaks for all.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, ownedTag, ownerLabels } from "../../src/engine/ownership.js";
import { createBody } from "../../src/engine/providers/docker/translate.js";
import type { CaseResult } from "../../src/report/model.js";
import {
  type HostNamespaces,
  measureHostNamespaces,
  runContainment,
  takeCensus,
} from "../../src/suites/containment/index.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { hardenedSubject } from "../containment/faults.js";
import { cleanupProblems, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";

const DIR = path.resolve("acceptance/fixtures/adversarial/threads");
const BASE = process.env.DA_DEBIAN_IMAGE ?? "docker-acceptance/debian:bookworm";

/**
 * The hardened subject, except that the inventory relaxes no-new-privileges (it may: `relax`) and
 * the attacker is PID 1 (no init, whose own NoNewPrivs 0 would fail the case whatever is hidden).
 */
const relaxed = { ...hardenedSubject, init: false, relax: ["no-new-privileges" as const] };

const statusOf = (rs: CaseResult[]) => Object.fromEntries(rs.map((r) => [r.id, r.status]));

describe.skipIf(!hasEngine)("a thread the leader hides", () => {
  const engine = newEngine();
  const owner = newRunId();
  let image = "";
  let host: Promise<HostNamespaces>;

  beforeAll(async () => {
    image = ownedTag(owner, "threads");
    await engine.build({
      context: readBuildContext(DIR, "Dockerfile"),
      tag: image,
      labels: ownerLabels(owner, "subject"),
      buildArgs: { BASE },
      timeoutMs: 90_000,
    });
    host = measureHostNamespaces(engine, owner, PROBE_IMAGE);
  }, 120_000);

  afterAll(async () => {
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
  });

  /** The attacker started, once its leader has changed itself (its own line): the attack made. */
  async function launch(name: string, cmd: string[]): Promise<string> {
    const spec = createBody(planLaunch(relaxed, image, owner, `${owner}-${name}`).spec);
    const id = await engine.createContainer({ ...spec, Cmd: cmd });
    await engine.start(id);
    for (let i = 0; i < 100 && !(await engine.logs(id)).stdout.includes("attacker:"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await engine.logs(id)).stdout).toContain("attacker: the leader changed itself");
    return id;
  }

  async function attack(name: string, cmd: string[]): Promise<CaseResult[]> {
    const id = await launch(name, cmd);
    try {
      const results = await runContainment(
        {
          containerId: id,
          subject: name,
          writableRoots: relaxed.writableRoots,
          allowedCapabilities: relaxed.capabilities,
          network: relaxed.network,
        },
        { engine, owner, probeImage: PROBE_IMAGE, host },
      );
      expect(results.map((r) => r.id)).toEqual([...CONTAINMENT_CASES]);
      return results;
    } finally {
      await engine.removeContainer(id);
    }
  }

  it("no-new-privileges set by the leader alone is not taken for the process's", async () => {
    const results = await attack("nnp", ["perl", "/hide.pl", "nnp"]);
    const nnp = results.find((r) => r.id === "containment.no_new_privileges")!;
    expect(nnp.status, nnp.message).toBe("fail");
    expect(nnp.message).toMatch(/NoNewPrivs is 0 for process \d+ \(thread \d+\)/);
    // Nothing else of the subject is weaker than the contract: every other case passes.
    const others = results.filter((r) => r.id !== "containment.no_new_privileges");
    for (const r of others) expect(r.status, `${r.id}: ${r.message}`).toBe("pass");
  }, 120_000);

  it("a thread keeping euid 0 while its leader runs as the image's user fails containment.user", async () => {
    const results = await attack("root", ["perl-setuid", "/hide.pl", "root"]);
    const byId = statusOf(results);
    const user = results.find((r) => r.id === "containment.user")!;
    expect(user.status, user.message).toBe("fail");
    expect(user.message).toMatch(/process \d+ \(thread \d+\) runs with uid, gid or a supplementary group 0/);
    expect(byId["containment.no_new_privileges"]).toBe("fail");
  }, 120_000);

  it("check's census (one probe for many containers) reads every thread, not each leader alone", async () => {
    const id = await launch("census", ["perl-setuid", "/hide.pl", "root"]);
    try {
      const seen = (await takeCensus(engine, owner, PROBE_IMAGE, [id])).get(id) ?? [];
      const euid = (p: (typeof seen)[number]) => Number(p.status.Uid?.split(/\s+/)[1]);
      const shown = JSON.stringify(seen.map((p) => [p.pid, p.threadOf, p.status.Uid]));
      expect(
        seen.find((p) => p.threadOf === undefined && euid(p) !== 0),
        shown,
      ).toBeDefined();
      expect(
        seen.find((p) => p.threadOf !== undefined && euid(p) === 0),
        shown,
      ).toBeDefined();
    } finally {
      await engine.removeContainer(id);
    }
  }, 120_000);
});
