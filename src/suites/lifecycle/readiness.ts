// lifecycle.ready's wait: the subject's declared `readiness` is a value (a check kind,
// ../../checks/kinds/), whose strategy waits until the subject is ready or the deadline passes
// and says what it last saw. Exits are not this module's business: ready.ts races them.
import type { WaitOutcome } from "../../checks/kind.js";
import { type Readiness, readinessKind } from "../../checks/registry.js";
import { type CaseContext, checkTarget } from "./case.js";

export type { WaitOutcome };

export interface WaitTarget {
  containerId: string;
  /** The published port on 127.0.0.1 (network bridge, HTTP and TCP strategies). */
  hostPort?: number;
  deadlineMs: number;
}

/** One line naming the strategy, for messages: "GET /health answers 200", "tcp 6379 answers +PONG". */
export function describeReadiness(readiness: Readiness, port: number): string {
  return readinessKind(readiness).describe(readiness, port);
}

export function waitUntilReady(
  context: CaseContext,
  readiness: Readiness,
  target: WaitTarget,
): Promise<WaitOutcome> {
  return readinessKind(readiness).wait(
    readiness,
    checkTarget(context, target.containerId, target.hostPort, target.deadlineMs),
  );
}
