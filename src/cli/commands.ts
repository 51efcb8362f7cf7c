// The CLI's commands as data: what each does and the positionals it takes (its use case is in
// use-cases.ts). Its flags are the request's options that name it (src/request/options.ts):
// parsed, validated and listed in `--help` and the README from there, as the action's inputs are.
import type { Command } from "../request/options.js";

interface CliCommand {
  /** One line for the command list. */
  summary: string;
  /** Positional arguments: their name in the usage line and how many are taken. */
  positionals?: { name: string; min: number; max: number };
  /** A rule the flags alone do not say, shown in `--help`. */
  note?: string;
}

const BUNDLE = { name: "BUNDLE_DIR", min: 1, max: 1 };

export const CLI_COMMANDS: Record<Command, CliCommand> = {
  init: {
    summary:
      "write a first inventory from the repository's Dockerfiles and compose file, every current case pinned",
    note: "never replaces an inventory without --force; --update adds to one in its own layout. Paths are relative to --workspace",
  },
  run: {
    summary: "build the inventory's subjects and run the lifecycle and containment suites",
    note: "with --base, the inventory's required cases, severities, pins and allowances are read at that commit, and the alignment review of the local diff runs",
  },
  check: {
    summary: "grade running containers someone else started (never stops or changes them)",
    note: "give at least one --container or --filter. Labels a container was started with (not those its image gives it) override the allowances for it: org.docker-acceptance.writable-roots=/tmp,/data, .allowed-capabilities=NET_BIND_SERVICE, .network=bridge, .host-paths=/srv/data:ro. Sensitive host paths (/, /proc, /sys, /etc, /run, the engine's data root, /home, sockets, ...) are never allowed.",
  },
  verify: {
    summary:
      "re-verify a report bundle: SHA256SUMS, schema, cleanup evidence, inventory digest, completeness",
    positionals: BUNDLE,
  },
  merge: {
    summary: "merge shard bundles into one report",
    positionals: { name: "BUNDLE_DIR", min: 1, max: Number.POSITIVE_INFINITY },
  },
  sweep: {
    summary: "remove leftovers this tool owns and print the evidence",
    note: "give --owner RUN_ID or --stale",
  },
  publish: {
    summary: "post the comment and check run from a bundle (the fork-safe second phase)",
    note: "a fork's bundle is published as `<check-name> (fork, unverified)`, never as success",
    positionals: BUNDLE,
  },
  align: {
    summary: "the alignment review of a local diff",
    note: "exit 1 on a blocking entry; RFCs and CODEOWNERS are read as they are at --head; a `pull:` rule whose --pr-* value is left out is noted, not guessed",
  },
  pin: {
    summary: "rewrite the inventory's artifact sha256 pins from the workspace",
  },
  schema: {
    summary: "print the inventory (or report) JSON Schema",
  },
};
