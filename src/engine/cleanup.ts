// Owned cleanup: plan (side-effect free), execute, then prove by listing again. Nothing without
// our owner label is ever touched; images go by our tag only, never by pruning.
import { errorEvidence } from "../errors.js";
import type { CleanupEvidence, CleanupObject } from "../report/model.js";
import type { DockerEngine, OwnedContainer, OwnedImage } from "./docker.js";
import { OWNER_LABEL, ownedTag, ROLE_LABEL } from "./ownership.js";

export interface CleanupOptions {
  /** Remove the images this run built (default true); false retains them with that reason. */
  removeImages?: boolean;
}

export interface PlannedAction {
  kind: "container" | "image";
  id: string;
  name?: string;
  tag?: string;
  role?: string;
  remove: boolean;
  /** Images only: another tag shares the image, so only our tag goes and the image stays. */
  untagOnly?: boolean;
  reason: string;
}

export interface CleanupPlan {
  owner: string;
  actions: PlannedAction[];
}

const ownerFilter = (owner: string) => ({ label: [`${OWNER_LABEL}=${owner}`] });

/** Reads what the owner has on the engine; decides nothing itself. */
export async function listOwned(
  engine: DockerEngine,
  owner: string,
): Promise<{ containers: OwnedContainer[]; images: OwnedImage[] }> {
  const [containers, labelled, tagged] = await Promise.all([
    engine.listContainers(ownerFilter(owner)),
    engine.listImages(ownerFilter(owner)),
    engine.listImages({ reference: [ownedTag(owner)] }),
  ]);
  const images = new Map(labelled.map((i) => [i.id, i]));
  for (const i of tagged) images.set(i.id, i);
  return { containers, images: [...images.values()] };
}

/** Side-effect free: given the listing, what to remove and what to retain, with reasons. */
export function planCleanup(
  owner: string,
  listing: { containers: OwnedContainer[]; images: OwnedImage[] },
  opts: CleanupOptions = {},
): CleanupPlan {
  const tag = ownedTag(owner);
  const actions: PlannedAction[] = listing.containers.map((c) => ({
    kind: "container",
    id: c.id,
    name: c.names[0]?.replace(/^\//, ""),
    role: c.labels[ROLE_LABEL],
    remove: true,
    reason: `labelled ${OWNER_LABEL}=${owner}`,
  }));
  for (const img of listing.images) {
    const others = img.tags.filter((t) => t !== tag);
    const ours = img.tags.includes(tag);
    let remove = ours && opts.removeImages !== false;
    let reason: string;
    if (!ours) {
      remove = false;
      reason =
        "no tag of this run references it; removing it by ID could delete what another tag or build needs";
    } else if (opts.removeImages === false) {
      reason = "cleanup-images is false: kept for inspection";
    } else if (others.length > 0) {
      reason = `only our tag ${tag} is removed; the image stays because ${others.join(", ")} also references it`;
    } else {
      reason = `tagged ${tag} by this run and by nothing else`;
    }
    actions.push({
      kind: "image",
      id: img.id,
      tag: ours ? tag : undefined,
      remove,
      untagOnly: others.length > 0,
      reason,
    });
  }
  return { owner, actions };
}

export interface CleanupRun {
  trigger: string;
  options?: CleanupOptions;
}

/**
 * Plans, executes and verifies. Never throws: failures are evidence. The verifying listing runs
 * on fresh per-call timeouts, whatever time the run itself had left.
 */
export async function cleanupOwned(
  engine: DockerEngine,
  owner: string,
  run: CleanupRun,
): Promise<CleanupEvidence> {
  const started = Date.now();
  const errors: { kind: string; message: string }[] = [];
  const objects: CleanupObject[] = [];
  let plan: CleanupPlan = { owner, actions: [] };
  try {
    plan = planCleanup(owner, await listOwned(engine, owner), run.options);
  } catch (err) {
    errors.push(errorEvidence(err));
  }

  // Containers first (a running container pins its image), concurrently: each removal is independent.
  const containers = plan.actions.filter((a) => a.kind === "container");
  objects.push(...(await Promise.all(containers.map((a) => execute(engine, a)))));
  for (const a of plan.actions.filter((x) => x.kind === "image")) objects.push(await execute(engine, a));

  const verifiedBy = [
    `list containers label=${OWNER_LABEL}=${owner}`,
    `list images label=${OWNER_LABEL}=${owner}`,
    `list images reference=${ownedTag(owner)}`,
  ];
  let remaining: { kind: "container" | "image"; id: string }[] = [];
  let verified = false;
  try {
    const after = await listOwned(engine, owner);
    // Gone means: no owned container listed, no image still carrying our tag, and no image we
    // removed outright listed again. Untagged (shared) and retained images may stay.
    const removedIds = new Set(
      objects.filter((o) => o.kind === "image" && o.action === "removed").map((o) => o.id),
    );
    const tag = ownedTag(owner);
    const expectGone = (i: OwnedImage) =>
      removedIds.has(i.id) || (run.options?.removeImages !== false && i.tags.includes(tag));
    remaining = [
      ...after.containers.map((c) => ({ kind: "container" as const, id: c.id })),
      ...after.images.filter(expectGone).map((i) => ({ kind: "image" as const, id: i.id })),
    ];
    verified = true;
  } catch (err) {
    errors.push(errorEvidence(err));
  }

  return {
    owner,
    trigger: run.trigger,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    objects,
    completed: verified && remaining.length === 0 && !objects.some((o) => o.action === "failed"),
    verifiedBy,
    remaining,
    errors,
  };
}

async function execute(engine: DockerEngine, a: PlannedAction): Promise<CleanupObject> {
  const base = { kind: a.kind, id: a.id, name: a.name, tag: a.tag, role: a.role, reason: a.reason };
  if (!a.remove) return { ...base, action: "retained" };
  try {
    if (a.kind === "container") await engine.removeContainer(a.id);
    else await engine.removeImageTag(a.tag!);
    return { ...base, action: a.untagOnly ? "untagged" : "removed" };
  } catch (err) {
    return { ...base, action: "failed", error: errorEvidence(err) };
  }
}
