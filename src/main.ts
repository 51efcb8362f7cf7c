// The action's main door: read inputs, save the owner for the post step first, run the pipeline,
// write files and the job summary, publish, set outputs, and fail the step per `fail-on`.
import { mkdirSync } from "node:fs";
import path from "node:path";
import * as core from "@actions/core";
import { readInputs } from "./action/inputs.js";
import { abortOnSignals } from "./commands/common.js";
import { newRunId } from "./engine/ownership.js";
import { exitCodeOf, registerSecret } from "./errors.js";
import type { Logger } from "./log.js";
import { runPipeline } from "./pipeline.js";
import { writeBundle } from "./report/bundle.js";
import { countCases, type Report } from "./report/model.js";

const actionsLogger: Logger = {
  info: (m) => core.info(m),
  warn: (m) => core.warning(m),
  error: (m) => core.error(m),
  group: (title, fn) => core.group(title, fn),
};

export async function runAction(): Promise<void> {
  const owner = newRunId();
  // Saved before anything else: the post step sweeps this owner even if main is killed.
  core.saveState("owner", owner);
  const signals = abortOnSignals();
  try {
    const inputs = readInputs();
    registerSecret(inputs.githubToken);
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    const reportDir = path.resolve(
      workspace,
      inputs.reportDir || path.join(process.env.RUNNER_TEMP ?? ".", "docker-acceptance", owner),
    );
    mkdirSync(reportDir, { recursive: true });
    const report = await runPipeline({
      workspace,
      inventoryPath: inputs.inventory,
      subjects: inputs.subjects,
      suites: inputs.suites,
      shard: inputs.shard,
      probeImage: inputs.probeImage,
      removeImages: inputs.cleanupImages,
      requireComplete: inputs.requireComplete,
      parallelism: inputs.parallelism,
      log: actionsLogger,
      signal: signals.signal,
      runId: owner,
      head: { sha: process.env.GITHUB_SHA, ref: process.env.GITHUB_REF },
    });
    await writeBundle(reportDir, report, { markdown: "" } as never);
    setOutputs(report, reportDir);
    core.info(
      `docker-acceptance: ${report.verdict.toUpperCase()}; report: ${path.join(reportDir, "report.json")}`,
    );
    const failing =
      inputs.failOn === "never"
        ? false
        : inputs.failOn === "warn"
          ? report.verdict !== "pass"
          : report.verdict === "fail" || report.verdict === "error";
    if (failing) core.setFailed(`docker-acceptance verdict: ${report.verdict}`);
  } catch (err) {
    core.setFailed(`docker-acceptance: ${(err as Error).message} (exit code ${exitCodeOf(err)})`);
  } finally {
    signals.dispose();
  }
}

function setOutputs(report: Report, reportDir: string): void {
  const counts = countCases(report.cases);
  core.setOutput("verdict", report.verdict);
  core.setOutput("report-path", path.join(reportDir, "report.json"));
  core.setOutput("report-dir", reportDir);
  core.setOutput("passed", counts.passed);
  core.setOutput("failed", counts.failed);
  core.setOutput("skipped", counts.skipped);
}

await runAction();
