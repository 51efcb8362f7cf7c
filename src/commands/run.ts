// `docker-acceptance run`: the suites against the inventory's subjects on the local engine.
import path from "node:path";
import { createEngine } from "../engine/select.js";
import { stderrLogger } from "../log.js";
import { runPipeline } from "../pipeline.js";
import { writeBundle } from "../report/bundle.js";
import type { RequestOf } from "../request/parse.js";
import { abortOnSignals, exitCodeFor, renderReport, signalExitCode } from "./common.js";

/** What `run` takes: its flags, parsed into the one request. */
export type RunRequest = RequestOf<
  | "inventory"
  | "subjects"
  | "suites"
  | "shard"
  | "out"
  | "format"
  | "probeImage"
  | "engine"
  | "parallelism"
  | "keepImages"
  | "noRequireComplete"
  | "workspace"
  | "base"
  | "head"
  | "alignmentConfig"
  | "quiet"
>;

export async function run(r: RunRequest): Promise<number> {
  const signals = abortOnSignals();
  try {
    const report = await runPipeline({
      workspace: path.resolve(r.workspace),
      inventoryPath: r.inventory,
      subjects: r.subjects,
      suites: r.suites,
      shard: r.shard,
      probeImage: r.probeImage || undefined,
      engine: createEngine(r.engine),
      parallelism: r.parallelism,
      removeImages: !r.keepImages,
      requireComplete: !r.noRequireComplete,
      log: stderrLogger(r.quiet || r.format === "json"),
      signal: signals.signal,
      // With a base, the inventory's trust-bearing parts are read there (src/inventory/base.ts).
      judgeAt: r.base ? { base: r.base } : undefined,
      // The alignment review of the local diff runs when a base is given (as `align` does).
      alignment: r.base
        ? {
            source: { kind: "git", base: r.base, head: r.head || undefined },
            configPath: r.alignmentConfig,
          }
        : undefined,
    });
    if (r.out) {
      const markdown = await renderReport(report, "markdown");
      await writeBundle(path.resolve(r.out), report, { markdown });
      process.stderr.write(`report bundle: ${path.resolve(r.out)}\n`);
    }
    process.stdout.write(await renderReport(report, r.format));
    const sig = signals.received();
    return sig ? signalExitCode(sig) : exitCodeFor(report);
  } finally {
    signals.dispose();
  }
}
