// The pinned acceptance inventory: the single source of truth for what acceptance means in a
// repository. `docker-acceptance schema` exports this as JSON Schema (acceptance/inventory.schema.json).
import { z } from "zod";
import { ALL_CASES, CONTAINMENT_CASES, LIFECYCLE_CASES } from "../suites/ids.js";

export const INVENTORY_SCHEMA_VERSION = 1;

const caseId = z.enum(ALL_CASES as [string, ...string[]]);
const relPath = z.string().min(1).describe("a path relative to the workspace (the repository root)");
const containerPath = z
  .string()
  .regex(/^\/[^\0]*$/, "an absolute path inside the container, such as /tmp")
  .describe("absolute path inside the container");
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits (a sha256 digest)");

const httpProbe = z
  .object({
    name: z.string().min(1).optional(),
    method: z.enum(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]).default("GET"),
    path: z.string().startsWith("/").describe("request path, starting with /"),
    expectStatus: z.number().int().min(100).max(599).default(200),
    bodyContains: z.string().optional().describe("a substring the response body must contain"),
  })
  .strict();

const memory = z
  .union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?[bkmg]?$/i, 'a size such as "256m"')])
  .describe('memory limit in bytes, or a size such as "256m" or "1g"');

const limits = z
  .object({
    memory: memory.default("256m"),
    pids: z.number().int().positive().max(1_000_000).default(128),
    cpus: z.number().positive().max(1024).default(1),
  })
  .strict();

export const subjectSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "lowercase letters, digits, '.', '_' or '-', at most 63")
      .describe("unique subject name, used in case results and container names"),
    build: z
      .object({
        context: relPath.describe("build context directory, relative to the workspace"),
        dockerfile: z.string().min(1).default("Dockerfile").describe("Dockerfile path inside the context"),
        args: z.record(z.string(), z.string()).default({}).describe("build arguments"),
        target: z.string().optional().describe("multi-stage target"),
      })
      .strict()
      .optional(),
    image: z.string().min(1).optional().describe("a prebuilt image reference (instead of build)"),
    port: z.number().int().min(1).max(65535).default(8080).describe("container port the subject serves on"),
    healthPath: z
      .string()
      .startsWith("/")
      .default("/health")
      .describe("GET path that answers 200 when ready"),
    probes: z.array(httpProbe).default([]).describe("HTTP probes that must hold once ready"),
    user: z.string().min(1).default("65532:65532").describe("user[:group] the subject runs as"),
    writableRoots: z
      .array(containerPath)
      .default(["/tmp", "/dev/shm"])
      .describe("the only writable places: tmpfs mounts (and /dev/shm)"),
    network: z
      .enum(["bridge", "none"])
      .default("bridge")
      .describe("bridge publishes the port on 127.0.0.1 only"),
    limits: limits.prefault({}),
    capabilities: z
      .array(z.string().regex(/^[A-Z_]+$/, "a capability name such as NET_BIND_SERVICE"))
      .default([])
      .describe("capabilities the subject may keep (all others are dropped)"),
    env: z.record(z.string(), z.string()).default({}).describe("environment variables"),
    command: z.array(z.string()).optional().describe("overrides the image's CMD"),
    startupTimeoutMs: z.number().int().positive().max(3_600_000).default(30_000),
    stopTimeoutMs: z.number().int().positive().max(600_000).default(10_000).describe("SIGTERM grace period"),
    weight: z.number().positive().default(1).describe("relative cost, used to balance shards"),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (!s.build === !s.image) {
      ctx.addIssue({
        code: "custom",
        message: "declare exactly one of `build` (context + Dockerfile) or `image` (a prebuilt reference)",
        path: [],
      });
    }
  });

const suiteRequirement = z
  .object({
    required: z.array(caseId).describe("case IDs every subject must run"),
    subjects: z
      .record(z.string(), z.array(caseId))
      .default({})
      .describe("per-subject overrides of the required list"),
  })
  .strict();

export const inventorySchema = z
  .object({
    $schema: z.string().optional(),
    schemaVersion: z.literal(INVENTORY_SCHEMA_VERSION),
    subjects: z.array(subjectSchema).min(1),
    suites: z
      .object({
        lifecycle: suiteRequirement.optional(),
        containment: suiteRequirement.optional(),
      })
      .strict()
      .default({}),
    artifacts: z
      .array(z.object({ path: relPath, sha256 }).strict())
      .default([])
      .describe("files whose content is pinned"),
    severity: z.partialRecord(caseId, z.enum(["fail", "warn"])).default({}),
    probeImage: z.string().min(1).optional().describe("trusted probe image, pinned by digest"),
  })
  .strict();

export type Inventory = z.infer<typeof inventorySchema>;
export type Subject = z.infer<typeof subjectSchema>;
export type HttpProbe = z.infer<typeof httpProbe>;
export { CONTAINMENT_CASES, LIFECYCLE_CASES };

/** "256m" -> bytes. */
export function parseMemory(value: number | string): number {
  if (typeof value === "number") return value;
  const m = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(value);
  if (!m) throw new Error(`not a size: ${value}`);
  const unit = { "": 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * unit);
}
