// The providers createEngine() chooses from (src/engine/select.ts). Adding a provider is its folder
// under src/engine/providers/ and one entry here (docs/providers.md).
import type { Endpoint, Engine } from "../provider.js";
import { type DockerDialect, dockerDialect } from "./docker/dialect.js";
import { dockerApiEngine } from "./docker/index.js";
import { podmanDialect } from "./podman/index.js";

export interface Provider {
  /** The `engine:` input's value that asks for it. */
  name: string;
  /**
   * An engine answering the Docker Engine API: the Docker transport serves it in this dialect,
   * recognised from /version (so `engine: auto` at DOCKER_HOST finds whichever answers).
   */
  dialect?: DockerDialect;
  /** Any other engine: its own factory; `expect` (the user named it) refuses another one there. */
  create?: (endpoint: Endpoint, expect: string | undefined) => Engine;
}

export const PROVIDERS: readonly Provider[] = [
  { name: "docker", dialect: dockerDialect },
  { name: "podman", dialect: podmanDialect },
];

/** The engine at `endpoint`, from the provider it resolved to. */
export function engineFor(endpoint: Endpoint, expect: string | undefined): Engine {
  const provider = PROVIDERS.find((p) => p.name === endpoint.provider);
  if (!provider) throw new Error(`no provider registered as ${endpoint.provider}`);
  if (provider.create) return provider.create(endpoint, expect);
  return dockerApiEngine(
    endpoint,
    expect,
    PROVIDERS.flatMap((p) => (p.dialect ? [p.dialect] : [])),
  );
}
