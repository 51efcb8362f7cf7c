// The pre-flight's first look, from this process: `GET /_ping` of one address, the request the
// subject probe sends for containment.network (src/suites/containment/engine-reach.ts), over a
// plain TCP connection. Bounded in time (the connect included), never following anything (one
// request, no redirect is read, nothing is asked twice), reading at most ANSWER_BYTES, and done as
// soon as what came says what it is: the end of the headers, or a first byte that is not HTTP's.
import { connect } from "node:net";
import type { Exchange } from "../engine/probe-exchange.js";
import { ANSWER_BYTES } from "../suites/containment/engine-reach.js";

/** The request, as the subject probe writes it. */
function pingRequest(ip: string): string {
  return `GET /_ping HTTP/1.0\r\nHost: ${ip}\r\nConnection: close\r\n\r\n`;
}

/** Whether an answer so far already says all there is to judge: not HTTP, or its headers ended. */
export function answerSettled(text: string): boolean {
  const n = Math.min(text.length, 5);
  if (text.slice(0, n).toUpperCase() !== "HTTP/".slice(0, n)) return true;
  return /\r?\n\r?\n/.test(text);
}

/**
 * Asks `ip:port` for `/_ping` and reads its answer, for at most `boundMs` in all: not connected
 * (refused, unreachable, nothing in time) is no connection; connected and silent is an empty answer.
 * Never rejects.
 */
export function askPing(ip: string, port: number, boundMs: number, signal?: AbortSignal): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let connected = false;
    let done = false;
    const socket = connect({ host: ip, port, noDelay: true });
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      socket.destroy();
      const answer = Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString("latin1");
      resolve({ connected, answer });
    };
    const timer = setTimeout(finish, boundMs);
    signal?.addEventListener("abort", finish, { once: true });
    if (signal?.aborted) finish();
    socket.on("connect", () => {
      connected = true;
      socket.write(pingRequest(ip));
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= ANSWER_BYTES || answerSettled(Buffer.concat(chunks).toString("latin1"))) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
  });
}
