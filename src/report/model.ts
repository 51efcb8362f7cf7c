// The one Report object. Every rendering (text, markdown, JUnit, comment, check run, summary)
// derives from it; renderers never re-run checks.
import * as z from "zod";
import { SUITES } from "../cases/suites.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { computeVerdict, FINDING_LEVELS, VERDICTS } from "./verdict.js";

// What start-up needs of the report (verdict, counts, order) is in ./verdict.ts, without zod:
// these schemas are built when this module is first loaded, which a run does after its engine calls.
export {
  byAttention,
  type Counts,
  computeVerdict,
  countCases,
  FINDING_LEVELS,
  type FindingLevel,
  levelOf,
} from "./verdict.js";

const REPORT_SCHEMA_VERSION = 1;

const caseStatus = z.enum(["pass", "fail", "skip", "error"]);

const sourceLocation = z.object({
  path: z.string(),
  line: z.number().int().positive().optional(),
});

export const caseResultSchema = z.object({
  id: z.string(),
  suite: z.enum(SUITES),
  subject: z.string(),
  status: caseStatus,
  severity: z.enum(["fail", "warn"]).default("fail"),
  durationMs: z.number().nonnegative(),
  /** One line a person reads first. */
  message: z.string().default(""),
  /** What was measured: structured, bounded. */
  evidence: z.record(z.string(), z.unknown()).default({}),
  /** What to change, naming the Dockerfile line or launch setting. Present when not passing. */
  remediation: z.string().optional(),
  location: sourceLocation.optional(),
});
export type CaseResult = z.infer<typeof caseResultSchema>;

const phaseSchema = z.object({
  name: z.string(),
  startMs: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type Phase = z.infer<typeof phaseSchema>;

const subjectReportSchema = z.object({
  name: z.string(),
  image: z.string().optional(),
  imageId: z.string().optional(),
  /** Which builder built the image, and why that one (the default, the inventory, the engine). */
  builder: z.enum(["buildkit", "legacy"]).optional(),
  builderReason: z.string().optional(),
  containerId: z.string().optional(),
  /** Relative to the report's startedAt, for the gantt chart. */
  phases: z.array(phaseSchema).default([]),
  buildLog: z.string().optional(),
  logExcerpt: z.string().optional(),
  /** The launch as one shell-quoted `<engine cli> run` line (environment by name only). */
  reproduce: z.string().optional(),
});
export type SubjectReport = z.infer<typeof subjectReportSchema>;

const cleanupObjectSchema = z.object({
  kind: z.enum(["container", "image"]),
  id: z.string(),
  name: z.string().optional(),
  tag: z.string().optional(),
  role: z.string().optional(),
  action: z.enum(["removed", "untagged", "retained", "failed"]),
  reason: z.string(),
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
});
export type CleanupObject = z.infer<typeof cleanupObjectSchema>;

export const cleanupEvidenceSchema = z.object({
  owner: z.string(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  trigger: z.string(),
  objects: z.array(cleanupObjectSchema),
  /** True when the verifying listing found nothing owned left but what was deliberately retained. */
  completed: z.boolean(),
  verifiedBy: z.array(z.string()),
  remaining: z.array(z.object({ kind: z.enum(["container", "image"]), id: z.string() })).default([]),
  errors: z.array(z.object({ kind: z.string(), message: z.string() })).default([]),
});
export type CleanupEvidence = z.infer<typeof cleanupEvidenceSchema>;

const inventoryReportSchema = z.object({
  path: z.string(),
  sha256: z.string(),
  complete: z.boolean(),
  requireComplete: z.boolean().default(true),
  /** The subjects and suites this run was asked to cover: what completeness was judged over. */
  selected: z.object({ subjects: z.array(z.string()), suites: z.array(z.string()) }).optional(),
  /** Per subject x suite, what differs from the pins. */
  drift: z
    .array(
      z.object({
        subject: z.string(),
        suite: z.string(),
        missing: z.array(z.string()),
        unexpected: z.array(z.string()),
        skipped: z.array(z.string()),
      }),
    )
    .default([]),
  /**
   * The drift, once per subject (subjects needing the same change share one): what differs, what to
   * do, and for unpinned cases that ran the exact JSON that pins them (src/inventory/verify.ts).
   */
  fixes: z
    .array(
      z.object({
        subjects: z.array(z.string()),
        kind: z.enum(["unexpected", "missing", "skipped"]),
        problem: z.string(),
        fix: z.string(),
        /** Lines to add: into which object or list (a JSON path, "" the top level), at which line. */
        add: z
          .array(z.object({ at: z.string(), line: z.number().int().positive(), lines: z.array(z.string()) }))
          .default([]),
      }),
    )
    .optional(),
});

const artifactResultSchema = z.object({
  path: z.string(),
  expected: z.string(),
  actual: z.string().nullable(),
  ok: z.boolean(),
  line: z.number().int().positive().optional(),
});
export type ArtifactResult = z.infer<typeof artifactResultSchema>;

const findingLocationSchema = z.object({
  path: z.string(),
  line: z.number().int().positive().optional(),
});

/**
 * One entry per rule (or RFC) per change, with every place it hit. `path`/`line` repeat the first
 * location for readers of older reports; `tier` is 1 for blocking, 2 otherwise.
 */
const findingSchema = z.object({
  tier: z.union([z.literal(1), z.literal(2)]),
  level: z.enum(FINDING_LEVELS).optional(),
  kind: z.string(),
  title: z.string(),
  concern: z.string(),
  path: z.string().optional(),
  line: z.number().int().positive().optional(),
  reviewers: z.array(z.string()).default([]),
  ref: z.string().optional(),
  /** The rule's id (principle, path rule, co-change rule, metadata rule). */
  rule: z.string().optional(),
  /** The places listed (capped per file); `hits` counts them all. */
  locations: z.array(findingLocationSchema).default([]),
  hits: z.number().int().nonnegative().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

export const alignmentReportSchema = z.object({
  configured: z.boolean(),
  source: z.string().optional(),
  findings: z.array(findingSchema).default([]),
  openRfcs: z
    .array(
      z.object({ number: z.string(), title: z.string(), status: z.string(), paths: z.array(z.string()) }),
    )
    .default([]),
  notes: z.array(z.string()).default([]),
  /** What was checked and found nothing (rules, RFCs, protected paths): silence means something. */
  clean: z.array(z.object({ kind: z.string(), id: z.string(), title: z.string() })).default([]),
  summary: z.string().default(""),
});
export type AlignmentReport = z.infer<typeof alignmentReportSchema>;

/**
 * What judged the run, where the pull request could have chosen it (docs/security.md): the probe
 * image and the inventory's trust-bearing parts. `notes` are shown under the headline; `findings`
 * are Tier 1 items for a maintainer (a change to what judges the PR).
 */
const trustReportSchema = z.object({
  /** The commit the inventory's trust-bearing parts were read at; absent: the checkout's own file. */
  inventoryFrom: z.string().optional(),
  probeImage: z.string().optional(),
  notes: z.array(z.string()).default([]),
  findings: z.array(findingSchema).default([]),
});
export type TrustReport = z.infer<typeof trustReportSchema>;

const externalResultsSchema = z.object({
  tests: z
    .object({
      passed: z.number(),
      skipped: z.number(),
      failed: z.number(),
      files: z.array(z.string()),
      /** Each failing test by name, with its message (bounded; `failed` counts them all). */
      failures: z
        .array(
          z.object({
            name: z.string(),
            message: z.string(),
            /** Repository-relative, when the runner says where the test is. */
            path: z.string().optional(),
            line: z.number().int().positive().optional(),
            /** The JUnit file it came from. */
            file: z.string(),
          }),
        )
        .optional(),
    })
    .optional(),
  lint: z
    .object({
      findings: z.array(
        z.object({
          path: z.string(),
          line: z.number().optional(),
          rule: z.string(),
          message: z.string(),
          /** SARIF level: error, warning or note (the annotation's level). */
          level: z.enum(["error", "warning", "note"]).optional(),
          /** On a line the PR adds: these become check run annotations. */
          onAddedLine: z.boolean().optional(),
        }),
      ),
      files: z.array(z.string()),
    })
    .optional(),
});

const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

export const reportSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  runId: z.string(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  verdict: verdictSchema,
  head: z
    .object({
      sha: z.string().optional(),
      ref: z.string().optional(),
      /** The PR's head when the report was published, set only when it moved off `sha` during the run (stale). */
      movedTo: z.string().optional(),
    })
    .default({}),
  shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).optional(),
  subjects: z.array(subjectReportSchema),
  cases: z.array(caseResultSchema),
  cleanup: cleanupEvidenceSchema.nullable(),
  inventory: inventoryReportSchema.nullable(),
  artifacts: z.array(artifactResultSchema).default([]),
  alignment: alignmentReportSchema.nullable().default(null),
  external: externalResultsSchema.default({}),
  trust: trustReportSchema.nullable().default(null),
  /** Run-level problems outside any case (configuration, engine unreachable, publish notices). */
  errors: z.array(z.object({ kind: z.string(), message: z.string() })).default([]),
});
export type Report = z.infer<typeof reportSchema>;

/** What a door measured; assembleReport adds the schema version, the tool and the verdict. */
type ReportParts = Omit<
  z.input<typeof reportSchema>,
  "schemaVersion" | "tool" | "verdict" | "startedAt" | "durationMs"
> & {
  tool?: Report["tool"];
  /** Epoch milliseconds of the run's start and end (end defaults to now). */
  startedMs: number;
  endedMs?: number;
};

/** The one way a Report is made (run, check, merge): verdict derived, shape validated. */
export function assembleReport(parts: ReportParts): Report {
  const {
    startedMs,
    endedMs = Date.now(),
    tool = { name: TOOL_NAME, version: TOOL_VERSION },
    ...rest
  } = parts;
  const draft = reportSchema.parse({
    ...rest,
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool,
    startedAt: new Date(startedMs).toISOString(),
    durationMs: Math.max(0, endedMs - startedMs),
    verdict: "pass",
  });
  return { ...draft, verdict: computeVerdict(draft) };
}
