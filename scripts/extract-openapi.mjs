#!/usr/bin/env node
// Extracts the operations docker-acceptance calls from GitHub's own OpenAPI description
// (@octokit/openapi, 385 MB installed) into tests/double/openapi-subset.json, which the API
// double validates every request against. tests/double/openapi-subset.test.ts re-runs this
// extraction and compares, so the committed subset cannot drift from the package.
//
//   node scripts/extract-openapi.mjs          # write the subset
//   node scripts/extract-openapi.mjs --stdout # print it (used by the drift test)
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Every GitHub operation the code may call. Adding a call means adding it here and re-running. */
export const OPERATIONS = [
  ["post", "/repos/{owner}/{repo}/check-runs"],
  ["patch", "/repos/{owner}/{repo}/check-runs/{check_run_id}"],
  // Idempotent check runs: a create whose answer was lost is looked up by its external_id.
  ["get", "/repos/{owner}/{repo}/commits/{ref}/check-runs"],
  ["get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
  ["post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
  ["get", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
  ["patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
  ["delete", "/repos/{owner}/{repo}/issues/comments/{comment_id}"],
  ["get", "/repos/{owner}/{repo}/issues"],
  ["post", "/repos/{owner}/{repo}/issues"],
  ["patch", "/repos/{owner}/{repo}/issues/{issue_number}"],
  ["get", "/repos/{owner}/{repo}/pulls/{pull_number}"],
  ["get", "/repos/{owner}/{repo}/pulls/{pull_number}/files"],
  // The sticky comment's remembered id, on the check run of a commit tested earlier in the PR.
  ["get", "/repos/{owner}/{repo}/pulls/{pull_number}/commits"],
  // The PR-comment bot (src/bot): the commenter's permission, and reactions on the command.
  ["get", "/repos/{owner}/{repo}/collaborators/{username}/permission"],
  ["post", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"],
  // The bot's pinned head: the pushes GitHub recorded to the PR's head branch, with their times.
  ["get", "/repos/{owner}/{repo}/activity"],
];

// Prose and examples are not needed to validate and would make the subset ten times larger.
const DROP = new Set(["description", "example", "examples", "summary", "externalDocs"]);

function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (DROP.has(k) || k.startsWith("x-")) continue;
    // Under `properties` the keys are field names (`summary`, `description`), not keywords.
    out[k] = k === "properties" ? mapValues(v, strip) : strip(v);
  }
  return out;
}

function mapValues(obj, fn) {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]));
}

function resolvePointer(spec, ref) {
  return ref
    .slice(2)
    .split("/")
    .reduce((n, key) => n[key.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
}

/** Collects the names of every components.schemas entry reachable from node. */
function collectSchemaRefs(spec, node, seen) {
  if (Array.isArray(node)) {
    for (const n of node) collectSchemaRefs(spec, n, seen);
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/")) {
    const name = node.$ref.slice("#/components/schemas/".length);
    if (!seen.has(name)) {
      seen.add(name);
      collectSchemaRefs(spec, spec.components.schemas[name], seen);
    }
  }
  for (const v of Object.values(node)) collectSchemaRefs(spec, v, seen);
}

/** Non-schema refs (parameters, responses) are inlined; schema refs stay refs into `components`. */
function inlineNonSchemaRefs(spec, node) {
  if (Array.isArray(node)) return node.map((n) => inlineNonSchemaRefs(spec, n));
  if (node === null || typeof node !== "object") return node;
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#/components/schemas/")) {
    return inlineNonSchemaRefs(spec, resolvePointer(spec, node.$ref));
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = inlineNonSchemaRefs(spec, v);
  return out;
}

export function extract() {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("@octokit/openapi/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  const spec = JSON.parse(
    readFileSync(path.join(path.dirname(pkgPath), "generated", "api.github.com.json"), "utf8"),
  );
  const operations = [];
  const seen = new Set();
  for (const [method, route] of OPERATIONS) {
    const op = spec.paths[route]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${route} is not in @octokit/openapi ${pkg.version}`);
    const inlined = inlineNonSchemaRefs(spec, op);
    const responses = {};
    for (const [status, res] of Object.entries(inlined.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      responses[status] = res.content?.["application/json"]?.schema ?? null;
    }
    const entry = strip({
      operationId: op.operationId,
      method,
      path: route,
      parameters: (inlined.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required ?? false,
        schema: p.schema,
      })),
      requestBody: inlined.requestBody?.content?.["application/json"]?.schema ?? null,
      requestBodyRequired: inlined.requestBody?.required ?? false,
      responses,
    });
    collectSchemaRefs(spec, entry, seen);
    operations.push(entry);
  }
  const schemas = {};
  for (const name of [...seen].sort()) schemas[name] = strip(spec.components.schemas[name]);
  return {
    source: { package: "@octokit/openapi", version: pkg.version, file: "generated/api.github.com.json" },
    openapi: spec.openapi,
    operations,
    components: { schemas },
  };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const text = `${JSON.stringify(extract(), null, 1)}\n`;
  if (process.argv.includes("--stdout")) process.stdout.write(text);
  else {
    const out = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      "..",
      "tests",
      "double",
      "openapi-subset.json",
    );
    writeFileSync(out, text);
    process.stderr.write(`wrote ${out} (${text.length} bytes)\n`);
  }
}
