// `mode: run`: the suites against the inventory's subjects, with the alignment review of the PR's
// diff when configured and the results of earlier steps (JUnit, SARIF) in the same report.
import { existsSync } from "node:fs";
import path from "node:path";
import * as core from "@actions/core";
import { createEngine } from "../../engine/select.js";
import type { GitHubClient } from "../../github/client.js";
import type { EventContext } from "../../github/context.js";
import { runPipeline } from "../../pipeline.js";
import type { Changes } from "../changes.js";
import { actionsLogger, logSafe } from "../log.js";
import { type ReportMode, reportStep } from "../report-step.js";
import { judgeAtFor, type Step } from "../step.js";

const run: ReportMode = {
  async produce(step, { context, client }) {
    const { inputs, workspace, decision } = step;
    const alignmentConfigured = existsSync(path.resolve(workspace, inputs.alignmentConfig));
    const changes =
      alignmentConfigured || inputs.sarif.length > 0 ? await prChanges(step, context, client) : undefined;
    // Results of earlier steps (tests, linters): read before the suites, so a bad glob stops early.
    const external = await externalResults(step, changes);
    const reportDir = inputs.reportDir ? path.resolve(workspace, inputs.reportDir) : step.ownDir;
    const report = await runPipeline({
      alignment:
        changes || (context?.pr && !alignmentConfigured)
          ? {
              source: {
                kind: "files",
                files: changes?.files ?? [],
                notes: changes?.notes,
                label: changes?.label,
              },
              configPath: inputs.alignmentConfig,
              rulesFrom: changes?.rulesFrom,
              // Title, body, labels and branches for the `pull` rules: from the event payload.
              pull: (await import("../../alignment/pull.js")).pullRequestMetaFromEvent(
                process.env.GITHUB_EVENT_PATH,
              ),
            }
          : undefined,
      workspace,
      inventoryPath: inputs.inventory,
      subjects: inputs.subjects,
      suites: inputs.suites,
      shard: inputs.shard,
      // An empty input is the built-in default, as an absent --probe-image is.
      probeImage: inputs.probeImage || undefined,
      engine: createEngine(inputs.engine),
      // A pull request is judged by its base's inventory; without the base the report says so.
      judgeAt: judgeAtFor(context),
      removeImages: inputs.cleanupImages,
      requireComplete: inputs.requireComplete,
      parallelism: inputs.parallelism,
      log: actionsLogger,
      signal: step.signal,
      // A cancelled run keeps a report even if its cleanup outlasts the runner's grace period.
      onCancelled: async (provisional) =>
        (await import("../finish.js")).keepBundle(step, reportDir, { ...provisional, external }),
      runId: step.owner,
      head: { sha: decision?.headSha || context?.sha || process.env.GITHUB_SHA, ref: process.env.GITHUB_REF },
    });
    return { report: { ...report, external }, reportDir };
  },
};

export const execute = (step: Step) => reportStep(step, run);

/**
 * The PR's diff feeds the alignment review and scopes SARIF findings to added lines. Only a pull
 * request has one (the local checkout first, then the API): outside one nothing is loaded for it.
 */
async function prChanges(
  { inputs, workspace }: Step,
  context: EventContext | undefined,
  client: GitHubClient | undefined,
): Promise<Changes | undefined> {
  if (!context?.pr) return undefined;
  const { pullRequestChanges } = await import("../changes.js");
  const github =
    client ??
    (inputs.githubToken
      ? (await import("../../github/client.js")).createGitHubClient({
          token: inputs.githubToken,
          log: actionsLogger,
        })
      : undefined);
  return pullRequestChanges(context, workspace, github).catch((err: unknown) => {
    core.warning(logSafe(`docker-acceptance: the PR's diff could not be read: ${(err as Error).message}`));
    return undefined;
  });
}

async function externalResults({ inputs, workspace }: Step, changes: Changes | undefined) {
  if (inputs.junit.length + inputs.sarif.length === 0) return {};
  const { addedLinesFrom, readExternalResults } = await import("../../report/external.js");
  return readExternalResults(
    { junit: inputs.junit, sarif: inputs.sarif },
    { workspace, addedLines: changes ? addedLinesFrom(changes.files) : undefined },
  );
}
