import type { CaseDef } from "../types.js";

export const CLEANUP = {
  id: "lifecycle.cleanup",
  rank: 70,
  title: "Leaves nothing behind",
  measures: "every container and image the run owns is removed, proved by listing the owned objects again",
} as const satisfies CaseDef<`lifecycle.${string}`>;
