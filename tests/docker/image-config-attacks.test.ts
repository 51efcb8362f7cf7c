// Fields of the image's configuration, which the pull request writes in its Dockerfile, turned
// against the verdict, on the real engine and through the whole pipeline (the tool builds the
// Dockerfile as it builds a pull request's).
//
// A relative `VOLUME ../../tmp` is an anonymous volume the engine does not match to the launch's
// tmpfs at /tmp (it compares the cleaned path, `../../tmp`), so it does not skip it as it skips
// `VOLUME /tmp`: it mounts it at /tmp too, deeper paths last, over the tmpfs. The subject's /tmp is
// then the volume: disk-backed, unbounded, without noexec, nosuid or nodev. The grader read the
// flags of the first mount listed at /tmp, the hidden tmpfs, and every case passed.
//
// A `STOPSIGNAL` the build accepts may be no signal a process can be asked to stop by: a number
// past 64, or 32 and 33 (the C library's own, which programs cannot handle). The engine's kill
// refuses those, and lifecycle.stop was an ERROR with the engine's words (exit 3, "engine or
// internal error") for what is the Dockerfile's fault; `docker stop` kills such a subject unasked.
//
// An image with neither ENTRYPOINT nor CMD (`ENTRYPOINT []` and `CMD []`, or a `FROM scratch` stage
// that never says what to run), launched without an inventory `command`, is refused by every
// engine's create ("No command specified"): an ERROR pointing at the inventory, for a Dockerfile
// that runs nothing.
//
// A USER the image's /etc/passwd does not have, or ids past the runtime's range, fail the start:
// the case said so in the runtime's words, with a fix about ENTRYPOINT and CMD, at the CMD line.
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { CaseResult } from "../../src/report/model.js";
import { BASE_IMAGE, ENGINE_KIND, hasEngine, ownedLeft, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";

/** A busybox httpd subject whose Dockerfile ends with `lines` (after USER 65532:65532), then `cmd`. */
function subject(
  name: string,
  lines: string[],
  overrides: Record<string, unknown> = {},
  cmd = 'CMD ["httpd", "-f", "-p", "8080", "-h", "/var/www"]',
) {
  const ws = mkdtempSync(path.join(tmpdir(), "da-image-config-"));
  mkdirSync(path.join(ws, "ctx", "www"), { recursive: true });
  writeFileSync(path.join(ws, "ctx", "www", "health"), "ok\n");
  writeFileSync(
    path.join(ws, "ctx", "Dockerfile"),
    [
      "ARG BASE_IMAGE",
      `FROM \${BASE_IMAGE}`,
      "COPY www/ /var/www/",
      "USER 65532:65532",
      ...lines,
      cmd,
      "",
    ].join("\n"),
  );
  return {
    ws,
    subject: {
      name,
      build: { context: "ctx", args: { BASE_IMAGE } },
      port: 8080,
      healthPath: "/health",
      init: true,
      limits: { memory: "64m", pids: 64, cpus: 0.5 },
      startupTimeoutMs: 20_000,
      stopTimeoutMs: 3000,
      ...overrides,
    },
  };
}

async function run(s: ReturnType<typeof subject>): Promise<Record<string, CaseResult>> {
  return (await runAll(s.ws, [s.subject]))[s.subject.name]!;
}

/** Subjects sharing one workspace, in one run: their cases by subject, then by case ID. */
async function runAll(
  ws: string,
  subjects: Record<string, unknown>[],
): Promise<Record<string, Record<string, CaseResult>>> {
  const report = await runPipeline({
    workspace: ws,
    inventoryPath: writeInventory(subjects),
    probeImage: PROBE_IMAGE,
    log: silentLogger,
    signal: new AbortController().signal,
  });
  expect(await ownedLeft(report.runId, [report.cleanup])).toEqual({ containers: [], images: [] });
  const bySubject: Record<string, Record<string, CaseResult>> = {};
  for (const c of report.cases) bySubject[c.subject] = { ...bySubject[c.subject], [c.id]: c };
  return bySubject;
}

describe.skipIf(!hasEngine)("the image's configuration against the verdict", () => {
  it("a VOLUME the engine mounts over an allotted root's tmpfs (../../tmp) is judged as what the subject writes to", async () => {
    const cases = await run(subject("volume-over-tmp", ["VOLUME ../../tmp"]));
    const mounts = cases["containment.mounts"]!;
    const atTmp = ((mounts.evidence.inventory ?? []) as { mountPoint: string; fsType: string }[]).filter(
      (m) => m.mountPoint === "/tmp",
    );
    // Docker stacks the volume over the tmpfs (measured on 20.10); an engine that does not leaves
    // the tmpfs alone at /tmp, and then the subject is as hardened as any.
    if (ENGINE_KIND === "docker") expect(atTmp.map((m) => m.fsType)).toEqual(["tmpfs", "ext4"]);
    const stacked = atTmp.length > 1;
    // Both mounts sit at an allotted root (containment.mounts passes them as such); what the
    // subject writes to there, the volume on top, is writable without noexec, nosuid and nodev.
    const roots = cases["containment.writable_roots"]!;
    expect(
      { mounts: mounts.status, writableRoots: roots.status },
      JSON.stringify({ mounts: mounts.message, roots: roots.message }),
    ).toEqual({ mounts: "pass", writableRoots: stacked ? "fail" : "pass" });
    if (stacked)
      // Docker's volume lacks all three flags; Podman's has nosuid and nodev, not noexec.
      expect(roots.message).toMatch(
        /^\/tmp is writable without noexec[a-z,]* \(\S+ mounted over another mount at \/tmp, which it hides\)$/,
      );
  }, 120_000);

  it("a STOPSIGNAL no process can be asked to stop by (100, 32) fails lifecycle.stop at its Dockerfile line, never an engine error", async () => {
    const at = subject("stopsignal-100", ["STOPSIGNAL 100"]);
    const other = subject("stopsignal-32", ["STOPSIGNAL 32"]);
    // Both contexts in one workspace: one run.
    renameSync(path.join(other.ws, "ctx"), path.join(at.ws, "ctx32"));
    const runs = await runAll(at.ws, [
      at.subject,
      { ...other.subject, build: { ...other.subject.build, context: "ctx32" } },
    ]);
    for (const [name, signal] of [
      ["stopsignal-100", "100"],
      ["stopsignal-32", "32"],
    ] as const) {
      // An engine that checks the signal at create (Podman: past 64) refuses the image there.
      const create = runs[name]!["lifecycle.create"]!;
      if (create.status === "fail") {
        expect(create.message).toMatch(new RegExp(`its stop signal ${signal} is no signal a process`));
        expect(create.location?.line).toBe(5);
        continue;
      }
      const stop = runs[name]!["lifecycle.stop"]!;
      expect(`${name}: ${stop.status}`, stop.message).toBe(`${name}: fail`);
      expect(stop.message).toMatch(
        new RegExp(`^the stop signal ${signal} is no signal a process can be asked to stop by`),
      );
      expect(stop.location?.line).toBe(5);
      expect(stop.remediation).toMatch(/STOPSIGNAL/);
      // Everything before the stop is judged as for any other image.
      expect(runs[name]!["lifecycle.ready"]!.status).toBe("pass");
    }
  }, 120_000);

  it("an image with nothing to run (no ENTRYPOINT, no CMD, no inventory command) fails lifecycle.create at its Dockerfile", async () => {
    const cases = await run(subject("nothing-to-run", ["ENTRYPOINT []"], {}, "CMD []"));
    const create = cases["lifecycle.create"]!;
    expect(`${create.status}: ${create.message}`).toMatch(
      /^fail: the image has no ENTRYPOINT or CMD and the inventory no command: nothing to run/,
    );
    expect(create.location).toEqual({ path: "ctx/Dockerfile", line: 6 });
    expect(create.remediation).toMatch(/CMD/);
  }, 120_000);

  it("a USER the image lacks, or past the runtime's ids, fails lifecycle.ready at the USER line, naming it", async () => {
    const ghost = subject("user-ghost", ["USER ghost"]);
    const big = subject("user-past-range", ["USER 4294967294:4294967294"]);
    renameSync(path.join(big.ws, "ctx"), path.join(ghost.ws, "ctx-big"));
    const runs = await runAll(ghost.ws, [
      ghost.subject,
      { ...big.subject, build: { ...big.subject.build, context: "ctx-big" } },
    ]);
    const expected = {
      "user-ghost": [/: the image's user ghost is not in its \/etc\/passwd/, /create the user/],
      "user-past-range": [/: the user's uid or gid is past 2147483647/, /USER/],
    } as const;
    for (const [name, [cause, fix]] of Object.entries(expected)) {
      const ready = runs[name]!["lifecycle.ready"]!;
      expect(`${name}: ${ready.status}`, ready.message).toBe(`${name}: fail`);
      expect(ready.message).toMatch(cause);
      expect(ready.remediation).toMatch(fix);
      expect(ready.location?.line, name).toBe(5);
    }
  }, 120_000);
});
