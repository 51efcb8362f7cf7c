// Runs the bundled CLI (dist/cli.js) as a user would, under the current Node.
import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./inventory.js";

export const CLI = path.join(REPO_ROOT, "dist/cli.js");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> & { child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return Object.assign(done, { child });
}
