// `docker-acceptance merge BUNDLE_DIR... --out DIR`: the matrix's final job. Verifies every shard
// bundle, merges them into one report and writes one bundle that `publish` (or `verify`) takes.
import path from "node:path";
import { UsageError } from "../errors.js";
import { mergeBundles } from "../merge.js";
import { writeBundle } from "../report/bundle.js";
import type { RequestOf } from "../request/parse.js";
import { exitCodeFor, renderReport } from "./common.js";

/** What `merge` takes besides the shard bundles: its flags, parsed into the one request. */
type MergeRequest = RequestOf<"out" | "compareInventory" | "workspace" | "format">;

export async function merge(request: MergeRequest, bundles: string[]): Promise<number> {
  const out = path.resolve(request.out);
  if (bundles.some((d) => path.resolve(d) === out)) {
    throw new UsageError(
      `--out ${request.out} is also a shard bundle; give a new directory for the merged one`,
    );
  }

  const workspace = path.resolve(request.workspace);
  const report = await mergeBundles(bundles, {
    inventoryPath: request.compareInventory ? path.resolve(workspace, request.compareInventory) : undefined,
    workspace,
  });
  await writeBundle(out, report, { markdown: await renderReport(report, "markdown") });
  process.stderr.write(`merged ${bundles.length} shard bundle(s) into ${out}\n`);
  process.stdout.write(await renderReport(report, request.format));
  return exitCodeFor(report);
}
