// The providers by name, in the order `engine: auto` looks for them, each with what the docs say
// of it: the `engine` input's values, its action.yml description (src/request/options.ts) and
// PROVIDERS (./index.ts, which must implement exactly these: a type error otherwise) all come from
// this list. Plain data, so the option table (every door, `--help` included) loads no engine client.

export const PROVIDER_CATALOGUE = [
  {
    name: "docker",
    /** The variable that names its endpoint, looked at by `engine: auto` before any socket. */
    env: "DOCKER_HOST",
    /** What the `engine` input's description says of it after its name; "": nothing. */
    about: "",
  },
  {
    name: "podman",
    env: "CONTAINER_HOST",
    about: "its service's socket, rootful or rootless: `podman system service`",
  },
] as const;

export type ProviderName = (typeof PROVIDER_CATALOGUE)[number]["name"];

export const PROVIDER_NAMES = PROVIDER_CATALOGUE.map((p) => p.name) as ProviderName[];

/** The `engine` input's values: `auto`, then each provider's name. */
export const ENGINE_CHOICES = ["auto", ...PROVIDER_NAMES] as readonly ["auto", ...ProviderName[]];
export type EngineChoice = "auto" | ProviderName;
