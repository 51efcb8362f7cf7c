// Whether the engine's API answers from inside the subject's network: a subject that can reach
// it over TCP (a daemon listening on tcp://0.0.0.0:2375, the nested engine service a self-hosted
// runner talks to, an API service on a port) controls the engine, whatever else confines it. The
// socket case (containment.mounts) covers the unix socket; this is the network's way to it.
//
// The subject probe (./probe.ts) asks, in the subject's network namespace (it is launched with
// network `container:<subject>` when the subject has one of its own to join) while the subject is
// frozen (so nothing in it can answer, or change a route, while the probe asks): `GET /_ping` of
// the address this tool reaches the engine at (resolved here, never by the subject's /etc/hosts),
// and of the subject's default gateway (the host, or a nested engine, on a bridge) on that port and
// on the engine API's own port, 2375; and every TCP listener of the host that a container's network
// can reach (./host-listeners.ts): an engine's API is not always at the address this tool uses (a
// socket proxy, a second TCP address of the daemon, an engine-in-a-container service on a port
// of its own). An answer carrying `Api-Version` is an engine. The asks are
// records of the probe's own report (framed and digested with everything else it read); what an
// answer holds is carried in hex, so nothing a server sends can be read as a record.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { EXCHANGE_SH, parseExchange } from "../../engine/probe-exchange.js";
import type { Engine } from "../../engine/provider.js";
import type { EngineReach } from "./evidence.js";
import { type HostListeners, hostListeners } from "./host-listeners.js";

/** The engine API's registered plain-HTTP port. */
const ENGINE_API_PORT = 2375;
/** Per address: the bound of its whole exchange (the connect included). */
const ASK_S = 3;
/** What of an answer is kept: the status line and headers of an engine's /_ping fit many times. */
export const ANSWER_BYTES = 2048;

/** What the subject probe asks: the engine's own TCP address (as IPs), and the ports for the gateway. */
export interface ReachAsks {
  targets: { ip: string; port: number }[];
  ports: number[];
  /** The host's listeners past the bound on asks, not asked (./host-listeners.ts). */
  unasked?: number;
}

// Run by the subject probe when DA_ASK is set (the seconds per ask). DA_TARGETS: "ip port" lines;
// DA_PORTS: ports to ask the default gateway on, one a line. "G <gateway>" ("-": no route out),
// then per ask "E <ip> <port> <hex>": the first ANSWER_BYTES of what answered, hex-encoded (empty:
// nothing answered; the refused marker: refused). Parameters travel in the environment, never in
// the script. The report's IFS is a newline and globbing is off (see PROBE_SCRIPT).
export const REACH_SH = `${EXCHANGE_SH}
reach_ask() {
  r=$(printf 'GET /_ping HTTP/1.0\\r\\nHost: %s\\r\\nConnection: close\\r\\n\\r\\n.' "$1")
  echo "E $1 $2 $(xchg "$DA_ASK" "$1" "$2" "\${r%.}" | head -c ${ANSWER_BYTES} | od -An -tx1 -v | tr -d ' \\n')"
}
gw=$(awk 'NR > 1 && $2 == "00000000" { h = $3; print substr(h, 7, 2), substr(h, 5, 2), substr(h, 3, 2), substr(h, 1, 2); exit }' /proc/net/route 2>/dev/null) || gw=""
case $gw in
"" | *[!0-9a-fA-F\\ ]*) gw="" ;;
*) IFS=' '; set -- $gw; IFS='
'; gw=$(printf '%d.%d.%d.%d' "0x$1" "0x$2" "0x$3" "0x$4") || gw="" ;;
esac
echo "G \${gw:--}"
for t in $DA_TARGETS; do [ -n "$t" ] && reach_ask "\${t%% *}" "\${t#* }"; done
if [ -n "$gw" ]; then for port in $DA_PORTS; do reach_ask "$gw" "$port"; done; fi
`.replaceAll("\\${", "${");

/**
 * The addresses to ask: the engine's own TCP address (as an IP), the host's reachable listeners at
 * their own address, and the ports for the gateway (2375, the engine's, every wildcard listener's).
 */
export async function reachTargets(
  engine: Engine,
  listeners: HostListeners = hostListeners(),
): Promise<ReachAsks> {
  const api = engine.networkApi?.();
  const ports = [...new Set([ENGINE_API_PORT, ...(api ? [api.port] : []), ...listeners.any])];
  const host = api?.host.replace(/^\[|\]$/g, "");
  const ips = !host
    ? []
    : isIP(host)
      ? [host]
      : (await lookup(host, { all: true, family: 4 })).map((a) => a.address);
  const targets = [...ips.slice(0, 4).map((ip) => ({ ip, port: api!.port })), ...listeners.at];
  const seen = new Set<string>();
  return {
    targets: targets.filter((t) => !seen.has(`${t.ip}:${t.port}`) && seen.add(`${t.ip}:${t.port}`)),
    ports,
    ...(listeners.unasked ? { unasked: listeners.unasked } : {}),
  };
}

/** The subject probe's environment for the asks. */
export function reachEnv(asks: ReachAsks): Record<string, string> {
  return {
    DA_ASK: String(ASK_S),
    DA_TARGETS: asks.targets.map((t) => `${t.ip} ${t.port}`).join("\n"),
    DA_PORTS: asks.ports.join("\n"),
  };
}

/** How much longer the probe may run for the asks: each ask's bound, and a second for its start. */
export function reachDeadlineMs(asks: ReachAsks): number {
  return (asks.targets.length + asks.ports.length) * (ASK_S + 1) * 1000;
}

/** What answered: an engine (an API-version header), another HTTP server, or nothing. */
export function answerKind(answer: string): EngineReach["asked"][number]["answer"] {
  const head = answer.replace(/\r/g, "").split(/\n\n/)[0]!.split("\n");
  if (!/^HTTP\/1\.[01] \d+/i.test(head[0] ?? "")) return "none";
  return head.some((l) => /^(libpod-)?api-version:/i.test(l)) ? "engine" : "http";
}

/**
 * The asks' records of a verified report (`G`, then `E` per ask), or undefined when it has none (the
 * probe was not asked to ask).
 */
export function parseReach(lines: readonly string[]): EngineReach | undefined {
  const g = lines.find((l) => l.startsWith("G "));
  if (g === undefined) return undefined;
  const gateway = g.slice(2).trim();
  const asked: EngineReach["asked"] = [];
  for (const l of lines) {
    const m = /^E (\S+) (\d+) ([0-9a-f]*)$/.exec(l);
    if (!m || m[3]!.length % 2) continue;
    const { connected, answer } = parseExchange(Buffer.from(m[3]!, "hex").toString("latin1"));
    asked.push({ address: `${m[1]}:${m[2]}`, answer: connected ? answerKind(answer) : "none" });
  }
  return { ...(gateway && gateway !== "-" ? { gateway } : {}), asked };
}
