// Which engine a run talks to: `engine: auto|docker|podman` (input/flag) and the usual environment
// (DOCKER_HOST, CONTAINER_HOST). Providers register here by name; each is a factory over an
// endpoint. Adding a provider is its module plus one entry in PROVIDERS.
import { existsSync } from "node:fs";
import Docker from "dockerode";
import { UsageError } from "../errors.js";
import type { Engine } from "./provider.js";
import { DockerEngine } from "./providers/docker/engine.js";

export const ENGINE_CHOICES = ["auto", "docker", "podman"] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];
export type ProviderName = Exclude<EngineChoice, "auto">;

export type { Engine } from "./provider.js";

export interface Endpoint {
  provider: ProviderName;
  /** unix:///path or tcp://host:port */
  host: string;
  /** Where the choice came from, for messages: "DOCKER_HOST", "default socket", ... */
  from: string;
}

/**
 * Docker and Podman both speak the Docker Engine API through one adapter; what Podman needs said
 * differently, and how to fix what it ignores, is chosen from the engine's own /version (facts).
 * `expect` makes ping refuse an endpoint that answers as the other engine.
 */
const PROVIDERS: Record<ProviderName, (endpoint: Endpoint, expect?: ProviderName) => Engine> = {
  docker: (e, expect) => new DockerEngine(client(e), undefined, expect),
  podman: (e, expect) => new DockerEngine(client(e), undefined, expect),
};

const DOCKER_SOCKET = "/var/run/docker.sock";
function podmanSockets(env: NodeJS.ProcessEnv): string[] {
  const rootless = env.XDG_RUNTIME_DIR ? [`${env.XDG_RUNTIME_DIR}/podman/podman.sock`] : [];
  return ["/run/podman/podman.sock", ...rootless];
}

export function parseEngineChoice(value: string | undefined, field: string): EngineChoice {
  const v = (value ?? "").trim() || "auto";
  if (!(ENGINE_CHOICES as readonly string[]).includes(v))
    throw new UsageError(`${field} ${JSON.stringify(v)}: expected one of ${ENGINE_CHOICES.join(", ")}`);
  return v as EngineChoice;
}

/** The endpoint for `choice` (pure over the environment and which sockets exist). */
export function resolveEndpoint(
  choice: EngineChoice,
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): Endpoint {
  const docker = env.DOCKER_HOST?.trim();
  const container = env.CONTAINER_HOST?.trim();
  const podmanSocket = podmanSockets(env).find(exists);
  if (choice === "docker")
    return docker
      ? { provider: "docker", host: docker, from: "DOCKER_HOST" }
      : { provider: "docker", host: `unix://${DOCKER_SOCKET}`, from: "default socket" };
  if (choice === "podman") {
    if (container) return { provider: "podman", host: container, from: "CONTAINER_HOST" };
    if (docker) return { provider: "podman", host: docker, from: "DOCKER_HOST" };
    const socket = podmanSocket ?? podmanSockets(env)[0]!;
    return { provider: "podman", host: `unix://${socket}`, from: "default socket" };
  }
  // auto: what the environment names first, then whichever default socket exists, Docker's first.
  if (docker) return { provider: "docker", host: docker, from: "DOCKER_HOST" };
  if (container) return { provider: "podman", host: container, from: "CONTAINER_HOST" };
  if (!exists(DOCKER_SOCKET) && podmanSocket)
    return { provider: "podman", host: `unix://${podmanSocket}`, from: "default socket" };
  return { provider: "docker", host: `unix://${DOCKER_SOCKET}`, from: "default socket" };
}

/** The engine for `choice` (default: DA_ENGINE, else auto). */
export function createEngine(
  choice: EngineChoice = parseEngineChoice(process.env.DA_ENGINE, "DA_ENGINE"),
  env: NodeJS.ProcessEnv = process.env,
): Engine {
  const endpoint = resolveEndpoint(choice, env);
  return PROVIDERS[endpoint.provider](endpoint, choice === "auto" ? undefined : endpoint.provider);
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
