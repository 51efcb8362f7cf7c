// The action's post step (post-if: always()): sweep whatever the main step's owner left behind,
// prove it by listing, print it; never fail the job for cleanup, but say so loudly.
import * as core from "@actions/core";
import { renderSweep } from "./commands/sweep.js";
import { cleanupOwned } from "./engine/cleanup.js";
import { DockerEngine } from "./engine/docker.js";
import { isRunId } from "./engine/ownership.js";

export async function runPost(): Promise<void> {
  const owner = core.getState("owner");
  if (!isRunId(owner)) {
    core.info("docker-acceptance post: no run owner recorded by the main step; nothing to sweep");
    return;
  }
  try {
    const engine = new DockerEngine();
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

await runPost();
