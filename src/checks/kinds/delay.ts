// Delay: the subject is still running after a fixed time (the last resort; a readiness strategy
// only, since a probe that only waits would check nothing).
import * as z from "zod";
import { sleep } from "../../engine/deadline.js";
import { DELAY_MS } from "../fields.js";
import { defineKind } from "../kind.js";

export const delayKind = defineKind({
  type: "delay",
  readiness: {
    schema: z
      .object({
        type: z.literal("delay"),
        ms: z.number().int().positive().max(DELAY_MS).describe("milliseconds to wait"),
      })
      .strict()
      .describe("the subject is still running after ms (the last resort)"),
    listed: '"delay"',
    describe: (r) => `still running after ${r.ms} ms`,
    async wait(r, t) {
      await sleep(Math.min(r.ms, t.deadlineMs), t.signal);
      return { ready: r.ms <= t.deadlineMs, attempts: 1, via: "a fixed delay" };
    },
  },
});
