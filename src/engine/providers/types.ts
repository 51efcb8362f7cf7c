// What a provider folder declares, in two modules so that start-up stays light: its catalogue
// entry in its catalogue.ts (plain data the option table reads before any engine is needed: it
// imports nothing but types) and its implementation in its index.ts. `npm run docs` lists the
// entries in PROVIDER_CATALOGUE (../provider-names.ts) and the implementations in IMPLEMENTATIONS
// (./implementations.ts), a Record over the catalogue's names (docs/providers.md).
import type { Endpoint, EndpointSearch, Engine } from "../provider.js";
import type { DockerDialect } from "./docker/dialect.js";

/** A provider's entry in PROVIDER_CATALOGUE: what the docs and the `engine` input say of it. */
export interface CatalogueEntry {
  /** The `engine:` input's value that asks for it: its folder's name. */
  readonly name: string;
  /** The variable that names its endpoint, looked at by `engine: auto` before any socket. */
  readonly env: string;
  /** What the `engine` input's description says of it after its name; "": nothing. */
  readonly about: string;
  /** Its place in the catalogue, the order `engine: auto` looks for them: 10 apart. */
  readonly rank: number;
}

/** A provider's implementation: exported from its folder's index.ts as `<x>Provider`. */
export interface ProviderImplementation {
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
