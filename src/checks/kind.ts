// What one check kind is (HTTP, TCP, HEALTHCHECK, log line, delay, ...): a value, as
// testcontainers' wait strategies are. A kind may serve as a readiness strategy (lifecycle.ready
// waits until it holds), as a probe (lifecycle.probes checks it once the subject is ready), or
// both; each side brings its inventory schema (with its description), its check from the host,
// its twin from inside the subject's network namespace where it has one, and its messages.
// The kinds are listed once, in ./kinds/index.ts; everything else reads that list.
import type * as z from "zod";
import { pollUntil } from "../engine/deadline.js";
import type { Engine } from "../engine/provider.js";
import type { NetnsTarget } from "./netns.js";

/** Where a check runs against: the subject's container and how to reach its port. */
export interface CheckTarget {
  engine: Engine;
  signal: AbortSignal;
  containerId: string;
  /** The container port the subject serves on (the inventory's `port`). */
  port: number;
  /** The published port on 127.0.0.1 (network bridge); undefined on network "none". */
  hostPort?: number;
  /** Network "none": the port is reachable only from inside the namespace (`netns`). */
  offline: boolean;
  netns: NetnsTarget;
  /** How long a readiness wait may take; for a probe, how long an undecided state may be waited on. */
  deadlineMs: number;
}

export interface WaitOutcome {
  ready: boolean;
  attempts: number;
  /** The last thing observed, for the failure message ("last status: 404"). */
  last?: string;
  /** Where the check ran from. */
  via: string;
}

export interface ProbeResult {
  name: string;
  type: string;
  ok: boolean;
  /** What was expected and what came, as short text. */
  expected: string;
  got: string;
  [more: string]: unknown;
}

/** Where a check that runs inside the subject's network namespace says it ran from. */
export const IN_NETNS = "probe in the subject's network namespace";

/** A kind's schema: a strict object whose `type` names the kind. */
type KindSchema = z.ZodType<{ type?: string }>;

export interface ReadinessSide<S extends KindSchema> {
  /** The inventory's `readiness` value for this kind, described (the JSON Schema shows it). */
  schema: S;
  /** How the kind is named in the list of strategies (`"tcp"`). */
  listed: string;
  /** One line for messages: "GET /health answers 200", "tcp 6379 accepts a connection". */
  describe(readiness: z.output<S>, port: number): string;
  /** Resolves when the subject is ready or the deadline passed; exits are the caller's business. */
  wait(readiness: z.output<S>, target: CheckTarget): Promise<WaitOutcome>;
  /**
   * What the wait says to the subject's port, if it asks it at all: a port that never answered is
   * then explained by what the subject listens on, and for "http" by what the port speaks instead.
   */
  asks?: "http" | "tcp";
  /** Evidence beyond the strategy itself (the HTTP strategy's `healthPath`). */
  evidence?(readiness: z.output<S>): Record<string, unknown>;
  /** The fix for a subject that never became ready, where the kind knows a better one than waiting. */
  notReadyFix?(outcome: WaitOutcome): string | undefined;
}

export interface ProbeSide<S extends KindSchema> {
  /** One entry of the inventory's `probes`, described. */
  schema: S;
  /** How the kind is named in the list of probe types. */
  listed: string;
  /** The kind of a probe that names no `type` (one kind only: HTTP). */
  isDefault?: boolean;
  /** Checks every probe of this kind the subject declares, once each; results in the same order. */
  checkAll(probes: z.output<S>[], target: CheckTarget): Promise<ProbeResult[]>;
}

export interface CheckKind<R extends KindSchema = KindSchema, P extends KindSchema = KindSchema> {
  /** The value of `type` that selects it. */
  type: string;
  /**
   * Its place in the list of kinds (./kinds/index.ts, which `npm run docs` writes by rank), and so
   * in the inventory's schema and the strategy lists: 10 apart, a new kind takes a free number.
   */
  readonly rank: number;
  readiness?: ReadinessSide<R>;
  probe?: ProbeSide<P>;
}

/**
 * Typed at its definition (each side's functions see their schema's output); a side the kind
 * does not have is `never`, so it adds nothing to the Readiness or Probe types.
 */
export function defineKind<R extends KindSchema = never, P extends KindSchema = never>(
  kind: CheckKind<R, P>,
): CheckKind<R, P> {
  return kind;
}

/** Each probe on its own, all at once. */
export function eachProbe<T>(
  check: (probe: T, target: CheckTarget) => Promise<ProbeResult>,
): (probes: T[], target: CheckTarget) => Promise<ProbeResult[]> {
  return (probes, target) => Promise.all(probes.map((p) => check(p, target)));
}

const POLL = { initialDelayMs: 20, maxDelayMs: 250 };

/**
 * Polls until the attempt says true (ready) or "give up" (it never will be), or the deadline,
 * with backoff and no fixed sleeps; how many attempts it took.
 */
export async function pollReady(
  target: CheckTarget,
  attempt: () => Promise<boolean | "give up">,
): Promise<{ ready: boolean; attempts: number }> {
  let attempts = 0;
  const ok = await pollUntil(
    async () => {
      attempts++;
      const answer = await attempt();
      return answer === false ? undefined : answer;
    },
    { deadlineMs: target.deadlineMs, ...POLL, signal: target.signal },
  );
  return { ready: ok === true, attempts };
}
