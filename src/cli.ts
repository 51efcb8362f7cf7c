#!/usr/bin/env node
// The CLI door: parse the command, dispatch, map errors to exit codes (README, The CLI):
// 0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or internal error.
import module from "node:module";
import { ConfigError, exitCodeOf, UsageError } from "./errors.js";
import { TOOL_VERSION } from "./version.js";

// The commands' code compiled once and reused by later runs (Node >= 22.1; Node 20 has no cache,
// NODE_DISABLE_COMPILE_CACHE turns it off). Not for the action: each job starts on a fresh runner.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const USAGE = `docker-acceptance ${TOOL_VERSION}: decides whether a pull request's container can be trusted

usage: docker-acceptance <command> [options]

commands:
  run       build the inventory's subjects and run the lifecycle and containment suites
  check     grade running containers someone else started (never stops or changes them)
  verify    re-verify a report bundle (hashes, schema, completeness, inventory digest)
  merge     merge shard bundles into one report
  sweep     remove leftovers this tool owns (--owner RUN_ID | --stale) and print the evidence
  publish   post the comment and check run from a bundle (the fork-safe second phase)
  align     the alignment review of a local diff
  pin       rewrite the inventory's artifact hashes from the workspace
  schema    print the inventory JSON Schema

exit codes: 0 pass or warn, 1 fail, 2 usage or configuration error, 3 engine or internal error
run 'docker-acceptance <command> --help' for a command's options.`;

/** One usage line per command, shown by `<command> --help` and after a usage error. */
const USAGES: Record<string, string> = {
  run: "run [--inventory PATH] [--subject NAME]... [--suite lifecycle|containment]... [--shard I/N] [--out DIR]\n    [--format text|markdown|json] [--probe-image REF] [--engine auto|docker|podman] [--parallelism N] [--keep-images]\n    [--no-require-complete] [--workspace DIR] [--base REF [--head REF] [--alignment-config PATH]]",
  check:
    "check (--container ID|NAME)... (--filter KEY=VALUE)... [--writable-root PATH]... [--allow-cap NAME]... [--network none|bridge|any]\n    [--probe-image REF] [--engine auto|docker|podman] [--format text|markdown|json] [--out DIR]",
  verify: "verify BUNDLE_DIR [--inventory PATH]",
  merge: "merge BUNDLE_DIR... --out DIR [--format text|markdown|json]",
  sweep:
    "sweep (--owner RUN_ID... | --stale [--older-than 6h]) [--engine auto|docker|podman] [--format text|json]",
  publish: "publish BUNDLE_DIR",
  align: "align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json]",
  pin: "pin [--inventory PATH] [--workspace DIR]",
  schema: "schema [--report]",
};

const commands: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  run: async () => (await import("./commands/run.js")).runCommand,
  check: async () => (await import("./commands/check.js")).checkCommand,
  verify: async () => (await import("./commands/verify.js")).verifyCommand,
  merge: async () => (await import("./commands/merge.js")).mergeCommand,
  sweep: async () => (await import("./commands/sweep.js")).sweepCommand,
  publish: async () => (await import("./commands/publish.js")).publishCommand,
  align: async () => (await import("./commands/align.js")).alignCommand,
  pin: async () => (await import("./commands/pin.js")).pinCommand,
  schema: async () => (await import("./commands/schema.js")).schemaCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`docker-acceptance: unknown command ${JSON.stringify(name)}\n\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    // run and check list their options from the request's table (src/commands/request-options.ts).
    const options =
      name === "run" || name === "check"
        ? `\noptions:\n${(await import("./commands/request-options.js")).flagHelp(name)}\n`
        : "";
    process.stdout.write(`usage: docker-acceptance ${USAGES[name]}\n${options}`);
    return 0;
  }
  try {
    return await (await load())(rest);
  } catch (err) {
    const code = exitCodeOf(err);
    const known =
      err instanceof ConfigError ||
      err instanceof UsageError ||
      (err as { code?: string })?.code?.startsWith?.("ERR_PARSE_ARGS");
    process.stderr.write(`docker-acceptance ${name}: ${(err as Error).message ?? String(err)}\n`);
    if (err instanceof UsageError || (known && !(err instanceof ConfigError))) {
      process.stderr.write(`usage: docker-acceptance ${USAGES[name]}\n`);
    }
    if (!known && code === 3 && process.env.DA_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return known && !(err instanceof ConfigError || err instanceof UsageError) ? 2 : code;
  }
}

process.exitCode = await main(process.argv.slice(2));
