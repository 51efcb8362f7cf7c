// HTTP checks against the subject's published port: direct, no proxy, no redirects followed.
import http from "node:http";

export interface HttpAnswer {
  status: number;
  body: string;
}

const BODY_LIMIT = 64 * 1024;

/**
 * One request with a hard overall timeout (a subject that trickles bytes cannot hold it open) and
 * a bounded body. Connection errors and time-outs resolve to undefined: not ready yet.
 */
export function httpRequest(
  port: number,
  method: string,
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<HttpAnswer | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: HttpAnswer | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(answer);
    };
    const req = http.request(
      { host: "127.0.0.1", port, method, path, agent: false, signal, headers: { connection: "close" } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () => ({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        res.on("data", (c: Buffer) => {
          chunks.push(c.subarray(0, BODY_LIMIT - size));
          size += c.length;
          // Enough to judge `bodyContains`: stop reading rather than buffer an endless body.
          if (size >= BODY_LIMIT) finish(answer());
        });
        res.on("end", () => finish(answer()));
        res.on("error", () => finish(undefined));
      },
    );
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    req.on("error", () => finish(undefined));
    req.end();
  });
}
