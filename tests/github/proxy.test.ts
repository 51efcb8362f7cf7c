// Self-hosted runners behind a proxy set HTTPS_PROXY / HTTP_PROXY and NO_PROXY: the GitHub client
// goes through the proxy (and around it for NO_PROXY hosts and loopback), against the
// OpenAPI-validated double, choosing as @actions/http-client does. The same through dist/ under
// Node 24, over HTTPS to an Enterprise Server: tests/e2e/network.test.ts.
import { checkBypass, getProxyUrl } from "@actions/http-client/lib/proxy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitHubClient, PublishError } from "../../src/github/client.js";
import { bypassesProxy, proxyFor } from "../../src/github/proxy.js";
import { publishReport } from "../../src/github/publish.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { type Front, LAN_ADDRESS, type LoopbackProxy, startFront, startProxy } from "../helpers/network.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { HEAD, prContext } from "./helpers.js";

let double: GitHubDouble;
let proxy: LoopbackProxy;
const fronts: Front[] = [];
/** A host name nobody resolves: only the proxy's route reaches the double. */
const API = "http://api.ghes.test";

beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
  proxy = await startProxy({ "api.ghes.test:80": new URL(double.url).host });
});
afterEach(async () => {
  for (const f of fronts.splice(0)) await f.close();
  await proxy.close();
  await double.stop();
  expect(double.problems).toEqual([]);
});

const publish = (env: Record<string, string>, baseUrl = API) =>
  publishReport(makeReport({ head: { sha: HEAD } }), {
    context: prContext(),
    client: createGitHubClient({ token: FULL_TOKEN, baseUrl, retryAfterBaseMs: 5, spaceWrites: false, env }),
    publishing: publishingOptions(),
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
      await publishReport(failing, { context: ctx, client: client(), publishing: publishingOptions() });
      const r = await publishReport(makeReport({ head: { sha: HEAD } }), {
        context: ctx,
        client: client(),
        publishing: publishingOptions({ commentOnPass: "hide" }),
      });
      expect(r).toMatchObject({ comment: { outcome: "hidden" }, checkRun: { outcome: "completed" } });
      expect(double.comments[0]!.minimized).toBe("OUTDATED");
    } finally {
      if (previous === undefined) delete process.env.GITHUB_API_URL;
      else process.env.GITHUB_API_URL = previous;
    }
  });
});

describe("the runner's proxy settings", () => {
  it("HTTP_PROXY: every GitHub request to an http:// API tunnels through the proxy", async () => {
    const r = await publish({ HTTP_PROXY: proxy.url });
    expect(r).toMatchObject({ comment: { outcome: "created" }, checkRun: { outcome: "completed" } });
    // Tunnelled to the API's host (connections are reused, so fewer tunnels than requests).
    expect(double.requests.length).toBeGreaterThan(0);
    expect(proxy.relayed.length).toBeGreaterThan(0);
    expect(new Set(proxy.relayed)).toEqual(new Set(["CONNECT api.ghes.test:80"]));
  });

  // A non-loopback address of this machine: reachable direct, yet not exempt from the proxy.
  const lan = async () => {
    expect(LAN_ADDRESS, "this machine has no non-loopback IPv4 address").toBeDefined();
    const front = await startFront(Number(new URL(double.url).port), { host: LAN_ADDRESS! });
    fronts.push(front);
    return `http://${LAN_ADDRESS}:${front.port}`;
  };

  it("lower-case names work too; NO_PROXY hosts go direct, the same host without it through the proxy", async () => {
    const api = await lan();
    const host = new URL(api).host;
    const direct = await publish(
      { http_proxy: proxy.url, no_proxy: `ghes.internal, .example.com,${LAN_ADDRESS}` },
      api,
    );
    expect(direct.comment.outcome).toBe("created");
    expect(proxy.relayed).toEqual([]);
    expect(double.requests.length).toBeGreaterThan(0);
    const proxied = await publish({ http_proxy: proxy.url, no_proxy: "ghes.internal" }, api);
    expect(proxied.comment.outcome).toBe("updated");
    expect(new Set(proxy.relayed)).toEqual(new Set([`CONNECT ${host}`]));
  });

  it("HTTPS_PROXY alone leaves an http:// API direct, and loopback is always direct, as the toolkit does", async () => {
    expect((await publish({ HTTPS_PROXY: proxy.url }, await lan())).comment.outcome).toBe("created");
    expect(
      (await publish({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, double.url)).comment.outcome,
    ).toBe("updated");
    expect(proxy.relayed).toEqual([]);
  });

  it("a proxy variable that is not an http(s) URL: each request fails naming the variable and the fix, never its value", async () => {
    const client = createGitHubClient({
      token: FULL_TOKEN,
      baseUrl: API,
      retries: 0,
      env: { HTTP_PROXY: "socks5://user:s3cret-pw@proxy.corp:1080" },
    });
    const err = await client.octokit.rest.issues
      .get({ owner: "octo-org", repo: "app", issue_number: 7 })
      .catch((e) => e);
    expect(String(err.message)).toMatch(
      /HTTP_PROXY: a socks5 proxy is not supported \(fix: set HTTP_PROXY to http:\/\/HOST:PORT/,
    );
    expect(String(err.message)).not.toContain("s3cret-pw");
    expect(err).not.toBeInstanceOf(PublishError);
    expect(double.requests).toEqual([]);
  });
});

describe("which requests take the proxy: the same answer as @actions/http-client", () => {
  const urls = [
    "https://api.github.com/repos/o/r",
    "https://ghes.corp.example.com/api/v3/repos/o/r",
    "http://ghes.corp.example.com:8080/api/v3",
    "https://GHES.Corp.Example.com:8443/api/graphql",
    "http://127.0.0.1:3000/",
    "https://localhost/api/v3",
    "http://[::1]:8080/",
    "https://example.com/",
    "https://notexample.com/",
  ];
  const settings: Array<Record<string, string>> = [
    {},
    { HTTPS_PROXY: "http://proxy.corp:3128" },
    { https_proxy: "http://lower:3128", HTTPS_PROXY: "http://upper:3128" },
    { HTTP_PROXY: "http://proxy.corp:3128" },
    { HTTP_PROXY: "http://h:1", HTTPS_PROXY: "https://s:2", NO_PROXY: "example.com" },
    { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://p:1", no_proxy: ".example.com" },
    { HTTPS_PROXY: "http://p:1", NO_PROXY: "ghes.corp.example.com:8443, api.github.com" },
    { HTTPS_PROXY: "http://p:1", HTTP_PROXY: "http://p:1", NO_PROXY: "*" },
    { HTTPS_PROXY: "http://p:1", NO_PROXY: " , CORP.EXAMPLE.COM ,," },
    { HTTPS_PROXY: "http://user:p%40ss@p:1" },
  ];
  it.each(settings.map((env) => [JSON.stringify(env), env] as const))("%s", (_, env) => {
    const saved = { ...process.env };
    for (const k of ["http_proxy", "https_proxy", "no_proxy"]) {
      delete process.env[k];
      delete process.env[k.toUpperCase()];
    }
    Object.assign(process.env, env);
    try {
      for (const u of urls) {
        const url = new URL(u);
        // The toolkit reads process.env; ours reads the env it is given.
        expect(proxyFor(url, env)?.href, u).toBe(getProxyUrl(url)?.href);
        expect(bypassesProxy(url, env), u).toBe(checkBypass(url));
      }
    } finally {
      process.env = saved;
    }
  });

  it("a proxy without a scheme is http:// (where the toolkit would read `proxy.corp:` as the scheme)", () => {
    expect(proxyFor(new URL("https://api.github.com"), { HTTPS_PROXY: "proxy.corp:3128" })?.href).toBe(
      "http://proxy.corp:3128/",
    );
  });
});
