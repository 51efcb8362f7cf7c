// `docker-acceptance publish BUNDLE_DIR`: the fork recipe's second phase.
//
// On a fork's `pull_request` the token is read-only, so the run writes its bundle plus
// event.json (PR number, head SHA) and skips posting. A second workflow, triggered by
// `workflow_run` in the base repository with a write token, downloads that artifact and runs
// this command. Everything in the bundle was produced by the fork's own workflow, which the
// fork's author controls (docs/security.md). SHA256SUMS proves integrity, never authorship, so:
//  - the publication is labelled for what it is: its own check name and comment marker
//    (`<check-name> (fork, unverified)`), never `success` (at most `neutral`), its first line
//    saying the fork's own workflow produced it; it never updates or supersedes a trusted
//    (command recipe) result, which lives under the plain check name;
//  - the bundle must verify (SHA256SUMS, schema) before anything is read from it; event.json is
//    not part of the hashed bundle and is checked field by field instead;
//  - the verdict is recomputed from the cases, never taken from report.json;
//  - the head shown is the triggering run's verified head SHA; the bundle's own claim is only
//    compared with it, and a missing or different one makes the verdict `error`;
//  - it runs only under `workflow_run` (unless told otherwise explicitly), and the PR must match
//    the triggering run's head SHA, head repository and head branch;
//  - every string reaches markdown through the escaping renderer; nothing reaches a shell.
//
// docs/workflows/fork-safe-test.yml and fork-safe-publish.yml are the two workflows.
// The action's `mode: publish` calls publishBundle (the same steps) instead of the CLI.
// Exit codes: 0 published (whatever the verdict: the check run carries it), 1 the bundle does not
// verify or does not match the PR, 2 usage, 3 GitHub refused (the message names the permission).
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as z from "zod";
import { newRunId } from "../engine/ownership.js";
import { ConfigError, registerSecret, UsageError } from "../errors.js";
import { externalIdFor } from "../github/check-run-gate.js";
import { call, createGitHubClient, type GitHubClient } from "../github/client.js";
import type { EventContext } from "../github/context.js";
import { DEFAULT_CHECK_NAME, type PublishResult, publishReport } from "../github/publish.js";
import { describePublished } from "../github/publishers/gathered.js";
import type { Logger } from "../log.js";
import { verifyBundle } from "../report/bundle.js";
import { computeVerdict, type Report } from "../report/model.js";
import { pinVerifiedHead } from "../report/provenance.js";
import type { RequestOf } from "../request/parse.js";
import { type PublishingOptions, publishingOptions } from "../request/publishing.js";
import { printable, renderVerification } from "./verify.js";

/** What a fork-produced publication is called: never the trusted check name, never its marker. */
export function forkCheckName(checkName: string): string {
  return `${checkName} (fork, unverified)`;
}

const EVENT_FILE = "event.json";

const forkEventSchema = z.object({
  prNumber: z.number().int().positive(),
  headSha: z.string().regex(/^[0-9a-f]{40}$/, "a 40-character lowercase hex commit SHA"),
  repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name"),
});
type ForkEventFile = z.infer<typeof forkEventSchema>;

interface PublishCommandEnv {
  env?: Record<string, string | undefined>;
  /** Test seam: a client against a GitHub double. */
  client?: GitHubClient;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** What `publish` takes besides the bundle: its flags, parsed into the one request. */
type PublishRequest = RequestOf<"checkName" | "comment" | "commentAuthor" | "allowOutsideWorkflowRun">;

export async function publish(
  request: PublishRequest,
  [bundle]: string[],
  surroundings: PublishCommandEnv = {},
): Promise<number> {
  const env = surroundings.env ?? process.env;
  const out = surroundings.out ?? ((t) => process.stdout.write(t));
  const errOut = surroundings.err ?? ((t) => process.stderr.write(t));
  const outcome = await publishBundle(bundle!, {
    env,
    client: surroundings.client,
    checkName: request.checkName,
    commentAuthor: request.commentAuthor,
    publishing: publishingOptions({ comment: request.comment }),
    allowOutsideWorkflowRun: request.allowOutsideWorkflowRun,
  });
  for (const m of outcome.messages) errOut(`publish: ${m}\n`);
  if (outcome.result) out(`${describePublished(outcome.result)}\n`);
  return outcome.exitCode;
}

interface PublishBundleOptions {
  /** GITHUB_TOKEN (or GH_TOKEN), GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH. */
  env?: Record<string, string | undefined>;
  /** Overrides env's token (the action's `github-token` input). */
  token?: string;
  client?: GitHubClient;
  checkName?: string;
  commentAuthor?: string;
  /** The publishers' options (src/request/publishing.ts), as every mode means them; defaults when absent. */
  publishing?: PublishingOptions;
  /**
   * Publish although the event is not `workflow_run` (a maintainer publishing by hand). There is
   * then no triggering run to cross-check event.json against; the PR head check still applies.
   */
  allowOutsideWorkflowRun?: boolean;
  /**
   * The check run's external_id (github/check-run-gate.ts externalIdFor): a create whose answer was lost
   * is found again instead of made twice, and the next publication finds the comment it posted.
   */
  externalId?: string;
  log?: Logger;
}

interface PublishBundleOutcome {
  /** 0 published, 1 refused (bundle or event does not verify or match), 3 GitHub refused. */
  exitCode: 0 | 1 | 3;
  /** Why it refused, and the publish notices. Bundle text in them is escaped. */
  messages: string[];
  /** The report as published (verdict recomputed), once the bundle verified. */
  report?: Report;
  result?: PublishResult;
}

/**
 * The fork-safe second phase as a function, for the CLI and for the action's `mode: publish`.
 * Looks for event.json in `dir`, then beside it. Throws only for usage and configuration errors
 * (no token, no repository, malformed event.json).
 */
export async function publishBundle(
  dir: string,
  opts: PublishBundleOptions = {},
): Promise<PublishBundleOutcome> {
  const env = opts.env ?? process.env;
  const messages: string[] = [];
  const refuse = (m: string, exitCode: 1 | 3 = 1, report?: Report): PublishBundleOutcome => ({
    exitCode,
    messages: [...messages, m],
    report,
  });
  const { token, owner, repo } = credentials(opts, env);

  const checked = await triggerAndEvent(dir, env, `${owner}/${repo}`, opts.allowOutsideWorkflowRun);
  if ("refuse" in checked) return refuse(checked.refuse);
  const { trigger, event } = checked;

  const verified = await verifiedReport(dir);
  messages.push(...verified.messages);
  if (!verified.report) return { exitCode: 1, messages };

  const client =
    opts.client ?? createGitHubClient({ token: token!, baseUrl: env.GITHUB_API_URL, log: opts.log });
  const matched = await matchedPull(client, owner, repo, event, trigger);
  if ("refuse" in matched) return refuse(matched.refuse, matched.exitCode, verified.report);
  const { pull, headRepo, current } = matched;
  if (!current) {
    messages.push(
      `Pull request #${event.prNumber} has moved on to ${pull.head.sha.slice(0, 12)}; posting the check run on ${event.headSha.slice(0, 12)} only, no comment.`,
    );
  }
  // The head is the one the triggering run (or, by hand, event.json) names: verified, not claimed.
  const report = pinVerifiedHead(verified.report, event.headSha, "the workflow_run that produced it");

  const result = await publishReport(report, {
    context: forkContext(
      owner,
      repo,
      event,
      { headRepo, baseRepo: pull.base.repo.full_name },
      trigger?.runUrl,
    ),
    client,
    checkName: forkCheckName(opts.checkName ?? DEFAULT_CHECK_NAME),
    provenance: "fork-unverified",
    commentAuthor: opts.commentAuthor,
    publishing: opts.publishing ?? publishingOptions(),
    postComment: current,
    externalId: opts.externalId ?? externalIdFor(env, newRunId()),
    log: opts.log,
  });
  messages.push(...result.notices);
  return { exitCode: result.errors.length > 0 ? 3 : 0, messages, report, result };
}

/** The token (registered as a secret) and the repository; usage errors when either is missing. */
function credentials(
  opts: PublishBundleOptions,
  env: Record<string, string | undefined>,
): { token?: string; owner: string; repo: string } {
  const token = opts.token || env.GITHUB_TOKEN || env.GH_TOKEN;
  if (!token && !opts.client) {
    throw new UsageError(
      "GITHUB_TOKEN is not set: the publish phase needs a token with checks: write and pull-requests: write",
    );
  }
  registerSecret(token);
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? "").split("/");
  if (!owner || !repo) throw new UsageError("GITHUB_REPOSITORY is not set (expected owner/name)");
  return { token, owner, repo };
}

/** The event the fork's PR is published under: its verified head, as a `synchronize` of the PR. */
function forkContext(
  owner: string,
  repo: string,
  event: ForkEventFile,
  repos: { headRepo: string; baseRepo: string },
  runUrl: string | undefined,
): EventContext {
  return {
    eventName: "workflow_run",
    kind: "workflow_run",
    owner,
    repo,
    sha: event.headSha,
    pr: { number: event.prNumber, headSha: event.headSha, ...repos, action: "synchronize" },
    readOnly: false,
    runUrl,
  };
}

interface Refusal {
  refuse: string;
  exitCode: 1 | 3;
}

/**
 * The triggering workflow_run (required unless publishing by hand is allowed) and the bundle's
 * event.json, checked against this repository and against each other.
 */
async function triggerAndEvent(
  dir: string,
  env: Record<string, string | undefined>,
  repository: string,
  allowOutsideWorkflowRun: boolean | undefined,
): Promise<{ refuse: string } | { trigger: WorkflowRunTrigger | undefined; event: ForkEventFile }> {
  const trigger = readWorkflowRun(env);
  if (!trigger && !allowOutsideWorkflowRun) {
    return {
      refuse:
        `this is a ${printable(env.GITHUB_EVENT_NAME || "(no event)")} event, not workflow_run: there is no triggering run to check the bundle against; refusing ` +
        "(fix: run it from a workflow_run workflow as docs/workflows/fork-safe-publish.yml does, or pass allow-outside-workflow-run to publish by hand)",
    };
  }
  if (trigger && "unreadable" in trigger) return { refuse: trigger.unreadable };
  const event = await readForkEvent(dir);
  if (event.repository.toLowerCase() !== repository.toLowerCase()) {
    return {
      refuse: `${EVENT_FILE} is for ${printable(event.repository)}, this workflow runs in ${repository}; refusing`,
    };
  }
  if (trigger && trigger.headSha !== event.headSha) {
    return {
      refuse: `${EVENT_FILE} says head ${event.headSha}, but the workflow_run that produced it ran on ${printable(trigger.headSha)}; refusing`,
    };
  }
  return { trigger, event };
}

interface PullHead {
  head: { sha: string; ref: string; repo: { full_name: string } | null };
  base: { repo: { full_name: string } };
}

/**
 * The pull request event.json names, read from GitHub: it must merge into this repository, come
 * from the branch the triggering run ran on, and (without a triggering run) be at event.json's head.
 */
async function matchedPull(
  client: GitHubClient,
  owner: string,
  repo: string,
  event: ForkEventFile,
  trigger: WorkflowRunTrigger | undefined,
): Promise<Refusal | { pull: PullHead; headRepo: string; current: boolean }> {
  let pull: PullHead;
  try {
    const res = await call("pull-requests: read", `read pull request #${event.prNumber}`, () =>
      client.octokit.rest.pulls.get({ owner, repo, pull_number: event.prNumber }),
    );
    pull = res.data;
  } catch (err) {
    return { refuse: (err as Error).message, exitCode: 3 };
  }
  if (pull.base.repo.full_name.toLowerCase() !== `${owner}/${repo}`.toLowerCase()) {
    return {
      refuse: `pull request #${event.prNumber} is not a pull request into ${owner}/${repo}; refusing`,
      exitCode: 1,
    };
  }
  const headRepo = pull.head.repo?.full_name ?? "";
  if (
    trigger &&
    (headRepo.toLowerCase() !== trigger.headRepo.toLowerCase() || pull.head.ref !== trigger.headBranch)
  ) {
    return {
      refuse:
        `pull request #${event.prNumber} comes from ${printable(headRepo)}:${printable(pull.head.ref)}, but the workflow_run ran on ` +
        `${printable(trigger.headRepo)}:${printable(trigger.headBranch)}: ${EVENT_FILE} names another pull request; refusing`,
      exitCode: 1,
    };
  }
  const current = pull.head.sha === event.headSha;
  if (!current && !trigger) {
    // Without a triggering run nothing vouches for event.json's SHA: only the PR's head will do.
    return {
      refuse: `${EVENT_FILE} says head ${event.headSha}, but pull request #${event.prNumber} is at ${pull.head.sha} and no workflow_run vouches for the other; refusing`,
      exitCode: 1,
    };
  }
  return { pull, headRepo, current };
}

async function readForkEvent(dir: string): Promise<ForkEventFile> {
  // The action writes event.json beside the bundle (SHA256SUMS covers exactly the bundle's
  // files); someone may also have put it inside. Inside wins.
  const inside = path.join(dir, EVENT_FILE);
  const beside = path.join(path.dirname(path.resolve(dir)), EVENT_FILE);
  const file = existsSync(inside) ? inside : beside;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    throw new ConfigError(
      [
        {
          path: "",
          message: `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
          fix: "upload the whole bundle directory from the pull_request run; the action writes event.json there on fork PRs",
        },
      ],
      file,
    );
  }
  const parsed = forkEventSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      file,
    );
  }
  return parsed.data;
}

/**
 * Verifies the bundle without event.json (which the fork run adds after the bundle is sealed),
 * returning the report with its verdict recomputed from the cases.
 */
async function verifiedReport(dir: string): Promise<{ report?: Report; messages: string[] }> {
  const copy = await mkdtemp(path.join(tmpdir(), "da-publish-"));
  try {
    for (const name of await readdir(dir)) {
      if (name !== EVENT_FILE)
        await cp(path.join(dir, name), path.join(copy, name), { recursive: true, verbatimSymlinks: true });
    }
    const v = await verifyBundle(copy);
    if (!v.ok || !v.report) return { messages: [renderVerification({ ...v, dir }).trimEnd()] };
    const verdict = computeVerdict(v.report);
    const messages =
      verdict === v.report.verdict
        ? []
        : [`report.json says ${v.report.verdict} but its cases give ${verdict}; publishing ${verdict}`];
    return { report: { ...v.report, verdict }, messages };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

interface WorkflowRunTrigger {
  headSha: string;
  headRepo: string;
  headBranch: string;
  runUrl?: string;
}

/**
 * The triggering run, from a workflow_run event payload; undefined outside workflow_run. A
 * payload without the head SHA, repository or branch cannot vouch for anything: `unreadable`.
 */
function readWorkflowRun(
  env: Record<string, string | undefined>,
): WorkflowRunTrigger | { unreadable: string } | undefined {
  if (env.GITHUB_EVENT_NAME !== "workflow_run") return undefined;
  let run: Record<string, unknown> | undefined;
  try {
    run = (JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8")) as { workflow_run?: typeof run })
      .workflow_run;
  } catch {
    run = undefined;
  }
  const headRepo = (run?.head_repository as { full_name?: unknown } | undefined)?.full_name;
  if (
    typeof run?.head_sha !== "string" ||
    typeof headRepo !== "string" ||
    typeof run.head_branch !== "string"
  ) {
    return {
      unreadable:
        "the workflow_run payload (GITHUB_EVENT_PATH) names no head_sha, head_repository or head_branch; refusing",
    };
  }
  const url = run.html_url;
  return {
    headSha: run.head_sha,
    headRepo,
    headBranch: run.head_branch,
    runUrl: typeof url === "string" && url.startsWith("https://") ? url : undefined,
  };
}
