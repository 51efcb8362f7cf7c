// issue_comment webhook payloads shaped by GitHub's own description of them: the smallest value
// the `webhook-issue-comment-<action>` schema in @octokit/openapi accepts, with the fields a
// scenario is about filled in, and validated against that schema before any test uses it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";

type Schema = { [k: string]: unknown };

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

function resolve(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; i < 10 && s && typeof s.$ref === "string"; i++) {
    s = SCHEMAS[(s.$ref as string).replace("#/components/schemas/", "")];
  }
  return s;
}

/** The smallest value a schema accepts: required fields only, first enum value, null where allowed. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 20) return null;
  if (s.nullable) return null;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as Schema[]).map((x) => sample(x, depth + 1));
    return Object.assign({}, ...parts.filter((p) => p !== null && typeof p === "object"));
  }
  if (Array.isArray(s.oneOf)) return sample((s.oneOf as Schema[])[0], depth + 1);
  if (Array.isArray(s.anyOf)) return sample((s.anyOf as Schema[])[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      return s.format === "date-time" ? "2026-01-01T00:00:00Z" : s.format === "uri" ? "https://x.test/" : "x";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    default: {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, Schema>;
      for (const k of (s.required as string[] | undefined) ?? []) out[k] = sample(props[k], depth + 1);
      return out;
    }
  }
}
