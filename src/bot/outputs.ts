// The accept step's outputs (`mode: command`), which the suites and publish jobs read: declared
// here with their action.yml descriptions (`npm run docs` writes them there) and their values from
// the decision. Data only, so the docs and the action's output list load it without the bot.
import { describeOutputs, type OutputTable, type StepOutput } from "../option.js";
import type { BotDecision } from "./handle.js";

/** An output read from an accepted run's decision; empty when the command did not start a run. */
const ofRun = (
  description: string,
  value: (d: Extract<BotDecision, { kind: "run" }>) => string,
): StepOutput<BotDecision> => ({ description, value: (d) => (d.kind === "run" ? value(d) : "") });

export const COMMAND_OUTPUTS = {
  run: {
    description:
      "`mode: command` only: `true` when the command was accepted and the suites should run, else `false`.",
    value: (decision) => String(decision.kind === "run"),
  },
  decision: ofRun(
    "`mode: command` only: the accepted command as JSON; pass it unchanged to the `command` input of the later jobs.",
    (decision) => JSON.stringify(decision),
  ),
  "head-sha": ofRun(
    "`mode: command` only: the pull request's head commit pinned when the command was accepted (check out this).",
    (decision) => decision.headSha,
  ),
  pr: ofRun("`mode: command` only: the pull request number.", (decision) => String(decision.pr)),
  subjects: ofRun(
    "`mode: command` only: the subjects the command named, comma-separated; empty means all.",
    (decision) => decision.subjects.join(","),
  ),
} satisfies OutputTable<BotDecision>;

/** Their names and descriptions (action.yml's, the tests'). */
export const COMMAND_OUTPUT_DESCRIPTIONS = describeOutputs(COMMAND_OUTPUTS);

/**
 * Step outputs of the accept step. `run` is "true" only for an accepted run; `decision` is the
 * whole RunDecision as JSON (pass it unchanged to the publish step's `command` input).
 */
export function commandOutputs(decision: BotDecision): Record<string, string> {
  return Object.fromEntries(
    Object.entries(COMMAND_OUTPUTS as OutputTable<BotDecision>).map(([name, o]) => [
      name,
      String(o.value(decision) ?? ""),
    ]),
  );
}
