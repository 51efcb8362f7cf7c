// HEALTHCHECK: the engine's health status of the image's own HEALTHCHECK. Read from the engine,
// so the same on every network. (The image's HEALTHCHECK the inventory does not name is held by
// lifecycle.probes itself: ../../suites/lifecycle/image-healthcheck.ts.)
import * as z from "zod";
import { sleep } from "../../engine/deadline.js";
import { text } from "../fields.js";
import { defineKind, eachProbe, pollReady } from "../kind.js";

/** What a readiness wait last saw when the image has no HEALTHCHECK: its fix names the Dockerfile. */
const NO_HEALTHCHECK = "the image declares no HEALTHCHECK";

export const healthcheckKind = defineKind({
  type: "healthcheck",
  rank: 30,
  readiness: {
    schema: z
      .object({ type: z.literal("healthcheck") })
      .strict()
      .describe("the engine reports the image's HEALTHCHECK healthy"),
    listed: '"healthcheck"',
    describe: () => "the image's HEALTHCHECK reports healthy",
    async wait(_readiness, target) {
      let last: string | undefined;
      const { ready, attempts } = await pollReady(target, async () => {
        const health = (await target.engine.inspect(target.containerId, target.signal)).state.health;
        if (!health) {
          last = NO_HEALTHCHECK;
          return "give up";
        }
        const output = health.lastOutput;
        last = `health ${health.status}${output ? ` (last check: ${output.slice(0, 200)})` : ""}`;
        // Unhealthy means the image's own retries are spent: waiting longer only delays the verdict.
        return health.status === "healthy" ? true : health.status === "unhealthy" ? "give up" : false;
      });
      return { ready, attempts, via: "the engine's health status", last };
    },
    notReadyFix: (outcome) =>
      outcome.last === NO_HEALTHCHECK
        ? "add a HEALTHCHECK to the Dockerfile, or declare another readiness strategy (http, tcp, log) in the inventory"
        : undefined,
  },
  probe: {
    schema: z
      .object({ type: z.literal("healthcheck"), name: text(1).optional() })
      .strict()
      .describe("the image's HEALTHCHECK must report healthy"),
    listed: '"healthcheck"',
    checkAll: eachProbe(async (probe, target) => {
      // "starting" is undecided: wait (bounded) for the image's own check to decide.
      const read = async () => (await target.engine.inspect(target.containerId, target.signal)).state.health;
      let health = await read();
      const end = Date.now() + target.deadlineMs;
      while (health?.status === "starting" && Date.now() < end && !target.signal.aborted) {
        await sleep(250, target.signal);
        health = await read();
      }
      return {
        name: probe.name ?? "HEALTHCHECK",
        type: "healthcheck",
        ok: health?.status === "healthy",
        expected: "healthy",
        got: health ? health.status : "no HEALTHCHECK in the image",
      };
    }),
  },
});
