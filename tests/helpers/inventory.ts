// Temporary inventories over the repository's fixtures, for tests that run the pipeline.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CONTAINMENT_CASES, LIFECYCLE_CASES } from "../../src/cases/index.js";
import { BASE_IMAGE } from "./engine.js";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

export function fixtureSubject(
  fixture: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: fixture,
    build: { context: `acceptance/fixtures/${fixture}`, args: { BASE_IMAGE } },
    port: 8080,
    limits: { memory: "64m", pids: 64, cpus: 0.5 },
    startupTimeoutMs: 15_000,
    stopTimeoutMs: 3_000,
    // The hardened fixture's httpd is PID 1 with no TERM handler: like the repository's own
    // inventory, it declares the init it needs for lifecycle.stop.
    ...(fixture === "hardened" ? { init: true } : {}),
    ...overrides,
  };
}

/** Both suites pinned in full, as this repository's own inventory does. */
export const ALL_PINNED = {
  lifecycle: { required: [...LIFECYCLE_CASES] },
  containment: { required: [...CONTAINMENT_CASES] },
};

/** Writes an inventory (both suites pinned unless `extra.suites` says otherwise) to a temp file. */
export function writeInventory(
  subjects: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): string {
  const dir = mkdtempSync(path.join(tmpdir(), "da-inv-"));
  const file = path.join(dir, "inventory.json");
  const inventory = { schemaVersion: 1, subjects, suites: ALL_PINNED, ...extra };
  writeFileSync(file, `${JSON.stringify(inventory, null, 2)}\n`);
  return file;
}
