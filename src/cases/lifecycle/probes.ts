import type { CaseDef } from "../types.js";

export const PROBES = {
  id: "lifecycle.probes",
  rank: 40,
  title: "Answers its probes",
  measures:
    "the declared probes (HTTP status and body, TCP, log line, HEALTHCHECK) hold once it is ready, and so does the image's own HEALTHCHECK",
} as const satisfies CaseDef<`lifecycle.${string}`>;
