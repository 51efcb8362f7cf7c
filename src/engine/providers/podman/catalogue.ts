// Podman's entry in the provider catalogue (../../provider-names.ts, which `npm run docs` writes from
// these files): plain data the option table reads at start-up, so it imports nothing but types.
import type { CatalogueEntry } from "../types.js";

export const podmanCatalogue = {
  name: "podman",
  env: "CONTAINER_HOST",
  about: "its service's socket, rootful or rootless: `podman system service`",
  rank: 20,
} as const satisfies CatalogueEntry;
