import type { CaseDef } from "../types.js";

export const READY = {
  id: "lifecycle.ready",
  rank: 30,
  title: "Becomes ready",
  measures:
    "the subject becomes ready by its declared strategy (HTTP, TCP, HEALTHCHECK, log line, delay) within its time-out, without exiting or restarting first",
} as const satisfies CaseDef<`lifecycle.${string}`>;
