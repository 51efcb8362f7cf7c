import type { CaseDef } from "../types.js";

export const STOP = {
  id: "lifecycle.stop",
  rank: 60,
  title: "Stops on its stop signal",
  measures:
    "its PID 1 exits on the stop signal (the image's `STOPSIGNAL`, else SIGTERM, as every engine's stop and compose send it) within `stopTimeoutMs` (not killed after the grace), and it did not die before it was asked to stop",
} as const satisfies CaseDef<`lifecycle.${string}`>;
