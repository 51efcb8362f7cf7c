// Each CLI command's use case, loaded only when chosen (one command's dependencies cost the others
// nothing at start-up). The use cases live in src/commands/, shared with the action; this table is
// the CLI's door onto them.
import type { Command } from "../request/options.js";

/** A use case as the CLI calls it: the parsed request (typed in its module) and the positionals. */
type UseCase = (request: never, positionals: string[]) => Promise<number>;

export const USE_CASES: Record<Command, () => Promise<UseCase>> = {
  init: async () => (await import("../commands/init.js")).init,
  run: async () => (await import("../commands/run.js")).run,
  check: async () => (await import("../commands/check.js")).check,
  verify: async () => (await import("../commands/verify.js")).verify,
  merge: async () => (await import("../commands/merge.js")).merge,
  sweep: async () => (await import("../commands/sweep.js")).sweep,
  publish: async () => (await import("../commands/publish.js")).publish,
  align: async () => (await import("../commands/align.js")).align,
  pin: async () => (await import("../commands/pin.js")).pin,
  schema: async () => (await import("../commands/schema.js")).schema,
};
