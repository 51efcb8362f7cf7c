// The providers createEngine() chooses from (src/engine/select.ts), in the catalogue's order. A
// provider is its folder under src/engine/providers/ and nothing else: its catalogue.ts (listed in
// ../provider-names.ts, which the docs and the `engine` input read) and its index.ts exporting its
// `ProviderImplementation` (listed in ./implementations.ts); `npm run docs` writes both lists, and
// the type checker holds the second to the first's names (docs/providers.md).
import type { Endpoint, Engine } from "../provider.js";
import { PROVIDER_NAMES, type ProviderName } from "../provider-names.js";
import { dockerApiEngine } from "./docker/index.js";
import { IMPLEMENTATIONS } from "./implementations.js";
import type { ProviderImplementation } from "./types.js";

interface Provider extends ProviderImplementation {
  /** The `engine:` input's value that asks for it (../provider-names.ts). */
  name: ProviderName;
}

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
