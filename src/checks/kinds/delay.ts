// Delay: the subject is still running after a fixed time (the last resort; a readiness strategy
// only, since a probe that only waits would check nothing).
import * as z from "zod";
import { sleep } from "../../engine/deadline.js";
import { defineKind } from "../kind.js";
import { DELAY_MS } from "../rules.js";

export const delayKind = defineKind({
  type: "delay",
  rank: 50,
  readiness: {
    schema: z
      .object({
        type: z.literal("delay"),
        ms: z.number().int().positive().max(DELAY_MS).describe("milliseconds to wait"),
      })
      .strict()
      .describe("the subject is still running after ms (the last resort)"),
    listed: '"delay"',
    describe: (readiness) => `still running after ${readiness.ms} ms`,
    async wait(readiness, target) {
      await sleep(Math.min(readiness.ms, target.deadlineMs), target.signal);
      return { ready: readiness.ms <= target.deadlineMs, attempts: 1, via: "a fixed delay" };
    },
  },
});
