// An allotted root whose path goes through a symlink of the image: Debian's /var/run -> /run. The
// engine mounts "/var/run/app" where the subject's kernel resolves it (/run/app), so the probe
// resolves it the same way, under the subject's root, and the graders take the mount there as the
// allotted root. It was a false FAIL of containment.mounts and writable_roots, a realistic first
// inventory on any Debian image. The links are the subject's to write: a target the report line
// cannot carry as it is leaves the root where it was declared.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { hasEngine, ownedLeft, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";
import { DEBIAN_IMAGE } from "../helpers/realistic.js";

/** A sleeping Debian subject allotted `roots`; `links`: symlinks its Dockerfile makes first. */
function subject(name: string, roots: string[], links: [string, string][] = []) {
  const ws = mkdtempSync(path.join(tmpdir(), "da-links-"));
  mkdirSync(path.join(ws, "ctx"));
  const made = links
    .map(([at, to]) => `RUN mkdir -p "$(dirname '${at}')" && ln -s '${to}' '${at}'\n`)
    .join("");
  writeFileSync(
    path.join(ws, "ctx", "Dockerfile"),
    `ARG BASE_IMAGE\nFROM \${BASE_IMAGE}\n${made}USER 65532:65532\nCMD ["sleep", "600"]\n`,
  );
  return {
    ws,
    subject: {
      name,
      build: { context: "ctx", args: { BASE_IMAGE: DEBIAN_IMAGE } },
      network: "none",
      readiness: { type: "delay", ms: 300 },
      writableRoots: roots,
      limits: { memory: "64m", pids: 64, cpus: 0.5 },
      stopTimeoutMs: 2000,
    },
  };
}

async function containment(s: ReturnType<typeof subject>) {
  const report = await runPipeline({
    workspace: s.ws,
    inventoryPath: writeInventory([s.subject]),
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
  });
  expect(await ownedLeft(report.runId, [report.cleanup])).toEqual({ containers: [], images: [] });
  return Object.fromEntries(
    report.cases.filter((c) => c.id.startsWith("containment.")).map((c) => [c.id, c]),
  );
}

describe.skipIf(!hasEngine)("an allotted root through the image's own links", () => {
  it("/var/run/app on Debian (/var/run -> /run) passes mounts and writable_roots, and is written where it is", async () => {
    const cases = await containment(subject("var-run", ["/var/run/app"]));
    for (const id of ["containment.mounts", "containment.writable_roots"])
      expect(`${id}: ${cases[id]?.status}`, cases[id]?.message).toBe(`${id}: pass`);
    expect(cases["containment.writable_roots"]?.message).toMatch(/\/var\/run\/app accepted a write/);
  }, 240_000);

  it("a chain of relative and absolute links resolves as the kernel does; one the report cannot carry stays declared", async () => {
    const chained = await containment(
      subject(
        "chained",
        ["/srv/data/cache"],
        [
          ["/srv/data", "../opt/store"],
          ["/opt/store", "/var/lib/store"],
        ],
      ),
    );
    for (const id of ["containment.mounts", "containment.writable_roots"])
      expect(`${id}: ${chained[id]?.status}`, chained[id]?.message).toBe(`${id}: pass`);
    // A target with a space: the engine mounts the tmpfs there, the probe does not say where, so
    // the mount stands outside the allotted roots as declared: found, never passed by a guess.
    const spaced = await containment(subject("spaced", ["/srv/odd/cache"], [["/srv/odd", "/srv/an odd"]]));
    expect(spaced["containment.mounts"]?.status).toBe("fail");
  }, 480_000);
});
