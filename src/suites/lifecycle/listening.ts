// What a subject that did not become ready listens on. "No answer" on the published port has
// two common causes a user cannot see from outside: a server bound to 127.0.0.1 (Flask's and
// many dev servers' default), which the engine's port forwarding never reaches, and a server on
// another port than the inventory's. A trusted probe in the subject's network namespace reads
// the kernel's socket tables (the subject's image may have no shell or no netstat), and the
// failure names what listens instead of only what did not answer.
import type { Engine } from "../../engine/provider.js";
import { runProbe, trustedProbe } from "../../engine/trusted-probe.js";

interface Listener {
  /** "127.0.0.1", "0.0.0.0", "::", "::1", "::ffff:127.0.0.1". */
  address: string;
  port: number;
}

/** TCP_LISTEN in the kernel's `st` column. */
const LISTEN = "0A";

/** The kernel prints each 32-bit word of an address in host (little-endian) byte order. */
function wordBytes(hex: string): number[] {
  const n = Number.parseInt(hex, 16);
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

function address(hex: string): string | undefined {
  if (hex.length === 8) return wordBytes(hex).join(".");
  if (hex.length !== 32) return undefined;
  const bytes = [0, 8, 16, 24].flatMap((i) => wordBytes(hex.slice(i, i + 8)));
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return `::ffff:${bytes.slice(12).join(".")}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  // The longest run of zero groups (two or more) is written "::".
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.len < 2) return groups.join(":");
  return `${groups.slice(0, best.at).join(":")}::${groups.slice(best.at + best.len).join(":")}`;
}

/** The listening sockets in /proc/net/tcp and /proc/net/tcp6 text. */
export function parseListeners(text: string): Listener[] {
  const out: Listener[] = [];
  for (const line of text.split("\n")) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state !== LISTEN || !local?.includes(":")) continue;
    const [hex = "", portHex = ""] = local.split(":");
    const addr = address(hex);
    const port = Number.parseInt(portHex, 16);
    if (addr !== undefined && Number.isInteger(port)) out.push({ address: addr, port });
  }
  return out;
}

const isLoopback = (a: string) => a === "::1" || /^(::ffff:)?127\./.test(a);
const show = (l: Listener) =>
  l.address.includes(":") ? `[${l.address}]:${l.port}` : `${l.address}:${l.port}`;

/**
 * What the listeners say about a subject whose `port` did not answer, with its fix; none when
 * something reachable listens on the port (the fault is then in what it answers).
 */
export function explainListening(
  listeners: Listener[],
  port: number,
  /** The checks ask from inside the subject's network namespace (network "none"). */
  fromInside = false,
): { note: string; fix: string } | undefined {
  const onPort = listeners.filter((l) => l.port === port);
  if (onPort.some((l) => fromInside || !isLoopback(l.address))) return undefined;
  if (onPort.length)
    return {
      note: `it listens on ${onPort.map(show).join(", ")} only: loopback inside the container, which the published port cannot reach`,
      fix: `make the server listen on all interfaces (0.0.0.0:${port}, or [::]:${port}), not on loopback: e.g. \`--host 0.0.0.0\`, \`--bind 0.0.0.0\`, \`app.run(host="0.0.0.0")\``,
    };
  const others = [...new Set(listeners.map(show))].slice(0, 5);
  if (others.length)
    return {
      note: `nothing listens on port ${port}; it listens on ${others.join(", ")}`,
      fix: `set the inventory's port to the one the subject serves, or make it listen on ${port} (or raise startupTimeoutMs if it is still starting)`,
    };
  return {
    note: "nothing in the container listens on any TCP port",
    fix: `make the subject's server start and listen on 0.0.0.0:${port} (its log says why it has not), or raise startupTimeoutMs in the inventory if it is still starting`,
  };
}

const SCRIPT = "cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; exit 0";

/** The subject's listening TCP sockets, read from inside its network namespace; undefined if unreadable. */
export async function listeners(
  engine: Engine,
  owner: string,
  probeImage: string,
  containerId: string,
  signal?: AbortSignal,
): Promise<Listener[] | undefined> {
  const spec = trustedProbe(
    owner,
    probeImage,
    { name: "da-listening", text: SCRIPT },
    {
      user: "65534:65534",
      namespaces: { net: `container:${containerId}` },
    },
  );
  try {
    const { stdout } = await runProbe(engine, spec, signal);
    return stdout.includes("local_address") ? parseListeners(stdout) : undefined;
  } catch {
    return undefined; // a diagnosis only: the failure stands without it
  }
}
