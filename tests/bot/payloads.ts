// issue_comment webhook payloads shaped by GitHub's own description of them: the smallest value
// the `webhook-issue-comment-<action>` schema in @octokit/openapi accepts, with the fields a
// scenario is about filled in, and validated against that schema before any test uses it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { type Schema, schemaSampler } from "../helpers/schema-sample.js";

const require = createRequire(import.meta.url);
const spec = JSON.parse(
  readFileSync(
    path.join(
      path.dirname(require.resolve("@octokit/openapi/package.json")),
      "generated",
      "api.github.com.json",
    ),
    "utf8",
  ),
) as { components: { schemas: Record<string, Schema> } };
const SCHEMAS = spec.components.schemas;
const { sample } = schemaSampler(SCHEMAS);

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ components: spec.components }, "spec");
const validators = new Map<string, ValidateFunction>();

export type CommentAction = "created" | "edited" | "deleted";

/** Throws when the payload is not one GitHub could send. */
export function assertWebhookShape(action: CommentAction, payload: unknown): void {
  const name = `webhook-issue-comment-${action}`;
  let v = validators.get(name);
  if (!v) {
    v = ajv.compile({ $ref: `spec#/components/schemas/${name}` });
    validators.set(name, v);
  }
  if (!v(payload)) throw new Error(`not a valid ${name} payload: ${ajv.errorsText(v.errors)}`);
}

export interface CommentScenario {
  action?: CommentAction;
  body: string;
  login: string;
  userType?: "User" | "Bot";
  commentId: number;
  issue: number;
  /** False for a plain issue. */
  pullRequest?: boolean;
  /** What the payload claims; the bot must not trust it. */
  authorAssociation?: "OWNER" | "MEMBER" | "COLLABORATOR" | "CONTRIBUTOR" | "NONE";
  owner?: string;
  repo?: string;
}

export function issueCommentPayload(s: CommentScenario): Record<string, unknown> {
  const action = s.action ?? "created";
  const base = sample(SCHEMAS[`webhook-issue-comment-${action}`]) as Record<string, Record<string, unknown>>;
  const owner = s.owner ?? "octo-org";
  const repo = s.repo ?? "app";
  const person = (login: string, type: string) => ({
    ...(sample(SCHEMAS["simple-user"]) as object),
    login,
    id: 1000 + login.length,
    type,
    gravatar_id: "",
    html_url: `https://github.com/${login}`,
  });
  const user = person(s.login, s.userType ?? "User");
  const payload: Record<string, unknown> = {
    ...base,
    action,
    comment: {
      ...base.comment,
      id: s.commentId,
      body: s.body,
      user,
      author_association: s.authorAssociation ?? "NONE",
      html_url: `https://github.com/${owner}/${repo}/pull/${s.issue}#issuecomment-${s.commentId}`,
    },
    issue: {
      ...base.issue,
      number: s.issue,
      user: person("contributor", "User"),
      ...(s.pullRequest === false
        ? {}
        : {
            pull_request: {
              url: `https://api.github.com/repos/${owner}/${repo}/pulls/${s.issue}`,
              html_url: `https://github.com/${owner}/${repo}/pull/${s.issue}`,
              diff_url: `https://github.com/${owner}/${repo}/pull/${s.issue}.diff`,
              patch_url: `https://github.com/${owner}/${repo}/pull/${s.issue}.patch`,
              merged_at: null,
            },
          }),
    },
    repository: {
      ...base.repository,
      name: repo,
      full_name: `${owner}/${repo}`,
      owner: { ...(base.repository?.owner as object), login: owner },
    },
    sender: user,
  };
  if (action === "edited") payload.changes = { body: { from: "before the edit" } };
  assertWebhookShape(action, payload);
  return payload;
}
