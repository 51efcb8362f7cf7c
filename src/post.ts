// The action's post step (post-if: always()): complete this run's check runs main left in
// progress (killed, or a create applied twice), then sweep whatever the main step's owner left
// behind, prove it by listing, print it; never fail the job for either, but say so loudly.
import * as core from "@actions/core";
import type { CheckRunState } from "./action/check-run.js";
import { installLastResort } from "./action/last-resort.js";
import { renderSweep } from "./commands/sweep.js";
import { cleanupOwned } from "./engine/cleanup.js";
import { isRunId } from "./engine/ownership.js";
import { createEngine, parseEngineChoice } from "./engine/select.js";

/** Completes this run's check runs still in progress, found by the external_id main saved. */
export async function completeCheckRuns(): Promise<void> {
  const saved = core.getState("check-run");
  const token = core.getInput("github-token");
  if (!saved || !token) return;
  try {
    const s = JSON.parse(saved) as CheckRunState;
    const { createGitHubClient } = await import("./github/client.js");
    const { completeLeftInProgress } = await import("./github/checks.js");
    const client = createGitHubClient({ token, maxRequests: 10 });
    const n = await completeLeftInProgress(
      client,
      { owner: s.owner, repo: s.repo, headSha: s.sha, name: s.name, externalId: s.externalId },
      "The main step ended (cancelled, killed or crashed) before it completed this check run. See the job log; the report bundle, if any, is in the job's artifacts.",
    );
    if (n > 0) core.info(`docker-acceptance post: completed ${n} check run(s) main left in progress`);
  } catch (err) {
    core.warning(`docker-acceptance post: could not complete the check run: ${(err as Error).message}`);
  }
}

export async function runPost(): Promise<void> {
  await completeCheckRuns();
  const owner = core.getState("owner");
  if (!isRunId(owner)) {
    core.info("docker-acceptance post: no run owner recorded by the main step; nothing to sweep");
    return;
  }
  try {
    const engine = createEngine(parseEngineChoice(core.getInput("engine"), "input engine"));
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "post" });
    core.info(renderSweep([owner], [evidence], false).trimEnd());
    if (!evidence.completed) {
      core.warning(
        `docker-acceptance post: cleanup of ${owner} could not be verified; remaining: ${evidence.remaining.map((r) => `${r.kind} ${r.id.slice(0, 19)}`).join(", ") || evidence.errors.map((e) => e.message).join("; ")}`,
        { title: "docker-acceptance cleanup incomplete" },
      );
    }
  } catch (err) {
    core.warning(`docker-acceptance post: sweep of ${owner} failed: ${(err as Error).message}`, {
      title: "docker-acceptance cleanup incomplete",
    });
  }
}

installLastResort("post");
await runPost();
