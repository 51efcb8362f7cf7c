// A probe removes itself when it ends: cleanup may list it and find it gone when it comes to remove
// it. Gone is what cleanup wants; the run's evidence must not call that a failed cleanup.
import { describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { OWNER_LABEL, ownedTag, ROLE_LABEL } from "../../src/engine/ownership.js";
import type { Engine } from "../../src/engine/provider.js";
import { EngineError } from "../../src/errors.js";

const owner = "da-0123456789abcdef0123456789abcdef";

function engineWith(removal: () => Promise<void>) {
  let listed = 0;
  const probe = {
    id: "p1",
    names: [`${owner}-probe-0a1b2c3d4e5f`],
    state: "exited",
    labels: { [OWNER_LABEL]: owner, [ROLE_LABEL]: "probe" },
    image: "busybox",
    created: 1,
  };
  return {
    listContainers: async () => (listed++ === 0 ? [probe] : []),
    listImages: async () => [],
    removeContainer: removal,
  } as unknown as Engine;
}

describe("cleanup of an object already gone", () => {
  it("a 404 on removal counts as removed, and the listing proves it: cleanup completed", async () => {
    const engine = engineWith(() =>
      Promise.reject(new EngineError('remove p1: no container with name or ID "p1" found', "engine", 404)),
    );
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
    expect(evidence.objects).toMatchObject([{ id: "p1", action: "removed" }]);
    expect(evidence.completed).toBe(true);
  });

  it("any other refusal stays a failed removal, and cleanup is not completed", async () => {
    const engine = engineWith(() => Promise.reject(new EngineError("remove p1: device busy", "engine", 500)));
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
    expect(evidence.objects).toMatchObject([{ id: "p1", action: "failed" }]);
    expect(evidence.completed).toBe(false);
  });
});

describe("an owned image a build container holds for a moment", () => {
  function engineWithImage(refusals: number) {
    const tag = ownedTag(owner, "s");
    let images = [
      { id: "sha256:1", parentId: "", tags: [tag], labels: { [OWNER_LABEL]: owner }, created: 1 },
    ];
    let calls = 0;
    const engine = {
      listContainers: async () => [],
      listImages: async () => images,
      removeImage: async () => {
        if (calls++ < refusals)
          throw new EngineError(`remove image ${tag}: image is in use by a container`, "engine", 409);
        images = [];
      },
    } as unknown as Engine;
    return { engine, calls: () => calls };
  }

  it("is asked again after a 409 and removed: cleanup completed", async () => {
    const { engine, calls } = engineWithImage(2);
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
    expect(evidence.objects).toMatchObject([{ kind: "image", action: "removed" }]);
    expect(evidence.completed).toBe(true);
    expect(calls()).toBe(3);
  });

  it("still in use after four tries: a failed removal, named by its tag", async () => {
    const { engine, calls } = engineWithImage(10);
    const evidence = await cleanupOwned(engine, { owner }, { trigger: "test" });
    expect(evidence.objects).toMatchObject([{ kind: "image", action: "failed" }]);
    expect(evidence.completed).toBe(false);
    expect(calls()).toBe(4);
  });
});
