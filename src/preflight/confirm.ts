// The pre-flight's second look, taken only when something answered this process like an engine: a
// throw-away trusted probe on the network a build's RUN steps run in asks the same addresses, with
// containment.network's own exchange (REACH_SH: `GET /_ping` through nc, each answer carried as hex
// in a record of the probe's own, so nothing a server sends can pass for a record). No subject
// exists yet, so nothing of the pull request's shares its network or reads its output. Its last
// line says it ran to its end; a probe that did not is no evidence.
import { parseExchange } from "../engine/probe-exchange.js";
import type { Engine } from "../engine/provider.js";
import { runProbe, trustedProbe } from "../engine/trusted-probe.js";
import { REACH_SH, type ReachAsks, reachDeadlineMs, reachEnv } from "../suites/containment/engine-reach.js";
import type { BuildNetwork } from "./asks.js";
import { type Confirmation, type Heard, heard } from "./decide.js";

const END = "D end";

/** The asks, word-split on newlines only and with globbing off, as the subject probe runs them. */
const CONFIRM_SCRIPT = `set -fu
IFS='
'
${REACH_SH}
echo "${END}"
`;

interface ConfirmContext {
  engine: Engine;
  owner: string;
  probeImage: string;
  signal?: AbortSignal;
}

/** Asks `asks` from a probe on the build's network; what it heard, or why it could not say. */
export async function confirmFromBuildNetwork(
  ctx: ConfirmContext,
  network: BuildNetwork,
  asks: ReachAsks,
): Promise<Confirmation> {
  await ctx.engine.ensureImage(ctx.probeImage, undefined, ctx.signal);
  const spec = trustedProbe(
    ctx.owner,
    ctx.probeImage,
    { name: "da-build-preflight", text: CONFIRM_SCRIPT },
    {
      user: "65534:65534",
      env: reachEnv(asks),
      namespaces: { net: network.mode === "host" ? "host" : "bridge" },
    },
  );
  const out = await runProbe(ctx.engine, spec, ctx.signal, spec.timeoutMs + reachDeadlineMs(asks));
  return parseConfirmation(out.stdout, out.exitCode);
}

/** The probe's records: an `E <ip> <port> <hex>` per ask, after its gateway's `G` line. */
export function parseConfirmation(stdout: string, exitCode: number): Confirmation {
  const lines = stdout.split("\n");
  if (exitCode !== 0 || !lines.includes(END))
    return { error: `the probe on the build's network did not run to its end (exit code ${exitCode})` };
  const asked: Heard[] = [];
  for (const line of lines) {
    const m = /^E (\S+) (\d+) ([0-9a-f]*)$/.exec(line);
    if (!m || m[3]!.length % 2) continue;
    asked.push(heard(`${m[1]}:${m[2]}`, parseExchange(Buffer.from(m[3]!, "hex").toString("latin1"))));
  }
  return { asked };
}
