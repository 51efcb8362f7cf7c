// What the run is about, read from the environment the Actions runner sets: which repository,
// which commit the check run belongs on, which pull request (if any) the comment goes to, and
// whether the token can write at all. A `pull_request` event from a fork gets a read-only token
// whatever the workflow's `permissions:` say; we detect that from the event instead of
// learning it from a 403.
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.js";

type RunKind = "pull_request" | "push" | "schedule" | "manual" | "workflow_run" | "other";

interface PullRequestRef {
  number: number;
  /** The PR's head commit: check runs go here so they show on the PR (GITHUB_SHA is the merge commit). */
  headSha: string;
  /** `owner/name` of the head and base repositories; they differ for a fork. */
  headRepo: string;
  baseRepo: string;
  /** The event's action (`opened`, `synchronize`, ...), when known. */
  action?: string;
  /** The head before this push (`synchronize` events' `before`): where the previous run's check run is. */
  previousSha?: string;
  /** The base branch's commit the PR is compared with, and the PR's changed-file count, from the payload. */
  baseSha?: string;
  changedFiles?: number;
}

export interface EventContext {
  eventName: string;
  kind: RunKind;
  owner: string;
  repo: string;
  /** The commit the check run describes: the PR head for PR events, GITHUB_SHA otherwise. */
  sha: string;
  pr?: PullRequestRef;
  /** True when the token cannot write (a fork's or Dependabot's pull request): publish via `workflow_run`. */
  readOnly: boolean;
  readOnlyReason?: "fork" | "dependabot";
  /** Link to the run, for the check run's details_url and the tracking issue. */
  runUrl?: string;
}

type Env = Record<string, string | undefined>;

export function readEventContext(env: Env = process.env): EventContext {
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  if (!owner || !repo) {
    throw new UsageError(
      "GITHUB_REPOSITORY is not set (expected owner/name): publishing needs the Actions environment, or set it for the CLI",
    );
  }
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pull = obj(event.pull_request);
  const server = (env.GITHUB_SERVER_URL ?? "https://github.com").replace(/\/+$/, "");
  const runUrl = env.GITHUB_RUN_ID
    ? `${server}/${owner}/${repo}/actions/runs/${env.GITHUB_RUN_ID}`
    : undefined;
  let pr: PullRequestRef | undefined;
  if (pull && typeof pull.number === "number") {
    const head = obj(pull.head);
    const base = obj(pull.base);
    pr = {
      number: pull.number,
      headSha: String(head?.sha ?? env.GITHUB_SHA ?? ""),
      headRepo: String(obj(head?.repo)?.full_name ?? `${owner}/${repo}`),
      baseRepo: String(obj(base?.repo)?.full_name ?? `${owner}/${repo}`),
      action: typeof event.action === "string" ? event.action : undefined,
      ...(event.action === "synchronize" &&
      typeof event.before === "string" &&
      /^[0-9a-f]{40}$/.test(event.before)
        ? { previousSha: event.before }
        : {}),
      baseSha: typeof base?.sha === "string" ? base.sha : undefined,
      changedFiles: typeof pull.changed_files === "number" ? pull.changed_files : undefined,
    };
  }
  const kind: RunKind =
    eventName === "pull_request" || eventName === "pull_request_target"
      ? "pull_request"
      : eventName === "push"
        ? "push"
        : eventName === "schedule"
          ? "schedule"
          : eventName === "workflow_dispatch" || eventName === "repository_dispatch"
            ? "manual"
            : eventName === "workflow_run"
              ? "workflow_run"
              : "other";
  const readOnlyReason = readOnlyBecause(eventName, pr, env, event);
  const sha = pr?.headSha || env.GITHUB_SHA || "";
  return {
    eventName,
    kind,
    owner,
    repo,
    sha,
    pr,
    readOnly: readOnlyReason !== undefined,
    ...(readOnlyReason ? { readOnlyReason } : {}),
    runUrl,
  };
}

const DEPENDABOT = "dependabot[bot]";

/**
 * Why the token is read-only, if it is. A fork's `pull_request` event always gets a read-only
 * token. Workflows Dependabot triggers (`pull_request`, `pull_request_target`, `push` on its
 * branches, ...) get one too, like forks, with Dependabot's secrets only: the actor is
 * dependabot[bot]. pull_request_target from a fork runs the base repository's workflow with a
 * write token. Deciding here, from the event, beats learning it from a 403.
 */
function readOnlyBecause(
  eventName: string,
  pr: PullRequestRef | undefined,
  env: Env,
  event: Record<string, unknown>,
): EventContext["readOnlyReason"] {
  if (eventName === "workflow_run" || eventName === "issue_comment") return undefined;
  const actor = env.GITHUB_ACTOR ?? String(obj(event.sender)?.login ?? "");
  if (actor.toLowerCase() === DEPENDABOT) return "dependabot";
  if (eventName === "pull_request" && pr !== undefined && pr.headRepo !== pr.baseRepo) return "fork";
  return undefined;
}

function readEvent(file: string | undefined): Record<string, unknown> {
  if (!file) return {};
  try {
    return obj(JSON.parse(readFileSync(file, "utf8"))) ?? {};
  } catch (err) {
    throw new UsageError(
      `GITHUB_EVENT_PATH ${file}: cannot read the event payload (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}
