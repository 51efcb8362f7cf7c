// Owned cleanup: plan (side-effect free), execute, then prove by listing again. Nothing without
// our owner label is ever touched; images go by our tag only, never by pruning.
import { EngineError, errorEvidence } from "../errors.js";
import type { CleanupEvidence, CleanupObject } from "../report/model.js";
import {
  isOwnedTag,
  namedByOwner,
  normalizeRef,
  OWNER_LABEL,
  ownedTag,
  ROLE_LABEL,
  SUBJECT_LABEL,
} from "./ownership.js";
import type { Engine, ImageQuery, ImageView, OwnedContainer, OwnedImage } from "./provider.js";

/** Whose objects: a whole run, or one subject of it. */
interface CleanupScope {
  owner: string;
  subject?: string;
  /**
   * Untagged images this scope's builds created, by full ID: the legacy builder's step images,
   * which carry no label, known from the engine's record alone (the built image's parent chain,
   * as far as it runs through images created during the build; never from the build's output,
   * which the subject writes). Listed by inspecting each, removed like our own, never forced.
   */
  builtImages?: readonly string[];
  /**
   * Containers this scope created, by ID (a subject's run knows its own). With them, cleanup
   * plans from inspecting what it knows (and the scope's own tag) instead of a first listing;
   * the listing after the removals is still the proof, and whatever it finds that was not known
   * is removed then and listed again.
   */
  knownContainers?: readonly string[];
}

interface CleanupOptions {
  /** Remove the images this run built (default true); false retains them with that reason. */
  removeImages?: boolean;
}

interface PlannedAction {
  kind: "container" | "image";
  id: string;
  name?: string;
  tag?: string;
  role?: string;
  remove: boolean;
  /** Images only: another tag shares the image, so only our tag goes and the image stays. */
  untagOnly?: boolean;
  /** An untagged build image: if another image now builds on it (the engine refuses), it stays. */
  intermediate?: boolean;
  reason: string;
}

interface Listing {
  containers: OwnedContainer[];
  images: OwnedImage[];
  /** Containers with the owner label that the owner did not name: another tool's, left alone. */
  inherited?: OwnedContainer[];
  /**
   * The parents outside the scope of the scope's images, by ID: whether each is untagged. An
   * engine that removes an image's untagged parents with it (Podman ignores `noprune`) would take
   * such a parent too, so the image over it stays: it is never ours to remove.
   */
  untaggedParents?: ReadonlySet<string>;
}

/** One spelling of an image ID: Podman gives parents as bare hex, images as `sha256:` + hex. */
function imageKey(id: string): string {
  return /^[0-9a-f]{64}$/.test(id) ? `sha256:${id}` : id;
}

/**
 * On an engine that prunes untagged parents: which of the images' parents are not in the listing
 * and carry no tag, read from the engine (elsewhere `noprune` keeps every parent: none matter).
 */
async function untaggedParentsOf(engine: Engine, images: readonly OwnedImage[]): Promise<Set<string>> {
  if (images.length === 0 || !(await prunesParents(engine))) return new Set();
  const ids = new Set(images.map((i) => imageKey(i.id)));
  const outside = [...new Set(images.map((i) => imageKey(i.parentId)))].filter((p) => p && !ids.has(p));
  const infos = await Promise.all(outside.map((p) => unlessGone(engine.inspectImage(p))));
  return new Set(outside.filter((_, n) => infos[n] !== undefined && infos[n]!.tags.length === 0));
}

/** The scope's objects by label: its owner's, one subject's where it names one. */
function ownedBy(scope: CleanupScope): { owner: string; subject?: string } {
  return { owner: scope.owner, ...(scope.subject ? { subject: scope.subject } : {}) };
}

/** The labels ownedBy() selects by, as key=value (for the evidence, and to check an inspect). */
function scopeLabels(scope: CleanupScope): [string, string][] {
  return [
    [OWNER_LABEL, scope.owner],
    ...(scope.subject ? [[SUBJECT_LABEL, scope.subject] as [string, string]] : []),
  ];
}

/** The scope's images by tag: the subject's own, or every tag of the run. */
function taggedBy(scope: CleanupScope): ImageQuery["tag"] {
  return scope.subject ? ownedTag(scope.owner, scope.subject) : { prefix: ownedTag(scope.owner) };
}

/**
 * Reads what the scope owns on the engine (listings filtered by label or our tag, never the whole
 * host). A subject's images are listed by its tag and its build-created IDs (the builder's step
 * images do not carry the build's labels); a run's by label and tag.
 */
export async function listOwned(engine: Engine, scope: CleanupScope): Promise<Listing> {
  const [containers, labelled, tagged] = await Promise.all([
    engine.listContainers(ownedBy(scope)),
    scope.subject ? [] : engine.listImages({ ...ownedBy(scope), intermediates: true }),
    engine.listImages({ tag: taggedBy(scope) }),
  ]);
  const images = new Map(labelled.map((i) => [i.id, i]));
  // A listing by tag may trim an image's tags to the matching ones to the matching ones: read the full tag list back, so an
  // image that another tag shares is never mistaken for ours alone.
  for (const i of tagged) {
    if (images.has(i.id)) continue;
    const info = await engine.inspectImage(i.id);
    images.set(i.id, { ...i, tags: info.tags });
  }
  for (const id of scope.builtImages ?? []) {
    if (images.has(id)) continue;
    const info = await unlessGone(engine.inspectImage(id));
    if (info) images.set(id, fromInspect(info));
  }
  const named = containers.filter((c) => namedByOwner(c.names, scope.owner));
  const inherited = containers.filter((c) => !named.includes(c));
  return withParents(engine, scope, {
    containers: named,
    images: [...images.values()],
    ...(inherited.length ? { inherited } : {}),
  });
}

/** The listing with the untagged parents it stands on, when there are any (see Listing). */
async function withParents(engine: Engine, scope: CleanupScope, listing: Listing): Promise<Listing> {
  const images = await withOwnedAncestors(engine, scope, listing.images);
  const parents = await untaggedParentsOf(engine, images);
  const out = { ...listing, images };
  return parents.size > 0 ? { ...out, untaggedParents: parents } : out;
}

/** A Dockerfile has far fewer steps; the walk up a chain stops here whatever the engine answers. */
const MAX_ANCESTRY = 500;

/**
 * The images with the untagged ancestors the engine shows as this run's: each parent, as far up
 * as the chain runs through untagged images labelled with the scope's owner. Buildah labels every
 * step image of a build with the build's labels; a step made by an earlier attempt of the same
 * build (reused from the cache by the retry) is not among the retry's `builtImages`, yet the
 * engine's record (its owner label) says it is ours. A subject's scope lists by tag, not label,
 * so without this walk such a parent was left behind, shielding the image over it.
 */
async function withOwnedAncestors(
  engine: Engine,
  scope: CleanupScope,
  images: readonly OwnedImage[],
): Promise<OwnedImage[]> {
  const byKey = new Map(images.map((i) => [imageKey(i.id), i]));
  for (const start of images) {
    let parent = start.parentId;
    for (let n = 0; parent && !byKey.has(imageKey(parent)) && n < MAX_ANCESTRY; n++) {
      const info = await unlessGone(engine.inspectImage(parent));
      if (!info || info.tags.length > 0 || info.labels[OWNER_LABEL] !== scope.owner) break;
      byKey.set(imageKey(info.id), fromInspect(info));
      parent = info.parentId;
    }
  }
  return [...byKey.values()];
}

/** The engine's fact; an engine that cannot say (a test's double) is taken at `noprune`'s word. */
async function prunesParents(engine: Engine): Promise<boolean> {
  try {
    return (await engine.facts()).prunesUntaggedParents === true;
  } catch {
    return false;
  }
}

/** A 404 means gone: undefined. */
function unlessGone<T>(p: Promise<T>): Promise<T | undefined> {
  return p.catch((err: unknown) => {
    if (err instanceof EngineError && err.statusCode === 404) return undefined;
    throw err;
  });
}

/**
 * What a subject's run knows it created, read by inspecting each (no listing): its containers,
 * kept only when they carry the scope's labels (nothing unlabelled is ever touched), the image
 * its tag names, and its build-created images. Not proof of anything: the listing after is.
 */
async function inspectKnown(engine: Engine, scope: CleanupScope): Promise<Listing> {
  const wanted = scopeLabels(scope);
  const [views, tagged] = await Promise.all([
    Promise.all((scope.knownContainers ?? []).map((id) => unlessGone(engine.inspect(id)))),
    scope.subject ? unlessGone(engine.inspectImage(ownedTag(scope.owner, scope.subject))) : undefined,
  ]);
  const containers: OwnedContainer[] = views
    .filter((v) => v !== undefined && wanted.every(([k, val]) => v.labels[k] === val))
    .map((v) => ({
      id: v!.id,
      names: [v!.name],
      state: v!.state.status,
      labels: v!.labels,
      image: v!.image,
      created: 0,
    }));
  const images = new Map<string, OwnedImage>();
  if (tagged) images.set(tagged.id, fromInspect(tagged));
  for (const id of scope.builtImages ?? []) {
    if (images.has(id)) continue;
    const info = await unlessGone(engine.inspectImage(id));
    if (info) images.set(id, fromInspect(info));
  }
  return withParents(engine, scope, { containers, images: [...images.values()] });
}

function fromInspect(info: ImageView): OwnedImage {
  const { id, parentId, tags, labels, created } = info;
  return { id, parentId, tags, labels, created };
}

const SHIELD =
  "kept: it stands on an untagged image that is not this run's, which this engine (it removes untagged parents with an image, as Podman does) would remove with it";

/** Side-effect free: given the listing, what to remove and what to retain, with reasons. */
export function planCleanup(
  scope: CleanupScope,
  listing: Listing,
  opts: CleanupOptions = {},
): PlannedAction[] {
  const family = imageFamily(scope, listing, opts);
  const actions: PlannedAction[] = [
    ...listing.containers.map((c) => containerAction(c, true, `labelled ${OWNER_LABEL}=${scope.owner}`)),
    ...(listing.inherited ?? []).map((c) =>
      containerAction(
        c,
        false,
        `labelled ${OWNER_LABEL}=${scope.owner} but not named by it: a label its image gave it, so another tool's container`,
      ),
    ),
  ];
  // Children before parents, so each removal (never pruning) leaves the next one childless.
  for (const img of [...listing.images].sort((a, b) => family.depth(b) - family.depth(a))) {
    actions.push(...imageActions(img, family, scope, opts));
  }
  return actions;
}

/** What planning one image needs to know of the others: its ancestry, the tags that are ours, what stays. */
interface ImageFamily {
  /** How many of the listed images it stands on. */
  depth: (i: OwnedImage) => number;
  /** It stands on a foreign untagged image that this engine would remove with it. */
  shields: (i: OwnedImage) => boolean;
  ourTags: (i: OwnedImage) => string[];
  /** The tag of ours an untagged image was built after (so not ours), if any. */
  inheritedFrom: (i: OwnedImage) => string | undefined;
  /** Images kept with the image they are under. */
  kept: Set<string>;
  builtIds: Set<string>;
}

function imageFamily(scope: CleanupScope, listing: Listing, opts: CleanupOptions): ImageFamily {
  const byId = new Map(listing.images.map((i) => [imageKey(i.id), i]));
  const parentOf = (i: OwnedImage) => byId.get(imageKey(i.parentId));
  const depth = (i: OwnedImage): number => {
    const parent = parentOf(i);
    return parent ? 1 + depth(parent) : 0;
  };
  // Such an engine prunes up the whole untagged chain: any of ours over a foreign untagged image stays.
  const shields = (i: OwnedImage): boolean => {
    let a = i;
    for (let p = parentOf(a); p; p = parentOf(a)) a = p;
    return listing.untaggedParents?.has(imageKey(a.parentId)) === true;
  };
  const ourTags = ourTagsOf(scope, listing.images);
  return {
    depth,
    shields,
    ourTags,
    inheritedFrom: inheritance(scope, listing.images, parentOf, ourTags),
    kept: keptWithAncestry(listing.images, ourTags, parentOf, opts.removeImages === false),
    builtIds: new Set(scope.builtImages ?? []),
  };
}

/** The plan for one listed image: kept over a foreign parent, an untagged one, or each tag of ours. */
function imageActions(
  img: OwnedImage,
  family: ImageFamily,
  scope: CleanupScope,
  opts: CleanupOptions,
): PlannedAction[] {
  const ours = family.ourTags(img);
  const others = img.tags.filter((t) => !ours.includes(t));
  if (family.shields(img)) {
    return [{ kind: "image", id: img.id, remove: false, intermediate: ours.length === 0, reason: SHIELD }];
  }
  if (ours.length === 0) return [untaggedAction(img, others, family, scope)];
  return ours.map((tag) => {
    const remove = opts.removeImages !== false;
    const reason = !remove
      ? "cleanup-images is false: kept for inspection"
      : others.length > 0
        ? `only our tag is removed; the image stays because ${others.join(", ")} also references it`
        : "tagged by this run and by nothing else";
    return { kind: "image", id: img.id, tag, remove, untagOnly: others.length > 0, reason };
  });
}

/** An image no tag of ours names: removed when ours alone (labelled, or a step of our build) and not kept. */
function untaggedAction(
  img: OwnedImage,
  others: string[],
  family: ImageFamily,
  scope: CleanupScope,
): PlannedAction {
  const built = family.builtIds.has(img.id);
  const heir = built ? undefined : family.inheritedFrom(img);
  const untaggedOwned = others.length === 0 && !heir && (img.labels[OWNER_LABEL] === scope.owner || built);
  const kept = family.kept.has(img.id);
  return {
    kind: "image",
    id: img.id,
    remove: untaggedOwned && !kept,
    intermediate: true,
    reason: heir
      ? `labelled ${OWNER_LABEL}=${scope.owner} but built after ${heir} and not under it: a label that image gave it, so another tool's image`
      : !untaggedOwned
        ? "another tag references it and no tag of this run does"
        : kept
          ? "intermediate build image under an image that is kept"
          : built
            ? "a step image of the image this run built: an untagged ancestor the engine shows created during the build"
            : `intermediate build image labelled ${OWNER_LABEL}=${scope.owner}`,
  };
}

/** An image we keep (shared tag, cleanup-images false) keeps its whole owned ancestry. */
function keptWithAncestry(
  images: readonly OwnedImage[],
  ourTags: (i: OwnedImage) => string[],
  parentOf: (i: OwnedImage) => OwnedImage | undefined,
  keepOurs: boolean,
): Set<string> {
  const kept = new Set<string>();
  for (const img of images) {
    const ours = ourTags(img);
    const keep = img.tags.length > ours.length || (ours.length > 0 && keepOurs);
    for (let a: OwnedImage | undefined = keep ? img : undefined; a; a = parentOf(a)) kept.add(a.id);
  }
  return kept;
}

/** Each image's tags that are the scope's, read once for every rule of the plan. */
function ourTagsOf(scope: CleanupScope, images: readonly OwnedImage[]): (i: OwnedImage) => string[] {
  const oursOf = new Map(
    images.map((i) => [i.id, i.tags.filter((t) => isOwnedTag(t, scope.owner, scope.subject))]),
  );
  return (i) => oursOf.get(i.id) ?? [];
}

/**
 * An image built FROM one of ours inherits its labels, the owner's included; the untagged ones
 * that are ours are the steps of our builds, all made before the image they build, or under it.
 * Returns, for an untagged image, the tag of ours it was built after (so not ours), if any.
 */
function inheritance(
  scope: CleanupScope,
  images: readonly OwnedImage[],
  parentOf: (i: OwnedImage) => OwnedImage | undefined,
  ourTags: (i: OwnedImage) => string[],
): (img: OwnedImage) => string | undefined {
  const tagged = new Map<string, OwnedImage>();
  const underTagged = new Set<string>();
  for (const img of images) {
    const ours = ourTags(img);
    for (const t of ours) tagged.set(normalizeRef(t), img);
    for (let a = ours.length ? parentOf(img) : undefined; a && !underTagged.has(a.id); a = parentOf(a))
      underTagged.add(a.id);
  }
  return (img) => {
    const subject = img.labels[SUBJECT_LABEL];
    const tag = subject ? ownedTag(scope.owner, subject) : undefined;
    const image = tag ? tagged.get(tag) : undefined;
    return image && !underTagged.has(img.id) && img.created > image.created ? tag : undefined;
  };
}

/** The plan for one listed container: removed, or kept with the reason. */
function containerAction(c: OwnedContainer, remove: boolean, reason: string): PlannedAction {
  return {
    kind: "container",
    id: c.id,
    name: c.names[0],
    role: c.labels[ROLE_LABEL],
    remove,
    reason,
  };
}

/**
 * Plans, executes and verifies. Never throws: failures are evidence. The verifying listing runs
 * on fresh per-call timeouts, whatever time the run itself had left. A scope that knows what it
 * created (`knownContainers`) plans from inspecting that; its verifying listing then also finds
 * what it did not know (a create cancelled in flight), which is removed and listed again.
 */
export async function cleanupOwned(
  engine: Engine,
  scope: CleanupScope,
  run: { trigger: string; options?: CleanupOptions },
): Promise<CleanupEvidence> {
  const started = Date.now();
  const errors: { kind: string; message: string }[] = [];
  const fromKnown = scope.knownContainers !== undefined;
  let actions: PlannedAction[] = [];
  let listed = false;
  try {
    actions = planCleanup(
      scope,
      await (fromKnown ? inspectKnown(engine, scope) : listOwned(engine, scope)),
      run.options,
    );
    listed = !fromKnown;
  } catch (err) {
    errors.push(errorEvidence(err));
  }
  const objects = await executeAll(engine, actions);

  let remaining: { kind: "container" | "image"; id: string }[] = [];
  let verified = false;
  try {
    // A listing that found nothing at all, with nothing done since, is the proof already.
    let after =
      listed && actions.length === 0 ? { containers: [], images: [] } : await listOwned(engine, scope);
    remaining = leftOver(scope, after, objects, run.options);
    // What the listing found that nothing above acted on: planned from the listing, removed, and
    // listed again. What was acted on and is still there stays "remaining".
    const acted = new Set(objects.map(actionKey));
    const unknown = planCleanup(scope, after, run.options).filter((a) => !acted.has(actionKey(a)));
    if (remaining.length > 0 && unknown.length > 0) {
      objects.push(...(await executeAll(engine, unknown)));
      after = await listOwned(engine, scope);
      remaining = leftOver(scope, after, objects, run.options);
    }
    verified = true;
  } catch (err) {
    errors.push(errorEvidence(err));
  }

  return {
    owner: scope.owner,
    trigger: run.trigger,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    objects,
    completed: verified && remaining.length === 0 && !objects.some((o) => o.action === "failed"),
    verifiedBy: verifiedBy(scope),
    remaining,
    errors,
  };
}

function actionKey(a: { kind: string; id: string; tag?: string }): string {
  return `${a.kind}:${a.id}:${a.tag ?? ""}`;
}

/** The listings (and inspects) that prove the scope's objects gone. */
function verifiedBy(scope: CleanupScope): string[] {
  const labels = scopeLabels(scope)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  const tag = taggedBy(scope)!;
  return [
    `list containers label=${labels}`,
    ...(scope.subject ? [] : [`list images label=${labels}`]),
    `list images reference=${typeof tag === "string" ? tag : `${tag.prefix}*`}`,
    ...(scope.builtImages?.length
      ? [`inspect ${scope.builtImages.length} build-created image(s) by ID`]
      : []),
  ];
}

/**
 * Gone means: no owned container listed, no image still carrying our tag, and no image we
 * removed outright listed again. Untagged (shared) and retained images may stay.
 */
function leftOver(
  scope: CleanupScope,
  after: Listing,
  objects: CleanupObject[],
  options: CleanupOptions | undefined,
): { kind: "container" | "image"; id: string }[] {
  const removedIds = new Set(
    objects.filter((o) => o.kind === "image" && o.action === "removed").map((o) => o.id),
  );
  const keepTags = options?.removeImages === false;
  // An image kept over someone else's untagged parent stays by design, tag and all.
  const shielding = new Set(objects.filter((o) => o.reason === SHIELD).map((o) => o.id));
  const expectGone = (i: OwnedImage) =>
    removedIds.has(i.id) ||
    (!keepTags && !shielding.has(i.id) && i.tags.some((t) => isOwnedTag(t, scope.owner, scope.subject)));
  return [
    ...after.containers.map((c) => ({ kind: "container" as const, id: c.id })),
    ...after.images.filter(expectGone).map((i) => ({ kind: "image" as const, id: i.id })),
  ];
}

/**
 * Containers first (a container pins its image), concurrently. Podman refuses to remove a
 * container whose namespace another one still joins: those are retried once the others are gone.
 * Retries go one at a time, for as long as each pass removes something (a chain of joins
 * unwinds one link per pass; concurrent removals of related containers can all be refused).
 */
async function executeAll(engine: Engine, actions: PlannedAction[]): Promise<CleanupObject[]> {
  const containers = actions.filter((a) => a.kind === "container");
  const objects = await Promise.all(containers.map((a) => execute(engine, a)));
  for (let progress = true; progress; ) {
    progress = false;
    for (const [i, o] of objects.entries()) {
      if (o.action !== "failed") continue;
      objects[i] = await execute(engine, containers[i]!);
      progress ||= objects[i]!.action !== "failed";
    }
  }
  for (const a of actions.filter((x) => x.kind === "image")) objects.push(await execute(engine, a));
  return objects;
}

/** One evidence record for several cleanups (per subject, then the run-wide sweep). */
export function mergeCleanup(parts: CleanupEvidence[], trigger: string): CleanupEvidence | null {
  if (parts.length === 0) return null;
  const first = parts[0]!;
  const seen = new Set<string>();
  const objects: CleanupObject[] = [];
  for (const o of parts.flatMap((p) => p.objects)) {
    const key = `${o.kind}:${o.id}:${o.tag ?? ""}`;
    if (!seen.has(key)) objects.push(o);
    seen.add(key);
  }
  return {
    owner: first.owner,
    trigger,
    startedAt: first.startedAt,
    durationMs: parts.reduce((n, p) => n + p.durationMs, 0),
    objects,
    completed: parts.every((p) => p.completed),
    verifiedBy: [...new Set(parts.flatMap((p) => p.verifiedBy))],
    remaining: parts.at(-1)!.remaining,
    errors: parts.flatMap((p) => p.errors),
  };
}

/**
 * An image in use (409) by a container no listing shows, such as Podman's build containers
 * while another build takes this image as its cache, is free again a moment later: ask a few
 * times, waiting longer each time (about 1.4 s in all).
 */
async function removeImage(engine: Engine, ref: string, attempts: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await engine.removeImage(ref);
    } catch (err) {
      if (attempt >= attempts || !(err instanceof EngineError) || err.statusCode !== 409) throw err;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}

async function execute(engine: Engine, a: PlannedAction): Promise<CleanupObject> {
  const base = { kind: a.kind, id: a.id, name: a.name, tag: a.tag, role: a.role, reason: a.reason };
  if (!a.remove) return { ...base, action: "retained" };
  try {
    if (a.kind === "container") await engine.removeContainer(a.id);
    else await removeImage(engine, a.tag ?? a.id, a.intermediate ? 1 : 4);
    return { ...base, action: a.untagOnly ? "untagged" : "removed" };
  } catch (err) {
    // 404: gone between the listing and the removal (a probe removes itself when it ends). That is
    // the outcome cleanup wants, and the verifying listing below proves it.
    if (err instanceof EngineError && err.statusCode === 404) return { ...base, action: "removed" };
    // 409: another image (someone's later build reusing this step as its cache) now has it as a
    // parent. Removing it would need force; it stays, and the listing does not expect it gone.
    if (a.intermediate && err instanceof EngineError && err.statusCode === 409) {
      return {
        ...base,
        action: "retained",
        reason: "another image now builds on it (the engine refused removal)",
      };
    }
    return { ...base, action: "failed", error: errorEvidence(err) };
  }
}
