// Subjects built from a Dockerfile written by the test, run through the lifecycle suite on the real
// engine, and what the engine holds of them afterwards: for the build tests of both builders.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { expect } from "vitest";
import { listOwned } from "../../src/engine/cleanup.js";
import { EngineError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { CaseResult, Report } from "../../src/report/model.js";
import { newEngine, PROBE_IMAGE } from "./engine.js";
import { ENGINE_SOCKET } from "./engine-forwarder.js";
import { writeInventory } from "./inventory.js";

export const SERVE = `USER 65532:65532\nCMD ["httpd", "-f", "-p", "8080", "-h", "/var/www"]\n`;

/** A workspace with one build context `ctx` holding `dockerfile`; the subject serves /var/www. */
export function subject(
  dockerfile: string,
  build: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const workspace = mkdtempSync(path.join(tmpdir(), "da-build-"));
  mkdirSync(path.join(workspace, "ctx"));
  writeFileSync(path.join(workspace, "ctx", "Dockerfile"), dockerfile);
  writeFileSync(path.join(workspace, "ctx", "health"), "ok\n");
  return {
    workspace,
    subject: {
      name: "built",
      build: { context: "ctx", ...build },
      port: 8080,
      limits: { memory: "64m", pids: 64, cpus: 0.5 },
      startupTimeoutMs: 15_000,
      stopTimeoutMs: 3_000,
      ...extra,
    },
  };
}

export async function run(
  s: { workspace: string; subject: Record<string, unknown> },
  opts: { removeImages?: boolean } = {},
): Promise<Report> {
  return runPipeline({
    workspace: s.workspace,
    inventoryPath: writeInventory([s.subject]),
    suites: ["lifecycle"],
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
    engine: newEngine(),
    ...opts,
  });
}

export const buildCase = (r: Report): CaseResult => r.cases.find((c) => c.id === "lifecycle.build")!;

export async function nothingOwned(r: Report): Promise<void> {
  const left = await listOwned(newEngine(), { owner: r.runId });
  expect(left.containers).toEqual([]);
  expect(left.images).toEqual([]);
  expect(r.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
}

export async function gone(imageId: string): Promise<boolean> {
  return newEngine()
    .inspectImage(imageId)
    .then(
      () => false,
      (err) => err instanceof EngineError && err.statusCode === 404,
    );
}

/** A unique line so no earlier run's cache serves the step. */
export const fresh = (nonce = randomBytes(6).toString("hex")) => `RUN echo ${nonce} > /nonce\n`;

/**
 * Images on the engine made from a step that wrote `nonce`: every image a build committed at or
 * after its `fresh(nonce)` step, labelled or not, listed from the engine's whole store.
 */
export async function imagesFrom(nonce: string): Promise<string[]> {
  const docker = new Docker({ socketPath: ENGINE_SOCKET });
  const found: string[] = [];
  for (const img of await listAll(docker)) {
    const history = await docker
      .getImage(img.Id)
      .history()
      .catch(() => [] as { CreatedBy: string }[]);
    if (history.some((h: { CreatedBy: string }) => h.CreatedBy.includes(nonce))) found.push(img.Id);
  }
  return found;
}

/** Every image; Podman's whole-store listing fails while another client removes one: asked again. */
async function listAll(docker: Docker, attempts = 10): Promise<Docker.ImageInfo[]> {
  for (let i = 1; ; i++) {
    try {
      return await docker.listImages({ all: true });
    } catch (err) {
      if (i >= attempts || (err as { statusCode?: number }).statusCode !== 500) throw err;
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }
}
