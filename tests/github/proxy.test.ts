// Self-hosted runners behind a proxy set HTTPS_PROXY / HTTP_PROXY and NO_PROXY: the GitHub client
// goes through the proxy (and around it for NO_PROXY hosts), against the OpenAPI-validated double.
import { createServer, request, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitHubClient } from "../../src/github/client.js";
import { publishReport } from "../../src/github/publish.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { HEAD, prContext } from "./helpers.js";

let double: GitHubDouble;
let proxy: Server;
let proxyUrl: string;
const proxied: string[] = [];

beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
  proxied.length = 0;
  // A forwarding HTTP proxy: absolute-form request lines, passed on to the origin.
  proxy = createServer((req, res) => {
    proxied.push(`${req.method} ${req.url}`);
    const target = new URL(req.url!);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  // undici tunnels through CONNECT, for http:// origins too.
  proxy.on("connect", (req, socket, head) => {
    proxied.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(":");
    const upstream = connect(Number(port), host!, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterEach(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await double.stop();
  expect(double.problems).toEqual([]);
});

const publish = (env: Record<string, string>) =>
  publishReport(makeReport({ head: { sha: HEAD } }), {
    context: prContext(),
    client: createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: double.url,
      retryAfterBaseMs: 5,
      spaceWrites: false,
      env,
    }),
  });

describe("GitHub Enterprise Server (GITHUB_API_URL=https://HOST/api/v3)", () => {
  it("REST under /api/v3 and GraphQL (hiding a comment) at /api/graphql", async () => {
    double.enterprise = true;
    const previous = process.env.GITHUB_API_URL;
    process.env.GITHUB_API_URL = `${double.url}/api/v3`;
    try {
      const client = () =>
        createGitHubClient({ token: FULL_TOKEN, retryAfterBaseMs: 5, spaceWrites: false, env: {} });
      const ctx = prContext({ action: "synchronize" });
      const failing = makeReport({
        head: { sha: HEAD },
        cases: [makeCase({ id: "containment.user", status: "fail", message: "uid 0" })],
      });
      await publishReport(failing, { context: ctx, client: client() });
      const r = await publishReport(makeReport({ head: { sha: HEAD } }), {
        context: ctx,
        client: client(),
        commentOnPass: "hide",
      });
      expect(r).toMatchObject({ comment: "hidden", checkRun: "completed" });
      expect(double.comments[0]!.minimized).toBe("OUTDATED");
    } finally {
      if (previous === undefined) delete process.env.GITHUB_API_URL;
      else process.env.GITHUB_API_URL = previous;
    }
  });
});

describe("the runner's proxy settings", () => {
  it("HTTP(S)_PROXY: every GitHub request goes through the proxy", async () => {
    const r = await publish({ HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl });
    expect(r).toMatchObject({ comment: "created", checkRun: "completed" });
    // Tunnelled to the API's host (connections are reused, so fewer tunnels than requests).
    const host = new URL(double.url).host;
    expect(proxied.length).toBeGreaterThan(0);
    expect(new Set(proxied)).toEqual(new Set([`CONNECT ${host}`]));
  });

  it("lower-case names work too, and NO_PROXY hosts bypass it", async () => {
    const r = await publish({ http_proxy: proxyUrl, no_proxy: "127.0.0.1" });
    expect(r.comment).toBe("created");
    expect(proxied).toEqual([]);
    expect(double.requests.length).toBeGreaterThan(0);
  });

  it("without proxy settings nothing is proxied", async () => {
    await publish({});
    expect(proxied).toEqual([]);
  });
});
