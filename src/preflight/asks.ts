// Where the pre-flight asks: the addresses containment.network asks from a subject's network
// (reachTargets: the engine's own TCP address, the host's listeners off loopback, and ports for
// the gateway), as the build's network sees them. Asked first from this process, where this host's
// own address stands in for the build's gateway (a bridge's gateway is an address of the host, and
// a listener on every address answers on each); then, for what answered like an engine, from a
// probe on the build's network itself.
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { EngineFacts } from "../engine/provider.js";
import type { ReachAsks } from "../suites/containment/engine-reach.js";

/** The network a build's RUN steps run in: the engine's default bridge, or the host's own. */
export type BuildNetwork = { mode: "bridge" } | NonNullable<EngineFacts["buildNetwork"]>;

/** The engine API's registered plain-HTTP port: asked on loopback where the build shares it. */
const ENGINE_API_PORT = 2375;

interface Ask {
  ip: string;
  port: number;
  /** Asked at this host's own address, standing in for the build's gateway. */
  atGateway?: true;
}

const isLoopback = (ip: string) => ip.startsWith("127.") || ip === "::1";

/**
 * What this process asks. On a bridge, a loopback address is the build's own: the engine's TCP
 * address on loopback is not asked (nothing on the host's loopback is reachable from there). A build
 * on the host's network reaches its loopback too: the engine's own address is asked wherever it is,
 * and loopback's engine API port.
 */
export function inProcessAsks(
  reach: ReachAsks,
  network: BuildNetwork,
  hostAddress: string | undefined,
): Ask[] {
  const host = network.mode === "host";
  const asks: Ask[] = reach.targets.filter((t) => host || !isLoopback(t.ip)).map((t) => ({ ...t }));
  if (hostAddress)
    asks.push(...reach.ports.map((port) => ({ ip: hostAddress, port, atGateway: true as const })));
  if (host) asks.push({ ip: "127.0.0.1", port: ENGINE_API_PORT });
  const seen = new Set<string>();
  return asks.filter((a) => !seen.has(`${a.ip}:${a.port}`) && seen.add(`${a.ip}:${a.port}`));
}

/**
 * What the probe on the build's network asks: every address that answered this process like an
 * engine, and, on a bridge, the ports that did so at this host's address, at the probe's own
 * gateway (as containment.network asks them). On the host's network the addresses are the host's.
 */
export function confirmAsks(engines: readonly Ask[], network: BuildNetwork): ReachAsks {
  const gatewayPorts = network.mode === "bridge" ? engines.filter((a) => a.atGateway).map((a) => a.port) : [];
  return {
    targets: engines.map(({ ip, port }) => ({ ip, port })),
    ports: [...new Set(gatewayPorts)],
  };
}

/** An IPv4 address of this host off loopback (the first its interfaces list), if it has one. */
export function hostAddress(interfaces = networkInterfaces()): string | undefined {
  return Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .find((a) => a.family === "IPv4" && !a.internal && isIP(a.address) === 4)?.address;
}
