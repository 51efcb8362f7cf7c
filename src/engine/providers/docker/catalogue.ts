// Docker's entry in the provider catalogue (../../provider-names.ts, which `npm run docs` writes from
// these files): plain data the option table reads at start-up, so it imports nothing but types.
import type { CatalogueEntry } from "../types.js";

export const dockerCatalogue = {
  name: "docker",
  env: "DOCKER_HOST",
  about: "",
  rank: 10,
} as const satisfies CatalogueEntry;
