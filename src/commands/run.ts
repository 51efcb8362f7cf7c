// `docker-acceptance run`: the suites against the inventory's subjects on the local engine.
import path from "node:path";
import { createEngine } from "../engine/select.js";
import { stderrLogger } from "../log.js";
import { runPipeline } from "../pipeline.js";
import type { Report } from "../report/model.js";
import type { RequestOf } from "../request/parse.js";
import { abortOnSignals, exitCodeFor, renderReport, signalExitCode } from "./common.js";

/** What `run` takes: its flags, parsed into the one request. */
type RunRequest = RequestOf<
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

export async function run(request: RunRequest): Promise<number> {
  const signals = abortOnSignals();
  const out = request.out ? path.resolve(request.out) : undefined;
  try {
    const report = await runPipeline({
      workspace: path.resolve(request.workspace),
      inventoryPath: request.inventory,
      subjects: request.subjects,
      suites: request.suites,
      shard: request.shard,
      probeImage: request.probeImage || undefined,
      engine: createEngine(request.engine),
      parallelism: request.parallelism,
      removeImages: !request.keepImages,
      requireComplete: !request.noRequireComplete,
      log: stderrLogger(request.quiet || request.format === "json"),
      signal: signals.signal,
      // A cancelled run keeps a report even if its cleanup outlasts the hard exit.
      onCancelled: out ? (provisional) => keepBundle(out, provisional) : undefined,
      // With a base, the inventory's trust-bearing parts are read there (src/inventory/base.ts).
      judgeAt: request.base ? { base: request.base } : undefined,
      // The alignment review of the local diff runs when a base is given (as `align` does).
      alignment: request.base
        ? {
            source: { kind: "git", base: request.base, head: request.head || undefined },
            configPath: request.alignmentConfig,
          }
        : undefined,
    });
    if (out) {
      await keepBundle(out, report);
      process.stderr.write(`report bundle: ${out}\n`);
    }
    process.stdout.write(await renderReport(report, request.format));
    const sig = signals.received();
    return sig ? signalExitCode(sig) : exitCodeFor(report);
  } finally {
    signals.dispose();
  }
}

async function keepBundle(dir: string, report: Report): Promise<void> {
  const markdown = await renderReport(report, "markdown");
  // Loaded once there is a report: it brings the report's schema, which start-up need not build.
  const { writeBundle } = await import("../report/bundle.js");
  await writeBundle(dir, report, { markdown });
}
