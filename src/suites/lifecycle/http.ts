// HTTP checks against the subject's published port: direct, no proxy, no redirects followed.
import http from "node:http";

export interface HttpAnswer {
  status: number;
  body: string;
}

const BODY_LIMIT = 64 * 1024;

/** One request with its own timeout. Connection errors resolve to undefined (not ready yet). */
export function httpRequest(
  port: number,
  method: string,
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpAnswer | undefined> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        timeout: timeoutMs,
        signal,
        headers: { connection: "close" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < BODY_LIMIT) chunks.push(c);
          size += c.length;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", () => resolve(undefined));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}
