// The fault matrix as data (acceptance/fixtures/faults/faults.json) and how a fixture's deviation
// is laid over the hardened launch settings. Shared by the matrix test and the recorder.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { CreateOptions } from "../../src/engine/docker.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";

export const FAULTS_DIR = path.resolve("acceptance/fixtures/faults");
export const HARDENED_DIR = path.resolve("acceptance/fixtures/hardened");

export interface FaultFixture {
  name: string;
  image?: string;
  launch?: Record<string, unknown>;
  recorded?: string;
  why?: string;
  fails: string[];
}

export function loadFaults(): FaultFixture[] {
  const doc = JSON.parse(readFileSync(path.join(FAULTS_DIR, "faults.json"), "utf8")) as {
    fixtures: FaultFixture[];
  };
  return doc.fixtures;
}

/** The hardened subject as the inventory's defaults declare it, its user stated (the bare base image has none). */
export const hardenedSubject = subjectSchema.parse({
  name: "hardened",
  build: { context: "acceptance/fixtures/hardened" },
  user: "65532:65532",
  init: true,
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** HostConfig keys replace; object values (Tmpfs) merge; null removes. */
export function applyDeviation(
  base: CreateOptions,
  launch: Record<string, unknown> = {},
  hostDir = "",
): CreateOptions {
  const text = JSON.stringify(launch).replaceAll("{HOST_DIR}", hostDir);
  const dev = JSON.parse(text) as Record<string, unknown>;
  const out = structuredClone(base) as Record<string, unknown>;
  const merge = (target: Record<string, unknown>, src: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(src)) {
      if (v === null) delete target[k];
      else if (isObject(v) && isObject(target[k]) && k !== "PortBindings")
        merge(target[k] as Record<string, unknown>, v);
      else target[k] = v;
    }
  };
  merge(out, dev);
  return out as CreateOptions;
}

export function fixtureLaunch(
  f: FaultFixture,
  image: string,
  owner: string,
  name: string,
  hostDir = "",
): CreateOptions {
  const { options } = planLaunch(hardenedSubject, image, owner, name);
  return applyDeviation(options, f.launch, hostDir);
}
