// `docker-acceptance sweep`: removes leftovers this tool owns and prints the evidence.
import { cleanupOwned } from "../engine/cleanup.js";
import { isOwnerAlive, isRunId, OWNER_LABEL, PID_LABEL } from "../engine/ownership.js";
import { createEngine, type Engine } from "../engine/select.js";
import { UsageError } from "../errors.js";
import type { CleanupEvidence } from "../report/model.js";
import type { RequestOf } from "../request/parse.js";

/** What `sweep` takes: its flags, parsed into the one request. */
type SweepRequest = RequestOf<"owners" | "stale" | "olderThan" | "sweepFormat" | "engine">;

export async function sweep(request: SweepRequest): Promise<number> {
  if (request.owners.length === 0 && !request.stale)
    throw new UsageError("sweep needs --owner RUN_ID or --stale");
  for (const o of request.owners)
    if (!isRunId(o))
      throw new UsageError(`--owner ${JSON.stringify(o)}: expected a run id such as da-<32 hex>`);
  const engine = createEngine(request.engine);
  await engine.ping();
  const owners = request.owners.length > 0 ? request.owners : await staleOwners(engine, request.olderThan);
  const evidence: CleanupEvidence[] = [];
  for (const owner of owners) evidence.push(await cleanupOwned(engine, { owner }, { trigger: "sweep" }));
  if (request.sweepFormat === "json") {
    process.stdout.write(`${JSON.stringify(evidence, null, 2)}\n`);
  } else {
    process.stdout.write(renderSweep(owners, evidence, request.stale));
  }
  return evidence.every((e) => e.completed) ? 0 : 3;
}

export function renderSweep(owners: string[], evidence: CleanupEvidence[], stale: boolean): string {
  if (owners.length === 0) return `sweep: no ${stale ? "stale " : ""}owners found; nothing removed\n`;
  const lines: string[] = [];
  for (const e of evidence) {
    const acted = e.objects.filter((o) => o.action !== "retained");
    if (acted.length === 0)
      lines.push(`sweep ${e.owner}: nothing to remove (listing found no owned containers or images)`);
    for (const o of e.objects)
      lines.push(
        `sweep ${e.owner}: ${o.action} ${o.kind} ${o.tag ?? o.id.slice(0, 19)}${o.name ? ` ${o.name}` : ""} (${o.reason})${o.error ? `: ${o.error.message}` : ""}`,
      );
    lines.push(
      `sweep ${e.owner}: ${e.completed ? "verified" : "NOT verified"} by ${e.verifiedBy.join("; ")}${e.remaining.length ? `; remaining: ${e.remaining.map((r) => r.id.slice(0, 19)).join(", ")}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Owners whose process is gone (same host), or whose objects are older than the cut-off. */
async function staleOwners(engine: Engine, olderThanMs: number): Promise<string[]> {
  const containers = await engine.listContainers({ owner: true });
  const images = await engine.listImages({ owner: true });
  const owners = new Map<string, { labels: Record<string, string>; newest: number }>();
  for (const o of [...containers, ...images]) {
    const owner = o.labels[OWNER_LABEL];
    if (!owner || !isRunId(owner)) continue;
    const seen = owners.get(owner);
    // Containers carry the host and pid that started the run (images do not): keep those labels.
    const labels = seen && PID_LABEL in seen.labels ? seen.labels : o.labels;
    owners.set(owner, { labels, newest: Math.max(seen?.newest ?? 0, o.created) });
  }
  const stale: string[] = [];
  for (const [owner, { labels, newest }] of owners) {
    const alive = isOwnerAlive(labels);
    // Another host's run cannot be asked: only its age says it is gone.
    if (alive === false || (alive === "unknown" && Date.now() - newest * 1000 > olderThanMs))
      stale.push(owner);
  }
  return stale.sort();
}
