// The host's TCP listeners that a container's network can reach: every one not bound to loopback,
// read from the kernel's socket tables of this process's network namespace (on a runner, where the
// action runs, the host's). containment.network asks each from inside the subject's network
// whether it is an engine's API (./engine-reach.ts): a socket proxy (socat from a TCP port to the
// engine's socket), a daemon's second TCP address or an engine-in-a-container service serves it on
// a port of its own choosing, which no fixed list of ports finds. A wildcard listener answers at the subject's gateway; one bound to an
// address answers there (a bridge routes to every address of the host).
import { readFileSync } from "node:fs";

/** At most this many listeners are asked, lowest ports first: each ask is bounded in time. */
export const MAX_HOST_LISTENERS = 16;

export interface HostListeners {
  /** Ports listened on at every address (asked at the subject's gateway). */
  any: number[];
  /** Listeners bound to one IPv4 address of the host (asked there). */
  at: { ip: string; port: number }[];
  /** Listeners found past MAX_HOST_LISTENERS, not asked. */
  unasked: number;
}

const LISTEN = "0A";

/** The listeners in /proc/net/tcp and tcp6 text (the kernel's hex, little-endian words). */
export function parseListeners(tcp: string, tcp6: string): HostListeners {
  const any = new Set<number>();
  const at = new Map<string, { ip: string; port: number }>();
  for (const [text, v6] of [
    [tcp, false],
    [tcp6, true],
  ] as const) {
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== LISTEN || !local) continue;
      const [addr, portHex] = local.split(":");
      const port = Number.parseInt(portHex ?? "", 16);
      const ip = addr && (v6 ? ipv4Of6(addr) : ipv4(addr));
      if (!port || ip === undefined) continue;
      if (ip === "0.0.0.0") any.add(port);
      else if (!ip.startsWith("127.")) at.set(`${ip}:${port}`, { ip, port });
    }
  }
  const all = [
    ...[...any].map((port) => ({ port })),
    ...[...at.values()].filter((l) => !any.has(l.port)),
  ].sort((a, b) => a.port - b.port);
  const asked = all.slice(0, MAX_HOST_LISTENERS);
  return {
    any: asked.filter((l) => !("ip" in l)).map((l) => l.port),
    at: asked.filter((l): l is { ip: string; port: number } => "ip" in l),
    unasked: all.length - asked.length,
  };
}

/** The host's own listeners; none when the tables cannot be read (not Linux, no procfs). */
export function hostListeners(): HostListeners {
  const read = (p: string) => {
    try {
      return readFileSync(p, "utf8");
    } catch {
      return "";
    }
  };
  return parseListeners(read("/proc/self/net/tcp"), read("/proc/self/net/tcp6"));
}

/** "0100007F" -> "127.0.0.1" (the kernel prints the address as one host-order word). */
function ipv4(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const b = hex.match(/../g)!.map((h) => Number.parseInt(h, 16));
  return `${b[3]}.${b[2]}.${b[1]}.${b[0]}`;
}

/**
 * An IPv6 listener as the IPv4 address it also serves: `::` (every address, IPv4 too on a
 * dual-stack socket) is "0.0.0.0", `::ffff:a.b.c.d` is a.b.c.d; any other (`::1`, a v6 address of
 * its own) is undefined: a container on an IPv4 bridge does not reach it.
 */
function ipv4Of6(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]{32}$/.test(hex)) return undefined;
  if (/^0{32}$/.test(hex)) return "0.0.0.0";
  if (/^0{16}FFFF0000$/i.test(hex.slice(0, 24))) return ipv4(hex.slice(24));
  return undefined;
}
