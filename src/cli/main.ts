// The CLI's door: the command line into the one request, the command's use case, errors to exit
// codes (README, The CLI): 0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or
// internal error. src/cli.ts is its two-line entry.

import { ConfigError, exitCodeOf, UsageError } from "../errors.js";
import type { Command } from "../request/options.js";
import { TOOL_VERSION } from "../version.js";

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const help = await import("./help.js");
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${help.mainHelp()}\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  const { CLI_COMMANDS } = await import("./commands.js");
  if (!Object.hasOwn(CLI_COMMANDS, name)) {
    process.stderr.write(
      `docker-acceptance: unknown command ${JSON.stringify(name)}\n\n${help.mainHelp()}\n`,
    );
    return 2;
  }
  const command = name as Command;
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(help.commandHelp(command));
    return 0;
  }
  try {
    return await runCommandLine(command, rest);
  } catch (err) {
    const code = exitCodeOf(err);
    process.stderr.write(`docker-acceptance ${name}: ${(err as Error).message ?? String(err)}\n`);
    if (err instanceof UsageError) process.stderr.write(`usage: ${help.usageLine(command)}\n`);
    if (!(err instanceof ConfigError || err instanceof UsageError) && code === 3 && process.env.DA_DEBUG)
      process.stderr.write(`${(err as Error).stack}\n`);
    return code;
  }
}

/** Parses `argv` for `command` and runs its use case; errors propagate (main maps them to exit codes). */
export async function runCommandLine(command: Command, argv: string[]): Promise<number> {
  const [{ USE_CASES }, { parseCommandLine }] = await Promise.all([
    import("./use-cases.js"),
    import("./parse.js"),
  ]);
  const { request, positionals } = parseCommandLine(command, argv);
  const useCase = await USE_CASES[command]();
  return useCase(request as never, positionals);
}
