// `check` on a compose stack whose services need different allowances, graded by one
// `check --filter label=com.docker.compose.project=...` call. docker compose is not installed on
// this machine, so the stack is what compose would start: containers carrying its
// com.docker.compose.project/service labels (and the allowance labels a compose file would set).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { ALLOWANCE_LABELS, allowancesFor, checkModeFix } from "../../src/commands/check-stack.js";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, ownedTag, ownerLabels } from "../../src/engine/ownership.js";
import type { CreateOptions } from "../../src/engine/providers/docker/engine.js";
import { UsageError } from "../../src/errors.js";
import { type CaseResult, type Report, reportSchema } from "../../src/report/model.js";
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

const defaults = {
  writableRoots: ["/tmp", "/dev/shm"],
  allowedCapabilities: [],
  network: "any" as const,
  allowedHostPaths: [],
};

describe("check: allowances from a container's labels", () => {
  it("each label present replaces that default, and is recorded as coming from the label", () => {
    const { allowances, fromLabels } = allowancesFor(
      "db",
      {
        [ALLOWANCE_LABELS.writableRoots]: "/tmp, /data",
        [ALLOWANCE_LABELS.allowedCapabilities]: "cap_chown",
      },
      defaults,
    );
    expect(allowances).toEqual({
      writableRoots: ["/tmp", "/data"],
      allowedCapabilities: ["CHOWN"],
      network: "any",
      allowedHostPaths: [],
    });
    expect(Object.keys(fromLabels)).toEqual([
      ALLOWANCE_LABELS.writableRoots,
      ALLOWANCE_LABELS.allowedCapabilities,
    ]);
    expect(allowancesFor("web", {}, defaults)).toEqual({ allowances: defaults, fromLabels: {} });
    expect(
      allowancesFor("files", { [ALLOWANCE_LABELS.hostPaths]: "/srv/data:ro,/srv/cache:rw" }, defaults)
        .allowances.allowedHostPaths,
    ).toEqual([
      { path: "/srv/data", readOnly: true },
      { path: "/srv/cache", readOnly: false },
    ]);
  });

  it.each([
    [ALLOWANCE_LABELS.writableRoots, "data", /absolute paths/],
    [ALLOWANCE_LABELS.allowedCapabilities, "NET BIND!", /capability names/],
    [ALLOWANCE_LABELS.network, "overlay", /none, bridge or any/],
    [ALLOWANCE_LABELS.hostPaths, "srv/data", /absolute host paths/],
  ])("a bad %s label is a usage error naming the container, the label and the fix", (label, value, fix) => {
    const e = (() => {
      try {
        return allowancesFor("shop-db-1", { [label]: value }, defaults);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toContain("shop-db-1");
    expect((e as Error).message).toContain(label);
    expect((e as Error).message).toMatch(fix);
  });

  it("fixes name docker run flags for a plain container and compose keys for a compose service", () => {
    const failed: CaseResult = {
      id: "containment.network",
      suite: "containment",
      subject: "x",
      status: "fail",
      severity: "fail",
      durationMs: 1,
      message: "ports published beyond loopback",
      evidence: { published: ["0.0.0.0:32768->8080/tcp"] },
      remediation: "from the inventory form",
    };
    const run = checkModeFix(failed, { kind: "run" })!;
    expect(run).toContain("`-p 127.0.0.1:32768:8080`");
    const compose = checkModeFix(failed, { kind: "compose", project: "shop", service: "web" })!;
    expect(compose).toMatch(/^In service `web` of compose project `shop`: /);
    expect(compose).toContain('`ports: ["127.0.0.1:32768:8080"]`');
    expect(compose).not.toContain("-p ");
    for (const id of CONTAINMENT_CASES) {
      for (const form of [
        { kind: "run" as const },
        { kind: "compose" as const, project: "p", service: "s" },
      ]) {
        const fix = checkModeFix({ ...failed, id, evidence: {} }, form)!;
        expect(fix, `${id} ${form.kind}`).not.toMatch(/inventory|subjects\[/);
        // The terminal shows 500 characters of a fix: a whole one fits, even with long names.
        const long = { kind: "compose" as const, project: "p".repeat(24), service: "s".repeat(24) };
        expect(checkModeFix({ ...failed, id, evidence: {} }, long)!.length, id).toBeLessThanOrEqual(500);
      }
    }
  });
});

describe.skipIf(!hasEngine)("check on a compose stack with per-container allowances", () => {
  const engine = newEngine();
  const testOwner = newRunId();
  const project = `shop-${testOwner.slice(3, 15)}`;
  const ids: string[] = [];
  const serve = ["httpd", "-f", "-p", "8080", "-h", "/var/www"];
  /** A writable tmpfs at /data that the subject's user can write, as a database volume would be. */
  const data = { "/data": "rw,noexec,nosuid,nodev,size=8m,mode=1777" };

  /** What compose would start for `service`: the hardened launch plus its labels. */
  const service = (
    name: string,
    labels: Record<string, string>,
    host: Record<string, unknown> = {},
  ): CreateOptions => {
    const options = dockerOptions(planLaunch(hardenedSubject, BASE_IMAGE, testOwner, `${project}-${name}-1`));
    return {
      ...options,
      Cmd: serve,
      Labels: {
        ...options.Labels,
        "com.docker.compose.project": project,
        "com.docker.compose.service": name,
        ...labels,
      },
      HostConfig: {
        ...options.HostConfig,
        ...host,
        Tmpfs: { ...options.HostConfig?.Tmpfs, ...(host.Tmpfs as Record<string, string> | undefined) },
      },
    };
  };

  /** A host directory, as a compose file's `volumes: ["./static:/srv/static:ro"]` would bind. */
  const hostDir = mkdtempSync(path.join(tmpdir(), "da-stack-"));

  beforeAll(async () => {
    const bind = { Binds: [`${hostDir}:/srv/static:ro`] };
    const specs = [
      service("web", {}),
      // redis-like: writes /data, allowed by its own label only.
      service("db", { [ALLOWANCE_LABELS.writableRoots]: "/tmp,/dev/shm,/data" }, { Tmpfs: data }),
      // keeps NET_BIND_SERVICE, allowed by its own label only.
      service(
        "proxy",
        { [ALLOWANCE_LABELS.allowedCapabilities]: "NET_BIND_SERVICE" },
        { CapAdd: ["NET_BIND_SERVICE"] },
      ),
      // binds a host directory read-only, allowed by its own label only.
      service("files", { [ALLOWANCE_LABELS.hostPaths]: `${hostDir}:ro` }, bind),
      // the same /data, the same bind and a port on every interface, with no allowance labels.
      service(
        "worker",
        {},
        { ...bind, Tmpfs: data, PortBindings: { "8080/tcp": [{ HostIp: "0.0.0.0", HostPort: "" }] } },
      ),
    ];
    for (const spec of specs) {
      const id = await engine.createContainer(spec);
      ids.push(id);
      await engine.start(id);
    }
  });

  afterAll(async () => {
    await Promise.all(ids.map((id) => engine.removeContainer(id).catch(() => undefined)));
    rmSync(hostDir, { recursive: true, force: true });
  });

  it("one --filter call grades every service with its own allowances and compose-form fixes", async () => {
    const filter = ["--filter", `label=com.docker.compose.project=${project}`, "--probe-image", PROBE_IMAGE];
    const { code, out } = await runCheck([...filter, "--format", "json"]);
    const report: Report = reportSchema.parse(JSON.parse(out));
    expect(report.subjects.map((s) => s.name).sort()).toEqual(
      ["db", "files", "proxy", "web", "worker"].map((s) => `${project}-${s}-1`),
    );
    const notPassed = report.cases
      .filter((c) => c.status !== "pass")
      .map((c) => `${c.subject.replace(`${project}-`, "")} ${c.id} ${c.status}`)
      .sort();
    // db, proxy and files pass only through their own labels; the worker has the same /data and
    // bind and no label. On Podman, exactly its listed differences come on top (every service).
    const dockerFails: Record<string, string[]> = {
      db: [],
      files: [],
      proxy: [],
      web: [],
      worker: ["containment.mounts", "containment.network", "containment.writable_roots"],
    };
    expect(notPassed).toEqual(
      Object.entries(dockerFails)
        .flatMap(([service, fails]) => failsOn(ENGINE_KIND, fails).map((id) => `${service}-1 ${id} fail`))
        .sort(),
    );
    expect(code).toBe(1);

    const worker = report.cases.filter((c) => c.subject === `${project}-worker-1` && c.status === "fail");
    for (const c of worker)
      expect(c.remediation).toMatch(new RegExp(`^In service \`worker\` of compose project \`${project}\`: `));
    const network = worker.find((c) => c.id === "containment.network")!;
    expect(network.remediation).toMatch(/`ports: \["127\.0\.0\.1:\d+:8080"\]`/);
    expect(worker.find((c) => c.id === "containment.mounts")!.remediation).toContain(
      ALLOWANCE_LABELS.writableRoots,
    );

    const db = report.cases.find(
      (c) => c.subject === `${project}-db-1` && c.id === "containment.writable_roots",
    )!;
    expect(db.evidence.allowancesFromLabels).toEqual({
      [ALLOWANCE_LABELS.writableRoots]: "/tmp,/dev/shm,/data",
    });

    // What a person reads: no inventory, no subjects[] (check mode has neither).
    for (const format of ["text", "markdown"]) {
      const rendered = await runCheck([...filter, "--format", format]);
      expect(rendered.code).toBe(1);
      expect(rendered.out).toMatch(/In service (`|<code>)worker(`|<\/code>) of compose project/);
      expect(rendered.out, format).not.toMatch(/inventory|subjects\[/i);
    }
  });
});

describe.skipIf(!hasEngine)("check: an image's own allowance labels are not the deployer's", () => {
  const engine = newEngine();
  const testOwner = newRunId();
  const dir = mkdtempSync(path.join(tmpdir(), "da-image-labels-"));
  const image = ownedTag(testOwner, "self-allowing");
  const ids: string[] = [];
  /** What the Dockerfile (the pull request's) claims for every container of its image. */
  const claimed = {
    [ALLOWANCE_LABELS.allowedCapabilities]: "NET_RAW",
    [ALLOWANCE_LABELS.writableRoots]: "/tmp,/dev/shm,/var/cache",
  };

  /** The hardened launch of the image, with NET_RAW kept and a writable /var/cache. */
  const launch = (name: string, labels: Record<string, string>): CreateOptions => {
    const options = dockerOptions(planLaunch(hardenedSubject, image, testOwner, `${testOwner}-${name}`));
    return {
      ...options,
      Cmd: ["sleep", "100000"],
      Labels: { ...options.Labels, ...labels },
      HostConfig: {
        ...options.HostConfig,
        CapAdd: ["NET_RAW"],
        Tmpfs: { ...options.HostConfig?.Tmpfs, "/var/cache": "rw,noexec,nosuid,nodev,size=8m,mode=1777" },
      },
    };
  };

  beforeAll(async () => {
    const label = Object.entries(claimed)
      .map(([k, v]) => `${k}="${v}"`)
      .join(" ");
    writeFileSync(path.join(dir, "Dockerfile"), `FROM ${BASE_IMAGE}\nLABEL ${label}\n`);
    await engine.build({
      context: readBuildContext(dir, "Dockerfile"),
      tag: image,
      labels: ownerLabels(testOwner, "subject"),
      timeoutMs: 60_000,
    });
    for (const [name, labels] of [
      ["image-only", {}],
      // The deployer's own label, saying less than the image's: it is the one that counts.
      ["deployer", { [ALLOWANCE_LABELS.allowedCapabilities]: "NET_RAW,CHOWN" }],
    ] as const) {
      const id = await engine.createContainer(launch(name, labels));
      ids.push(id);
      await engine.start(id);
    }
  });

  afterAll(async () => {
    await Promise.all(ids.map((id) => engine.removeContainer(id).catch(() => undefined)));
    await cleanupOwned(engine, { owner: testOwner }, { trigger: "test-teardown" });
    rmSync(dir, { recursive: true, force: true });
  });

  it("a Dockerfile LABEL granting allowances grants nothing; a label the launch set still does", async () => {
    const args = ["--probe-image", PROBE_IMAGE, "--format", "json"];
    const { out } = await runCheck(["--container", ids[0]!, "--container", ids[1]!, ...args]);
    const report: Report = reportSchema.parse(JSON.parse(out));
    const of = (name: string, id: string) =>
      report.cases.find((c) => c.subject === `${testOwner}-${name}` && c.id === id)!;
    // The image's claim alone: NET_RAW and /var/cache are not allowed.
    expect(of("image-only", "containment.capabilities").status).toBe("fail");
    expect(of("image-only", "containment.capabilities").message).toContain("NET_RAW");
    expect(of("image-only", "containment.writable_roots").status).toBe("fail");
    expect(of("image-only", "containment.mounts").status).toBe("fail");
    expect(of("image-only", "containment.capabilities").evidence.allowanceLabelsOfTheImage).toEqual(claimed);
    // The deployer's label counts; the image's writable-roots claim still does not.
    expect(of("deployer", "containment.capabilities").status).toBe("pass");
    expect(of("deployer", "containment.writable_roots").status).toBe("fail");
    expect(of("deployer", "containment.capabilities").evidence.allowancesFromLabels).toEqual({
      [ALLOWANCE_LABELS.allowedCapabilities]: "NET_RAW,CHOWN",
    });
  }, 120_000);
});
