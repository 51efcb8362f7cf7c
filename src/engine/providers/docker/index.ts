// Docker: the Docker Engine API transport over an endpoint (unix socket or tcp). The engine is
// loaded while it answers a run's first call (./deferred.ts): only the transport is made here.
import Modem from "docker-modem";
import type { Endpoint, EndpointSearch, Engine } from "../../provider.js";
import type { ProviderImplementation } from "../types.js";
import { DeferredEngine } from "./deferred.js";
import { type DockerDialect, dockerDialect } from "./dialect.js";

const DOCKER_SOCKET = "/var/run/docker.sock";

/** DOCKER_HOST, else dockerd's default socket (where it exists, or when Docker was asked for). */
function dockerEndpoint(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
  search: EndpointSearch,
): Endpoint | undefined {
  const host = env.DOCKER_HOST?.trim();
  if (host) return { provider: "docker", host, from: "DOCKER_HOST" };
  if (search === "env" || (search === "socket" && !exists(DOCKER_SOCKET))) return undefined;
  return { provider: "docker", host: `unix://${DOCKER_SOCKET}`, from: "default socket" };
}

/** Docker's implementation (../index.ts lists it under its catalogue entry, ./catalogue.ts). */
export const dockerProvider: ProviderImplementation = { endpoint: dockerEndpoint, dialect: dockerDialect };

export function dockerApiEngine(
  endpoint: Endpoint,
  expect: string | undefined,
  dialects: readonly DockerDialect[],
): Engine {
  const modem = transport(endpoint);
  return new DeferredEngine(modem, async (firstPing) =>
    (await import("./engine.js")).dockerEngineOver(modem, expect, dialects, firstPing),
  );
}

/**
 * DOCKER_HOST (with its TLS settings) is docker-modem's own business, as dockerode leaves it;
 * other endpoints are explicit.
 */
function transport(e: Endpoint): Modem {
  return e.from === "DOCKER_HOST" && e.host === process.env.DOCKER_HOST?.trim()
    ? new Modem()
    : new Modem(modemOptions(e.host));
}

function modemOptions(host: string): Modem.ConstructorOptions {
  if (host.startsWith("unix://")) return { socketPath: host.slice("unix://".length) };
  if (host.startsWith("/")) return { socketPath: host };
  const url = new URL(host.replace(/^tcp:/, "http:"));
  return { host: url.hostname, port: Number(url.port) || 2375, protocol: "http" };
}
