// The action's main step: save the owner for the post step first, read the inputs, then hand the
// step to its mode (src/action/modes/). Whatever escapes a mode fails the step with its exit code.
import { setMaxListeners } from "node:events";
import { appendFileSync, existsSync } from "node:fs";
import { EOL, tmpdir } from "node:os";
import path from "node:path";
import * as core from "@actions/core";
import { abortOnSignals } from "../commands/common.js";
import { isRunId, newRunId } from "../engine/ownership.js";
import { onSecret, registerSecret } from "../errors.js";
import { failStep } from "./fail.js";
import { readInputs } from "./inputs.js";
import { MODES } from "./modes/index.js";

export async function runAction(): Promise<void> {
  const owner = newRunId();
  // Saved before anything else: the post step sweeps this owner even if main is killed.
  saveOwner(owner);
  const signals = abortOnSignals();
  // Every concurrent engine call listens on the one run signal; many subjects mean many listeners.
  setMaxListeners(0, signals.signal);
  try {
    const inputs = readInputs();
    // Every secret the run learns (build secrets, a proxy's password) is masked in the job's log
    // too; the token is the runner's own (github.token or a secret), masked by it already.
    onSecret(maskInLog);
    registerSecret(inputs.githubToken, { runnerMasks: true });
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    // A step handed an accepted command works for exactly that command (a malformed one fails here).
    const decision = inputs.command
      ? (await import("../bot/index.js")).parseRunDecision(inputs.command, "input command")
      : undefined;
    const mode = await MODES[inputs.mode]();
    await mode.execute({
      inputs,
      owner,
      signal: signals.signal,
      received: signals.received,
      workspace,
      // RUNNER_TEMP is emptied after each job; outside Actions the OS temp dir, never the workspace.
      ownDir: path.join(process.env.RUNNER_TEMP ?? tmpdir(), "docker-acceptance", owner),
      decision,
    });
  } catch (err) {
    await failStep(err, signals);
  } finally {
    signals.dispose();
  }
}

/**
 * core.saveState("owner", owner), written as the state file's plain NAME=VALUE line: @actions/core
 * writes every value as a heredoc whose delimiter it draws from node:crypto, which would load it
 * before the run's first engine call (src/crypto.ts), and a run id (da- and hex) needs none.
 */
function saveOwner(owner: string): void {
  const file = process.env.GITHUB_STATE;
  if (file && existsSync(file) && isRunId(owner))
    appendFileSync(file, `owner=${owner}${EOL}`, { encoding: "utf8" });
  else core.saveState("owner", owner);
}

/** The runner masks each line of a value on its own: a multi-line secret is masked line by line. */
function maskInLog(value: string): void {
  core.setSecret(value);
  for (const line of value.split(/\r?\n/))
    if (line.trim().length >= 4 && line !== value) core.setSecret(line);
}
