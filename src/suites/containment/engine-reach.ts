// Whether the engine's API answers from inside the subject's network: a subject that can reach
// it over TCP (a daemon listening on tcp://0.0.0.0:2375, the nested engine service a self-hosted
// runner talks to, an API service on a port) controls the engine, whatever else confines it. The
// socket case (containment.mounts) covers the unix socket; this is the network's way to it.
//
// A trusted probe joins the subject's network namespace while the subject is frozen (so nothing
// in it can answer, or change a route, while the probe asks) and asks `GET /_ping` of: the address
// this tool reaches the engine at (resolved here, never by the subject's /etc/hosts), and the
// subject's default gateway (the host, or a nested engine, on a bridge) on that port
// and on the engine API's own port, 2375. An answer carrying `Api-Version` is an engine.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { Engine } from "../../engine/provider.js";
import { runProbe, trustedProbe } from "../../engine/trusted-probe.js";
import type { EngineReach } from "./evidence.js";

/** The engine API's registered plain-HTTP port. */
const ENGINE_API_PORT = 2375;
/** Per address: nc's connect bound, and `timeout` for the whole exchange. */
const ASK_S = 3;

// DA_TARGETS: "ip port" pairs; DA_PORTS: ports to ask the default gateway on. Each answer's
// status line and API-version headers, lower-cased, between markers. Parameters travel in the
// environment, never in the script.
const SCRIPT = String.raw`
set -u
gw=$(awk 'NR > 1 && $2 == "00000000" { h = $3; print substr(h, 7, 2), substr(h, 5, 2), substr(h, 3, 2), substr(h, 1, 2); exit }' /proc/net/route 2>/dev/null)
[ -n "$gw" ] && set -- $gw && gw=$(printf '%d.%d.%d.%d' "0x$1" "0x$2" "0x$3" "0x$4")
echo "@@gateway $gw"
ask() {
  echo "@@ask $1 $2"
  # Busybox nc ends at its input's end, answered or not: the input stays open while the answer
  # comes, a blank line every 0.1 s (ignored between requests), until a write finds nc gone.
  { printf 'GET /_ping HTTP/1.0\r\nHost: %s\r\nConnection: close\r\n\r\n' "$1"
    i=0; while [ $i -lt $((DA_ASK * 10)) ] && sleep 0.1 && printf '\r\n'; do i=$((i + 1)); done; } 2>/dev/null |
    timeout "$DA_ASK" nc -w "$DA_ASK" "$1" "$2" 2>/dev/null | head -c 4096 | tr -d '\r' |
    grep -i -E '^(HTTP/1\.[01] [0-9]+|(libpod-)?api-version:)' | tr 'A-Z' 'a-z' | head -n 4
  echo "@@end"
}
echo "$DA_TARGETS" | while read -r ip port; do [ -n "$ip" ] && ask "$ip" "$port"; done
if [ -n "$gw" ]; then for port in $DA_PORTS; do ask "$gw" "$port"; done; fi
`;

/** The addresses to ask: the engine's own TCP address (as an IP) and the ports for the gateway. */
export async function reachTargets(
  engine: Engine,
): Promise<{ targets: { ip: string; port: number }[]; ports: number[] }> {
  const api = engine.networkApi?.();
  const ports = [...new Set([ENGINE_API_PORT, ...(api ? [api.port] : [])])];
  if (!api) return { targets: [], ports };
  const host = api.host.replace(/^\[|\]$/g, "");
  const ips = isIP(host) ? [host] : (await lookup(host, { all: true, family: 4 })).map((a) => a.address);
  return { targets: ips.slice(0, 4).map((ip) => ({ ip, port: api.port })), ports };
}

/** Asks from inside `containerId`'s network namespace (it must be running or paused). */
export async function measureEngineReach(
  engine: Engine,
  owner: string,
  probeImage: string,
  containerId: string,
  signal?: AbortSignal,
): Promise<EngineReach> {
  const { targets, ports } = await reachTargets(engine);
  const spec = trustedProbe(
    owner,
    probeImage,
    { name: "da-engine-reach", text: SCRIPT },
    {
      user: "65534:65534",
      env: {
        DA_TARGETS: targets.map((t) => `${t.ip} ${t.port}`).join("\n"),
        DA_PORTS: ports.join(" "),
        DA_ASK: String(ASK_S),
      },
      namespaces: { net: `container:${containerId}` },
    },
  );
  const asks = targets.length + ports.length;
  const run = await runProbe(engine, spec, signal, asks * (ASK_S + 1) * 1000 + 15_000);
  return parseReach(run.stdout);
}

export function parseReach(stdout: string): EngineReach {
  const gateway = /^@@gateway (\S+)$/m.exec(stdout)?.[1];
  const asked: EngineReach["asked"] = [];
  for (const m of stdout.matchAll(/^@@ask (\S+) (\d+)\n([\s\S]*?)^@@end$/gm)) {
    const lines = m[3]!.split("\n").filter(Boolean);
    const answer = lines.some((l) => /^(libpod-)?api-version:/.test(l))
      ? "engine"
      : lines.some((l) => l.startsWith("http/"))
        ? "http"
        : "none";
    asked.push({ address: `${m[1]}:${m[2]}`, answer });
  }
  return { ...(gateway && gateway !== "none" ? { gateway } : {}), asked };
}
