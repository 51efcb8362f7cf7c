import type { CaseDef } from "../types.js";

export const LIMITS = {
  id: "lifecycle.limits",
  rank: 50,
  title: "Runs within its limits",
  measures: "the memory, pids and CPU limits read back after start equal the requested ones",
} as const satisfies CaseDef<`lifecycle.${string}`>;
