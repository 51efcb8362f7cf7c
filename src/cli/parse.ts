// A command line into the one request (src/request/parse.ts): the flags a command takes come
// from the request's option table, are read by node:util's parseArgs, and are validated by the same
// schema the action's inputs go through, so a flag and its input cannot mean different things.
import { parseArgs } from "node:util";
import { UsageError } from "../errors.js";
import {
  type Command,
  commandKeys,
  flagSyntax,
  isSwitch,
  type RequestOption,
  repeatable,
} from "../request/options.js";
import { parseRequest, REQUEST_OPTIONS, type RequestKey } from "../request/parse.js";
import { CLI_COMMANDS } from "./commands.js";

interface CommandLine {
  request: Record<string, unknown>;
  positionals: string[];
}

/** Parses `argv` for `command`; a mistake is a UsageError naming the flag or argument and what it takes. */
export function parseCommandLine(command: Command, argv: string[]): CommandLine {
  const keys = commandKeys(command);
  const option = (k: RequestKey): RequestOption => REQUEST_OPTIONS[k];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        keys.map((k) => {
          const o = option(k);
          const type = isSwitch(o) ? ("boolean" as const) : ("string" as const);
          return [o.flag!, { type, multiple: repeatable(o), ...(o.short ? { short: o.short } : {}) }];
        }),
      ),
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const positionals = checkPositionals(command, parsed.positionals);
  const raw: Record<string, string | boolean | string[] | undefined> = {};
  for (const k of keys) raw[k] = parsed.values[option(k).flag!] as string | boolean | string[] | undefined;
  // The engine's environment default, as the README documents for every command that takes --engine.
  if (keys.includes("engine") && raw.engine === undefined) raw.engine = process.env.DA_ENGINE;
  for (const k of keys) {
    const o = option(k);
    if (o.requiredBy?.includes(command) && raw[k] === undefined)
      throw new UsageError(`${flagSyntax(o)} is required: ${o.help}`);
  }
  return { request: parseRequest(raw, keys, "flag"), positionals };
}

function checkPositionals(command: Command, given: string[]): string[] {
  const p = CLI_COMMANDS[command].positionals ?? { name: "", min: 0, max: 0 };
  if (given.length < p.min) throw new UsageError(`expected ${p.max > 1 ? "at least one" : "one"} ${p.name}`);
  if (given.length > p.max)
    throw new UsageError(
      p.max === 0
        ? `unexpected argument ${JSON.stringify(given[0])}`
        : `expected one ${p.name}, got ${given.length}: ${given.map((g) => JSON.stringify(g)).join(" ")}`,
    );
  return given;
}
