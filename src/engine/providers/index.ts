// The providers createEngine() chooses from (src/engine/select.ts). Adding a provider is its folder
// under src/engine/providers/, its name in ../provider-names.ts (the docs and the `engine` input read it) and
// its implementation here, which the type checker holds to that list (docs/providers.md).
import type { Endpoint, EndpointSearch, Engine } from "../provider.js";
import { PROVIDER_NAMES, type ProviderName } from "../provider-names.js";
import { type DockerDialect, dockerDialect } from "./docker/dialect.js";
import { dockerApiEngine, dockerEndpoint } from "./docker/index.js";
import { podmanDialect, podmanEndpoint } from "./podman/index.js";

interface Provider {
  /** The `engine:` input's value that asks for it (../provider-names.ts). */
  name: ProviderName;
  /** Where its engine answers, from the environment and the sockets that exist (see EndpointSearch). */
  endpoint(
    env: NodeJS.ProcessEnv,
    exists: (path: string) => boolean,
    search: EndpointSearch,
  ): Endpoint | undefined;
  /**
   * An engine answering the Docker Engine API: the Docker transport serves it in this dialect,
   * recognised by its kind (so `engine: auto` at DOCKER_HOST finds whichever answers).
   */
  dialect?: DockerDialect;
  /** Any other engine: its own factory; `expect` (the user named it) refuses another one there. */
  create?: (endpoint: Endpoint, expect: string | undefined) => Engine;
}

/** Each named provider's implementation: one for every name in ../provider-names.ts, none besides. */
const IMPLEMENTATIONS: { [N in ProviderName]: Omit<Provider, "name"> } = {
  docker: { endpoint: dockerEndpoint, dialect: dockerDialect },
  podman: { endpoint: podmanEndpoint, dialect: podmanDialect },
};

/** In the order `engine: auto` looks for them (../provider-names.ts). */
export const PROVIDERS: readonly Provider[] = PROVIDER_NAMES.map((name) => ({
  name,
  ...IMPLEMENTATIONS[name],
}));

/**
 * The endpoint for `choice`: the named provider's, or under auto the first the environment names
 * (DOCKER_HOST before CONTAINER_HOST), then the first whose default socket exists, then the first's.
 */
export function findEndpoint(
  choice: string,
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
): Endpoint {
  const named = PROVIDERS.find((p) => p.name === choice);
  if (named) return named.endpoint(env, exists, "named")!;
  for (const search of ["env", "socket"] as const)
    for (const p of PROVIDERS) {
      const found = p.endpoint(env, exists, search);
      if (found) return found;
    }
  return PROVIDERS[0]!.endpoint(env, exists, "named")!;
}

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
