// The pinned acceptance inventory: the single source of truth for what acceptance means in a
// repository. `docker-acceptance schema` exports this as JSON Schema (acceptance/inventory.schema.json).
//
// Rules that need a precise message carry their fix in the issue's `params.fix` (load.ts turns it
// into the ConfigError); `.meta()` repeats them for the JSON Schema so editors flag them too.

import path from "node:path";
import * as z from "zod";
import {
  ALL_CASES,
  CASES_BY_SUITE,
  CONTAINMENT_CASES,
  LIFECYCLE_CASES,
  SUITES,
  type SuiteName,
} from "../cases/index.js";
import { DELAY_MS, requestPath, TEXT_CHARS, text } from "../checks/fields.js";
import { type Probe, probeSchema, type Readiness, readinessSchema } from "../checks/registry.js";
import { MAX_REFERENCE, referenceProblem } from "./image-ref.js";
import { closest } from "./suggest.js";

export const INVENTORY_SCHEMA_VERSION = 1;

/**
 * Every size the inventory chooses, bounded: the inventory is a file of the pull request, so each
 * number here is a cost the PR's author picks for the runner. The README's "Bounds" table gives
 * the reason for each; past one, loading fails with the field, the bound and the fix.
 */
export const BOUNDS = {
  subjects: 100,
  probes: 32,
  /** writableRoots, capabilities, allowedHostPaths, command arguments. */
  listItems: 64,
  /** env, build.args. */
  mapEntries: 256,
  secrets: 32,
  artifacts: 1000,
  /** Names, paths, references, probe strings. */
  textChars: TEXT_CHARS,
  /** One environment value, build argument or command argument. */
  valueChars: 32 * 1024,
  memoryBytes: 8 * 1024 ** 3,
  pids: 4096,
  cpus: 64,
  startupTimeoutMs: 600_000,
  stopTimeoutMs: 120_000,
  /** A build past two hours is better built by its own workflow step and named as `image`. */
  buildTimeoutMs: 2 * 60 * 60_000,
  delayMs: DELAY_MS,
  weight: 1000,
} as const;

const value = () => z.string().max(BOUNDS.valueChars);
const map = (values: z.ZodType<string>) =>
  z.record(text(), values).refine((m) => Object.keys(m).length <= BOUNDS.mapEntries, {
    message: `more than ${BOUNDS.mapEntries} entries`,
    params: { fix: `keep at most ${BOUNDS.mapEntries}` },
  });

/** A problem with the lexical shape of a workspace-relative path, or undefined when it is safe. */
export function relPathProblem(candidate: string): { message: string; fix: string } | undefined {
  if (candidate.includes("\0")) return { message: "contains a NUL byte", fix: "remove it" };
  if (path.posix.isAbsolute(candidate) || path.win32.isAbsolute(candidate)) {
    return {
      message: `${JSON.stringify(candidate)} is an absolute path; expected a path relative to the workspace`,
      fix: 'write it relative to the repository root, without a leading "/"',
    };
  }
  // Backslashes count as separators: the same inventory may be read on a Windows runner.
  const norm = path.posix.normalize(candidate.replaceAll("\\", "/"));
  if (norm === ".." || norm.startsWith("../")) {
    return {
      message: `${JSON.stringify(candidate)} escapes the workspace; expected a path inside it`,
      fix: 'remove the ".." segments so the path stays inside the repository',
    };
  }
  return undefined;
}

const relPath = text(1)
  .superRefine((p, ctx) => {
    const problem = relPathProblem(p);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { fix: problem.fix } });
  })
  .describe("a path relative to the workspace (the repository root); no '..', not absolute");

const containerPath = text()
  .regex(/^\/[^\0]*$/, "an absolute path inside the container, such as /tmp")
  .describe("absolute path inside the container");

const SHA256 = /^[0-9a-f]{64}$/;
const sha256 = z
  .string()
  .superRefine((v, ctx) => {
    if (SHA256.test(v)) return;
    const fix = /^[0-9a-fA-F]{64}$/.test(v)
      ? "write the digest in lowercase"
      : "run `docker-acceptance pin` to write the digest of the file in the workspace";
    const shown = v.length > 16 ? `${v.slice(0, 16)}…` : v;
    ctx.addIssue({
      code: "custom",
      message: `expected 64 lowercase hex digits (a sha256 digest), got ${JSON.stringify(shown)} (${v.length} characters)`,
      params: { fix },
    });
  })
  .meta({ pattern: SHA256.source, description: "sha256 of the file's bytes, 64 lowercase hex digits" });

/** A case ID of one suite: unknown IDs and IDs of the other suite get their own message. */
function caseIdOf(suite: (typeof SUITES)[number]) {
  const ids = CASES_BY_SUITE[suite] as readonly string[];
  return z
    .string()
    .superRefine((id, ctx) => {
      if (ids.includes(id)) return;
      const other = SUITES.find((s) => s !== suite && (CASES_BY_SUITE[s] as readonly string[]).includes(id));
      if (other) {
        ctx.addIssue({
          code: "custom",
          message: `"${id}" is a ${other} case, not a ${suite} case`,
          params: { fix: `move it to suites.${other}` },
        });
        return;
      }
      const near = closestCase(id, ids);
      ctx.addIssue({
        code: "custom",
        message: `unknown ${suite} case ID "${id}"; expected one of ${ids.join(", ")}`,
        params: { fix: near ? `did you mean "${near}"?` : "use one of the listed IDs" },
      });
    })
    .meta({ enum: [...ids] });
}

/** Compares the part after the suite prefix, so "lifecycle.boot" is not mistaken for a typo of "lifecycle.stop". */
function closestCase(id: string, ids: readonly string[]): string | undefined {
  const tail = (x: string) => x.slice(x.indexOf(".") + 1);
  const near = closest(tail(id), ids.map(tail));
  return near === undefined ? undefined : ids.find((x) => tail(x) === near);
}

/** Sizes as Docker accepts them (go-units RAMInBytes): 256m, 256MB, 1g, 1GiB, 512 k, 1024. */
const MEMORY_SIZE = /^(\d+(?:\.\d+)?) ?([bkmgtp])?(i?b)?$/i;

const memory = z
  .union([
    z.number().int().positive(),
    z.string().max(32).regex(MEMORY_SIZE, 'a size such as "256m", "256MB" or "1g"'),
  ])
  .superRefine((v, ctx) => {
    if (typeof v === "string" && !MEMORY_SIZE.test(v.trim())) return; // reported by the regex
    if (parseMemory(v) <= BOUNDS.memoryBytes) return;
    ctx.addIssue({
      code: "custom",
      message: `asks for more than ${BOUNDS.memoryBytes / 1024 ** 3} GiB, the most a subject may have`,
      params: { fix: 'lower it (a service under test rarely needs more than "1g")' },
    });
  })
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

/** The runner's and the action's own credentials: never a build secret. */
const RESERVED_ENV = /^(GITHUB_TOKEN|ACTIONS_[A-Z_]*|INPUT_[A-Z0-9_]*|RUNNER_[A-Z_]*)$/;

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
          .refine((name) => !RESERVED_ENV.test(name), {
            message: "names a variable the runner or the action itself holds; it is never handed to a build",
          }),
      )
      .refine((m) => Object.keys(m).length <= BOUNDS.secrets, {
        message: `more than ${BOUNDS.secrets} secrets`,
        params: { fix: `keep at most ${BOUNDS.secrets}` },
      })
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
  .superRefine((b, ctx) => {
    if (relPathProblem(b.context)) return; // reported on `context` already
    const problem = relPathProblem(path.posix.join(b.context.replaceAll("\\", "/"), b.dockerfile));
    if (problem || path.posix.isAbsolute(b.dockerfile)) {
      ctx.addIssue({
        code: "custom",
        path: ["dockerfile"],
        message: `${JSON.stringify(b.dockerfile)} leaves the workspace; expected a Dockerfile path inside the build context`,
        params: { fix: "move the Dockerfile into the build context and name it relative to the context" },
      });
    }
  })
  .describe("build the subject from a Dockerfile");

/** Parts of the hardening contract an inventory may leave out, each by name. */
export const RELAXABLE = ["read-only-root", "no-new-privileges"] as const;

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
      .superRefine((ref, ctx) => {
        const problem = referenceProblem(ref);
        if (problem)
          ctx.addIssue({
            code: "custom",
            message: `the image reference ${problem}`,
            params: {
              fix: 'write it as the engine names the image: "name:tag", "registry/name:tag", "name@sha256:…" or "sha256:<image ID>"',
            },
          });
      })
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
      .refine((v) => !RESERVED_ENV.test(v.replace(/^env:/, "")), {
        message: "names a variable the runner or the action itself holds; an inventory never reads it",
        params: {
          fix: "pass the image ID in a variable of your own (env: IMAGE_ID in the step that runs docker-acceptance)",
        },
      })
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
  .superRefine((s, ctx) => {
    if (s.readiness && s.healthPath !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["healthPath"],
        message: "declares both `healthPath` and `readiness`; expected one",
        params: { fix: 'move the path into readiness: { "type": "http", "path": ... } and drop healthPath' },
      });
    }
    if (s.imageId && !s.image) {
      ctx.addIssue({
        code: "custom",
        path: ["imageId"],
        message: "pins a prebuilt image, but the subject has no `image`",
        params: { fix: "add `image` with the reference the pin is for, or drop `imageId`" },
      });
    }
    if (!s.build === !s.image) {
      ctx.addIssue({
        code: "custom",
        message: `declares ${s.build ? "both `build` and `image`" : "neither `build` nor `image`"}; expected exactly one`,
        params: {
          fix: s.build
            ? "keep `build` (context + Dockerfile) or `image` (a prebuilt reference), not both"
            : 'add `build: { "context": "path/to/dir" }` or `image: "name:tag"`',
        },
        path: [],
      });
    }
  })
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
  .superRefine((rec, ctx) => {
    for (const id of Object.keys(rec)) {
      if ((ALL_CASES as readonly string[]).includes(id)) continue;
      const near = closestCase(id, ALL_CASES);
      ctx.addIssue({
        code: "custom",
        path: [id],
        message: `unknown case ID "${id}"; expected a ${SUITES.map((s) => `${s}.*`).join(" or ")} case ID`,
        params: { fix: near ? `did you mean "${near}"?` : `use one of ${ALL_CASES.join(", ")}` },
      });
    }
  })
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
  // Cross-field rules run even when a field elsewhere is invalid (`when`), so one pass reports
  // every problem; the data may then be partly malformed, hence the guards.
  .superRefine((inv, ctx) => crossCheck(inv as unknown as LooseInventory, ctx), { when: () => true })
  .describe("docker-acceptance: what acceptance means in this repository");

interface LooseInventory {
  subjects?: unknown;
  suites?: Record<string, { required?: unknown; subjects?: unknown } | undefined>;
  artifacts?: unknown;
}

function crossCheck(inv: LooseInventory, ctx: z.RefinementCtx): void {
  const subjects = Array.isArray(inv.subjects) ? (inv.subjects as { name?: unknown }[]) : [];
  const firstByName = new Map<string, number>();
  subjects.forEach((s, i) => {
    if (typeof s?.name !== "string") return;
    const first = firstByName.get(s.name);
    if (first === undefined) firstByName.set(s.name, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["subjects", i, "name"],
        message: `duplicate subject name "${s.name}" (also subjects[${first}].name)`,
        params: { fix: "give each subject a unique name" },
      });
  });
  const names = [...firstByName.keys()];
  for (const suite of SUITES) {
    const req = inv.suites && typeof inv.suites === "object" ? inv.suites[suite] : undefined;
    if (!req || typeof req !== "object") continue;
    if (Array.isArray(req.required)) duplicateIds(req.required, ["suites", suite, "required"], ctx);
    if (!req.subjects || typeof req.subjects !== "object") continue;
    for (const [name, ids] of Object.entries(req.subjects)) {
      if (Array.isArray(ids)) duplicateIds(ids, ["suites", suite, "subjects", name], ctx);
      if (firstByName.has(name)) continue;
      const near = closest(name, names);
      ctx.addIssue({
        code: "custom",
        path: ["suites", suite, "subjects", name],
        message: `names subject "${name}", which is not declared in subjects`,
        params: {
          fix: near ? `did you mean "${near}"?` : `use a declared subject name: ${names.join(", ")}`,
        },
      });
    }
  }
  const artifacts = Array.isArray(inv.artifacts) ? (inv.artifacts as { path?: unknown }[]) : [];
  const firstByPath = new Map<string, number>();
  artifacts.forEach((a, i) => {
    if (typeof a?.path !== "string") return;
    const key = path.posix.normalize(a.path.replaceAll("\\", "/"));
    const first = firstByPath.get(key);
    if (first === undefined) firstByPath.set(key, i);
    else
      ctx.addIssue({
        code: "custom",
        path: ["artifacts", i, "path"],
        message: `"${a.path}" is pinned twice (also artifacts[${first}].path)`,
        params: { fix: "keep one pin per file" },
      });
  });
}

function duplicateIds(ids: readonly unknown[], at: (string | number)[], ctx: z.RefinementCtx): void {
  const seen = new Set<unknown>();
  ids.forEach((id, i) => {
    if (typeof id === "string" && seen.has(id))
      ctx.addIssue({
        code: "custom",
        path: [...at, i],
        message: `"${id}" is listed twice`,
        params: { fix: "list each case ID once" },
      });
    seen.add(id);
  });
}

export type Inventory = z.infer<typeof inventorySchema>;
export type Subject = z.infer<typeof subjectSchema>;
export type { Probe, Readiness };

/** The subject's readiness strategy: declared, else GET healthPath (default /health) answers 200. */
export function readinessOf(subject: Subject): Readiness {
  return subject.readiness ?? { type: "http", path: subject.healthPath ?? "/health", expectStatus: 200 };
}
export { CONTAINMENT_CASES, LIFECYCLE_CASES };

/**
 * The case IDs pinned for one subject in one suite: its override, else the suite's required list;
 * undefined when the inventory does not pin the suite at all.
 */
export function pinnedCases(
  inv: Inventory,
  suite: (typeof SUITES)[number],
  subject: string,
): string[] | undefined {
  const req = inv.suites[suite];
  if (!req) return undefined;
  return req.subjects[subject] ?? req.required;
}

/** The severity the inventory gives a case ID (`fail` unless pinned otherwise). */
export function severityOf(inventory: Inventory, caseId: string): "fail" | "warn" {
  return inventory.severity[caseId] ?? "fail";
}

/** "256m", "256MB", "1GiB" -> bytes: binary units, as Docker reads them. */
export function parseMemory(value: number | string): number {
  if (typeof value === "number") return value;
  const m = MEMORY_SIZE.exec(value.trim());
  if (!m) throw new Error(`not a size: ${value}`);
  const power = " bkmgtp".indexOf((m[2] ?? "b").toLowerCase()) - 1;
  return Math.round(Number(m[1]) * 1024 ** power);
}
