// The action's modes, one module each, loaded only when chosen: a mode's code (and the
// dependencies only it needs) costs the other modes nothing at start-up.
import type { Mode } from "../inputs.js";
import type { Step } from "../step.js";

type Execute = (step: Step) => Promise<void>;

export const MODES: Record<Mode, () => Promise<{ execute: Execute }>> = {
  run: () => import("./run.js"),
  check: () => import("./check.js"),
  merge: () => import("./merge.js"),
  publish: () => import("./publish.js"),
  command: () => import("./command.js"),
};
