// What every mode of the action's main step is handed: the inputs, the run's owner and signal,
// where things live, and the accepted `/acceptance` command if there is one.
import type { RunDecision } from "../bot/index.js";
import { UsageError } from "../errors.js";
import { type EventContext, readEventContext } from "../github/context.js";
import type { JudgeAt } from "../inventory/base.js";
import type { ActionInputs } from "./inputs.js";

export interface Step {
  inputs: ActionInputs;
  /** This run's owner id: everything it creates carries it; the post step sweeps it. */
  owner: string;
  signal: AbortSignal;
  /** The first SIGINT or SIGTERM received, if any: the step then exits with the CLI's code for it. */
  received: () => string | undefined;
  workspace: string;
  /** The bundle's directory when report-dir is empty: under RUNNER_TEMP, never the workspace. */
  ownDir: string;
  decision?: RunDecision;
}

/** The event context, or undefined outside Actions (a local run of dist/main.js publishes nothing). */
export function eventContext(): EventContext | undefined {
  if (!process.env.GITHUB_REPOSITORY) return undefined;
  return readEventContext(process.env);
}

export function eventContextSafe(): EventContext | undefined {
  try {
    return eventContext();
  } catch {
    return undefined;
  }
}

/** A pull request is judged by its base's inventory; without the base the report says so. */
export function judgeAtFor(context: EventContext | undefined): JudgeAt | undefined {
  if (!context?.pr) return undefined;
  return context.pr.baseSha
    ? { base: context.pr.baseSha }
    : { unavailable: "the event names no base commit" };
}

export function requireDir(inputs: ActionInputs): string {
  if (!inputs.reportDir) {
    throw new UsageError(
      `input report-dir: mode ${inputs.mode} reads bundles from it (fix: set it to where download-artifact put them)`,
    );
  }
  return inputs.reportDir;
}
