// `docker-acceptance run`: the suites against the inventory's subjects on the local engine.
import path from "node:path";
import { parseArgs } from "node:util";
import { createEngine, type EngineChoice } from "../engine/select.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import { stderrLogger } from "../log.js";
import { runPipeline } from "../pipeline.js";
import type { Shard } from "../plan.js";
import { writeBundle } from "../report/bundle.js";
import type { SuiteName } from "../suites/ids.js";
import { abortOnSignals, exitCodeFor, type Format, renderReport, signalExitCode } from "./common.js";
import { parseRequest } from "./request.js";

export async function runCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      inventory: { type: "string", default: DEFAULT_INVENTORY_PATH },
      subject: { type: "string", multiple: true, default: [] },
      suite: { type: "string", multiple: true, default: [] },
      shard: { type: "string" },
      out: { type: "string" },
      format: { type: "string" },
      "probe-image": { type: "string" },
      engine: { type: "string" },
      parallelism: { type: "string" },
      "keep-images": { type: "boolean", default: false },
      "no-require-complete": { type: "boolean", default: false },
      workspace: { type: "string", default: "." },
      base: { type: "string" },
      head: { type: "string" },
      "alignment-config": { type: "string" },
      quiet: { type: "boolean", short: "q", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const flags = parseRequest(
    {
      suites: values.suite,
      parallelism: values.parallelism,
      shard: values.shard,
      format: values.format,
      engine: values.engine ?? process.env.DA_ENGINE,
    },
    ["suites", "parallelism", "shard", "format", "engine"],
    "flag",
  );
  const format = flags.format as Format;
  const parallelism = flags.parallelism as number | undefined;
  const signals = abortOnSignals();
  try {
    const report = await runPipeline({
      workspace: path.resolve(values.workspace),
      inventoryPath: values.inventory,
      subjects: values.subject,
      suites: flags.suites as SuiteName[],
      shard: flags.shard as Shard | undefined,
      probeImage: values["probe-image"],
      engine: createEngine(flags.engine as EngineChoice),
      parallelism,
      removeImages: !values["keep-images"],
      requireComplete: !values["no-require-complete"],
      log: stderrLogger(values.quiet || format === "json"),
      signal: signals.signal,
      // With a base, the inventory's trust-bearing parts are read there (src/inventory/base.ts).
      judgeAt: values.base ? { base: values.base } : undefined,
      // The alignment review of the local diff runs when a base is given (as `align` does).
      alignment: values.base
        ? {
            source: { kind: "git", base: values.base, head: values.head },
            configPath: values["alignment-config"],
          }
        : undefined,
    });
    if (values.out) {
      const markdown = await renderReport(report, "markdown");
      await writeBundle(path.resolve(values.out), report, { markdown });
      process.stderr.write(`report bundle: ${path.resolve(values.out)}\n`);
    }
    process.stdout.write(await renderReport(report, format));
    const sig = signals.received();
    return sig ? signalExitCode(sig) : exitCodeFor(report);
  } finally {
    signals.dispose();
  }
}
