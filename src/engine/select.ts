// Which engine a run talks to: `engine: auto|docker|podman` (input/flag) and the usual environment
// (DOCKER_HOST, CONTAINER_HOST). Providers register here by name; each is a factory over an
// endpoint. Adding a provider is its folder plus one entry in PROVIDERS (providers/index.ts).
import { existsSync } from "node:fs";
import { UsageError } from "../errors.js";
import type { Endpoint, Engine } from "./provider.js";
import { engineFor } from "./providers/index.js";

export const ENGINE_CHOICES = ["auto", "docker", "podman"] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];
export type ProviderName = Exclude<EngineChoice, "auto">;

export type { Engine } from "./provider.js";

export type { Endpoint };

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
  return engineFor(endpoint, choice === "auto" ? undefined : endpoint.provider);
}
