// What a run's first engine call needs of the Docker Engine API transport, and nothing more: the
// ping (GET /_ping) over docker-modem, and where the API listens. So the ping leaves before the
// engine itself (./engine.ts, dockerode, everything a run does past its first call) is loaded,
// which then compiles while the engine answers (./deferred.ts).
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type Modem from "docker-modem";

/** GET /_ping: the engine answers, and its headers say which engine it is (./identity.ts). */
export function dialPing(modem: Modem, abortSignal: AbortSignal): Promise<IncomingHttpHeaders> {
  return new Promise<IncomingHttpHeaders>((resolve, reject) =>
    modem.dial(
      {
        path: "/_ping",
        method: "GET",
        isStream: true,
        abortSignal,
        statusCodes: { 200: true, 500: "server error" },
      } as Parameters<Modem["dial"]>[0],
      (err, res) => {
        if (err || !res) return reject(err ?? new Error("no answer"));
        (res as IncomingMessage).resume(); // the body is "OK"
        resolve((res as IncomingMessage).headers);
      },
    ),
  );
}

/**
 * A ping sent before the engine's code was loaded: the engine's own first ping adopts it, as the
 * call it would have sent (its deadline and the engine's measured pace count from `sentAt`).
 */
export interface SentPing {
  sentAt: number;
  /** When the engine answered (or the call failed): set before `headers` settles for anyone else. */
  answeredAt?: number;
  headers: Promise<IncomingHttpHeaders>;
  abort(reason?: unknown): void;
}

export function sendPing(modem: Modem): SentPing {
  const controller = new AbortController();
  const ping: SentPing = {
    sentAt: Date.now(),
    headers: dialPing(modem, controller.signal),
    abort: (reason) => controller.abort(reason),
  };
  // Registered first, so the time is the answer's, not that of whoever reads it later; a failure
  // is the adopting ping's to report.
  const settled = () => {
    ping.answeredAt = Date.now();
  };
  ping.headers.then(settled, settled);
  return ping;
}

/**
 * Where this tool reaches the engine's API over TCP (DOCKER_HOST=tcp://...), or undefined over a
 * unix socket (Engine.networkApi).
 */
export function networkApiOf(modem: Modem): { host: string; port: number } | undefined {
  const m = modem as unknown as { socketPath?: unknown; host?: unknown; port?: unknown };
  if (m.socketPath || typeof m.host !== "string" || !m.host) return undefined;
  return { host: m.host, port: Number(m.port) || 2375 };
}
