// `mode: command`: answer an `/acceptance` comment; the outputs drive the suites and publish jobs.
import * as core from "@actions/core";
import { commandOutputs, handleIssueComment, readEventPayload } from "../../bot/index.js";
import { createGitHubClient } from "../../github/client.js";
import { actionsLogger } from "../log.js";
import type { Step } from "../step.js";

export async function execute({ inputs }: Step): Promise<void> {
  const client = createGitHubClient({ token: inputs.githubToken, log: actionsLogger });
  const decision = await handleIssueComment(readEventPayload(process.env.GITHUB_EVENT_PATH), {
    client,
    log: actionsLogger,
  });
  for (const [name, value] of Object.entries(commandOutputs(decision))) core.setOutput(name, value);
  core.info(
    decision.kind === "run"
      ? `docker-acceptance: command accepted; the suites run on ${decision.headSha} (PR #${decision.pr})`
      : `docker-acceptance: no run (${decision.kind === "ignore" ? decision.reason : decision.kind === "refused" ? `refused: ${decision.reason}` : decision.kind})`,
  );
}
