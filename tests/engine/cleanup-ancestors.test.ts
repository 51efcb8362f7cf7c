// A subject's image whose untagged parent carries the run's owner label (Buildah labels every step
// image) but is not among the build's known step images (an earlier attempt made it, the retry
// reused it): the engine's record says it is ours, so it goes, and the image over it is not
// shielded. A parent labelled with another owner (or none) stays, and shields as before.
import { describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { OWNER_LABEL, ownedTag } from "../../src/engine/ownership.js";
import type { Engine, ImageQuery, ImageView } from "../../src/engine/provider.js";
import { EngineError } from "../../src/errors.js";

const hex = (c: string) => c.repeat(64);

/** A Podman-like image store: removing an image also removes its untagged, childless parents. */
function imageStore(images: ImageView[]) {
  let store = [...images];
  const removed: string[] = [];
  const find = (ref: string) =>
    store.find((i) => i.id === ref || i.id === `sha256:${ref}` || i.tags.includes(ref));
  const engine = {
    facts: async () => ({ prunesUntaggedParents: true }),
    listContainers: async () => [],
    listImages: async (q: ImageQuery) =>
      store.filter((i) =>
        i.tags.some(
          (t) => q.tag !== undefined && t.startsWith(typeof q.tag === "string" ? q.tag : q.tag.prefix),
        ),
      ),
    inspectImage: async (ref: string) => {
      const i = find(ref);
      if (!i) throw new EngineError(`no such image ${ref}`, "engine", 404);
      return i;
    },
    removeImage: async (ref: string) => {
      let i = find(ref);
      if (!i) throw new EngineError(`no such image ${ref}`, "engine", 404);
      while (i) {
        const gone: ImageView = i;
        store = store.filter((x) => x !== gone);
        removed.push(gone.id);
        const parent = find(gone.parentId);
        i =
          parent &&
          parent.tags.length === 0 &&
          !store.some((x) => x.parentId === parent.id.replace(/^sha256:/, ""))
            ? parent
            : undefined;
      }
    },
  } as unknown as Engine;
  return { engine, removed, left: () => store.map((i) => i.id) };
}

const image = (id: string, parentId: string, tags: string[], owner?: string): ImageView =>
  ({
    id: `sha256:${hex(id)}`,
    parentId: parentId ? hex(parentId) : "",
    tags,
    repoDigests: [],
    labels: owner ? { [OWNER_LABEL]: owner } : {},
    created: 0,
    user: "",
    volumes: [],
  }) as ImageView;

describe("a subject's cleanup and its image's labelled ancestors", () => {
  const owner = "da-0123456789abcdef0123456789abcdef";
  const tag = ownedTag(owner, "web");

  it("removes an untagged parent the engine labels as this run's, and the image over it", async () => {
    const { engine, left } = imageStore([image("a", "b", [tag], owner), image("b", "", [], owner)]);
    const ev = await cleanupOwned(engine, { owner, subject: "web", builtImages: [] }, { trigger: "t" });
    expect(ev.completed).toBe(true);
    expect(left()).toEqual([]);
    expect(ev.objects.find((o) => o.id === `sha256:${hex("b")}`)?.action).toBe("removed");
  });

  it("keeps a parent labelled with another owner, and the image standing on it", async () => {
    const { engine, left } = imageStore([image("a", "b", [tag], owner), image("b", "", [], "da-other")]);
    const ev = await cleanupOwned(engine, { owner, subject: "web", builtImages: [] }, { trigger: "t" });
    expect(left()).toEqual([`sha256:${hex("a")}`, `sha256:${hex("b")}`]);
    expect(ev.objects.find((o) => o.id === `sha256:${hex("a")}`)?.action).toBe("retained");
  });
});
