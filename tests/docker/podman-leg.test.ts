// The Podman leg runs every real-engine test the Docker leg runs, or the test is listed with the
// reason it cannot (tests/helpers/podman-leg.ts): a new real-engine test is never left out silently.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/inventory.js";
import { NOT_ON_PODMAN } from "../helpers/podman-leg.js";

/** Test files that talk to a real engine: they use the engine helpers and are not fakes. */
function realEngineTests(): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(path.join(REPO_ROOT, "tests"), { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(path.join(REPO_ROOT, "tests", dir.name))) {
      if (!f.endsWith(".test.ts")) continue;
      const rel = `tests/${dir.name}/${f}`;
      const text = readFileSync(path.join(REPO_ROOT, rel), "utf8");
      if (/\bhasEngine\b/.test(text)) files.push(rel);
    }
  }
  return files.sort();
}

/** The files the Podman leg of .ci/run names. */
function podmanLeg(): string[] {
  const ci = readFileSync(path.join(REPO_ROOT, ".ci/run"), "utf8");
  const leg = ci
    .slice(ci.indexOf('step "Podman leg'), ci.indexOf("podman_status=$?"))
    .split("\n")
    .filter((line) => !line.trim().startsWith("#"))
    .join("\n");
  return [...leg.matchAll(/tests\/[\w/-]+\.test\.ts/g)].map((m) => m[0]).sort();
}

describe("the Podman leg of .ci/run", () => {
  it("runs every real-engine test, or lists it with its reason", () => {
    const leg = new Set(podmanLeg());
    const missing = realEngineTests().filter((f) => !leg.has(f) && !(f in NOT_ON_PODMAN));
    expect(missing).toEqual([]);
  });

  it("lists only files that exist and that it does not run, each with a reason", () => {
    const real = new Set(realEngineTests());
    const leg = new Set(podmanLeg());
    for (const [file, why] of Object.entries(NOT_ON_PODMAN)) {
      expect(real.has(file), file).toBe(true);
      expect(leg.has(file), file).toBe(false);
      expect(why.length).toBeGreaterThan(20);
    }
    for (const file of leg) expect(real.has(file), file).toBe(true);
  });
});
