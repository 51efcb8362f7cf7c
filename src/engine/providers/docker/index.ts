// Docker: the Docker Engine API transport over an endpoint (unix socket or tcp).
import Docker from "dockerode";
import type { Endpoint, EndpointSearch, Engine } from "../../provider.js";
import type { DockerDialect } from "./dialect.js";
import { DockerEngine } from "./engine.js";

const DOCKER_SOCKET = "/var/run/docker.sock";

/** DOCKER_HOST, else dockerd's default socket (where it exists, or when Docker was asked for). */
export function dockerEndpoint(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
  search: EndpointSearch,
): Endpoint | undefined {
  const host = env.DOCKER_HOST?.trim();
  if (host) return { provider: "docker", host, from: "DOCKER_HOST" };
  if (search === "env" || (search === "socket" && !exists(DOCKER_SOCKET))) return undefined;
  return { provider: "docker", host: `unix://${DOCKER_SOCKET}`, from: "default socket" };
}

export function dockerApiEngine(
  endpoint: Endpoint,
  expect: string | undefined,
  dialects: readonly DockerDialect[],
): Engine {
  return new DockerEngine(client(endpoint), undefined, expect, dialects);
}

/** DOCKER_HOST (with its TLS settings) is dockerode's own business; other endpoints are explicit. */
function client(e: Endpoint): Docker {
  return e.from === "DOCKER_HOST" && e.host === process.env.DOCKER_HOST?.trim()
    ? new Docker()
    : new Docker(dockerodeOptions(e.host));
}

function dockerodeOptions(host: string): Docker.DockerOptions {
  if (host.startsWith("unix://")) return { socketPath: host.slice("unix://".length) };
  if (host.startsWith("/")) return { socketPath: host };
  const url = new URL(host.replace(/^tcp:/, "http:"));
  return { host: url.hostname, port: Number(url.port) || 2375, protocol: "http" };
}
