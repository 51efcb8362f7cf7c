// HTTP for subjects on network "none": nothing on the host can reach them, so a trusted probe
// joins the subject's network namespace (never its image) and asks on loopback. It speaks HTTP/1.0
// through nc, which every busybox has (wget is absent or broken in some static builds).
// Parameters travel in the environment, never interpolated into the script.

import type { Engine, ProbeSpec } from "../../engine/provider.js";
import { runProbe, trustedProbe } from "../../engine/trusted-probe.js";
import type { HttpProbe } from "../../inventory/schema.js";
import type { HttpAnswer } from "./http.js";
import { CLIENT_HELLO, EXCHANGE_BYTES, type Exchanges, HTTP_REQUEST } from "./speaks.js";
import type { TcpAnswer } from "./tcp.js";

// Mode "wait": poll DA_PATH until DA_STATUS or DA_DEADLINE seconds; "wait-tcp": connect (send
// DA_SEND, expect DA_EXPECT in the answer) until it holds or the deadline; "ask": each "METHOD PATH"
// line of DA_REQUESTS once, every answer between markers; "tcp": one exchange between markers;
// "hear": what the port sends unasked, answers to DA_HTTP and to DA_HELLO (octal escapes), in
// hex (speaks.ts). Busybox nc's -w bounds only the connect, so `timeout` bounds the whole exchange.
const SCRIPT = String.raw`
set -u
ask() { printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1" "$2" | nc -w "$3" 127.0.0.1 "$DA_PORT" 2>/dev/null; }
tcpx() { { printf '%s' "$DA_SEND" | timeout "$1" nc -w "$1" 127.0.0.1 "$DA_PORT" 2>&1 1>&3 | grep -q "can.t connect" && echo "@@refused"; } 3>&1 2>/dev/null | head -c 65536; }
backoff() { sleep "$delay"; case "$delay" in 0.05) delay=0.1 ;; 0.1) delay=0.25 ;; esac; }
if [ "$DA_MODE" = wait ]; then
  end=$(( $(date +%s) + DA_DEADLINE )); delay=0.05
  while :; do
    case "$(ask GET "$DA_PATH" 2 | head -n 1)" in "HTTP/1."[01]" $DA_STATUS"*) echo "@@ready"; exit 0 ;; esac
    [ "$(date +%s)" -ge "$end" ] && { echo "@@timeout"; exit 0; }
    backoff
  done
fi
if [ "$DA_MODE" = wait-tcp ]; then
  end=$(( $(date +%s) + DA_DEADLINE )); delay=0.05
  while :; do
    out=$(tcpx 2)
    case "$out" in *@@refused*) ;; *"$DA_EXPECT"*) echo "@@ready"; exit 0 ;; esac
    [ "$(date +%s)" -ge "$end" ] && { echo "@@timeout"; exit 0; }
    backoff
  done
fi
if [ "$DA_MODE" = hear ]; then
  hear() { timeout 2 nc -w 2 127.0.0.1 "$DA_PORT" 2>/dev/null | head -c 512 | od -An -tx1 -v | tr -d ' \n'; }
  echo "@@banner $(sleep 1.5 | hear)"
  echo "@@http $({ printf '%s' "$DA_HTTP"; sleep 1.5; } | hear)"
  echo "@@tls $({ printf "$DA_HELLO"; sleep 1.5; } | hear)"
  exit 0
fi
if [ "$DA_MODE" = tcp ]; then
  echo "@@begin 0"; tcpx "$DA_ASK_TIMEOUT"; echo; echo "@@end 0"; exit 0
fi
i=0
echo "$DA_REQUESTS" | while read -r method path; do
  [ -n "$method" ] || continue
  echo "@@begin $i"; ask "$method" "$path" "$DA_ASK_TIMEOUT" | head -c 65536; echo; echo "@@end $i"
  i=$((i + 1))
done
`;

/** Per request (nc -w), and what a probe container needs beyond its own waiting to start and stop. */
const ASK_TIMEOUT_S = 5;
const PROBE_MARGIN_MS = 15_000;

export interface NetnsTarget {
  engine: Engine;
  owner: string;
  probeImage: string;
  containerId: string;
  port: number;
  signal?: AbortSignal;
}

function options(t: NetnsTarget, pairs: string[]): ProbeSpec {
  const env = Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
  return trustedProbe(
    t.owner,
    t.probeImage,
    { name: "da-http-probe", text: SCRIPT },
    {
      user: "65534:65534",
      env: { DA_PORT: String(t.port), DA_ASK_TIMEOUT: String(ASK_TIMEOUT_S), ...env },
      namespaces: { net: `container:${t.containerId}` },
    },
  );
}

/** Polls `path` from inside the subject's network namespace until `status` or the deadline. */
export async function waitReadyInNetns(
  t: NetnsTarget,
  path: string,
  deadlineMs: number,
  status = 200,
): Promise<boolean> {
  const env = [
    "DA_MODE=wait",
    `DA_PATH=${path}`,
    `DA_STATUS=${status}`,
    `DA_DEADLINE=${Math.ceil(deadlineMs / 1000)}`,
  ];
  // The probe gives up at the deadline itself; the engine wait allows it that long plus a margin.
  const { stdout } = await runProbe(t.engine, options(t, env), t.signal, deadlineMs + PROBE_MARGIN_MS);
  return stdout.includes("@@ready");
}

/** Connects (sends, expects) from inside the namespace until it holds or the deadline. */
export async function waitTcpInNetns(
  t: NetnsTarget,
  send: string | undefined,
  expect: string | undefined,
  deadlineMs: number,
): Promise<boolean> {
  const env = [
    "DA_MODE=wait-tcp",
    `DA_SEND=${send ?? ""}`,
    `DA_EXPECT=${expect ?? ""}`,
    `DA_DEADLINE=${Math.ceil(deadlineMs / 1000)}`,
  ];
  const { stdout } = await runProbe(t.engine, options(t, env), t.signal, deadlineMs + PROBE_MARGIN_MS);
  return stdout.includes("@@ready");
}

/** One TCP exchange from inside the namespace. */
export async function tcpInNetns(t: NetnsTarget, send: string | undefined): Promise<TcpAnswer> {
  const env = ["DA_MODE=tcp", `DA_SEND=${send ?? ""}`];
  const { stdout } = await runProbe(
    t.engine,
    options(t, env),
    t.signal,
    ASK_TIMEOUT_S * 1000 + PROBE_MARGIN_MS,
  );
  const block = between(stdout, "@@begin 0\n", "\n@@end 0\n");
  if (block === undefined || block.includes("@@refused")) return { connected: false, answer: "" };
  return { connected: true, answer: block };
}

/** speaks.ts's three exchanges from inside the namespace (a subject on network "none"). */
export async function hearInNetns(t: NetnsTarget): Promise<Exchanges> {
  const hello = [...CLIENT_HELLO].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
  const env = ["DA_MODE=hear", `DA_HTTP=${HTTP_REQUEST}`, `DA_HELLO=${hello}`];
  const { stdout } = await runProbe(t.engine, options(t, env), t.signal, 3 * 2000 + PROBE_MARGIN_MS);
  const heard = (name: string) => {
    const hex = new RegExp(`^@@${name} ([0-9a-f]*)$`, "m").exec(stdout)?.[1] ?? "";
    return Buffer.from(hex, "hex").subarray(0, EXCHANGE_BYTES);
  };
  return { banner: heard("banner"), http: heard("http"), tls: heard("tls") };
}

/** Each probe once, in one probe container; answers in order, undefined where none came. */
export async function askInNetns(
  t: NetnsTarget,
  probes: readonly Pick<HttpProbe, "method" | "path">[],
): Promise<(HttpAnswer | undefined)[]> {
  const requests = probes.map((p) => `${p.method} ${encodeURI(decodeURI(p.path))}`).join("\n");
  const { stdout } = await runProbe(
    t.engine,
    options(t, ["DA_MODE=ask", `DA_REQUESTS=${requests}`]),
    t.signal,
    probes.length * ASK_TIMEOUT_S * 1000 + PROBE_MARGIN_MS,
  );
  return probes.map((_, i) => parseAnswer(between(stdout, `@@begin ${i}\n`, `\n@@end ${i}\n`)));
}

function between(text: string, start: string, end: string): string | undefined {
  const a = text.indexOf(start);
  const b = text.indexOf(end, a);
  return a === -1 || b === -1 ? undefined : text.slice(a + start.length, b);
}

/** A raw HTTP/1.x answer: status line, headers, blank line, body. */
export function parseAnswer(block: string | undefined): HttpAnswer | undefined {
  const status = block === undefined ? null : /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(block);
  if (!block || !status) return undefined;
  const split = block.search(/\r?\n\r?\n/);
  return {
    status: Number(status[1]),
    body: split === -1 ? "" : block.slice(split).replace(/^\r?\n\r?\n/, ""),
  };
}
