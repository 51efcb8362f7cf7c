// `mode: merge`: one report from the shard bundles downloaded under report-dir.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../../errors.js";
import { mergeBundles } from "../../merge.js";
import { SUMS_FILE } from "../../report/bundle.js";
import { type ReportMode, reportStep } from "../report-step.js";
import { judgeAtFor, requireDir, type Step } from "../step.js";

const merge: ReportMode = {
  validate({ inputs }) {
    requireDir(inputs);
  },
  async produce({ inputs, workspace, ownDir }, { context }) {
    const report = await mergeBundles(await shardDirs(path.resolve(workspace, requireDir(inputs))), {
      inventoryPath: path.resolve(workspace, inputs.inventory),
      workspace,
      judgeAt: judgeAtFor(context),
    });
    return { report, reportDir: ownDir };
  },
};

export const execute = (step: Step) => reportStep(step, merge);

/** Shard bundles: report-dir itself if it is a bundle, else each subdirectory holding SHA256SUMS. */
async function shardDirs(root: string): Promise<string[]> {
  const isBundle = async (d: string) =>
    stat(path.join(d, SUMS_FILE)).then(
      (s) => s.isFile(),
      () => false,
    );
  if (await isBundle(root)) return [root];
  const entries = await readdir(root, { withFileTypes: true }).catch(() => {
    throw new UsageError(
      `input report-dir: ${root} does not exist (fix: download the shard artifacts into it)`,
    );
  });
  const dirs: string[] = [];
  for (const e of entries) {
    const d = path.join(root, e.name);
    if (e.isDirectory() && (await isBundle(d))) dirs.push(d);
  }
  if (dirs.length === 0) {
    throw new UsageError(
      `input report-dir: no shard bundle (a directory with ${SUMS_FILE}) under ${root} (fix: download-artifact with pattern: into it)`,
    );
  }
  return dirs.sort();
}
