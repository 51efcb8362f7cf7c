// Checks of a subject on network "none": nothing on the host can reach it, so a trusted probe
// joins the subject's network namespace (never its image) and asks on loopback. Each check kind
// brings its own shell body (./kinds/); this module runs it after a shared prelude. The probe
// speaks through nc, which every busybox has (wget is absent or broken in some static builds).
// Parameters travel in the environment, never interpolated into the script.

import { EXCHANGE_SH } from "../engine/probe-exchange.js";
import type { Engine, ProbeSpec } from "../engine/provider.js";
import { runProbe, trustedProbe } from "../engine/trusted-probe.js";

// ask METHOD PATH SECONDS: one HTTP/1.0 request to DA_PORT. tcpx SECONDS: connect, send DA_SEND,
// print the answer ("@@refused" when the connection is refused). backoff: sleep, growing. Both
// exchange through xchg (../engine/probe-exchange.ts), which keeps nc's input open while the
// answer comes (busybox nc half-closes at its input's end, and a server that hangs up on that
// never sends a late answer) and bounds the whole exchange by SECONDS.
export const PRELUDE = String.raw`
set -u
${EXCHANGE_SH}
ask() { r=$(printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n.' "$1" "$2"); xchg "$3" 127.0.0.1 "$DA_PORT" "\${r%.}"; }
tcpx() { xchg "$1" 127.0.0.1 "$DA_PORT" "$DA_SEND" | head -c 65536; }
backoff() { sleep "$delay"; case "$delay" in 0.05) delay=0.1 ;; 0.1) delay=0.25 ;; esac; }
`.replaceAll("\\${", "${");

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
  target: NetnsTarget,
  body: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  return (await runProbe(target.engine, spec(target, body, env), target.signal, timeoutMs)).stdout;
}

/** The text between two markers of a probe's output, or undefined when either is missing. */
export function between(text: string, start: string, end: string): string | undefined {
  const a = text.indexOf(start);
  const b = text.indexOf(end, a);
  return a === -1 || b === -1 ? undefined : text.slice(a + start.length, b);
}
