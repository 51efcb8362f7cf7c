// `check` (attach mode) on containers started by hand: it grades them, never touches them, and
// leaves nothing of its own behind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { runCommandLine } from "../../src/cli/main.js";
import { newRunId, ownerLabels } from "../../src/engine/ownership.js";
import type { CreateOptions } from "../../src/engine/providers/docker/engine.js";
import { exitCodeOf, UsageError } from "../../src/errors.js";
import { type Report, reportSchema } from "../../src/report/model.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { hardenedSubject } from "../containment/faults.js";
import { runCheck } from "../helpers/check.js";
import { failsOn } from "../helpers/differences.js";
import {
  BASE_IMAGE,
  dockerOptions,
  ENGINE_KIND,
  hasEngine,
  newEngine,
  PROBE_IMAGE,
} from "../helpers/engine.js";

describe("check: arguments", () => {
  it.each([
    [[], /--container/],
    [["--filter", "label"], /KEY=VALUE/],
    [["--container", "x", "--network", "overlay"], /none, bridge or any/],
    [["--container", "x", "--writable-root", "tmp"], /absolute path/],
  ])("%j is a usage error naming the fix", async (argv, message) => {
    const e = await runCommandLine("check", argv as string[]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect(exitCodeOf(e)).toBe(2);
    expect((e as Error).message).toMatch(message);
  });
});

describe.skipIf(!hasEngine)("check on containers started by hand", () => {
  const engine = newEngine();
  const testOwner = newRunId();
  const stack = `stack-${testOwner.slice(3, 15)}`;
  const ids: Record<string, string> = {};
  const serve = ["httpd", "-f", "-p", "8080", "-h", "/var/www"];

  const hardened = (name: string): CreateOptions => {
    const options = dockerOptions(planLaunch(hardenedSubject, BASE_IMAGE, testOwner, name));
    return { ...options, Cmd: serve, Labels: { ...options.Labels, "test.da.stack": stack } };
  };

  beforeAll(async () => {
    const specs: Record<string, CreateOptions> = {
      // What a person would type: docker run --security-opt no-new-privileges=false --user 0:0 --tmpfs /var/cache:rw
      loose: {
        name: `${testOwner}-loose`,
        Image: BASE_IMAGE,
        User: "0:0",
        Cmd: ["sleep", "600"],
        Labels: ownerLabels(testOwner, "subject"),
        HostConfig: { SecurityOpt: ["no-new-privileges=false"], Tmpfs: { "/var/cache": "rw" } },
      },
      a: hardened(`${testOwner}-a`),
      b: hardened(`${testOwner}-b`),
      c: { ...hardened(`${testOwner}-c`), User: "0:0" },
    };
    await Promise.all(
      Object.entries(specs).map(async ([k, spec]) => {
        ids[k] = await engine.createContainer(spec);
        await engine.start(ids[k]!);
      }),
    );
  });

  afterAll(async () => {
    await Promise.all(Object.values(ids).map((id) => engine.removeContainer(id).catch(() => undefined)));
  });

  it("fails no_new_privileges, user and mounts on the loose container and leaves it untouched", async () => {
    const before = await engine.inspectRaw(ids.loose!);
    const { code, out } = await runCheck([
      "--container",
      `${testOwner}-loose`,
      "--format",
      "json",
      "--probe-image",
      PROBE_IMAGE,
    ]);
    const report: Report = reportSchema.parse(JSON.parse(out));
    expect(code).toBe(1);
    expect(report.verdict).toBe("fail");
    const status = Object.fromEntries(report.cases.map((c) => [c.id, c.status]));
    expect(report.cases.map((c) => c.id)).toEqual([...CONTAINMENT_CASES]);
    expect(status["containment.no_new_privileges"]).toBe("fail");
    expect(status["containment.user"]).toBe("fail");
    expect(status["containment.mounts"]).toBe("fail");
    expect(status["containment.writable_roots"]).toBe("fail");
    const mounts = report.cases.find((c) => c.id === "containment.mounts")!;
    expect(JSON.stringify(mounts.evidence.findings)).toContain("/var/cache");
    expect(report.subjects).toEqual([
      expect.objectContaining({ name: `${testOwner}-loose`, containerId: ids.loose }),
    ]);

    // Untouched: same process, same start, not restarted, still running.
    const after = await engine.inspectRaw(ids.loose!);
    expect(after.State.Running).toBe(true);
    expect(after.State.Pid).toBe(before.State.Pid);
    expect(after.State.StartedAt).toBe(before.State.StartedAt);
    expect(after.RestartCount).toBe(before.RestartCount);
    // Its probes were owned by the check run, and that run's cleanup proved nothing of it is left.
    expect(report.cleanup?.completed).toBe(true);
    expect(await engine.listContainers({ owner: report.runId })).toEqual([]);
  });

  it("grades a whole stack selected by --filter label=... in one invocation", async () => {
    const { code, out } = await runCheck([
      "--filter",
      `label=test.da.stack=${stack}`,
      "--format",
      "json",
      "--probe-image",
      PROBE_IMAGE,
      "--network",
      "bridge",
    ]);
    const report = reportSchema.parse(JSON.parse(out));
    expect(report.subjects.map((s) => s.name).sort()).toEqual([
      `${testOwner}-a`,
      `${testOwner}-b`,
      `${testOwner}-c`,
    ]);
    expect(report.cases).toHaveLength(3 * CONTAINMENT_CASES.length);
    const failed = report.cases.filter((c) => c.status !== "pass").map((c) => `${c.subject} ${c.id}`);
    // a and b are hardened; c runs as 0:0 (and so can write /dev and /sys/fs/cgroup). On Podman,
    // exactly its listed differences come on top (every container has a read-only root).
    const dockerFails = { a: [], b: [], c: ["containment.user", "containment.writable_roots"] };
    expect(failed.sort()).toEqual(
      Object.entries(dockerFails)
        .flatMap(([name, fails]) => failsOn(ENGINE_KIND, fails).map((id) => `${testOwner}-${name} ${id}`))
        .sort(),
    );
    expect(code).toBe(1);
  });

  it("a container that does not exist is a usage error naming it", async () => {
    const e = await runCommandLine("check", [
      "--container",
      `${testOwner}-nope`,
      "--probe-image",
      PROBE_IMAGE,
    ]).catch((x: unknown) => x);
    expect(exitCodeOf(e)).toBe(2);
    expect((e as Error).message).toContain(`${testOwner}-nope`);
  });
});
