// What every lifecycle case gets and gives: the subject's context in, a draft result out
// (run.ts adds the ID, suite, subject, severity and duration).
import type { CheckTarget } from "../../checks/kind.js";
import type { NetnsTarget } from "../../checks/netns.js";
import type { Engine } from "../../engine/provider.js";
import type { EnvironmentAccess } from "../../inventory/environment.js";
import type { Subject } from "../../inventory/schema.js";
import type { Logger } from "../../log.js";
import type { CaseResult } from "../../report/model.js";

export type Draft = Omit<CaseResult, "id" | "suite" | "subject" | "durationMs" | "severity">;

export interface CaseContext {
  engine: Engine;
  owner: string;
  subject: Subject;
  workspace: string;
  log: Logger;
  signal: AbortSignal;
  /** The trusted probe image: HTTP checks of a network "none" subject run from it. */
  probeImage: string;
  /** Whether the inventory's build secrets and `env:` pin are read (only a maintainer's are). */
  environment: EnvironmentAccess;
  /** The run's build pre-flight (src/preflight/), awaited before any build; absent: none was made. */
  buildPreflight?: Promise<BuildGate>;
  /**
   * Called when this subject's build has its first step under way: the engine has work in hand,
   * so code the run needs only later loads now without delaying a request (issue #29).
   */
  engineBusy?: () => void;
}

/** Whether builds may run on this host: a refusal (every build's ERROR), or what was asked. */
export interface BuildGate {
  /** lifecycle.build's result for every subject to be built: nothing of the PR is built. */
  refused?: Draft;
  /** What was asked and heard, in each build's evidence. */
  evidence: Record<string, unknown>;
  /** Said in each build's message (an engine's API that only this tool reached). */
  note?: string;
}

/** Log excerpts and build-log tails in evidence stay this small. */
export const EXCERPT_BYTES = 4096;

/** Where a network "none" subject's HTTP checks run from: a probe in its network namespace. */
export function netnsTarget(context: CaseContext, containerId: string): NetnsTarget {
  return {
    engine: context.engine,
    owner: context.owner,
    probeImage: context.probeImage,
    containerId,
    port: context.subject.port,
    signal: context.signal,
  };
}

/** What a check kind (readiness or probe) runs against: the subject's container and its port. */
export function checkTarget(
  context: CaseContext,
  containerId: string,
  hostPort: number | undefined,
  deadlineMs: number,
): CheckTarget {
  return {
    engine: context.engine,
    signal: context.signal,
    containerId,
    port: context.subject.port,
    hostPort,
    offline: context.subject.network === "none",
    netns: netnsTarget(context, containerId),
    deadlineMs,
  };
}
