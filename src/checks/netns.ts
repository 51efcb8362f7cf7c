// Checks of a subject on network "none": nothing on the host can reach it, so a trusted probe
// joins the subject's network namespace (never its image) and asks on loopback. Each check kind
// brings its own shell body (./kinds/); this module runs it after a shared prelude. The probe
// speaks through nc, which every busybox has (wget is absent or broken in some static builds).
// Parameters travel in the environment, never interpolated into the script.

import type { Engine, ProbeSpec } from "../engine/provider.js";
import { runProbe, trustedProbe } from "../engine/trusted-probe.js";

// ask METHOD PATH SECONDS: one HTTP/1.0 request to DA_PORT. tcpx SECONDS: connect, send DA_SEND,
// print the answer ("@@refused" when the connection is refused). backoff: sleep, growing.
// Busybox nc's -w bounds only the connect, so `timeout` bounds the whole exchange.
const PRELUDE = String.raw`
set -u
ask() { printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$1" "$2" | nc -w "$3" 127.0.0.1 "$DA_PORT" 2>/dev/null; }
tcpx() { { printf '%s' "$DA_SEND" | timeout "$1" nc -w "$1" 127.0.0.1 "$DA_PORT" 2>&1 1>&3 | grep -q "can.t connect" && echo "@@refused"; } 3>&1 2>/dev/null | head -c 65536; }
backoff() { sleep "$delay"; case "$delay" in 0.05) delay=0.1 ;; 0.1) delay=0.25 ;; esac; }
`;

/** Per request (nc -w), and what a probe container needs beyond its own waiting to start and stop. */
export const ASK_TIMEOUT_S = 5;
export const PROBE_MARGIN_MS = 15_000;

export interface NetnsTarget {
  engine: Engine;
  owner: string;
  probeImage: string;
  containerId: string;
  port: number;
  signal?: AbortSignal;
}

function spec(t: NetnsTarget, body: string, env: Record<string, string>): ProbeSpec {
  return trustedProbe(
    t.owner,
    t.probeImage,
    { name: "da-http-probe", text: `${PRELUDE}${body}` },
    {
      user: "65534:65534",
      env: { DA_PORT: String(t.port), DA_ASK_TIMEOUT: String(ASK_TIMEOUT_S), ...env },
      namespaces: { net: `container:${t.containerId}` },
    },
  );
}

/**
 * Runs `body` (after the prelude) in a probe in the subject's network namespace, with `env`, for
 * at most `timeoutMs`; its stdout. A body that polls until a deadline gives up by itself at that
 * deadline: pass the deadline plus PROBE_MARGIN_MS.
 */
export async function runInNetns(
  t: NetnsTarget,
  body: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  return (await runProbe(t.engine, spec(t, body, env), t.signal, timeoutMs)).stdout;
}

/** The text between two markers of a probe's output, or undefined when either is missing. */
export function between(text: string, start: string, end: string): string | undefined {
  const a = text.indexOf(start);
  const b = text.indexOf(end, a);
  return a === -1 || b === -1 ? undefined : text.slice(a + start.length, b);
}
