// What a network "none" subject's port speaks (./speaks.ts's three exchanges), heard from a
// trusted probe in its network namespace (../../checks/netns.ts): what the port sends unasked,
// its answers to an HTTP request and to a TLS ClientHello (octal escapes), each in hex.
import { type NetnsTarget, PROBE_MARGIN_MS, runInNetns } from "../../checks/netns.js";
import { CLIENT_HELLO, EXCHANGE_BYTES, type Exchanges, HTTP_REQUEST } from "./speaks.js";

const HEAR = String.raw`
hear() { timeout 2 nc -w 2 127.0.0.1 "$DA_PORT" 2>/dev/null | head -c 512 | od -An -tx1 -v | tr -d ' \n'; }
echo "@@banner $(sleep 1.5 | hear)"
echo "@@http $({ printf '%s' "$DA_HTTP"; sleep 1.5; } | hear)"
echo "@@tls $({ printf "$DA_HELLO"; sleep 1.5; } | hear)"
`;

/** speaks.ts's three exchanges from inside the namespace (a subject on network "none"). */
export async function hearInNetns(target: NetnsTarget): Promise<Exchanges> {
  const hello = [...CLIENT_HELLO].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
  const stdout = await runInNetns(
    target,
    HEAR,
    { DA_HTTP: HTTP_REQUEST, DA_HELLO: hello },
    3 * 2000 + PROBE_MARGIN_MS,
  );
  const heard = (name: string) => {
    const hex = new RegExp(`^@@${name} ([0-9a-f]*)$`, "m").exec(stdout)?.[1] ?? "";
    return Buffer.from(hex, "hex").subarray(0, EXCHANGE_BYTES);
  };
  return { banner: heard("banner"), http: heard("http"), tls: heard("tls") };
}
