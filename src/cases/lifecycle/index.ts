// The lifecycle suite: its cases in run order, one file each in this folder (plain data; a test
// holds this list equal to the folder). Their code is in src/suites/lifecycle/ (run.ts drives them)
// and each says its own fix there, since it depends on what happened.
import type { Suite } from "../types.js";
import { BUILD } from "./build.js";
import { CLEANUP } from "./cleanup.js";
import { CREATE } from "./create.js";
import { LIMITS } from "./limits.js";
import { PROBES } from "./probes.js";
import { READY } from "./ready.js";
import { STOP } from "./stop.js";

export const LIFECYCLE_SUITE = {
  name: "lifecycle",
  title: "Lifecycle",
  purpose:
    "the subject builds, starts hardened, becomes ready, answers its probes, lives within its limits, stops on its stop signal and leaves nothing behind",
  cases: [BUILD, CREATE, READY, PROBES, LIMITS, STOP, CLEANUP],
} as const satisfies Suite;
