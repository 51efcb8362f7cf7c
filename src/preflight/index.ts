// The build pre-flight (issue #24): the pull request writes the Dockerfile, so its RUN steps run
// during the build, with network, before anything is measured. Where an engine's API answers on
// the network those steps run in, a RUN step controls the engine: it could remove the runner's
// containers and images or start a privileged container before the run has judged anything. So,
// once per run and before its first build (prebuilt images need none), the run asks where
// containment.network asks (src/suites/containment/engine-reach.ts), as the build's network sees
// it: first from this process (./ask.ts, a few milliseconds and no container when nothing answers
// like an engine), then, for what did, from a throw-away trusted probe on that network
// (./confirm.ts). ./decide.ts says what follows.
import type { Engine } from "../engine/provider.js";
import { errorEvidence } from "../errors.js";
import { reachTargets } from "../suites/containment/engine-reach.js";
import type { HostListeners } from "../suites/containment/host-listeners.js";
import type { BuildGate } from "../suites/lifecycle/case.js";
import { askPing } from "./ask.js";
import { type BuildNetwork, confirmAsks, hostAddress, inProcessAsks } from "./asks.js";
import { confirmFromBuildNetwork } from "./confirm.js";
import { decidePreflight, heard, preflightFailed } from "./decide.js";

/**
 * Each ask from this process, the connect included, asked all at once. An engine answers `/_ping`
 * from memory, on this host; a listener silent past this is not counted as one (the run's
 * containment.network asks again, from the subject's network, for three seconds each).
 */
export const IN_PROCESS_ASK_MS = 1_000;

interface PreflightContext {
  engine: Engine;
  owner: string;
  probeImage: string;
  signal?: AbortSignal;
  /** The host's TCP listeners; read from the kernel's tables when not given. */
  listeners?: HostListeners;
}

/** Whether any build may run; never rejects (a pre-flight that could not finish refuses). */
export async function buildPreflight(ctx: PreflightContext): Promise<BuildGate> {
  try {
    return await preflight(ctx);
  } catch (err) {
    return preflightFailed(errorEvidence(err).message);
  }
}

async function preflight(ctx: PreflightContext): Promise<BuildGate> {
  const network: BuildNetwork = (await ctx.engine.facts()).buildNetwork ?? { mode: "bridge" };
  const reach = await reachTargets(ctx.engine, ctx.listeners);
  const asks = inProcessAsks(reach, network, hostAddress());
  const fromTool = await Promise.all(
    asks.map(async (a) =>
      heard(`${a.ip}:${a.port}`, await askPing(a.ip, a.port, IN_PROCESS_ASK_MS, ctx.signal)),
    ),
  );
  const engines = asks.filter((_, i) => fromTool[i]!.answer === "engine");
  const confirmation =
    engines.length === 0
      ? undefined
      : await confirmFromBuildNetwork(ctx, network, confirmAsks(engines, network)).catch((err: unknown) => ({
          error: errorEvidence(err).message,
        }));
  return decidePreflight({
    network,
    fromTool,
    ...(reach.unasked ? { unasked: reach.unasked } : {}),
    ...(confirmation ? { confirmation } : {}),
  });
}
