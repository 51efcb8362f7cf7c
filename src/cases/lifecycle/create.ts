import type { CaseDef } from "../types.js";

export const CREATE = {
  id: "lifecycle.create",
  rank: 20,
  title: "Starts hardened",
  measures:
    "the container is created with the hardened launch (capabilities dropped, no-new-privileges, read-only root, limits, loopback ports, the allotted writable roots) and every hardened setting reads back as applied; the evidence says where each runtime field of the image's configuration came from (USER, ENTRYPOINT, CMD, WORKDIR, ENV names, STOPSIGNAL, HEALTHCHECK, EXPOSE, VOLUME: image, inventory or engine default)",
} as const satisfies CaseDef<`lifecycle.${string}`>;
