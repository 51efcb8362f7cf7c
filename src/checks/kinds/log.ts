// Log line: a line of the subject's log matches a pattern. The pattern and the log are both the
// pull request's, so matching runs in linear time (../pattern.ts).
import * as z from "zod";
import type { Engine } from "../../engine/provider.js";
import { rule, text } from "../fields.js";
import { defineKind, eachProbe, pollReady } from "../kind.js";
import { compileLinePattern, type LinePattern, PATTERN_MAX_CHARS } from "../pattern.js";
import { logPatternRule } from "../rules.js";

/**
 * A regular expression matched against each log line in linear time: its length and syntax are
 * checked here (../rules.ts); what the linear-time matcher cannot run (lookaround, backreferences)
 * by loadInventory, which loads that matcher only when a pattern is declared.
 */
const pattern = z
  .string()
  .min(1)
  .check(rule(logPatternRule))
  .describe(
    `a regular expression matched against each log line, in linear time (JavaScript syntax without backreferences or lookaround; at most ${PATTERN_MAX_CHARS} characters)`,
  );

/** Whether a line of the container's log (its last 1000 lines) matches. */
async function logMatches(engine: Engine, containerId: string, re: LinePattern): Promise<boolean> {
  const { stdout, stderr } = await engine.logs(containerId, 1000);
  return `${stdout}\n${stderr}`.split(/\r?\n/).some((line) => re.test(line));
}

export const logKind = defineKind({
  type: "log",
  rank: 40,
  readiness: {
    schema: z
      .object({ type: z.literal("log"), pattern })
      .strict()
      .describe("a line of the subject's log matches pattern"),
    listed: '"log"',
    describe: (readiness) => `a log line matches /${readiness.pattern}/`,
    async wait(readiness, target) {
      const re = await compileLinePattern(readiness.pattern);
      const { ready, attempts } = await pollReady(target, () =>
        logMatches(target.engine, target.containerId, re),
      );
      return { ready, attempts, via: "the subject's log", last: "no matching line" };
    },
  },
  probe: {
    schema: z
      .object({
        type: z.literal("log"),
        name: text(1).optional().describe("shown in the report; defaults to log /PATTERN/"),
        pattern,
      })
      .strict()
      .describe("a line of the subject's log that must have appeared by the time it is ready"),
    listed: '"log"',
    checkAll: eachProbe(async (probe, target) => {
      const ok = await logMatches(target.engine, target.containerId, await compileLinePattern(probe.pattern));
      return {
        name: probe.name ?? `log /${probe.pattern}/`,
        type: "log",
        ok,
        expected: `a log line matching /${probe.pattern}/`,
        got: ok ? "a matching line" : "no matching line",
      };
    }),
  },
});
