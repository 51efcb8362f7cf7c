// The action's main door: save the owner for the post step first, then start the check run,
// produce the one Report (run, check or merge), write the bundle and the job summary BEFORE any
// publishing (a GitHub outage never loses the report), print the results, publish, set outputs
// and fail the step per `fail-on`. `mode: publish` only publishes a bundle made elsewhere.
import { setMaxListeners } from "node:events";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as core from "@actions/core";
import { type ActionInputs, readInputs } from "./action/inputs.js";
import { actionsLogger, logResults, logSafe } from "./action/log.js";
import type { RunDecision } from "./bot/index.js";
import { abortOnSignals, signalExitCode } from "./commands/common.js";
import { newRunId } from "./engine/ownership.js";
import { createEngine } from "./engine/select.js";
import { exitCodeOf, redact, registerSecret, UsageError } from "./errors.js";
import { type EventContext, readEventContext } from "./github/context.js";
import type { PublishResult } from "./github/publish.js";
import { writeJobSummary } from "./github/summary.js";
import type { JudgeAt } from "./inventory/base.js";
import { runPipeline } from "./pipeline.js";
import { SUMS_FILE, verifyBundle, writeBundle } from "./report/bundle.js";
import { renderMarkdown } from "./report/markdown.js";
import { countCases, type Report, reportSchema } from "./report/model.js";
import { DEFAULT_PROBE_IMAGE } from "./suites/containment/index.js";

export async function runAction(): Promise<void> {
  const owner = newRunId();
  // Saved before anything else: the post step sweeps this owner even if main is killed.
  core.saveState("owner", owner);
  const signals = abortOnSignals();
  // Every concurrent engine call listens on the one run signal; many subjects mean many listeners.
  setMaxListeners(0, signals.signal);
  // Set once the in-progress check run exists: if the step then fails without a report, the
  // catch below completes it instead of leaving it spinning on the pull request.
  let abandon: ((reason: string) => Promise<string | undefined>) | undefined;
  // A start that failed is reported once: by publishing, or below when no report follows.
  let startError: Error | undefined;
  try {
    const inputs = readInputs();
    registerSecret(inputs.githubToken);
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    // RUNNER_TEMP is emptied after each job; outside Actions the OS temp dir, never the workspace.
    const ownDir = path.join(process.env.RUNNER_TEMP ?? tmpdir(), "docker-acceptance", owner);

    // Each mode loads only the modules it uses: start-up time and memory are budgets too.
    const bot = inputs.command || inputs.mode === "command" ? await import("./bot/index.js") : undefined;
    const decision = inputs.command ? bot!.parseRunDecision(inputs.command, "input command") : undefined;
    if (inputs.mode === "command") return await acceptCommand(inputs);
    if (inputs.mode === "publish") return await publishOnly(inputs, workspace, decision);
    // A command run tests exactly the commit the maintainer accepted, or nothing.
    if (decision) await bot!.assertWorkspaceAt(workspace, decision);
    // Input mistakes fail before anything is created on GitHub.
    if (inputs.mode === "check" && inputs.containers.length + inputs.containerFilters.length === 0) {
      throw new UsageError(
        "input container: mode check needs at least one running container ID or name, or a container-filter",
      );
    }
    if (inputs.mode === "merge") requireDir(inputs);
    // On issue_comment GITHUB_SHA is the default branch's head: a command run describes (and,
    // if handed a token, publishes on) the accepted pull request and commit instead.
    const context = decision ? bot!.commandEventContext(decision, eventContext()?.runUrl) : eventContext();
    const github = context ? await import("./github/publish.js") : undefined;

    // The check run shows "in progress" on the PR while the suites run. Its external_id ties a
    // retried create to the first attempt, and lets the post step complete it if main dies.
    const externalId = (await import("./github/checks.js")).externalIdFor(process.env, owner);
    if (context && !context.readOnly && inputs.githubToken) {
      const state: CheckRunState = {
        owner: context.owner,
        repo: context.repo,
        sha: context.sha,
        name: inputs.checkName,
        externalId,
      };
      core.saveState("check-run", JSON.stringify(state));
    }
    const started = context
      ? await github!.startCheckRun({
          context,
          token: inputs.githubToken,
          checkName: inputs.checkName,
          externalId,
          log: actionsLogger,
        })
      : undefined;
    for (const n of started?.notices ?? []) core.notice(logSafe(n));
    startError = started?.error;
    if (context && started?.client && started.checkRunId !== undefined) {
      const { client, checkRunId } = started;
      abandon = (reason) =>
        github!.abandonCheckRun({ client, context, checkRunId, checkName: inputs.checkName, reason });
    }

    let reportDir: string;
    let report: Report;
    if (inputs.mode === "merge") {
      reportDir = ownDir;
      const { mergeBundles } = await import("./report/merge.js");
      report = await mergeBundles(await shardDirs(path.resolve(workspace, requireDir(inputs))), {
        inventoryPath: path.resolve(workspace, inputs.inventory),
        workspace,
        judgeAt: judgeAtFor(context),
      });
    } else if (inputs.mode === "check") {
      reportDir = inputs.reportDir ? path.resolve(workspace, inputs.reportDir) : ownDir;
      const { checkContainers, hostPathAllowances, parseFilters } = await import("./commands/check.js");
      report = await checkContainers({
        selection: {
          containers: inputs.containers,
          filters: parseFilters(inputs.containerFilters, "input container-filter"),
        },
        writableRoots: inputs.writableRoots,
        allowedCapabilities: inputs.allowedCapabilities,
        allowedHostPaths: hostPathAllowances(inputs.allowedHostPaths, "input allowed-host-paths"),
        network: inputs.network,
        probeImage: inputs.probeImage ?? DEFAULT_PROBE_IMAGE,
        engine: createEngine(inputs.engine),
        signal: signals.signal,
        owner,
      });
    } else {
      reportDir = inputs.reportDir ? path.resolve(workspace, inputs.reportDir) : ownDir;
      // The PR's diff feeds the alignment review and scopes SARIF findings to added lines; it is
      // read only when one of them is wanted (the local checkout first, then the API).
      const alignmentConfigured = existsSync(path.resolve(workspace, inputs.alignmentConfig));
      const changes =
        alignmentConfigured || inputs.sarif.length > 0
          ? await (await import("./action/changes.js"))
              .pullRequestChanges(
                context,
                workspace,
                started?.client ??
                  (context && inputs.githubToken
                    ? (await import("./github/client.js")).createGitHubClient({
                        token: inputs.githubToken,
                        log: actionsLogger,
                      })
                    : undefined),
              )
              .catch((err: unknown) => {
                core.warning(
                  logSafe(`docker-acceptance: the PR's diff could not be read: ${(err as Error).message}`),
                );
                return undefined;
              })
          : undefined;
      // Results of earlier steps (tests, linters): read before the suites, so a bad glob stops early.
      const external =
        inputs.junit.length + inputs.sarif.length > 0
          ? await (await import("./report/external.js")).readExternalResults(
              { junit: inputs.junit, sarif: inputs.sarif },
              {
                workspace,
                addedLines: changes
                  ? (await import("./report/external.js")).addedLinesFrom(changes.files)
                  : undefined,
              },
            )
          : {};
      report = await runPipeline({
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
                pull: (await import("./alignment/pull.js")).pullRequestMetaFromEvent(
                  process.env.GITHUB_EVENT_PATH,
                ),
              }
            : undefined,
        workspace,
        inventoryPath: inputs.inventory,
        subjects: inputs.subjects,
        suites: inputs.suites,
        shard: inputs.shard,
        probeImage: inputs.probeImage,
        engine: createEngine(inputs.engine),
        // A pull request is judged by its base's inventory; without the base the report says so.
        judgeAt: judgeAtFor(context),
        removeImages: inputs.cleanupImages,
        requireComplete: inputs.requireComplete,
        parallelism: inputs.parallelism,
        log: actionsLogger,
        signal: signals.signal,
        runId: owner,
        head: {
          sha: decision?.headSha || context?.sha || process.env.GITHUB_SHA,
          ref: process.env.GITHUB_REF,
        },
      });
      report = { ...report, external };
    }

    // Through the schema once: the bundle holds exactly what `verify` and `publish` will read back.
    report = reportSchema.parse(report);
    // Files first, then the job summary, then the log: all before talking to GitHub.
    await writeBundle(reportDir, report, {
      markdown: renderMarkdown(report, { target: "file", checkName: inputs.checkName }),
    });
    if (inputs.jobSummary) {
      await writeJobSummary(renderMarkdown(report, { target: "job-summary", checkName: inputs.checkName }));
    }
    setOutputs(report, reportDir);
    await logResults(report, reportDir);

    if (context) {
      // publishReport completes the check run with the report (and never throws).
      abandon = undefined;
      const published = await github!.publishReport(report, {
        context,
        token: inputs.githubToken,
        client: started?.client,
        checkRunId: started?.checkRunId,
        checkName: inputs.checkName,
        // After a cancellation only the check run is completed: the runner's grace period is short.
        comment: signals.signal.aborted ? "never" : inputs.comment,
        issueOnFailure: inputs.issueOnFailure && !signals.signal.aborted,
        commentAuthor: inputs.commentAuthor,
        commentUpdate: inputs.commentUpdate,
        commentOnPass: inputs.commentOnPass,
        maxAnnotations: inputs.maxAnnotations,
        externalId,
        startError: started?.error,
        // event.json goes beside the bundle, not in it: SHA256SUMS covers exactly the bundle's files.
        bundleDir: path.dirname(reportDir),
        log: actionsLogger,
      });
      startError = undefined;
      // Completed here: the post step need not look for it (saves it a request).
      if (published.checkRun === "completed") core.saveState("check-run", "");
      reportPublished(published);
    } else {
      core.notice("Not in a GitHub Actions event context (GITHUB_REPOSITORY unset): nothing published.");
    }

    const sig = signals.received();
    if (sig) {
      core.setFailed(`docker-acceptance: cancelled by ${sig}; what the run owned was removed`);
      // The CLI's documented codes (130 SIGINT, 143 SIGTERM), not setFailed's 1.
      process.exitCode = signalExitCode(sig);
    } else if (failsStep(report.verdict, inputs.failOn))
      core.setFailed(`docker-acceptance verdict: ${report.verdict}`);
  } catch (err) {
    const message = redact((err as Error).message ?? String(err));
    core.setFailed(`docker-acceptance: ${message} (exit code ${exitCodeOf(err)})`);
    if (startError) core.warning(logSafe(startError.message));
    const notice = await abandon?.(message);
    if (notice) core.warning(logSafe(notice));
    const sig = signals.received();
    if (sig) process.exitCode = signalExitCode(sig);
  } finally {
    signals.dispose();
  }
}

/** What the post step needs to complete this run's check run if main could not (saved as state). */
export interface CheckRunState {
  owner: string;
  repo: string;
  sha: string;
  name: string;
  externalId: string;
}

/** `mode: command`: answer an `/acceptance` comment; the outputs drive the suites and publish jobs. */
async function acceptCommand(inputs: ActionInputs): Promise<void> {
  const { createGitHubClient } = await import("./github/client.js");
  const { commandOutputs, handleIssueComment, readEventPayload } = await import("./bot/index.js");
  const client = createGitHubClient({ token: inputs.githubToken, log: actionsLogger });
  const decision = await handleIssueComment(readEventPayload(process.env.GITHUB_EVENT_PATH), {
    client,
    log: actionsLogger,
  });
  for (const [name, value] of Object.entries(commandOutputs(decision))) core.setOutput(name, value);
  core.info(
    decision.kind === "run"
      ? `docker-acceptance: command accepted; the suites run on ${decision.headSha} (PR #${decision.pr})`
      : `docker-acceptance: no run (${decision.kind === "ignore" ? decision.reason : decision.kind})`,
  );
}

/**
 * `mode: publish`: post a bundle made by another job. With a command decision the report is
 * pinned to the accepted commit and the command answered (a missing or broken bundle gets the
 * one reply); otherwise the fork-safe second phase, which re-verifies the bundle and event.json.
 */
async function publishOnly(inputs: ActionInputs, workspace: string, decision?: RunDecision): Promise<void> {
  const dir = path.resolve(workspace, requireDir(inputs));
  if (decision) {
    const verified = await verifyBundle(dir);
    if (!verified.ok) {
      const why = verified.checks
        .filter((c) => c.status === "fail")
        .map((c) => `${c.file ?? c.check}: ${c.detail}`);
      core.warning(logSafe(`docker-acceptance: no usable report bundle in ${dir}: ${why.join("; ")}`));
    }
    const { createGitHubClient } = await import("./github/client.js");
    const { publishCommandRun } = await import("./bot/index.js");
    const client = createGitHubClient({ token: inputs.githubToken, log: actionsLogger });
    const done = await publishCommandRun(verified.ok ? (verified.report ?? null) : null, decision, {
      client,
      checkName: inputs.checkName,
      comment: inputs.comment,
      commentAuthor: inputs.commentAuthor,
      runUrl: readEventContextSafe()?.runUrl,
      log: actionsLogger,
    });
    if (done.report) {
      if (inputs.jobSummary)
        await writeJobSummary(
          renderMarkdown(done.report, { target: "job-summary", checkName: inputs.checkName }),
        );
      setOutputs(done.report, dir);
    }
    if (done.published) reportPublished(done.published);
    if (!done.report || failsStep(done.report.verdict, inputs.failOn)) {
      core.setFailed(`docker-acceptance verdict: ${done.report?.verdict ?? "no report"}`);
    }
    return;
  }
  const { forkCheckName, publishBundle } = await import("./commands/publish.js");
  const outcome = await publishBundle(dir, {
    token: inputs.githubToken,
    checkName: inputs.checkName,
    comment: inputs.comment,
    commentAuthor: inputs.commentAuthor,
    allowOutsideWorkflowRun: inputs.allowOutsideWorkflowRun,
    log: actionsLogger,
  });
  for (const m of outcome.messages) core.notice(logSafe(m));
  if (outcome.report) {
    if (inputs.jobSummary)
      await writeJobSummary(
        renderMarkdown(outcome.report, {
          target: "job-summary",
          checkName: forkCheckName(inputs.checkName),
          unverified: true,
        }),
      );
    setOutputs(outcome.report, dir, true);
  }
  if (outcome.result) reportPublished(outcome.result);
  if (outcome.exitCode !== 0)
    core.setFailed(`docker-acceptance publish: refused (${outcome.messages.at(-1) ?? "see above"})`);
  else if (outcome.report && failsStep(outcome.report.verdict, inputs.failOn)) {
    core.setFailed(`docker-acceptance verdict: ${outcome.report.verdict}`);
  }
}

function readEventContextSafe(): EventContext | undefined {
  try {
    return eventContext();
  } catch {
    return undefined;
  }
}

/** The event context, or undefined outside Actions (a local run of dist/main.js publishes nothing). */
function eventContext(): EventContext | undefined {
  if (!process.env.GITHUB_REPOSITORY) return undefined;
  return readEventContext(process.env);
}

/** A pull request is judged by its base's inventory; without the base the report says so. */
function judgeAtFor(context: EventContext | undefined): JudgeAt | undefined {
  if (!context?.pr) return undefined;
  return context.pr.baseSha
    ? { base: context.pr.baseSha }
    : { unavailable: "the event names no base commit" };
}

export function failsStep(verdict: Report["verdict"], failOn: ActionInputs["failOn"]): boolean {
  if (failOn === "never") return false;
  if (failOn === "warn") return verdict !== "pass";
  return verdict === "fail" || verdict === "error";
}

function requireDir(inputs: ActionInputs): string {
  if (!inputs.reportDir) {
    throw new UsageError(
      `input report-dir: mode ${inputs.mode} reads bundles from it (fix: set it to where download-artifact put them)`,
    );
  }
  return inputs.reportDir;
}

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

function setOutputs(report: Report, reportDir: string, unverified = false): void {
  const counts = countCases(report.cases);
  // A bundle made by a fork's own workflow proves nothing about who ran it: a later step that gates
  // on `verdict == 'pass'` must not be fooled by it, as the check run concludes `neutral` at most.
  core.setOutput("verdict", unverified && report.verdict === "pass" ? "warn" : report.verdict);
  core.setOutput("verified", String(!unverified));
  core.setOutput("report-path", path.join(reportDir, "report.json"));
  core.setOutput("report-dir", reportDir);
  core.setOutput("passed", counts.passed);
  core.setOutput("failed", counts.failed + counts.errored);
  core.setOutput("skipped", counts.skipped);
  core.setOutput("image-ids", JSON.stringify(imageIds(report)));
  // Declared outputs are always set, empty until publishing fills them.
  core.setOutput("comment-id", "");
  core.setOutput("check-run-id", "");
  core.setOutput("check-run-url", "");
}

/** Subject name to the ID (sha256:...) of the image it was tested as, built or given. */
export function imageIds(report: Report): Record<string, string> {
  return Object.fromEntries(
    report.subjects.filter((s) => s.imageId).map((s) => [s.name, s.imageId as string]),
  );
}

function reportPublished(p: PublishResult): void {
  if (p.commentId !== undefined) core.setOutput("comment-id", p.commentId);
  if (p.checkRunId !== undefined) core.setOutput("check-run-id", p.checkRunId);
  if (p.checkRunUrl !== undefined) core.setOutput("check-run-url", p.checkRunUrl);
  // Each failure once, as a warning; the other notices as notices.
  const errors = new Set(p.errors.map((e) => e.message));
  for (const e of errors) core.warning(logSafe(e));
  for (const n of p.notices) if (!errors.has(n)) core.notice(logSafe(n));
  const parts = [
    `check run ${p.checkRun}${p.checkRunId ? ` (#${p.checkRunId})` : ""}`,
    `comment ${p.comment}${p.commentId ? ` (#${p.commentId})` : ""}`,
    p.issue !== "not-applicable"
      ? `tracking issue ${p.issue}${p.issueNumber ? ` (#${p.issueNumber})` : ""}`
      : "",
    `${p.requests} GitHub API request(s)`,
  ].filter(Boolean);
  core.info(`published: ${parts.join(", ")}`);
}

await runAction();
