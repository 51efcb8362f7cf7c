// A local stand-in for api.github.com. Every request is checked against GitHub's own OpenAPI
// description (the subset in openapi-subset.json, extracted by scripts/extract-openapi.mjs):
// method and path must be a known operation, path and query parameters must match their
// schemas, and the body must validate (with ajv) and carry no field the schema does not name.
// A request that fails answers 400 and is recorded in `problems`, which tests assert is empty.
// Responses are generated from the operation's response schema, filled from an in-memory store,
// and validated too, so the double cannot drift into answers GitHub would never give.
// Faults (403, 404, 422, 5xx, secondary rate limits) are programmable per operation.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv, type ValidateFunction } from "ajv";
import type { GraphQLSchema, parse as parseGraphql } from "graphql";
import { type Schema, schemaSampler } from "../helpers/schema-sample.js";
import subset from "./openapi-subset.json" with { type: "json" };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody: Schema | null;
  requestBodyRequired: boolean;
  responses: Record<string, Schema | null>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  operationId: string | null;
  query: Record<string, string>;
  body: unknown;
  status: number;
  login: string | null;
}

export interface Identity {
  login: string;
  type: "Bot" | "User";
  /** GitHub App permission names: checks, pull_requests, issues. Read is always granted. */
  write: Array<"checks" | "pull_requests" | "issues">;
}

export interface Fault {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  /** How many matching requests get the fault; default 1. */
  times?: number;
  /** The request is carried out, then answered with the fault: GitHub applied it, the answer was lost. */
  afterApply?: boolean;
}

interface Comment {
  id: number;
  issue: number;
  body: string;
  login: string;
  createdAt: string;
  updatedAt: string;
  /** Hidden through GraphQL minimizeComment, with its classifier. */
  minimized?: string;
}

/** A change to a branch as GET /repos/{owner}/{repo}/activity lists it: GitHub's record of pushes. */
export interface Activity {
  id: number;
  /** `owner/name` of the repository pushed to (a fork for a fork's pull request). */
  repo: string;
  ref: string;
  before: string;
  after: string;
  /** When GitHub recorded it, to the second as GitHub gives it. */
  timestamp: string;
  type: "push" | "force_push" | "branch_creation" | "branch_deletion";
  actor: string;
}

/** A time as GitHub writes it: ISO 8601 to the second, in UTC. */
export const githubTime = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** GitHub's GraphQL schema (@octokit/graphql-schema), built once: every GraphQL request is checked against it. */
let githubGraphql: GraphQLSchema | undefined;
const graphqlNodeId = (id: number) => `IC_${Buffer.from(`comment:${id}`).toString("base64url")}`;
interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url?: string;
  external_id?: string;
  started_at: string;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: Schema[] };
}
interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  login: string;
  pull?: {
    headSha: string;
    headRepo: string;
    baseRepo: string;
    headRef: string;
    baseSha: string;
    /** The PR's commits, oldest first, as GET .../pulls/{n}/commits lists them (the head last). */
    commits: string[];
  };
}

const OPS = subset.operations as unknown as Operation[];
const SCHEMAS = subset.components.schemas as unknown as Record<string, Schema>;
/** Answers are built from GitHub's own response schemas. */
const { resolve, sample } = schemaSampler(SCHEMAS);

export const SECONDARY_RATE_LIMIT: Fault = {
  status: 403,
  message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
  headers: { "retry-after": "1" },
};

export const FULL_TOKEN = "ghs_doubleFullAccessToken0000000000000";
export const READ_ONLY_TOKEN = "ghs_doubleReadOnlyToken00000000000000";
export const NO_PR_WRITE_TOKEN = "ghs_doubleChecksOnlyToken000000000000";

export class GitHubDouble {
  readonly requests: RecordedRequest[] = [];
  /** Schema violations and unknown routes. A test that ends with any has failed. */
  readonly problems: string[] = [];
  readonly comments: Comment[] = [];
  readonly checkRuns: CheckRun[] = [];
  readonly issues: Issue[] = [];
  /** Reactions added through the API (src/bot): on which comment, what, by whom. */
  readonly reactions: Array<{ id: number; commentId: number; content: string; login: string }> = [];
  /** Repository roles by login (admin, maintain, write, triage, read); anyone else reads a public repo. */
  readonly collaborators = new Map<string, string>();
  readonly pullFiles = new Map<number, Array<{ filename: string; status?: string; patch?: string }>>();
  /** Pushes to branches, oldest first, in the base repository and in forks alike. */
  readonly activities: Activity[] = [];
  readonly identities = new Map<string, Identity>([
    [FULL_TOKEN, { login: "github-actions[bot]", type: "Bot", write: ["checks", "pull_requests", "issues"] }],
    [READ_ONLY_TOKEN, { login: "github-actions[bot]", type: "Bot", write: [] }],
    [NO_PR_WRITE_TOKEN, { login: "github-actions[bot]", type: "Bot", write: ["checks"] }],
  ]);
  readonly owner = "octo-org";
  readonly repo = "app";
  private server?: Server;
  private nextId = 1000;
  private faults = new Map<string, Fault[]>();
  private barriers = new Map<string, { n: number; waiting: Array<() => void> }>();
  private hooks = new Map<string, Array<{ nth: number; run: () => void }>>();
  private seen = new Map<string, number>();
  private ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  private validators = new Map<string, ValidateFunction>();
  url = "";
  /** Answer as a GitHub Enterprise Server does: REST under /api/v3, GraphQL at /api/graphql. */
  enterprise = false;

  constructor() {
    this.ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    this.ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\S*$/i);
    this.ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
    this.ajv.addSchema(nullableEnums(structuredClone(subset)) as object, "gh");
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        this.problems.push(`double crashed on ${req.method} ${req.url}: ${String(err?.stack ?? err)}`);
        send(res, 500, { message: "double crashed" });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next `times` requests to `operationId` answer with this fault instead. */
  fail(operationId: string, fault: Fault): void {
    const list = this.faults.get(operationId) ?? [];
    for (let i = 0; i < (fault.times ?? 1); i++) list.push(fault);
    this.faults.set(operationId, list);
  }

  /** Holds the first `n` requests to `operationId` until all `n` have arrived: forces a race. */
  barrier(operationId: string, n: number): void {
    this.barriers.set(operationId, { n, waiting: [] });
  }

  /**
   * Runs `fn` just before the `nth` request to `operationId` is answered (1: the next one): a
   * push, an edit or a rewind landing between two reads of the code under test.
   */
  beforeRequest(operationId: string, fn: () => void, nth = 1): void {
    const list = this.hooks.get(operationId) ?? [];
    list.push({ nth: (this.seen.get(operationId) ?? 0) + nth, run: fn });
    this.hooks.set(operationId, list);
  }

  /**
   * A pull request whose head branch was created at `pushedAt` (default an hour ago), so a
   * comment made now comes well after the last push, as it does when someone has read the change.
   */
  seedPull(
    number: number,
    p: {
      headSha: string;
      headRepo?: string;
      baseRepo?: string;
      headRef?: string;
      baseSha?: string;
      pushedAt?: string;
    },
  ): void {
    const base = `${this.owner}/${this.repo}`;
    this.issues.push({
      number,
      title: `PR ${number}`,
      body: "",
      state: "open",
      login: "contributor",
      pull: {
        headSha: p.headSha,
        headRepo: p.headRepo ?? base,
        baseRepo: p.baseRepo ?? base,
        headRef: p.headRef ?? "feature",
        baseSha: p.baseSha ?? "0".repeat(40),
        commits: [p.headSha],
      },
    });
    this.recordActivity(p.headRepo ?? base, p.headRef ?? "feature", {
      before: "0".repeat(40),
      after: p.headSha,
      type: "branch_creation",
      at: p.pushedAt ?? githubTime(Date.now() - 3600_000),
    });
  }

  /**
   * A push to a seeded PR: `sha` becomes its head and its newest commit, and GitHub's activity
   * log records it (at `at`, default now). `force` rewrites the branch: `sha` is then its only commit.
   */
  pushPull(number: number, sha: string, opts: { force?: boolean; at?: string; actor?: string } = {}): void {
    const pull = this.issues.find((i) => i.number === number)?.pull;
    if (!pull) throw new Error(`no seeded pull request #${number}`);
    this.recordActivity(pull.headRepo, pull.headRef, {
      before: pull.headSha,
      after: sha,
      type: opts.force ? "force_push" : "push",
      at: opts.at ?? githubTime(Date.now()),
      actor: opts.actor,
    });
    pull.headSha = sha;
    if (opts.force) pull.commits = [sha];
    else pull.commits.push(sha);
  }

  private recordActivity(
    repo: string,
    branch: string,
    a: { before: string; after: string; type: Activity["type"]; at: string; actor?: string },
  ): void {
    this.activities.push({
      id: this.nextId++,
      repo,
      ref: `refs/heads/${branch}`,
      before: a.before,
      after: a.after,
      timestamp: a.at,
      type: a.type,
      actor: a.actor ?? "contributor",
    });
  }

  /** The files a seeded PR changes, as GET .../pulls/{n}/files lists them (patch optional). */
  seedPullFiles(number: number, files: Array<{ filename: string; status?: string; patch?: string }>): void {
    this.pullFiles.set(number, files);
  }

  /** A comment made `at` (default now). */
  seedComment(issue: number, body: string, login = "someone", at?: string): number {
    const now = at ?? new Date().toISOString();
    const id = this.nextId++;
    this.comments.push({ id, issue, body, login, createdAt: now, updatedAt: now });
    return id;
  }

  seedCollaborator(login: string, role: "admin" | "maintain" | "write" | "triage" | "read"): void {
    this.collaborators.set(login, role);
  }

  /** Requests other than those the test made to set things up. */
  ops(): string[] {
    return this.requests.map((r) => `${r.operationId ?? "?"} ${r.status}`);
  }

  // -------------------------------------------------------------------------------------------

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `gh#${pointer}` });
      this.validators.set(pointer, v);
    }
    return v;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://double");
    // GitHub Enterprise Server serves REST under /api/v3 and GraphQL at /api/graphql.
    if (this.enterprise) {
      if (!url.pathname.startsWith("/api/")) {
        this.problems.push(`${req.method} ${url.pathname}: not under /api/ on an Enterprise Server`);
        return send(res, 404, { message: "Not Found" });
      }
      url.pathname =
        url.pathname === "/api/graphql" ? "/graphql" : url.pathname.replace(/^\/api\/v3(?=\/)/, "");
    }
    const method = (req.method ?? "GET").toLowerCase();
    const raw = await readBody(req);
    const query = Object.fromEntries(url.searchParams.entries());
    const record: RecordedRequest = {
      method: method.toUpperCase(),
      path: url.pathname,
      operationId: null,
      query,
      body: undefined,
      status: 0,
      login: null,
    };
    this.requests.push(record);
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      send(res, status, body, headers);
    };
    const problem = (text: string) => {
      this.problems.push(`${record.method} ${record.path}: ${text}`);
      answer(400, { message: `double: ${text}` });
    };

    if (method === "post" && url.pathname === "/graphql")
      return this.graphql(req, raw, record, answer, problem);
    const found = matchOperation(method, url.pathname);
    if (!found) return problem("no such operation in GitHub's OpenAPI description");
    const { op, params } = found;
    const opIndex = OPS.indexOf(op);
    record.operationId = op.operationId;

    // Parameters: path and query, typed by their schemas; unknown query parameters are mistakes.
    for (const p of op.parameters) {
      const value = p.in === "path" ? params[p.name] : p.in === "query" ? query[p.name] : undefined;
      if (value === undefined) {
        if (p.required) return problem(`missing required ${p.in} parameter ${p.name}`);
        continue;
      }
      const typed = p.schema.type === "integer" ? Number(value) : value;
      if (p.schema.type === "integer" && !Number.isInteger(typed))
        return problem(`${p.name} must be an integer`);
      const i = op.parameters.indexOf(p);
      const v = this.validator(`/operations/${opIndex}/parameters/${i}/schema`);
      if (!v(typed)) return problem(`${p.name}: ${this.ajv.errorsText(v.errors)}`);
    }
    for (const k of Object.keys(query)) {
      if (!op.parameters.some((p) => p.in === "query" && p.name === k))
        return problem(`unknown query parameter ${k}`);
    }

    // Body.
    let body: Json | undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        return problem("body is not JSON");
      }
    }
    record.body = body;
    if (op.requestBody) {
      if (body === undefined && op.requestBodyRequired) return problem("missing required body");
      if (body !== undefined) {
        const v = this.validator(`/operations/${opIndex}/requestBody`);
        if (!v(body)) return problem(`body: ${this.ajv.errorsText(v.errors)}`);
        const extra = unknownFields(op.requestBody, body, "body");
        if (extra.length) return problem(`fields the schema does not define: ${extra.join(", ")}`);
      }
    } else if (body !== undefined && !(typeof body === "object" && body && Object.keys(body).length === 0)) {
      return problem("this operation takes no body");
    }

    // Authentication and the GitHub App permission model.
    const auth = req.headers.authorization ?? "";
    const token = auth.replace(/^(token|bearer)\s+/i, "");
    const who = this.identities.get(token);
    if (!who)
      return answer(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
    record.login = who.login;

    const barrier = this.barriers.get(op.operationId);
    if (barrier && barrier.n > 0) {
      barrier.n--;
      await new Promise<void>((resolve) => {
        barrier.waiting.push(resolve);
        if (barrier.n === 0) for (const w of barrier.waiting.splice(0)) w();
      });
    }

    this.seen.set(op.operationId, (this.seen.get(op.operationId) ?? 0) + 1);
    const due = (this.hooks.get(op.operationId) ?? []).filter((h) => h.nth === this.seen.get(op.operationId));
    for (const h of due) h.run();

    const fault = this.faults.get(op.operationId)?.shift();
    const faultAnswer = (f: Fault) =>
      answer(
        f.status,
        { message: f.message ?? statusText(f.status), documentation_url: "https://docs.github.com/rest" },
        f.headers,
      );
    if (fault && !fault.afterApply) return faultAnswer(fault);
    if (!this.serves(op, params)) return answer(404, { message: "Not Found" });
    const needs = writeNeeded(op, this.issueFor(params.issue_number));
    if (needs && !needs.some((n) => who.write.includes(n))) {
      return answer(403, {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
      });
    }

    const result = this.apply(op, params, query, body as Record<string, Json> | undefined, who);
    if (fault?.afterApply) return faultAnswer(fault);
    if (result.status >= 400) return answer(result.status, result.body);
    const schema = op.responses[String(result.status)];
    if (schema) {
      const v = this.validator(`/operations/${opIndex}/responses/${result.status}`);
      if (!v(result.body))
        this.problems.push(`double answered ${op.operationId} off-schema: ${this.ajv.errorsText(v.errors)}`);
    }
    return answer(result.status, result.body, result.headers);
  }

  /**
   * POST /graphql: parsed and validated against GitHub's GraphQL schema, variables coerced by
   * its types, then executed against that schema with resolvers for what the code calls
   * (minimizeComment). Anything else is a problem, as an unknown REST route is.
   */
  private async graphql(
    req: IncomingMessage,
    raw: string,
    record: RecordedRequest,
    answer: (status: number, body: unknown) => void,
    problem: (text: string) => void,
  ): Promise<void> {
    let body: { query?: string; variables?: Record<string, unknown> };
    try {
      body = JSON.parse(raw);
    } catch {
      return problem("graphql body is not JSON");
    }
    record.body = body;
    if (typeof body.query !== "string") return problem("graphql body has no query");
    // The published SDL defines two fields twice; the schema is otherwise GitHub's, taken as valid.
    // Loaded on the first GraphQL request only: most tests never make one.
    const { buildSchema, execute, parse: parseGraphql, validate: validateGraphql } = await import("graphql");
    const { schema: graphqlSchema } = await import("@octokit/graphql-schema");
    githubGraphql ??= buildSchema(graphqlSchema.idl, { assumeValidSDL: true });
    let doc: ReturnType<typeof parseGraphql>;
    try {
      doc = parseGraphql(body.query);
    } catch (err) {
      return problem(`graphql: ${(err as Error).message}`);
    }
    const invalid = validateGraphql(githubGraphql, doc);
    if (invalid.length) return problem(`graphql: ${invalid.map((e) => e.message).join("; ")}`);
    const token = (req.headers.authorization ?? "").replace(/^(token|bearer)\s+/i, "");
    const who = this.identities.get(token);
    if (!who) return answer(401, { message: "Bad credentials" });
    record.login = who.login;
    const denied = () => new Error(`Resource not accessible by integration`);
    const result = await execute({
      schema: githubGraphql,
      document: doc,
      variableValues: body.variables ?? {},
      rootValue: {
        minimizeComment: ({ input }: { input: { subjectId: string; classifier: string } }) => {
          record.operationId = "graphql/minimizeComment";
          const c = this.comments.find((x) => graphqlNodeId(x.id) === input.subjectId);
          if (!c) throw new Error(`Could not resolve to a node with the global id of '${input.subjectId}'`);
          if (!who.write.includes("pull_requests") && !who.write.includes("issues")) throw denied();
          c.minimized = input.classifier;
          return {
            minimizedComment: {
              __typename: "IssueComment",
              isMinimized: true,
              minimizedReason: input.classifier.toLowerCase(),
              viewerCanMinimize: true,
            },
          };
        },
      },
    });
    if (result.errors?.some((e) => /coerce|Variable|Expected/i.test(e.message)))
      return problem(`graphql: ${result.errors.map((e) => e.message).join("; ")}`);
    record.operationId ??= "graphql";
    return answer(200, result);
  }

  /** The base repository; and for reading push records, any repository a seeded PR's head lives in. */
  private serves(op: Operation, params: Record<string, string>): boolean {
    const name = `${params.owner}/${params.repo}`.toLowerCase();
    if (name === `${this.owner}/${this.repo}`.toLowerCase()) return true;
    return (
      op.operationId === "repos/list-activities" &&
      this.issues.some((i) => i.pull?.headRepo.toLowerCase() === name)
    );
  }

  private issueFor(n: string | undefined): Issue | undefined {
    return n === undefined ? undefined : this.issues.find((i) => i.number === Number(n));
  }

  private apply(
    op: Operation,
    params: Record<string, string>,
    query: Record<string, string>,
    body: Record<string, Json> | undefined,
    who: Identity,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const now = new Date().toISOString();
    const b = body ?? {};
    switch (op.operationId) {
      case "checks/create": {
        const run: CheckRun = {
          id: this.nextId++,
          name: String(b.name),
          head_sha: String(b.head_sha),
          status: b.conclusion ? "completed" : String(b.status ?? "queued"),
          conclusion: (b.conclusion as string) ?? null,
          details_url: b.details_url as string | undefined,
          external_id: b.external_id as string | undefined,
          started_at: (b.started_at as string) ?? now,
          completed_at: b.conclusion ? ((b.completed_at as string) ?? now) : null,
          output: { title: null, summary: null, text: null, annotations: [] },
        };
        this.mergeOutput(run, b.output as Record<string, Json> | undefined);
        this.checkRuns.push(run);
        return { status: 201, body: this.checkRunJson(run) };
      }
      case "checks/update": {
        const run = this.checkRuns.find((r) => r.id === Number(params.check_run_id));
        if (!run) return { status: 404, body: { message: "Not Found" } };
        if (b.name) run.name = String(b.name);
        if (typeof b.external_id === "string") run.external_id = b.external_id;
        if (b.status) run.status = String(b.status);
        if (b.conclusion) {
          run.conclusion = String(b.conclusion);
          run.status = "completed";
          run.completed_at = (b.completed_at as string) ?? now;
        }
        this.mergeOutput(run, b.output as Record<string, Json> | undefined);
        return { status: 200, body: this.checkRunJson(run) };
      }
      case "checks/list-for-ref": {
        const runs = this.checkRuns
          .filter((r) => r.head_sha === params.ref)
          .filter((r) => !query.check_name || r.name === query.check_name)
          .filter((r) => !query.status || r.status === query.status)
          .sort((x, y) => y.id - x.id);
        // filter=latest (the default) keeps the newest run of each name.
        const latest =
          (query.filter ?? "latest") === "latest"
            ? runs.filter((r, i) => runs.findIndex((x) => x.name === r.name) === i)
            : runs;
        const paged = this.page(
          latest,
          query,
          (r) => this.checkRunJson(r),
          `/repos/${this.owner}/${this.repo}/commits/${params.ref}/check-runs`,
        );
        return { ...paged, body: { total_count: latest.length, check_runs: paged.body } };
      }
      case "issues/list-comments": {
        if (!this.issueFor(params.issue_number)) return { status: 404, body: { message: "Not Found" } };
        const all = this.comments
          .filter((c) => c.issue === Number(params.issue_number))
          .filter((c) => !query.since || c.updatedAt >= new Date(query.since).toISOString())
          .sort((x, y) => x.id - y.id);
        return this.page(
          all,
          query,
          (c) => this.commentJson(c),
          `/repos/${this.owner}/${this.repo}/issues/${params.issue_number}/comments`,
        );
      }
      case "issues/create-comment": {
        if (!this.issueFor(params.issue_number)) return { status: 404, body: { message: "Not Found" } };
        if (String(b.body).length > 65_536)
          return {
            status: 422,
            body: {
              message: "Validation Failed",
              errors: [
                {
                  resource: "IssueComment",
                  code: "custom",
                  field: "body",
                  message: "body is too long (maximum is 65536 characters)",
                },
              ],
            },
          };
        const c: Comment = {
          id: this.nextId++,
          issue: Number(params.issue_number),
          body: String(b.body),
          login: who.login,
          createdAt: now,
          updatedAt: now,
        };
        this.comments.push(c);
        return { status: 201, body: this.commentJson(c) };
      }
      case "issues/get-comment": {
        const c = this.comments.find((x) => x.id === Number(params.comment_id));
        if (!c) return { status: 404, body: { message: "Not Found" } };
        return { status: 200, body: this.commentJson(c) };
      }
      case "issues/update-comment": {
        const c = this.comments.find((x) => x.id === Number(params.comment_id));
        if (!c) return { status: 404, body: { message: "Not Found" } };
        if (String(b.body).length > 65_536) return { status: 422, body: { message: "Validation Failed" } };
        c.body = String(b.body);
        c.updatedAt = now;
        return { status: 200, body: this.commentJson(c) };
      }
      case "issues/delete-comment": {
        const i = this.comments.findIndex((x) => x.id === Number(params.comment_id));
        if (i < 0) return { status: 404, body: { message: "Not Found" } };
        this.comments.splice(i, 1);
        return { status: 204, body: undefined };
      }
      case "issues/list-for-repo": {
        const state = query.state ?? "open";
        const list = this.issues
          .filter((i) => state === "all" || i.state === state)
          .filter((i) => !query.creator || i.login === query.creator)
          .sort((x, y) => y.number - x.number);
        return this.page(list, query, (i) => this.issueJson(i), `/repos/${this.owner}/${this.repo}/issues`);
      }
      case "issues/create": {
        const number = Math.max(0, ...this.issues.map((i) => i.number)) + 1;
        const issue: Issue = {
          number,
          title: String(b.title),
          body: String(b.body ?? ""),
          state: "open",
          login: who.login,
        };
        this.issues.push(issue);
        return { status: 201, body: this.issueJson(issue) };
      }
      case "issues/update": {
        const issue = this.issueFor(params.issue_number);
        if (!issue) return { status: 404, body: { message: "Not Found" } };
        if (typeof b.title === "string") issue.title = b.title;
        if (typeof b.body === "string") issue.body = b.body;
        if (b.state === "open" || b.state === "closed") issue.state = b.state;
        return { status: 200, body: this.issueJson(issue) };
      }
      case "pulls/get": {
        const issue = this.issueFor(params.pull_number);
        if (!issue?.pull) return { status: 404, body: { message: "Not Found" } };
        return { status: 200, body: this.pullJson(issue) };
      }
      case "pulls/list-commits": {
        const pull = this.issueFor(params.pull_number)?.pull;
        if (!pull) return { status: 404, body: { message: "Not Found" } };
        // GitHub lists at most 250 of a pull request's commits, oldest first.
        return this.page(
          pull.commits.slice(0, 250),
          query,
          (sha) => ({ ...sampleObject(SCHEMAS.commit), sha }),
          `/repos/${this.owner}/${this.repo}/pulls/${params.pull_number}/commits`,
        );
      }
      case "pulls/list-files": {
        if (!this.issueFor(params.pull_number)?.pull) return { status: 404, body: { message: "Not Found" } };
        const files = this.pullFiles.get(Number(params.pull_number)) ?? [];
        return this.page(
          files,
          query,
          (f) => {
            const additions = (f.patch ?? "").split("\n").filter((l) => l.startsWith("+")).length;
            return {
              ...sampleObject(SCHEMAS["diff-entry"]),
              filename: f.filename,
              status: f.status ?? "modified",
              additions,
              deletions: 0,
              changes: additions,
              ...(f.patch === undefined ? {} : { patch: f.patch }),
            };
          },
          `/repos/${this.owner}/${this.repo}/pulls/${params.pull_number}/files`,
        );
      }
      case "repos/list-activities": {
        const repo = `${params.owner}/${params.repo}`.toLowerCase();
        const ref = query.ref && !query.ref.startsWith("refs/") ? `refs/heads/${query.ref}` : query.ref;
        const list = this.activities
          .filter((a) => a.repo.toLowerCase() === repo && (!ref || a.ref === ref))
          .filter((a) => !query.activity_type || a.type === query.activity_type);
        // Newest first unless asked otherwise, as GitHub sorts it (direction defaults to desc).
        // Its pagination is by cursor (before/after), which nothing here asks for: one page.
        const sorted = query.direction === "asc" ? list : [...list].reverse();
        const body = sorted.slice(0, Math.min(100, Number(query.per_page ?? 30))).map((a) => ({
          id: a.id,
          node_id: `A_${a.id}`,
          before: a.before,
          after: a.after,
          ref: a.ref,
          timestamp: a.timestamp,
          activity_type: a.type,
          actor: this.user(a.actor, "User"),
        }));
        return { status: 200, body };
      }
      case "repos/get-collaborator-permission-level": {
        const role = this.collaborators.get(params.username ?? "") ?? "read";
        // `permission` is the legacy base role: maintain reads as write, triage as read.
        const permission = role === "maintain" ? "write" : role === "triage" ? "read" : role;
        return {
          status: 200,
          body: {
            permission,
            role_name: role,
            user: { ...this.user(params.username ?? "", "User"), role_name: role },
          },
        };
      }
      case "reactions/create-for-issue-comment": {
        if (!this.comments.some((c) => c.id === Number(params.comment_id)))
          return { status: 404, body: { message: "Not Found" } };
        // GitHub answers 200 with the existing reaction when the same user reacts the same way again.
        const existing = this.reactions.find(
          (r) =>
            r.commentId === Number(params.comment_id) && r.content === b.content && r.login === who.login,
        );
        const r = existing ?? {
          id: this.nextId++,
          commentId: Number(params.comment_id),
          content: String(b.content),
          login: who.login,
        };
        if (!existing) this.reactions.push(r);
        return {
          status: existing ? 200 : 201,
          body: {
            ...sampleObject(SCHEMAS.reaction),
            id: r.id,
            content: r.content,
            user: this.user(r.login, "Bot"),
            created_at: now,
          },
        };
      }
      default:
        return { status: 500, body: { message: `double does not implement ${op.operationId}` } };
    }
  }

  private mergeOutput(run: CheckRun, output: Record<string, Json> | undefined): void {
    if (!output) return;
    if (typeof output.title === "string") run.output.title = output.title;
    if (typeof output.summary === "string") run.output.summary = output.summary;
    if (typeof output.text === "string") run.output.text = output.text;
    // GitHub appends annotations on every update rather than replacing them.
    if (Array.isArray(output.annotations)) run.output.annotations.push(...(output.annotations as Schema[]));
  }

  private page<T>(all: T[], query: Record<string, string>, json: (t: T) => unknown, path: string) {
    const perPage = Math.min(100, Number(query.per_page ?? 30));
    const page = Number(query.page ?? 1);
    const items = all.slice((page - 1) * perPage, page * perPage).map(json);
    const headers: Record<string, string> = {};
    // GitHub's Link header: next and last while there are later pages, first and prev after page 1.
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (n: number, rel: string) => {
      const u = new URL(path, this.url);
      for (const [k, v] of Object.entries({ ...query, per_page: String(perPage), page: String(n) })) {
        u.searchParams.set(k, v);
      }
      return `<${u.href}>; rel="${rel}"`;
    };
    const rels = [
      ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
      ...(page > 1 ? [link(1, "first"), link(Math.min(page - 1, last), "prev")] : []),
    ];
    if (rels.length) headers.link = rels.join(", ");
    return { status: 200, body: items, headers };
  }

  private user(login: string, type = "Bot"): Record<string, unknown> {
    return { ...sampleObject(SCHEMAS["simple-user"]), login, type, id: login.length * 1000 + 7 };
  }

  private base(): string {
    return `${this.url}/repos/${this.owner}/${this.repo}`;
  }

  private commentJson(c: Comment): unknown {
    return {
      ...sampleObject(SCHEMAS["issue-comment"]),
      id: c.id,
      node_id: graphqlNodeId(c.id),
      body: c.body,
      user: this.user(c.login, c.login.endsWith("[bot]") ? "Bot" : "User"),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      url: `${this.base()}/issues/comments/${c.id}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.base()}/issues/${c.issue}`,
    };
  }

  private checkRunJson(r: CheckRun): unknown {
    const s = sample(SCHEMAS["check-run"]!) as Record<string, unknown>;
    return {
      ...s,
      id: r.id,
      name: r.name,
      head_sha: r.head_sha,
      status: r.status,
      conclusion: r.conclusion,
      details_url: r.details_url ?? null,
      external_id: r.external_id ?? null,
      started_at: r.started_at,
      completed_at: r.completed_at,
      url: `${this.base()}/check-runs/${r.id}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/runs/${r.id}`,
      output: {
        title: r.output.title,
        summary: r.output.summary,
        text: r.output.text,
        annotations_count: r.output.annotations.length,
        annotations_url: `${this.base()}/check-runs/${r.id}/annotations`,
      },
    };
  }

  private issueJson(i: Issue): unknown {
    const s = sample(SCHEMAS.issue!) as Record<string, unknown>;
    return {
      ...s,
      number: i.number,
      id: i.number + 500_000,
      title: i.title,
      body: i.body,
      state: i.state,
      user: this.user(i.login, i.login.endsWith("[bot]") ? "Bot" : "User"),
      url: `${this.base()}/issues/${i.number}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/issues/${i.number}`,
      ...(i.pull
        ? {
            pull_request: {
              ...sampleObject((SCHEMAS.issue!.properties as Record<string, Schema>).pull_request),
              url: `${this.base()}/pulls/${i.number}`,
            },
          }
        : {}),
    };
  }

  private pullJson(i: Issue): unknown {
    const s = sample(SCHEMAS["pull-request"]!) as Record<string, Record<string, unknown>>;
    const [headOwner = "", headName = ""] = i.pull!.headRepo.split("/");
    return {
      ...s,
      number: i.number,
      state: i.state,
      head: {
        ...s.head,
        sha: i.pull!.headSha,
        ref: i.pull!.headRef,
        repo: {
          ...(s.head?.repo as object),
          full_name: i.pull!.headRepo,
          name: headName,
          fork: i.pull!.headRepo !== i.pull!.baseRepo,
          owner: this.user(headOwner, "User"),
        },
      },
      base: {
        ...s.base,
        sha: i.pull!.baseSha,
        repo: { ...(s.base?.repo as object), full_name: i.pull!.baseRepo, name: this.repo },
      },
    };
  }
}

// ---------------------------------------------------------------------------------------------

function matchOperation(
  method: string,
  pathname: string,
): { op: Operation; params: Record<string, string> } | null {
  for (const op of OPS) {
    if (op.method !== method) continue;
    const names: string[] = [];
    const re = new RegExp(
      `^${op.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m, a, b) => {
        names.push(a ?? b);
        return "([^/]+)";
      })}$`,
    );
    const m = re.exec(pathname);
    if (m) return { op, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return null;
}

/** Which app permissions allow this write; null for reads. PR comments accept either. */
function writeNeeded(
  op: Operation,
  issue: Issue | undefined,
): Array<"checks" | "pull_requests" | "issues"> | null {
  if (op.method === "get") return null;
  if (op.operationId.startsWith("checks/")) return ["checks"];
  if (op.operationId.includes("comment"))
    return issue?.pull ? ["pull_requests", "issues"] : ["issues", "pull_requests"];
  return ["issues"];
}

/**
 * GitHub's description marks fields like a check run's `conclusion` `nullable: true` with an
 * enum that omits null, and GitHub does answer null. Ajv reads enum strictly, so null is added
 * to such enums (OpenAPI 3.0.3's clarified meaning of nullable). Also rewrites nullable without type.
 */
function nullableEnums(node: unknown): unknown {
  if (Array.isArray(node)) node.forEach(nullableEnums);
  else if (node && typeof node === "object") {
    const o = node as Schema;
    if (o.nullable === true && Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
    if (o.nullable === true && o.type === undefined) {
      // `nullable` beside a $ref or allOf (no `type`): Ajv refuses it, so say the same as anyOf.
      const inner: Schema = { ...o };
      delete inner.nullable;
      for (const k of Object.keys(o)) delete o[k];
      o.anyOf = [inner, { type: "null" }];
    }
    for (const v of Object.values(o)) nullableEnums(v);
  }
  return node;
}

/** Names every body field the schema does not define (ajv lets them through; GitHub ignores them silently). */
function unknownFields(schema: Schema | undefined, value: unknown, at: string): string[] {
  const s = resolve(schema);
  if (!s || value === null || typeof value !== "object") return [];
  if (Array.isArray(value))
    return value.flatMap((v, i) => unknownFields(s.items as Schema, v, `${at}[${i}]`));
  const props = s.properties as Record<string, Schema> | undefined;
  if (!props || s.oneOf || s.anyOf || s.allOf) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k in props ? unknownFields(props[k], v, `${at}.${k}`) : [`${at}.${k}`],
  );
}

function sampleObject(schema: Schema | undefined): Record<string, unknown> {
  const v = sample(schema);
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {};
}

function statusText(status: number): string {
  return (
    {
      403: "Forbidden",
      404: "Not Found",
      422: "Validation Failed",
      500: "Internal Server Error",
      502: "Bad Gateway",
      503: "Service Unavailable",
    }[status] ?? "Error"
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}
