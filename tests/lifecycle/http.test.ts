import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpRequest } from "../../src/checks/http.js";

let server: Server | undefined;
afterEach(() => server?.close());

function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler);
  return new Promise((resolve) =>
    server!.listen(0, "127.0.0.1", () => resolve((server!.address() as AddressInfo).port)),
  );
}

describe("httpRequest", () => {
  it("gives up on a subject that trickles bytes, at its own deadline", async () => {
    const port = await serve((_req, res) => {
      res.writeHead(200);
      const t = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(t));
    });
    // Without the hard timeout this never resolves (the socket is never idle): the test times out.
    expect(await httpRequest(port, "GET", "/health", 300)).toBeUndefined();
  }, 10_000);

  it("stops reading an endless body at its bound and still answers", async () => {
    const port = await serve((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, "a");
      const t = setInterval(() => res.write(chunk), 1);
      res.on("close", () => clearInterval(t));
    });
    const answer = await httpRequest(port, "GET", "/", 10_000);
    expect(answer?.status).toBe(200);
    expect(answer?.body.length).toBe(64 * 1024);
  });

  it("resolves undefined when nothing listens", async () => {
    const port = await serve(() => {});
    server!.close();
    expect(await httpRequest(port, "GET", "/", 1000)).toBeUndefined();
  });
});
