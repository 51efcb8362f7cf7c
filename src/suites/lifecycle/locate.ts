// Where a failing case points, so it becomes an annotation on the line to change: the
// Dockerfile line for what the image decides (its USER, what runs as PID 1, its HEALTHCHECK, a
// failing build step), else the inventory line of the subject's field that decides it, else the
// subject's own entry. Paths are repository-relative; a case that already names its place keeps it.
import type { Instruction, ParsedDockerfile } from "../../engine/dockerfile.js";
import type { Subject } from "../../inventory/schema.js";
import { jsonPath, locateJson } from "../../jsonpos.js";
import type { CaseResult } from "../../report/model.js";

type Location = NonNullable<CaseResult["location"]>;

/** The subject's Dockerfile as the build read it, repository-relative. */
export interface DockerfileSource {
  path: string;
  parsed: ParsedDockerfile;
}

/** The inventory, repository-relative, and the line of each of the subject's fields ("name", "probes[1]"). */
export interface InventorySource {
  path: string;
  lines: Record<string, number>;
}

/**
 * The subject's entry in the inventory text: the line of each of its fields and of each probe.
 * Undefined when the file is not in the workspace (no repository-relative path) or has no such subject.
 */
export function inventorySource(
  relPath: string | undefined,
  text: string,
  subjectName: string,
): InventorySource | undefined {
  if (!relPath) return undefined;
  const { value, spans } = locateJson(text);
  const subjects = (value as { subjects?: unknown }).subjects;
  const index = Array.isArray(subjects)
    ? subjects.findIndex((s) => (s as { name?: unknown } | null)?.name === subjectName)
    : -1;
  if (index < 0) return undefined;
  const lines: Record<string, number> = {};
  const prefix = `${jsonPath(["subjects", index])}.`;
  for (const [at, span] of spans) {
    if (!at.startsWith(prefix)) continue;
    const field = at.slice(prefix.length);
    // The fields themselves and each probe: `probes[2]`, never deeper.
    if (/^[A-Za-z]+(\[\d+\])?$/.test(field)) lines[field] = span.line;
  }
  return { path: relPath, lines };
}

/** The instructions of the stage that runs: the build's target, else the last. */
function finalStage(df: ParsedDockerfile, target: string | undefined): Instruction[] {
  const last = df.instructions.at(-1)?.stage;
  const stage = target
    ? df.instructions.find((i) => i.stage.toLowerCase() === target.toLowerCase())?.stage
    : last;
  return df.instructions.filter((i) => i.stage === (stage ?? last));
}

const lastOf = (stage: Instruction[], name: string) =>
  [...stage].reverse().find((i) => new RegExp(`^${name}\\s`, "i").test(i.text));

/** What runs as PID 1: the ENTRYPOINT when there is one (CMD is then only its arguments), else CMD. */
const pid1 = (stage: Instruction[]) => lastOf(stage, "ENTRYPOINT") ?? lastOf(stage, "CMD");

/** The inventory fields that decide a case, tried in order; the subject's name line when none is set. */
const INVENTORY_FIELDS: Partial<Record<string, string[]>> = {
  "lifecycle.build": ["imageId", "image", "build"],
  "lifecycle.create": ["relax", "capabilities", "user"],
  "lifecycle.ready": ["readiness", "healthPath", "port", "startupTimeoutMs"],
  "lifecycle.limits": ["limits"],
  "lifecycle.stop": ["command", "init"],
  "containment.user": ["user"],
  "containment.capabilities": ["capabilities"],
  "containment.no_new_privileges": ["relax"],
  "containment.rootfs_readonly": ["relax"],
  "containment.mounts": ["allowedHostPaths", "writableRoots"],
  "containment.writable_roots": ["writableRoots"],
  "containment.network": ["network"],
  "containment.resources": ["limits"],
};

/** The Dockerfile instruction that decides a case, when the inventory does not decide it instead. */
function dockerfileLine(c: CaseResult, subject: Subject, stage: Instruction[]): Instruction | undefined {
  switch (c.id) {
    case "containment.user":
      // No USER line: the place to add one is after the stage's last instruction.
      return subject.user === undefined ? (lastOf(stage, "USER") ?? stage.at(-1)) : undefined;
    case "lifecycle.create":
      // A stop signal the engine would not create it with is that line.
      if (c.evidence.unhandleable === true) return lastOf(stage, "STOPSIGNAL");
      // Nothing to run: the CMD to write (or fix), else where to add one.
      if (c.evidence.nothingToRun !== true) return undefined;
      return lastOf(stage, "CMD") ?? lastOf(stage, "ENTRYPOINT") ?? stage.at(-1);
    case "lifecycle.stop":
      // A stop signal no process can handle (SIGKILL, past 64) is its STOPSIGNAL line, not PID 1.
      if (c.evidence.unhandleable === true) return lastOf(stage, "STOPSIGNAL") ?? pid1(stage);
      return subject.command === undefined ? pid1(stage) : undefined;
    case "lifecycle.ready":
      // A USER the runtime could not become is that line; a crash is what runs as PID 1; a
      // HEALTHCHECK that never turned healthy is that line.
      if (c.evidence.causeInstruction === "USER")
        return subject.user === undefined ? lastOf(stage, "USER") : undefined;
      if (typeof c.evidence.exitCode === "number" && subject.command === undefined) return pid1(stage);
      return subject.readiness?.type === "healthcheck" ? lastOf(stage, "HEALTHCHECK") : undefined;
    case "lifecycle.probes":
      return onlyImageCheckFailed(c) ? lastOf(stage, "HEALTHCHECK") : undefined;
    default:
      return undefined;
  }
}

function onlyImageCheckFailed(c: CaseResult): boolean {
  const failed = probeResults(c).filter((p) => p.ok === false);
  return failed.length > 0 && failed.every((p) => p.type === "image-healthcheck");
}

function probeResults(c: CaseResult): { ok?: unknown; type?: unknown }[] {
  return Array.isArray(c.evidence.probes) ? (c.evidence.probes as { ok?: unknown; type?: unknown }[]) : [];
}

/** The inventory line for a case: a failing declared probe's own line, else its deciding field's. */
function inventoryLine(c: CaseResult, inv: InventorySource): number | undefined {
  if (c.id === "lifecycle.probes") {
    const i = probeResults(c).findIndex((p) => p.ok === false && p.type !== "image-healthcheck");
    const line = i >= 0 ? inv.lines[`probes[${i}]`] : undefined;
    if (line) return line;
  }
  if (c.id === "lifecycle.ready" && c.evidence.causeInstruction === "USER" && inv.lines.user)
    return inv.lines.user;
  if (c.id === "lifecycle.ready" && typeof c.evidence.exitCode === "number" && inv.lines.command)
    return inv.lines.command;
  const field = (INVENTORY_FIELDS[c.id] ?? []).find((f) => inv.lines[f] !== undefined);
  return inv.lines[field ?? "name"];
}

/** A failing (or erroring) case's location, from the subject's sources; the case's own wins. */
export function locateCase(
  result: CaseResult,
  subject: Subject,
  sources: { dockerfile?: DockerfileSource; inventory?: InventorySource },
): Location | undefined {
  if (result.location) return result.location;
  const df = sources.dockerfile;
  const instruction = df && dockerfileLine(result, subject, finalStage(df.parsed, subject.build?.target));
  if (df && instruction) return { path: df.path, line: instruction.line };
  const inv = sources.inventory;
  if (!inv) return df && result.id === "lifecycle.build" ? { path: df.path } : undefined;
  const line = inventoryLine(result, inv);
  return { path: inv.path, ...(line ? { line } : {}) };
}
