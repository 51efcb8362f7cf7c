// The realistic fixture matrix on the real engine: images built FROM a real Debian base with apt
// (acceptance/fixtures/realistic/), each case graded through both suites exactly as a user's
// inventory would, and every case's status compared with realistic.json; on Podman with exactly
// the engine differences tests/helpers/differences.ts lists (the lifecycle verdicts are the same). Cases marked `pending`
// wait for a feature and are listed as todos, never asserted with a weakened expectation.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import Docker from "dockerode";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_CASES, type CaseId } from "../../src/cases/index.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Report } from "../../src/report/model.js";
import { expectedOn } from "../helpers/differences.js";
import { ENGINE_KIND, hasEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";
import {
  DEBIAN_IMAGE,
  expectedStatuses,
  fixtureTag,
  loadRealistic,
  REALISTIC_DIR,
} from "../helpers/realistic.js";

const run = promisify(execFile);
const matrix = loadRealistic();
// DA_REALISTIC_ALL=1 asserts the pending cases too: how a feature's author sees what is left.
const all = process.env.DA_REALISTIC_ALL === "1";
const asserted = matrix.cases.filter((c) => all || !c.pending);
const pending = matrix.cases.filter((c) => !all && c.pending);

async function baseAvailable(): Promise<boolean> {
  if (!hasEngine) return false;
  try {
    await new Docker().getImage(DEBIAN_IMAGE).inspect();
    return true;
  } catch (err) {
    if (process.env.CI) {
      throw new Error(
        `CI=true but ${DEBIAN_IMAGE} is missing (${(err as Error).message}); run scripts/engine.sh`,
      );
    }
    return false;
  }
}
const hasBase = await baseAvailable();

/** Each fixture image once per run (the layer cache keeps repeat runs short), two at a time. */
async function buildImages(names: string[]): Promise<void> {
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const spec = matrix.images[name]!;
      const args = ["build", "-q", "-t", fixtureTag(name), "--build-arg", `BASE=${DEBIAN_IMAGE}`];
      if (spec.target) args.push("--target", spec.target);
      // The engine's own failures, seen on a loaded Podman, make that build (not a test) again,
      // twice at most: a RUN step's runtime "signal: killed" with no OOM kill or restart on record,
      // and its storage changed under the build by another client ("layer not known", the race the
      // product's own build retries too). Any other build failure ends the suite at once.
      for (let attempt = 1; ; attempt++) {
        const failure = await run("docker", [...args, path.join(REALISTIC_DIR, spec.context)], {
          maxBuffer: 16 * 1024 * 1024,
        }).then(
          () => undefined,
          (err: { stderr?: string; message: string }) => err.stderr || err.message,
        );
        if (failure === undefined) break;
        if (
          attempt === 3 ||
          !/while running runtime: signal: killed|\b(?:layer|image) not known\b/.test(failure)
        )
          throw new Error(`building fixture ${name}: ${failure}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
}

describe.skipIf(!hasBase)("realistic fixtures on a real Debian base", () => {
  let report: Report;

  beforeAll(async () => {
    await buildImages([...new Set(asserted.map((c) => c.image))]);
    const inventory = writeInventory(
      asserted.map((c) => ({
        name: c.name,
        image: fixtureTag(c.image),
        limits: { memory: "128m", pids: 64, cpus: 0.5 },
        startupTimeoutMs: 30_000,
        ...c.subject,
      })),
    );
    report = await runPipeline({
      workspace: path.dirname(inventory),
      inventoryPath: inventory,
      probeImage: PROBE_IMAGE,
      parallelism: 2,
      log: silentLogger,
      signal: AbortSignal.timeout(10 * 60_000),
    });
  }, 15 * 60_000);

  it.each(asserted.map((c) => [c.name, c] as const))("%s gives exactly its expected verdicts", (_n, c) => {
    const got = Object.fromEntries(
      report.cases.filter((r) => r.subject === c.name).map((r) => [r.id, r.status]),
    );
    const failing = report.cases
      .filter((r) => r.subject === c.name && r.status !== "pass")
      .map((r) => `${r.id}: ${r.message}`)
      .join("\n");
    const readOnlyRoot = !((c.subject.relax as string[] | undefined) ?? []).includes("read-only-root");
    const expected = Object.fromEntries(
      Object.entries(expectedStatuses(c, ALL_CASES, matrix.sets)).map(([id, status]) => [
        id,
        expectedOn(ENGINE_KIND, c.name, id as CaseId, status, readOnlyRoot),
      ]),
    );
    expect(got, `${c.name} (${c.why}) on ${ENGINE_KIND}\n${failing}`).toEqual(expected);
    const messages = { ...c.messages, ...(ENGINE_KIND ? c.messagesOn?.[ENGINE_KIND] : {}) };
    for (const [id, pattern] of Object.entries(messages)) {
      const result = report.cases.find((r) => r.subject === c.name && r.id === id);
      expect(result?.message, `${c.name} ${id}`).toMatch(new RegExp(pattern));
    }
    for (const [id, pattern] of Object.entries(c.logExcerpts ?? {})) {
      const result = report.cases.find((r) => r.subject === c.name && r.id === id);
      expect(String(result?.evidence.logExcerpt ?? ""), `${c.name} ${id} log excerpt`).toMatch(
        new RegExp(pattern),
      );
    }
  });

  for (const c of pending) it.todo(`${c.name}: waits for ${c.pending}`);
});
