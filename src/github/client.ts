// The one GitHub client: Octokit with retry (5xx, network) and throttling (primary and secondary
// rate limits honoured via retry-after), pointed at GITHUB_API_URL (GitHub Enterprise Server:
// https://HOST/api/v3, GraphQL at /api/graphql), through the runner's proxy when HTTPS_PROXY or
// HTTP_PROXY is set (chosen as @actions/http-client does: src/github/proxy.ts), counting every HTTP request
// it makes (retries included) against a per-run budget. Errors become PublishError, which names
// the permission the workflow is missing and how to grant it. The token is registered as a secret
// so redact() removes it from anything we print; it is never logged.
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import { errorEvidence, registerSecret } from "../errors.js";
import { type Logger, silentLogger } from "../log.js";

const ThrottledOctokit = Octokit.plugin(retry, throttling);
type OctokitClient = InstanceType<typeof ThrottledOctokit>;

/** The permissions our calls need, spelled as a workflow's `permissions:` block spells them. */
type Permission = "pull-requests: write" | "checks: write" | "issues: write" | "pull-requests: read";

interface GitHubClientOptions {
  token: string;
  /** Defaults to GITHUB_API_URL, then https://api.github.com. */
  baseUrl?: string;
  log?: Logger;
  /** Hard cap on HTTP requests per run (retries count). A typical PR run needs 4. */
  maxRequests?: number;
  /** Retries after 5xx/network errors and after rate limits. */
  retries?: number;
  /** Scales retry waits (ms per retry-after second); tests shorten it, production keeps 1000. */
  retryAfterBaseMs?: number;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (either case); default process.env. */
  env?: Record<string, string | undefined>;
  /**
   * GitHub asks integrations to space writes (1 s, 3 s for those that notify). Tests turn it off
   * to stay fast; rate-limit answers are still honoured either way.
   */
  spaceWrites?: boolean;
}

/** A limiter that schedules at once, in the shape plugin-throttling calls (`key(id).schedule`). */
type ThrottleGroup = NonNullable<
  NonNullable<ConstructorParameters<typeof ThrottledOctokit>[0]>["throttle"]
>["write"];
const unspaced = {
  key: () => ({
    schedule: <T>(_opts: unknown, fn: (...a: unknown[]) => T, ...args: unknown[]) =>
      Promise.resolve(fn(...args)),
  }),
} as unknown as ThrottleGroup;

export interface GitHubClient {
  octokit: OctokitClient;
  /** HTTP requests sent so far, retries included. */
  requests(): number;
  /** Requests still allowed by the budget. */
  remaining(): number;
  readonly maxRequests: number;
  /**
   * Requests held back for what matters more (the check run's conclusion while the comment is
   * posted): a request that would eat into them is refused with a `budget` error.
   */
  reserve: number;
}

export class PublishError extends Error {
  override name = "PublishError";
  constructor(
    message: string,
    readonly kind: "permission" | "not-found" | "validation" | "rate-limit" | "server" | "budget" | "network",
    readonly status?: number,
    readonly permission?: Permission,
  ) {
    super(message);
  }
}

export function createGitHubClient(opts: GitHubClientOptions): GitHubClient {
  registerSecret(opts.token);
  const log = opts.log ?? silentLogger;
  const maxRequests = opts.maxRequests ?? 40;
  const retries = opts.retries ?? 2;
  const base = opts.retryAfterBaseMs ?? 1000;
  const sent = { count: 0 };
  // Counting at the fetch layer sees every attempt, which is what rate limits and budgets see.
  const counting = budgeted(proxiedFetch(opts.env ?? process.env), sent, maxRequests, () => client.reserve);
  const octokit = new ThrottledOctokit({
    auth: opts.token,
    baseUrl: (opts.baseUrl ?? process.env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/+$/, ""),
    userAgent: "docker-acceptance",
    request: { fetch: counting },
    retry: { retries, retryAfterBaseValue: base },
    // Octokit logs request failures with URLs; keep its chatter off our logs and never print headers.
    log: { debug: () => {}, info: () => {}, warn: (m: string) => log.warn(String(m)), error: () => {} },
    throttle: {
      retryAfterBaseValue: base,
      ...(opts.spaceWrites === false ? { write: unspaced, notifications: unspaced } : {}),
      ...rateLimitAnswers(log, retries),
    },
  });
  const client: GitHubClient = {
    octokit,
    requests: () => sent.count,
    remaining: () => maxRequests - sent.count,
    maxRequests,
    reserve: 0,
  };
  return client;
}

/** `send`, counting each request and refusing (a `budget` error) one past the budget or into its reserve. */
function budgeted(
  send: typeof fetch,
  sent: { count: number },
  maxRequests: number,
  reserve: () => number,
): typeof fetch {
  return async (input, init) => {
    const held = reserve();
    if (sent.count >= maxRequests - held) {
      throw new PublishError(
        held > 0 && sent.count < maxRequests
          ? `GitHub request budget of ${maxRequests} per run nearly exhausted; the last ${held} are kept for the check run's conclusion`
          : `GitHub request budget of ${maxRequests} per run exhausted; not sending more (the report files and job summary are unaffected)`,
        "budget",
      );
    }
    sent.count++;
    return send(input, init);
  };
}

type RequestOptions = { method: string; url: string };

/** plugin-throttling's answers to a rate limit: retry (and say so) while retries and a bearable wait remain. */
function rateLimitAnswers(log: Logger, retries: number) {
  /** Decides first, then says what it decided: a retry it will not make is never announced. */
  function rateLimited(what: string, after: number, options: RequestOptions, n: number): boolean {
    const on = `GitHub ${what} on ${options.method} ${options.url}`;
    if (n >= retries) {
      log.warn(`${on}; giving up after ${n} ${n === 1 ? "retry" : "retries"}`);
      return false;
    }
    if (after > MAX_RETRY_WAIT_S) {
      log.warn(
        `${on}; giving up: GitHub asks to wait ${after}s, longer than the ${MAX_RETRY_WAIT_S}s we wait`,
      );
      return false;
    }
    log.warn(`${on}; retry ${n + 1} of ${retries} in ${after}s`);
    return true;
  }
  return {
    onRateLimit: (after: number, options: RequestOptions, _o: unknown, n: number) =>
      rateLimited("rate limit", after, options, n),
    onSecondaryRateLimit: (after: number, options: RequestOptions, _o: unknown, n: number) =>
      rateLimited("secondary rate limit", after, options, n),
  };
}

/**
 * fetch through the runner's proxy when a proxy variable is set (self-hosted runners behind a
 * proxy set HTTPS_PROXY and NO_PROXY; the rules are src/github/proxy.ts's), else Node's fetch.
 * The proxy's module (and undici with it) is loaded on the first request, not here: a failure to
 * load it is that request's error, reported like any network failure, never a rejection nobody
 * awaits (which ended the process before the report was written). Only GitHub requests use it
 * (never the Docker engine's socket).
 */
function proxiedFetch(env: Record<string, string | undefined>): typeof fetch {
  const names = ["https_proxy", "http_proxy", "no_proxy"].flatMap((n) => [n, n.toUpperCase()]);
  if (!names.some((n) => env[n])) return fetch;
  let proxied: Promise<typeof fetch> | undefined;
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    proxied ??= import("./proxy.js").then(({ fetchThroughProxy }) => fetchThroughProxy(env));
    return (await proxied)(input, init);
  }) as typeof fetch;
}

/** The longest rate-limit wait we sit through; beyond it the step would mostly be waiting. */
const MAX_RETRY_WAIT_S = 120;

/**
 * Maps an Octokit error to a PublishError that says what to do. `permission` is what the
 * failing call needs; `what` is the action in words ("post the PR comment").
 */
export function toPublishError(err: unknown, permission: Permission, what: string): PublishError {
  if (err instanceof PublishError) return err;
  // Octokit wraps what its fetch throws (our budget refusal) as a 500: unwrap it.
  const cause = typeof err === "object" && err !== null ? (err as { cause?: unknown }).cause : undefined;
  if (cause instanceof PublishError) return cause;
  const status = typeof err === "object" && err !== null && "status" in err ? Number(err.status) : undefined;
  const detail = errorEvidence(err, 300).message;
  if (status === 403 && /secondary rate|rate limit/i.test(detail)) {
    return new PublishError(
      `Could not ${what}: GitHub rate limit persisted after retries (${detail})`,
      "rate-limit",
      403,
    );
  }
  if (status === 401 || status === 403) {
    return new PublishError(
      `Could not ${what}: the token lacks \`${permission}\` (GitHub answered ${status}: ${detail}). ` +
        `Fix: add \`${permission}\` under \`permissions:\` in the workflow job. On pull requests from forks and from Dependabot the token is ` +
        'read-only whatever the workflow asks: use the two-workflow setup (README, "Fork pull requests").',
      "permission",
      status,
      permission,
    );
  }
  if (status === 404) {
    return new PublishError(
      `Could not ${what}: GitHub answered 404 (${detail}). The repository, pull request or object does not exist, ` +
        `or the token cannot see it (needs \`${permission}\`).`,
      "not-found",
      404,
      permission,
    );
  }
  if (status === 422 || status === 400) {
    return new PublishError(
      `Could not ${what}: GitHub rejected the request (${status}: ${detail})`,
      "validation",
      status,
    );
  }
  if (status !== undefined && status >= 500) {
    return new PublishError(
      `Could not ${what}: GitHub is failing (${status}) after retries: ${detail}`,
      "server",
      status,
    );
  }
  return new PublishError(`Could not ${what}: ${detail}`, "network", status);
}

/** Runs one API call, mapping failures to a PublishError that names the permission. */
export async function call<T>(permission: Permission, what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw toPublishError(err, permission, what);
  }
}
