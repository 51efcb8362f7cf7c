// Whether any build may run: pure over what the pre-flight heard. An engine's API answering from
// the network a build's RUN steps run in is the host's fault, not the pull request's: every build
// is refused (lifecycle.build ERROR, naming the address, what answered and the fix), since a RUN
// step there controls the engine before anything has been judged. An engine that answers only
// this tool (its process is on the host; the probe on the build's network heard nothing there) is
// no reason to refuse: what a build reaches is what the probe there reaches, and the build says
// what was heard. A pre-flight that could not establish it refuses: no build runs on a guess.
import type { Exchange } from "../engine/probe-exchange.js";
import { answerKind } from "../suites/containment/engine-reach.js";
import type { BuildGate, Draft } from "../suites/lifecycle/case.js";
import type { BuildNetwork } from "./asks.js";

/** One address asked, and what answered there. */
export interface Heard {
  address: string;
  answer: "engine" | "http" | "none";
  /** What an engine said it is (its Server and Api-Version headers), bounded and printable. */
  says?: string;
}

/** What the probe on the build's network heard, or why it could not say. */
export type Confirmation = { asked: Heard[] } | { error: string };

interface PreflightHeard {
  network: BuildNetwork;
  /** What this process heard, per address it asked. */
  fromTool: Heard[];
  /** The host's listeners past containment.network's bound on asks, not asked. */
  unasked?: number;
  /** Asked only when something answered this process like an engine. */
  confirmation?: Confirmation;
}

/** An exchange read as an answer: an engine (and what it says it is), another server, or nothing. */
export function heard(address: string, exchange: Exchange): Heard {
  const answer = exchange.connected ? answerKind(exchange.answer) : "none";
  if (answer !== "engine") return { address, answer };
  const header = (name: string) =>
    new RegExp(`^${name}:[ \\t]*([^\\r\\n]*)`, "im").exec(exchange.answer)?.[1]?.trim();
  const clean = (v: string | undefined) => v?.replace(/[^\x20-\x7e]/g, "?").slice(0, 60);
  const server = clean(header("Server"));
  const api = clean(header("Api-Version") ?? header("Libpod-Api-Version"));
  const says = [server, api && `API ${api}`].filter(Boolean).join(", ");
  return { address, answer, ...(says ? { says } : {}) };
}

const at = (h: Heard) => `${h.address} (${h.says ?? "an engine's answer"})`;
const asked = (list: readonly Heard[]) => list.map((h) => `${h.address}: ${h.answer}`);

const WHERE: Record<BuildNetwork["mode"], string> = {
  bridge: "the engine's default bridge network",
  host: "the host's own network, loopback included",
};

/** The decision: a refusal (every build an ERROR), or the evidence every build carries. */
export function decidePreflight(h: PreflightHeard): BuildGate {
  const evidence: Record<string, unknown> = {
    buildNetwork: h.network.mode === "host" ? `host: ${h.network.why}` : "the engine's default bridge",
    askedFromThisTool: asked(h.fromTool),
    ...(h.unasked ? { hostListenersNotAsked: h.unasked } : {}),
  };
  const toTool = h.fromTool.filter((x) => x.answer === "engine");
  if (toTool.length === 0) return { evidence };
  const c = h.confirmation ?? { error: "the probe on the build's network was not run" };
  if ("error" in c) return { evidence, refused: unconfirmed(h.network, toTool, c.error, evidence) };
  const fromBuild = c.asked.filter((x) => x.answer === "engine");
  const withProbe = { ...evidence, askedFromTheBuildNetwork: asked(c.asked) };
  if (fromBuild.length === 0) {
    return {
      evidence: { ...withProbe, engineAnswersOnlyThisTool: toTool.map(at) },
      note: `the engine's API answers this tool at ${toTool.map(at).join(", ")}, but not from the build's network (a probe there asked)`,
    };
  }
  return { evidence: withProbe, refused: refusal(h.network, fromBuild, withProbe) };
}

/** Every build's ERROR when the pre-flight itself could not finish. */
export function preflightFailed(reason: string): BuildGate {
  const message = `not built: whether an engine's API answers where this build's RUN steps would run could not be established (${reason}): no build runs on a guess`;
  return {
    evidence: {},
    refused: { status: "error", message, evidence: { preflightError: reason }, remediation: RETRY },
  };
}

function refusal(network: BuildNetwork, engines: Heard[], evidence: Record<string, unknown>): Draft {
  return {
    status: "error",
    message: `not built: an engine's API answers from the network this build's RUN steps run in (${WHERE[network.mode]}) at ${engines.map(at).join(", ")}: a RUN step there controls the engine (it could remove this runner's containers and images, start a privileged container, read other containers' environments) before anything is judged`,
    evidence: { ...evidence, engineApiAt: engines.map((e) => e.address) },
    remediation: hostFix(network, engines),
  };
}

function unconfirmed(
  network: BuildNetwork,
  toTool: Heard[],
  reason: string,
  evidence: Record<string, unknown>,
): Draft {
  return {
    status: "error",
    message: `not built: the engine's API answers this tool at ${toTool.map(at).join(", ")}, and whether this build's RUN steps reach it there could not be established (${reason}): no build runs on a guess`,
    evidence: { ...evidence, engineApiAt: toTool.map((e) => e.address), confirmationError: reason },
    remediation: `${hostFix(network, toTool)} ${RETRY}`,
  };
}

/** The fix is the host's: where the API listens, or who may speak to it. */
function hostFix(network: BuildNetwork, engines: readonly Heard[]): string {
  const addresses = engines.map((e) => e.address).join(", ");
  const bind =
    network.mode === "host"
      ? `serve the engine's API on a unix socket only, or require TLS client certificates (--tlsverify): ${network.why}, so a TCP port on loopback is reachable from a build too`
      : "serve the engine's API on a unix socket or on 127.0.0.1 only (never 0.0.0.0 or a bridge's address), or require TLS client certificates (--tlsverify, port 2376)";
  const proxy = `stop the socket proxy listening at ${addresses} (socat, docker-socket-proxy)${network.mode === "host" ? "" : " or bind it to 127.0.0.1"}`;
  return `This is the host's configuration, not the pull request's: ${bind}; ${proxy}. Nothing of the pull request was built or run.`;
}

const RETRY =
  "Run again once the engine answers and the probe image is available: the pre-flight asks from the build's network with the trusted probe.";
