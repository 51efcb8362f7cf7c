import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/engine/ownership.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { ConfigError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Report } from "../../src/report/model.js";
import { expectedOn } from "../helpers/differences.js";
import {
  cleanupProblems,
  cleanupStory,
  ENGINE_KIND,
  hasEngine,
  newEngine,
  ownedLeft,
  PROBE_IMAGE,
} from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

async function run(
  subjects: Record<string, unknown>[],
  engine = newEngine(),
  workspace = REPO_ROOT,
): Promise<Report> {
  return runPipeline({
    workspace,
    inventoryPath: writeInventory(subjects),
    suites: ["lifecycle"],
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
    engine,
  });
}

/** Nothing the run owned is left; a failure says what the run's own cleanup did and was told. */
async function nothingOwned(report: Report): Promise<void> {
  const left = await ownedLeft(report.runId, [report.cleanup]);
  const said = cleanupStory(report.cleanup);
  expect(left.containers, said).toEqual([]);
  expect(left.images, said).toEqual([]);
}

describe.skipIf(!hasEngine)("lifecycle suite on the real engine", () => {
  it("passes every lifecycle case for the hardened fixture and leaves nothing owned", async () => {
    const report = await run([
      fixtureSubject("hardened", {
        probes: [
          { path: "/", bodyContains: "hello from the hardened fixture" },
          { path: "/nope", expectStatus: 404 },
        ],
      }),
    ]);
    expect(report.cases.map((c) => [c.id, c.status])).toEqual([
      ["lifecycle.build", "pass"],
      ["lifecycle.create", expectedOn(ENGINE_KIND, "hardened", "lifecycle.create", "pass")],
      ["lifecycle.ready", "pass"],
      ["lifecycle.probes", "pass"],
      ["lifecycle.limits", "pass"],
      ["lifecycle.stop", "pass"],
      ["lifecycle.cleanup", "pass"],
    ]);
    // The same hardened launch on both engines (Podman's through its own API): a PASS on each.
    expect(report.verdict).toBe("pass");
    expect(report.cases.find((c) => c.id === "lifecycle.create")!.message).toMatch(
      /^created as "65532:65532" from the image, init on, stop signal SIGTERM from the engine default$/,
    );
    expect(report.subjects[0]?.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(report.cleanup?.completed).toBe(true);
    expect(report.cleanup?.objects.filter((o) => o.action === "removed").map((o) => o.kind)).toContain(
      "container",
    );
    await nothingOwned(report);
  });

  it("fails lifecycle.ready for the unhealthy fixture with a log excerpt, and still cleans up", async () => {
    const report = await run([fixtureSubject("unhealthy", { startupTimeoutMs: 1500 })]);
    const ready = report.cases.find((c) => c.id === "lifecycle.ready");
    expect(ready?.status).toBe("fail");
    expect(ready?.message).toBe(
      "not ready within 1500 ms: expected GET /health answers 200 (last: status 404)",
    );
    expect(String(ready?.evidence.logExcerpt)).toContain("unhealthy: starting without /health");
    expect(ready?.remediation).toBeTruthy();
    expect(report.cases.find((c) => c.id === "lifecycle.probes")?.status).toBe("skip");
    expect(report.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    expect(report.verdict).toBe("fail");
    await nothingOwned(report);
  });

  it("fails lifecycle.stop when the subject ignores SIGTERM past its grace", async () => {
    const report = await run([fixtureSubject("slow-stop", { stopTimeoutMs: 1000 })]);
    const stop = report.cases.find((c) => c.id === "lifecycle.stop");
    expect(stop?.status, caseLines(report)).toBe("fail");
    expect(stop?.evidence.exitCode).toBe(137);
    expect(stop?.message).toMatch(/ignored SIGTERM/);
    await nothingOwned(report);
  });

  it("checks a network-none subject from a probe inside its network namespace", async () => {
    const report = await run([
      fixtureSubject("hardened", {
        name: "hardened-offline",
        network: "none",
        probes: [
          { path: "/", bodyContains: "hello from the hardened fixture" },
          { path: "/nope", expectStatus: 404 },
        ],
      }),
    ]);
    const ready = report.cases.find((c) => c.id === "lifecycle.ready");
    expect(ready?.status, caseLines(report)).toBe("pass");
    expect(ready?.evidence.via).toBe("probe in the subject's network namespace");
    const probes = report.cases.find((c) => c.id === "lifecycle.probes");
    expect(probes?.message).toBe("2 probe(s) held");
    expect((probes!.evidence.probes as { status: number }[]).map((p) => p.status)).toEqual([200, 404]);
    await nothingOwned(report);
  });

  it("fails lifecycle.probes with the probe, expected and actual status", async () => {
    const report = await run([
      fixtureSubject("hardened", { probes: [{ name: "wrong", path: "/", expectStatus: 201 }] }),
    ]);
    const probes = report.cases.find((c) => c.id === "lifecycle.probes");
    expect(probes?.status).toBe("fail");
    expect(probes?.message).toBe("wrong: expected 201, got 200");
    await nothingOwned(report);
  });

  it("refuses a context with an escaping symlink before any engine call, naming the link", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "da-ws-"));
    const ctx = path.join(workspace, "ctx");
    mkdirSync(ctx);
    writeFileSync(path.join(ctx, "Dockerfile"), "FROM scratch\nCOPY . /\n");
    symlinkSync("/etc/passwd", path.join(ctx, "passwd-link"));
    const calls: string[] = [];
    class RecordingEngine extends DockerEngine {
      override build(...args: Parameters<DockerEngine["build"]>) {
        calls.push("build");
        return super.build(...args);
      }
    }
    const report = await run(
      [{ name: "escape", build: { context: "ctx" } }],
      new RecordingEngine(),
      workspace,
    );
    const build = report.cases.find((c) => c.id === "lifecycle.build");
    expect(build?.status).toBe("error");
    expect(build?.message).toContain("symlink escapes the build context: passwd-link -> /etc/passwd");
    expect(calls).toEqual([]);
    expect(report.cases.find((c) => c.id === "lifecycle.create")?.status).toBe("skip");
    await nothingOwned(report);
  });

  it("refuses an ignored Dockerfile (or .dockerignore) that links out of the context: no host file is read or reaches the engine", async () => {
    // .dockerignore hides the link from the context listing, but the Dockerfile is read anyway.
    const outside = mkdtempSync(path.join(tmpdir(), "da-host-"));
    writeFileSync(path.join(outside, "credentials"), "host-secret-line\n");
    const workspace = mkdtempSync(path.join(tmpdir(), "da-ws-"));
    for (const [dir, ignore] of [
      ["df", "Dockerfile\n"],
      ["sub", "sub\n"],
    ] as const) {
      mkdirSync(path.join(workspace, dir));
      writeFileSync(path.join(workspace, dir, ".dockerignore"), ignore);
    }
    symlinkSync(path.join(outside, "credentials"), path.join(workspace, "df", "Dockerfile"));
    symlinkSync(outside, path.join(workspace, "sub", "sub"));
    const calls: string[] = [];
    class RecordingEngine extends DockerEngine {
      override build(...args: Parameters<DockerEngine["build"]>) {
        calls.push("build");
        return super.build(...args);
      }
    }
    // Refused when the inventory loads (exit 2, file, line and field), before any engine call.
    const err = await run(
      [
        { name: "ignored-dockerfile", build: { context: "df" } },
        { name: "ignored-dir", build: { context: "sub", dockerfile: "sub/credentials" } },
      ],
      new RecordingEngine(),
      workspace,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.map((p) => p.path)).toEqual([
      "subjects[0].build.dockerfile",
      "subjects[1].build.dockerfile",
    ]);
    for (const p of (err as ConfigError).problems)
      expect(p.message).toMatch(/resolves outside the workspace/);
    expect(String((err as Error).message)).not.toContain("host-secret-line");
    expect(calls).toEqual([]);
  });

  it("honours .dockerignore: ignored files never reach the build", async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), "da-ws-"));
    const ctx = path.join(workspace, "ctx");
    mkdirSync(path.join(ctx, "www"), { recursive: true });
    writeFileSync(
      path.join(ctx, "Dockerfile"),
      `ARG BASE_IMAGE\nFROM \${BASE_IMAGE}\nCOPY . /var/www/\nUSER 65532:65532\nCMD ["httpd", "-f", "-p", "8080", "-h", "/var/www"]\n`,
    );
    writeFileSync(path.join(ctx, "health"), "ok\n");
    writeFileSync(path.join(ctx, "secret.env"), "TOKEN=do-not-ship\n");
    writeFileSync(path.join(ctx, ".dockerignore"), "*.env\n");
    const report = await run(
      [
        fixtureSubject("ignore", {
          build: { context: "ctx", args: { BASE_IMAGE: PROBE_IMAGE } },
          probes: [
            { path: "/secret.env", expectStatus: 404 },
            { path: "/health", expectStatus: 200 },
          ],
        }),
      ],
      newEngine(),
      workspace,
    );
    expect(report.cases.find((c) => c.id === "lifecycle.probes")?.status).toBe("pass");
    await nothingOwned(report);
  });
});

describe.skipIf(!hasEngine)("owned cleanup", () => {
  it("removes only our tag when another tag shares the image", async () => {
    const engine = newEngine();
    const owner = newRunId();
    const { cleanupOwned } = await import("../../src/engine/cleanup.js");
    const { ownedTag, OWNER_LABEL } = await import("../../src/engine/ownership.js");
    // An image built by "our run", then tagged by someone else too.
    const ctx = mkdtempSync(path.join(tmpdir(), "da-shared-"));
    writeFileSync(path.join(ctx, "Dockerfile"), `FROM ${PROBE_IMAGE}\nRUN echo shared > /shared\n`);
    const { readBuildContext } = await import("../../src/engine/context.js");
    const built = await engine.build({
      context: readBuildContext(ctx, "Dockerfile"),
      tag: ownedTag(owner, "shared"),
      labels: { [OWNER_LABEL]: owner },
      timeoutMs: 60_000,
    });
    const otherTag = `da-test-shared:${owner}`;
    await engine.docker.getImage(built.imageId).tag({ repo: "da-test-shared", tag: owner });
    try {
      const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
      expect(evidence.completed, cleanupProblems(evidence)).toBe(true);
      const tagObject = evidence.objects.find((o) => o.tag === ownedTag(owner, "shared"));
      expect(tagObject?.action).toBe("untagged");
      expect(tagObject?.reason).toContain(otherTag);
      const info = await engine.inspectImage(built.imageId);
      expect(info.tags).toEqual([otherTag]);
    } finally {
      await engine.removeImage(otherTag);
      await cleanupOwned(engine, { owner }, { trigger: "test-teardown" });
    }
  });
});

/** Every lifecycle case in one line each, for a failure message that says what came before. */
function caseLines(report: { cases: { id: string; status: string; message: string }[] }): string {
  return report.cases
    .filter((c) => c.id.startsWith("lifecycle."))
    .map((c) => `${c.id} ${c.status}: ${c.message}`)
    .join("\n");
}
