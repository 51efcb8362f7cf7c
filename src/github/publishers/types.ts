// One interface for every place a report is published (the job summary, the PR comment, the check
// run, the tracking issue): publishReport (../publish.ts) runs the list in ./index.ts in order.
// A publisher owns everything about itself in its module: its options (action inputs and CLI
// flags, with their action.yml descriptions: the request gathers them, src/request/options.ts),
// its outcome (its slice of PublishResult, keyed by its name), its part of the log line and its
// step outputs (each with its action.yml description; the action sets them empty before
// publishing, then from its slice). A new publish target is one module calling definePublisher
// and its test; `npm run docs` lists it in ./index.ts (by rank) and its inputs and outputs in
// action.yml and the README.
import type { Logger } from "../../log.js";
import type { OptionTable, OutputTable, ValuesOf } from "../../option.js";
import type { Report } from "../../report/model.js";
import type { CheckTarget } from "../checks.js";
import type { GitHubClient, PublishError } from "../client.js";
import type { EventContext } from "../context.js";

export interface ClientOptions {
  /** GITHUB_TOKEN or another token; without one nothing is posted (a notice says so). */
  token?: string;
  /** Defaults to GITHUB_API_URL. */
  apiUrl?: string;
  /** Reuse one client across startCheckRun and publishReport so the request count is per run. */
  client?: GitHubClient;
  log?: Logger;
  /** Test seam: shortens waits between retries. */
  retryAfterBaseMs?: number;
}

type Provenance = "trusted" | "fork-unverified";

/** What a publisher's slice of PublishResult holds: its outcome and what it posted, if anything. */
export interface PublisherOutcome<A extends string = string> {
  outcome: A;
  /** The comment's or check run's id, the number. */
  id?: number;
  url?: string;
}

/** One publishing's surroundings, shared by every publisher; each one's own options are its own. */
export interface PublishSurroundings {
  /** The event; without one (not in GitHub Actions) only the local publishers run. */
  context?: EventContext;
  checkName?: string;
  /** From startCheckRun; without it the check run is created already completed. */
  checkRunId?: number;
  /** The bundle directory: on a fork PR, event.json is written here for the workflow_run phase. */
  bundleDir?: string;
  /** Login whose comments and issues are ours (see comment.ts); default github-actions[bot]. */
  commentAuthor?: string;
  /** Post the comment at all (the `publish` command turns it off when the PR head moved on). */
  postComment?: boolean;
  /**
   * `fork-unverified`: the report was produced by the fork's own workflow (fork recipe, phase 2).
   * The check run concludes `neutral` at most and every rendering says so on its first line.
   */
  provenance?: Provenance;
  /** This run's external_id (see startCheckRun); the completed check run also remembers the comment's id. */
  externalId?: string;
  /** startCheckRun's error: a missing permission is not asked again, and reported once. */
  startError?: PublishError;
}

/** What every publisher sees of one publishing: the report, its surroundings, what went before. */
export interface PublishRun {
  report: Report;
  opts: PublishSurroundings & ClientOptions;
  /** The event: always there for the remote publishers (they run only with a client, which needs one). */
  ctx: EventContext;
  checkName: string;
  /** The GitHub client; undefined when this run may not write (fork, Dependabot, no token). */
  client?: GitHubClient;
  /** The slices of the publishers that ran before this one (the check run remembers the comment's id). */
  results: Readonly<Record<string, PublisherOutcome | undefined>>;
  failing: boolean;
  unverified: boolean;
  /** The check run this run completes (its id from startCheckRun, if any). */
  target: CheckTarget & { checkRunId?: number };
  /** startCheckRun was refused for want of a permission: the check run is not asked for again. */
  checksRefused: boolean;
  log: Logger;
  /** Something a maintainer should know (never secret); printed once as a notice. */
  notice(message: string): void;
  /** A failure to publish: recorded in the errors (and notices), printed once as a warning. */
  failed(err: unknown): void;
}

/**
 * A publish target. Its module loads with the option table (every door, the CLI's `--help`
 * included), so it imports its transport (the GitHub client, the Actions toolkit) only inside
 * `publish`, by `await import(...)`.
 */
export interface Publisher<
  N extends string = string,
  O extends OptionTable = OptionTable,
  A extends string = string,
> {
  /** Its key in PublishResult. */
  readonly name: N;
  /** How the log line and the docs call it: "check run". */
  readonly title: string;
  /** Its place in the list (./index.ts, lowest first): later ones see earlier ones' results. */
  readonly rank: number;
  /** The options it owns, keyed by their field in the request (src/request/options.ts gathers them). */
  readonly options: O;
  /** Needs the GitHub API (skipped when this run may not write); the job summary does not. */
  readonly remote: boolean;
  /** Its slice when it does not run (or before it does). */
  initial(run: PublishRun): PublisherOutcome<A>;
  /** Whether it has anything to do in this run. */
  applies(run: PublishRun, own: ValuesOf<O>): boolean;
  /** GitHub requests it needs, held back from the publishers before it. */
  reserve(run: PublishRun, own: ValuesOf<O>): number;
  /**
   * Publishes and returns its slice; `held` is what the publishers after it reserved. Never
   * throws: a failure is recorded (run.failed) and its slice says so.
   */
  publish(run: PublishRun, own: ValuesOf<O>, held: number): Promise<PublisherOutcome<A>>;
  /** Its part of the log line (`published: check run completed (#5), ...`); undefined: none. */
  describe?(slice: PublisherOutcome<A>): string | undefined;
  /**
   * The step outputs it sets, by name: each one's action.yml description and its value from the
   * slice (undefined: left empty). Every one is set empty before publishing.
   */
  readonly outputs?: OutputTable<PublisherOutcome<A>>;
}

/** Declares a publisher, keeping its name, options and outcomes as literal types (for PublishResult). */
export function definePublisher<const N extends string, const O extends OptionTable, const A extends string>(
  publisher: Publisher<N, O, A>,
): Publisher<N, O, A> {
  return publisher;
}
