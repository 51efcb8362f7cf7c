// GitHub requests through the runner's proxy, by the rules of @actions/http-client, so this
// action goes where every toolkit action of the same job goes: https_proxy/HTTPS_PROXY for https
// URLs and http_proxy/HTTP_PROXY for http ones (lower case first), no_proxy/NO_PROXY hosts and
// loopback addresses direct. Loaded by src/github/client.ts on the first request when a proxy
// variable is set. undici is imported statically on purpose: it is CommonJS, and a dynamic
// import() of a CommonJS package gives, in the bundle's split chunks, a namespace holding only
// `default`, so a named binding is undefined in dist/ though right in the source (every proxied
// run died with "c is not a constructor"). scripts/bundle.mjs refuses that kind of lazy import.
import { ProxyAgent, fetch as undiciFetch } from "undici";
import { registerSecret } from "../errors.js";

type Env = Record<string, string | undefined>;

/** The proxy a request to `url` goes through, or undefined for a direct connection. */
export function proxyFor(url: URL, env: Env): URL | undefined {
  if (bypassesProxy(url, env)) return undefined;
  const name = url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY";
  const value = env[name.toLowerCase()] || env[name];
  if (!value) return undefined;
  // Never echo the value: a proxy URL often carries a password.
  const fix = `(fix: set ${name} to http://HOST:PORT, with user:password@ if the proxy asks)`;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new Error(`${name} is not a URL ${fix}`);
  }
  if (proxy.protocol !== "http:" && proxy.protocol !== "https:")
    throw new Error(`${name}: a ${proxy.protocol.slice(0, -1)} proxy is not supported ${fix}`);
  registerSecret(decodeURIComponent(proxy.password));
  return proxy;
}

/** NO_PROXY as @actions/http-client reads it: `*`, HOST, HOST:PORT, .DOMAIN (and its subdomains). */
export function bypassesProxy(url: URL, env: Env): boolean {
  const host = url.hostname.toUpperCase();
  if (host === "LOCALHOST" || host.startsWith("127.") || host === "[::1]") return true;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const names = [host, `${host}:${port}`];
  return (env.no_proxy || env.NO_PROXY || "")
    .split(",")
    .map((item) => item.trim().toUpperCase())
    .filter(Boolean)
    .some(
      (item) =>
        item === "*" ||
        names.some((n) => n === item || n.endsWith(`.${item}`) || (item.startsWith(".") && n.endsWith(item))),
    );
}

/** fetch that tunnels each request through its proxy (one agent per proxy for the run), else direct. */
export function fetchThroughProxy(env: Env): typeof fetch {
  const agents = new Map<string, ProxyAgent>();
  const agentFor = (proxy: URL) => {
    const agent = agents.get(proxy.href) ?? new ProxyAgent({ uri: proxy.href });
    agents.set(proxy.href, agent);
    return agent;
  };
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    // Octokit hands its fetch a URL string and an init, never a Request.
    const url = new URL(String(input));
    const proxy = proxyFor(url, env);
    if (!proxy) return fetch(input, init);
    // undici's fetch with undici's agent: Node's fetch carries its own undici, of another version.
    return undiciFetch(url.href, { ...(init as object), dispatcher: agentFor(proxy) });
  }) as typeof fetch;
}
