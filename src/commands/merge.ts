// `docker-acceptance merge BUNDLE_DIR... --out DIR`: the matrix's final job. Verifies every shard
// bundle, merges them into one report and writes one bundle that `publish` (or `verify`) takes.
import path from "node:path";
import { UsageError } from "../errors.js";
import { mergeBundles } from "../merge.js";
import { writeBundle } from "../report/bundle.js";
import { exitCodeFor, parseFormat, renderReport } from "./common.js";
import { parseCommandArgs } from "./verify.js";

export const MERGE_USAGE =
  "usage: docker-acceptance merge BUNDLE_DIR... --out DIR [--inventory PATH] [--workspace DIR] [--format text|markdown|json]";

export async function mergeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, MERGE_USAGE, {
    out: { type: "string" },
    inventory: { type: "string" },
    workspace: { type: "string" },
    format: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    process.stdout.write(`${MERGE_USAGE}\n`);
    return 0;
  }
  const format = parseFormat(values.format);
  if (positionals.length === 0) throw new UsageError(`expected at least one BUNDLE_DIR\n${MERGE_USAGE}`);
  if (!values.out)
    throw new UsageError(`--out DIR is required: where the merged bundle goes\n${MERGE_USAGE}`);
  const out = path.resolve(values.out);
  if (positionals.some((d) => path.resolve(d) === out)) {
    throw new UsageError(
      `--out ${values.out} is also a shard bundle; give a new directory for the merged one`,
    );
  }

  const workspace = path.resolve(values.workspace ?? ".");
  const report = await mergeBundles(positionals, {
    inventoryPath: values.inventory && path.resolve(workspace, values.inventory),
    workspace,
  });
  await writeBundle(out, report, { markdown: await renderReport(report, "markdown") });
  process.stderr.write(`merged ${positionals.length} shard bundle(s) into ${out}\n`);
  process.stdout.write(await renderReport(report, format));
  return exitCodeFor(report);
}
