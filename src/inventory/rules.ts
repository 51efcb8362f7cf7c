// What the inventory's schema checks beyond a value's shape, without the schema library: its
// bounds and its refinements, each a named function. The zod schema (./schema.ts) refines with
// them, and the precompiled check (./precheck.ts) runs the very same functions, so a run vouches
// for a valid inventory before it loads zod, and zod words every problem of an invalid one.
import path from "node:path";
import { CASE_IDS } from "../cases/ids.js";
import { SUITES } from "../cases/suites.js";
import { DELAY_MS, type RuleContext, TEXT_CHARS } from "../checks/rules.js";
import { referenceProblem } from "./image-ref.js";
import { closest } from "./suggest.js";

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

/** Sizes as Docker accepts them (go-units RAMInBytes): 256m, 256MB, 1g, 1GiB, 512 k, 1024. */
export const MEMORY_SIZE = /^(\d+(?:\.\d+)?) ?([bkmgtp])?(i?b)?$/i;

/** "256m", "256MB", "1GiB" -> bytes: binary units, as Docker reads them. */
export function parseMemory(value: number | string): number {
  if (typeof value === "number") return value;
  const m = MEMORY_SIZE.exec(value.trim());
  if (!m) throw new Error(`not a size: ${value}`);
  const power = " bkmgtp".indexOf((m[2] ?? "b").toLowerCase()) - 1;
  return Math.round(Number(m[1]) * 1024 ** power);
}

/** The runner's and the action's own credentials: never a build secret. */
const RESERVED_ENV = /^(GITHUB_TOKEN|ACTIONS_[A-Z_]*|INPUT_[A-Z0-9_]*|RUNNER_[A-Z_]*)$/;

/** The catalogue's case IDs (../cases/ids.ts: the IDs alone, not the definitions). */
const CASES_BY_SUITE: Record<(typeof SUITES)[number], readonly string[]> = CASE_IDS;
const ALL_CASES: readonly string[] = SUITES.flatMap((s) => CASE_IDS[s]);

// ---- the refinements (./schema.ts names where each applies) ----

/** env, build.args: at most BOUNDS.mapEntries entries. */
export function mapSizeRule(m: Record<string, unknown>, ctx: RuleContext): void {
  if (Object.keys(m).length <= BOUNDS.mapEntries) return;
  ctx.addIssue({
    code: "custom",
    message: `more than ${BOUNDS.mapEntries} entries`,
    params: { fix: `keep at most ${BOUNDS.mapEntries}` },
  });
}

/** build.secrets: at most BOUNDS.secrets. */
export function secretsSizeRule(m: Record<string, unknown>, ctx: RuleContext): void {
  if (Object.keys(m).length <= BOUNDS.secrets) return;
  ctx.addIssue({
    code: "custom",
    message: `more than ${BOUNDS.secrets} secrets`,
    params: { fix: `keep at most ${BOUNDS.secrets}` },
  });
}

/** A build secret's variable: never one the runner or the action itself holds. */
export function secretVariableRule(name: string, ctx: RuleContext): void {
  if (!RESERVED_ENV.test(name)) return;
  ctx.addIssue({
    code: "custom",
    message: "names a variable the runner or the action itself holds; it is never handed to a build",
  });
}

/** A workspace-relative path (relPathProblem). */
export function relPathRule(p: string, ctx: RuleContext): void {
  const problem = relPathProblem(p);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { fix: problem.fix } });
}

const SHA256 = /^[0-9a-f]{64}$/;
/** The pattern an artifact's sha256 has, for editors reading the JSON Schema. */
export const SHA256_PATTERN = SHA256.source;

/** An artifact's sha256: 64 lowercase hex digits. */
export function sha256Rule(v: string, ctx: RuleContext): void {
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
}

/** A case ID of `suite`: unknown IDs and IDs of the other suite get their own message. */
export function caseIdRule(id: string, ctx: RuleContext, suite?: string): void {
  const ids = CASES_BY_SUITE[suite as (typeof SUITES)[number]];
  if (ids.includes(id)) return;
  const other = SUITES.find((s) => s !== suite && CASES_BY_SUITE[s].includes(id));
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
}

/** Compares the part after the suite prefix, so "lifecycle.boot" is not mistaken for a typo of "lifecycle.stop". */
function closestCase(id: string, ids: readonly string[]): string | undefined {
  const tail = (x: string) => x.slice(x.indexOf(".") + 1);
  const near = closest(tail(id), ids.map(tail));
  return near === undefined ? undefined : ids.find((x) => tail(x) === near);
}

/** A subject's memory limit: at most BOUNDS.memoryBytes. */
export function memoryRule(v: number | string, ctx: RuleContext): void {
  if (typeof v === "string" && !MEMORY_SIZE.test(v.trim())) return; // reported by the regex
  if (parseMemory(v) <= BOUNDS.memoryBytes) return;
  ctx.addIssue({
    code: "custom",
    message: `asks for more than ${BOUNDS.memoryBytes / 1024 ** 3} GiB, the most a subject may have`,
    params: { fix: 'lower it (a service under test rarely needs more than "1g")' },
  });
}

/** A build's Dockerfile stays inside its context. */
export function buildRule(b: { context: string; dockerfile: string }, ctx: RuleContext): void {
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
}

/** A prebuilt image's reference, as the engine parses it (./image-ref.ts). */
export function imageRefRule(ref: string, ctx: RuleContext): void {
  const problem = referenceProblem(ref);
  if (problem)
    ctx.addIssue({
      code: "custom",
      message: `the image reference ${problem}`,
      params: {
        fix: 'write it as the engine names the image: "name:tag", "registry/name:tag", "name@sha256:…" or "sha256:<image ID>"',
      },
    });
}

/** An image ID pin's "env:NAME" never names a variable the runner or the action holds. */
export function imageIdVariableRule(v: string, ctx: RuleContext): void {
  if (!RESERVED_ENV.test(v.replace(/^env:/, ""))) return;
  ctx.addIssue({
    code: "custom",
    message: "names a variable the runner or the action itself holds; an inventory never reads it",
    params: {
      fix: "pass the image ID in a variable of your own (env: IMAGE_ID in the step that runs docker-acceptance)",
    },
  });
}

/** A subject: one readiness declaration, a pin only with an image, exactly one of build and image. */
export function subjectRule(
  s: { readiness?: unknown; healthPath?: unknown; imageId?: unknown; image?: unknown; build?: unknown },
  ctx: RuleContext,
): void {
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
}

/** `severity`'s keys are case IDs. */
export function severityRule(rec: Record<string, unknown>, ctx: RuleContext): void {
  for (const id of Object.keys(rec)) {
    if (ALL_CASES.includes(id)) continue;
    const near = closestCase(id, ALL_CASES);
    ctx.addIssue({
      code: "custom",
      path: [id],
      message: `unknown case ID "${id}"; expected a ${SUITES.map((s) => `${s}.*`).join(" or ")} case ID`,
      params: { fix: near ? `did you mean "${near}"?` : `use one of ${ALL_CASES.join(", ")}` },
    });
  }
}

interface LooseInventory {
  subjects?: unknown;
  suites?: Record<string, { required?: unknown; subjects?: unknown } | undefined>;
  artifacts?: unknown;
}

/**
 * The whole inventory's cross-field rules: unique subject names, case IDs listed once, per-subject
 * lists naming declared subjects, one pin per file. They run even when a field elsewhere is
 * invalid, so one pass reports every problem; the data may then be partly malformed, hence the guards.
 */
export function inventoryRule(value: unknown, ctx: RuleContext): void {
  if (typeof value !== "object" || value === null) return; // not an object: the only problem there is
  const inv = value as LooseInventory;
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

function duplicateIds(ids: readonly unknown[], at: (string | number)[], ctx: RuleContext): void {
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
