// What the CLI says about itself: the command list, each command's usage line and its options, all
// derived from the command table and the request's options. Plain data in, text out: `--help` loads
// no schema library and no command.
import { COMMANDS, type Command, flagHelp, usageFlags } from "../request/options.js";
import { TOOL_VERSION } from "../version.js";
import { CLI_COMMANDS } from "./commands.js";

const EXIT_CODES = "0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or internal error";

/** `run [--inventory PATH] ...`, `merge BUNDLE_DIR... --out DIR ...`. */
export function usageLine(command: Command): string {
  const p = CLI_COMMANDS[command].positionals;
  const positionals = p ? ` ${p.name}${p.max > 1 ? "..." : ""}` : "";
  const flags = usageFlags(command);
  return `docker-acceptance ${command}${positionals}${flags ? ` ${flags}` : ""}`;
}

/** The whole CLI: what it is, its commands, its exit codes. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.length)) + 2;
  return `docker-acceptance ${TOOL_VERSION}: decides whether a pull request's container can be trusted

usage: docker-acceptance <command> [options]

commands:
${COMMANDS.map((c) => `  ${c.padEnd(width)}${CLI_COMMANDS[c].summary}`).join("\n")}

exit codes: ${EXIT_CODES}
run 'docker-acceptance <command> --help' for a command's options.`;
}

/** The README's table of commands: each usage line and what the command does. */
export function commandsTable(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = COMMANDS.map((c) => {
    const { summary, note } = CLI_COMMANDS[c];
    const usage = usageLine(c).replace(/^docker-acceptance /, "");
    return `| \`${cell(usage)}\` | ${cell(summary)}${note ? ` (${cell(note)})` : ""} |`;
  });
  return ["| Command | What it does |", "| --- | --- |", ...rows].join("\n");
}

/** One command: its usage line, its rule the flags do not say, its options. */
export function commandHelp(command: Command): string {
  const { note } = CLI_COMMANDS[command];
  const options = flagHelp(command);
  return `usage: ${usageLine(command)}\n${note ? `${note}\n` : ""}${options ? `\noptions:\n${options}\n` : ""}`;
}
