// Which engine a run talks to: `engine: auto|docker|podman` (input/flag) and the usual environment
// (DOCKER_HOST, CONTAINER_HOST). Each provider says where its engine answers and how to talk to it;
// they are named in provider-names.ts and implemented in PROVIDERS (providers/index.ts), both
// listed by `npm run docs` from the provider folders.
import { existsSync } from "node:fs";
import { UsageError } from "../errors.js";
import type { Endpoint, Engine } from "./provider.js";
import { ENGINE_CHOICES, type EngineChoice } from "./provider-names.js";
import { engineFor, findEndpoint } from "./providers/index.js";

export type { Engine } from "./provider.js";
export { ENGINE_CHOICES } from "./provider-names.js";

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
  return findEndpoint(choice, env, exists);
}

/** The engine for `choice` (default: DA_ENGINE, else auto). */
export function createEngine(
  choice: EngineChoice = parseEngineChoice(process.env.DA_ENGINE, "DA_ENGINE"),
  env: NodeJS.ProcessEnv = process.env,
): Engine {
  const endpoint = resolveEndpoint(choice, env);
  return engineFor(endpoint, choice === "auto" ? undefined : endpoint.provider);
}
