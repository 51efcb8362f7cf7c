import type { CaseDef } from "../types.js";

export const BUILD = {
  id: "lifecycle.build",
  rank: 10,
  title: "Builds",
  measures:
    "the image builds from its Dockerfile (BuildKit, or the legacy builder where chosen), or the prebuilt image matches its pinned `imageId`; a failing step is named by its Dockerfile line",
} as const satisfies CaseDef<`lifecycle.${string}`>;
