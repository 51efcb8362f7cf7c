// The pinned acceptance inventory: the single source of truth for what acceptance means in a
// repository. `docker-acceptance schema` exports this as JSON Schema (acceptance/inventory.schema.json).
//
// Rules that need a precise message carry their fix in the issue's `params.fix` (validate.ts turns
// it into the ConfigError); `.meta()` repeats them for the JSON Schema so editors flag them too.
// Every refinement is a rule of ./rules.ts (`rule()`), which the precompiled check
// (./precheck.ts, its plan derived from this schema) runs too: no refinement is written inline.

import * as z from "zod";
import { ALL_CASES, CASES_BY_SUITE, SUITES, type SuiteName } from "../cases/index.js";
import { requestPath, rule, text } from "../checks/fields.js";
import { probeSchema, type Readiness, readinessSchema } from "../checks/registry.js";
import { MAX_REFERENCE } from "./image-ref.js";
import {
  BOUNDS,
  buildRule,
  caseIdRule,
  imageIdVariableRule,
  imageRefRule,
  inventoryRule,
  MEMORY_SIZE,
  mapSizeRule,
  memoryRule,
  relPathRule,
  SHA256_PATTERN,
  secretsSizeRule,
  secretVariableRule,
  severityRule,
  sha256Rule,
  subjectRule,
} from "./rules.js";

export const INVENTORY_SCHEMA_VERSION = 1;

const value = () => z.string().max(BOUNDS.valueChars);
const map = (values: z.ZodType<string>) => z.record(text(), values).check(rule(mapSizeRule));

const relPath = text(1)
  .check(rule(relPathRule))
  .describe("a path relative to the workspace (the repository root); no '..', not absolute");

const containerPath = text()
  .regex(/^\/[^\0]*$/, "an absolute path inside the container, such as /tmp")
  .describe("absolute path inside the container");

const sha256 = z
  .string()
  .check(rule(sha256Rule))
  .meta({ pattern: SHA256_PATTERN, description: "sha256 of the file's bytes, 64 lowercase hex digits" });

/** A case ID of one suite: unknown IDs and IDs of the other suite get their own message. */
function caseIdOf(suite: (typeof SUITES)[number]) {
  const ids = CASES_BY_SUITE[suite] as readonly string[];
  return z
    .string()
    .check(rule(caseIdRule, { arg: suite }))
    .meta({ enum: [...ids] });
}

const memory = z
  .union([
    z.number().int().positive(),
    z.string().max(32).regex(MEMORY_SIZE, 'a size such as "256m", "256MB" or "1g"'),
  ])
  .check(rule(memoryRule))
  .describe(
    `memory limit in bytes, or a size such as "256m", "256MB" or "1g" (at most ${BOUNDS.memoryBytes / 1024 ** 3}g)`,
  );

const limits = z
  .object({
    memory: memory.default("256m"),
    pids: z.number().int().positive().max(BOUNDS.pids).default(128).describe("maximum number of processes"),
    cpus: z.number().positive().max(BOUNDS.cpus).default(1).describe("CPU quota, in cores"),
  })
  .strict()
  .describe("resource limits the subject runs under");

const build = z
  .object({
    context: relPath.describe("build context directory, relative to the workspace"),
    dockerfile: text(1).default("Dockerfile").describe("Dockerfile path inside the context"),
    args: map(value()).default({}).describe("build arguments"),
    target: text().optional().describe("multi-stage target: the stage to build"),
    builder: z
      .enum(["buildkit", "legacy"])
      .default("buildkit")
      .describe(
        "buildkit (default, as docker build and docker/build-push-action) or legacy; BuildKit falls back to legacy only on an engine without it, and the report says so",
      ),
    secrets: z
      .record(
        z
          .string()
          .max(128)
          .regex(/^[A-Za-z0-9._-]+$/, "a secret id such as npm_token"),
        z
          .string()
          .max(128)
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
          .check(rule(secretVariableRule)),
      )
      .check(rule(secretsSizeRule))
      .default({})
      .describe(
        "BuildKit secret mounts: secret id -> name of the environment variable holding its value (`RUN --mount=type=secret,id=<id>`); a variable unset when the run starts is a configuration error at load; values are never logged, reported or stored in the image",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(BOUNDS.buildTimeoutMs)
      .default(15 * 60_000)
      .describe("how long the build may take, in ms (the engine is asked to stop it then)"),
  })
  .strict()
  .check(rule(buildRule))
  .describe("build the subject from a Dockerfile");

/** Parts of the hardening contract an inventory may leave out, each by name. */
const RELAXABLE = ["read-only-root", "no-new-privileges"] as const;

/** JSON has no comments: a note for people, which nothing reads (init writes where settings came from). */
const description = z.string().max(4000).optional().describe("a note for people; the run never reads it");

export const subjectSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "lowercase letters, digits, '.', '_' or '-', at most 63")
      .describe("unique subject name, used in case results and container names"),
    description,
    build: build.optional(),
    image: z
      .string()
      .min(1)
      .check(rule(imageRefRule))
      .optional()
      .describe(
        `a prebuilt image reference (instead of build): [registry/]name[:tag][@digest] or sha256:<image ID>, at most ${MAX_REFERENCE} characters`,
      ),
    imageId: z
      .string()
      .max(200)
      .regex(
        /^(sha256:[0-9a-f]{64}|env:[A-Za-z_][A-Za-z0-9_]*)$/,
        'sha256: and 64 lowercase hex digits, or "env:NAME" for an ID an earlier step put in the environment',
      )
      .check(rule(imageIdVariableRule))
      .optional()
      .describe(
        "with `image`: the image ID (or repo digest) it must have, verified before use like an artifact pin; \"env:NAME\" reads it from an environment variable at run time (docker/build-push-action's `imageid` output passed through the step's env)",
      ),
    port: z.number().int().min(1).max(65535).default(8080).describe("container port the subject serves on"),
    healthPath: requestPath()
      .optional()
      .describe('shorthand for readiness { "type": "http", "path": ... } (default /health)'),
    readiness: readinessSchema.optional(),
    probes: z.array(probeSchema).max(BOUNDS.probes).default([]).describe("checks that must hold once ready"),
    user: text(1)
      .optional()
      .describe("user[:group] the subject runs as; absent: the image's USER, as `docker run` would"),
    init: z
      .boolean()
      .default(false)
      .describe("run an init process as PID 1 (docker run --init); absent: the image's own PID 1"),
    relax: z
      .array(z.enum(RELAXABLE))
      .default([])
      .describe(
        "hardening the launch leaves out, explicitly (shown in the report; containment still grades it)",
      ),
    writableRoots: z
      .array(containerPath)
      .max(BOUNDS.listItems)
      .default(["/tmp", "/dev/shm"])
      .describe("the only writable places: tmpfs mounts (and /dev/shm)"),
    network: z
      .enum(["bridge", "none"])
      .default("bridge")
      .describe("bridge publishes the port on 127.0.0.1 only"),
    limits: limits.prefault({}),
    capabilities: z
      .array(
        z
          .string()
          .max(64)
          .regex(/^[A-Z_]+$/, "a capability name such as NET_BIND_SERVICE"),
      )
      .max(BOUNDS.listItems)
      .default([])
      .describe("capabilities the subject may keep (all others are dropped)"),
    allowedHostPaths: z
      .array(
        z
          .object({
            path: text()
              .regex(/^\/[^\0:]*$/, "an absolute host path, such as /srv/data")
              .describe("host directory or file; binds of it and of anything under it are allowed"),
            readOnly: z.boolean().default(true).describe("false also allows a read-write bind"),
          })
          .strict(),
      )
      .max(BOUNDS.listItems)
      .default([])
      .describe(
        "host paths containment.mounts accepts as bind sources (every other host bind is a finding; sensitive host paths such as /, /etc, /proc, /var/run or an engine socket never count)",
      ),
    env: map(value()).default({}).describe("environment variables"),
    command: z.array(value()).max(BOUNDS.listItems).optional().describe("overrides the image's CMD"),
    startupTimeoutMs: z
      .number()
      .int()
      .positive()
      .max(BOUNDS.startupTimeoutMs)
      .default(30_000)
      .describe("how long the subject may take to answer its health path"),
    stopTimeoutMs: z
      .number()
      .int()
      .positive()
      .max(BOUNDS.stopTimeoutMs)
      .default(10_000)
      .describe("SIGTERM grace period"),
    weight: z
      .number()
      .positive()
      .max(BOUNDS.weight)
      .default(1)
      .describe("relative cost, used to balance shards"),
  })
  .strict()
  .check(rule(subjectRule))
  .describe("a container under test");

function suiteRequirement(suite: (typeof SUITES)[number]) {
  const id = caseIdOf(suite);
  return z
    .object({
      required: z.array(id).describe(`${suite} case IDs every subject must run, exactly`),
      subjects: z
        .record(z.string(), z.array(id))
        .default({})
        .describe("per-subject replacement of the required list, keyed by subject name"),
    })
    .strict()
    .describe(`the pinned ${suite} cases`);
}

const severity = z
  .record(z.string(), z.enum(["fail", "warn"]))
  .check(rule(severityRule))
  .meta({ propertyNames: { enum: [...ALL_CASES] } })
  .describe("per case ID, whether its failure fails the run (`fail`, the default) or only warns");

const artifact = z
  .object({
    path: relPath.describe("file path relative to the workspace"),
    sha256,
  })
  .strict()
  .describe("a file whose content is pinned");

export const inventorySchema = z
  .object({
    $schema: text().optional().describe("JSON Schema for editors: ./inventory.schema.json"),
    description,
    schemaVersion: z.literal(INVENTORY_SCHEMA_VERSION).describe("inventory format version"),
    subjects: z.array(subjectSchema).min(1).max(BOUNDS.subjects).describe("the containers under test"),
    suites: z
      .object(
        Object.fromEntries(SUITES.map((s) => [s, suiteRequirement(s).optional()])) as {
          [S in SuiteName]: z.ZodOptional<ReturnType<typeof suiteRequirement>>;
        },
      )
      .strict()
      .default({})
      .describe(
        "for each suite, the exact case IDs every subject must run. A case that runs without being pinned here is drift and fails the run (unless require-complete is false), so a suite left out fails every case it runs: pin them all (`docker-acceptance init` writes every current case; `init --update` adds the ones a newer version brings)",
      ),
    artifacts: z
      .array(artifact)
      .max(BOUNDS.artifacts)
      .default([])
      .describe("files whose content is pinned; `docker-acceptance pin` rewrites the digests"),
    severity: severity.default({}),
    probeImage: text(1)
      .optional()
      .describe(
        "ignored: the probe image comes only from the probe-image input or the built-in default, never from a file in the pull request (kept so older inventories still load)",
      ),
  })
  .strict()
  // Cross-field rules run even when a field elsewhere is invalid, so one pass reports every problem.
  .check(rule(inventoryRule, { evenWhenInvalid: true }))
  .describe("docker-acceptance: what acceptance means in this repository");

export type Inventory = z.infer<typeof inventorySchema>;
export type Subject = z.infer<typeof subjectSchema>;
export type { Readiness };
