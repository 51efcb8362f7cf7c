// Runs the bundled CLI (dist/cli.js) as a user would, under the current Node.
import { spawn } from "node:child_process";
import path from "node:path";
import { parseCommandLine } from "../../src/cli/parse.js";
import type { Command } from "../../src/request/options.js";
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

/**
 * A command line as the CLI parses it (src/cli/parse.ts), for tests that call a use case with their
 * own output or GitHub double: `align(...commandLine("align", argv), { write })`.
 */
export function commandLine(command: Command, argv: string[]): [never, string[]] {
  const { request, positionals } = parseCommandLine(command, argv);
  return [request as never, positionals];
}
