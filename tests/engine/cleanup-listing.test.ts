// How many listings a cleanup costs: a listing that found nothing owned is already the proof (no
// second round of listings at the end of every check); anything removed is listed again.
import { describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { OWNER_LABEL, ownedTag, SUBJECT_LABEL } from "../../src/engine/ownership.js";
import type { ContainerView, Engine, ImageQuery, OwnedContainer } from "../../src/engine/provider.js";
import { EngineError } from "../../src/errors.js";

function listingEngine(containers: OwnedContainer[]) {
  const calls: string[] = [];
  let left = [...containers];
  const engine = {
    listContainers: async () => {
      calls.push("list containers");
      return left;
    },
    listImages: async () => {
      calls.push("list images");
      return [];
    },
    removeContainer: async (id: string) => {
      calls.push(`remove ${id}`);
      left = left.filter((c) => c.id !== id);
    },
  } as unknown as Engine;
  return { engine, calls };
}

const probe: OwnedContainer = {
  id: "p1",
  names: ["run-probe-0a1b2c3d4e5f"],
  state: "exited",
  labels: { [OWNER_LABEL]: "run" },
  image: "probe",
  created: 0,
};

describe("cleanup's proving listing", () => {
  it("lists once when nothing is owned, and says it verified that", async () => {
    const { engine, calls } = listingEngine([]);
    const ev = await cleanupOwned(engine, { owner: "run" }, { trigger: "check" });
    expect(calls.filter((c) => c === "list containers")).toHaveLength(1);
    expect(ev.completed).toBe(true);
    expect(ev.remaining).toEqual([]);
    expect(ev.verifiedBy[0]).toBe(`list containers label=${OWNER_LABEL}=run`);
  });

  it("lists again after removing something, and reports what is still there", async () => {
    const { engine, calls } = listingEngine([probe]);
    const ev = await cleanupOwned(engine, { owner: "run" }, { trigger: "check" });
    expect(calls).toContain("remove p1");
    expect(calls.filter((c) => c === "list containers")).toHaveLength(2);
    expect(ev.completed).toBe(true);
  });

  it("lists again when the first listing failed: only a listing that answered proves anything", async () => {
    const { engine } = listingEngine([]);
    let first = true;
    const failing = {
      ...engine,
      listContainers: async () => {
        if (first) {
          first = false;
          throw new Error("list timed out");
        }
        return [probe];
      },
    } as unknown as Engine;
    const ev = await cleanupOwned(failing, { owner: "run" }, { trigger: "check" });
    expect(ev.completed).toBe(false);
    expect(ev.remaining).toEqual([{ kind: "container", id: "p1" }]);
    expect(ev.errors[0]?.message).toContain("list timed out");
  });
});

describe("a subject's cleanup from what its run created", () => {
  const owner = "run";
  const subjectLabels = { [OWNER_LABEL]: owner, [SUBJECT_LABEL]: "web" };
  const view = (id: string, labels: Record<string, string>) =>
    ({ id, name: `/${id}`, image: "img", labels, state: { status: "exited" } }) as unknown as ContainerView;

  function knownEngine(opts: {
    containers: Record<string, Record<string, string>>;
    listed: OwnedContainer[];
  }) {
    const calls: string[] = [];
    const alive = new Map(Object.entries(opts.containers));
    let listed = [...opts.listed];
    let tagged = true;
    const tag = ownedTag(owner, "web");
    const engine = {
      inspect: async (id: string) => {
        calls.push(`inspect ${id}`);
        const labels = alive.get(id);
        if (!labels) throw new EngineError(`inspect ${id}: no such container`, "engine", 404);
        return view(id, labels);
      },
      inspectImage: async (ref: string) => {
        calls.push(`inspect image ${ref}`);
        if (ref !== tag || !tagged)
          throw new EngineError(`inspect image ${ref}: no such image`, "engine", 404);
        return {
          id: "sha256:i",
          parentId: "",
          tags: [tag],
          repoDigests: [],
          labels: { [OWNER_LABEL]: owner },
          created: 1,
        };
      },
      listContainers: async () => {
        calls.push("list containers");
        return [...alive.entries()]
          .filter(([, l]) => l[SUBJECT_LABEL] === "web" && l[OWNER_LABEL] === owner)
          .map(([id, labels]) => ({ ...probe, id, labels }))
          .concat(listed);
      },
      listImages: async (query: ImageQuery) => {
        calls.push(query.tag ? "list images by reference" : "list images by label");
        return tagged && query.tag
          ? [{ id: "sha256:i", parentId: "", tags: [tag], labels: {}, created: 1 }]
          : [];
      },
      removeContainer: async (id: string) => {
        calls.push(`remove ${id}`);
        alive.delete(id);
        listed = listed.filter((c) => c.id !== id);
      },
      removeImage: async (ref: string) => {
        calls.push(`remove image ${ref}`);
        tagged = false;
      },
    } as unknown as Engine;
    return { engine, calls };
  }

  it("removes what it knows without a listing first, then proves it gone by listing", async () => {
    const { engine, calls } = knownEngine({ containers: { c1: subjectLabels }, listed: [] });
    const ev = await cleanupOwned(
      engine,
      { owner, subject: "web", knownContainers: ["c1"] },
      { trigger: "subject-end" },
    );
    expect(ev.completed).toBe(true);
    expect(ev.objects).toMatchObject([
      { kind: "container", id: "c1", action: "removed" },
      { kind: "image", id: "sha256:i", action: "removed" },
    ]);
    const firstList = calls.findIndex((c) => c.startsWith("list"));
    expect(calls.indexOf("remove c1")).toBeLessThan(firstList);
    expect(calls.indexOf(`remove image ${ownedTag(owner, "web")}`)).toBeLessThan(firstList);
    // One proving round: containers by label, images by the subject's tag (images carry no subject label).
    expect(calls.filter((c) => c.startsWith("list"))).toEqual([
      "list containers",
      "list images by reference",
    ]);
    expect(ev.verifiedBy).toEqual([
      `list containers label=${OWNER_LABEL}=run,${SUBJECT_LABEL}=web`,
      `list images reference=${ownedTag(owner, "web")}`,
    ]);
  });

  it("what the proving listing finds that it did not know is removed, and listed again", async () => {
    const stray = { ...probe, id: "c2", labels: subjectLabels };
    const { engine, calls } = knownEngine({ containers: { c1: subjectLabels }, listed: [stray] });
    const ev = await cleanupOwned(
      engine,
      { owner, subject: "web", knownContainers: ["c1"] },
      { trigger: "cancelled" },
    );
    expect(calls).toContain("remove c2");
    expect(calls.filter((c) => c === "list containers")).toHaveLength(2);
    expect(ev.completed).toBe(true);
    expect(ev.objects.map((o) => o.id)).toEqual(["c1", "sha256:i", "c2"]);
  });

  it("a known container without the scope's labels is never touched, and the listing decides", async () => {
    const { engine, calls } = knownEngine({
      containers: { other: { [OWNER_LABEL]: "someone-else" } },
      listed: [],
    });
    const ev = await cleanupOwned(
      engine,
      { owner, subject: "web", knownContainers: ["other"] },
      { trigger: "subject-end" },
    );
    expect(calls).not.toContain("remove other");
    expect(ev.completed).toBe(true);
  });

  it("an object it removed that the listing still shows is left over: not completed", async () => {
    const { engine } = knownEngine({ containers: { c1: subjectLabels }, listed: [] });
    const stuck = { ...engine, removeContainer: async () => {} } as unknown as Engine;
    const ev = await cleanupOwned(
      stuck,
      { owner, subject: "web", knownContainers: ["c1"] },
      { trigger: "t" },
    );
    expect(ev.completed).toBe(false);
    expect(ev.remaining).toEqual([{ kind: "container", id: "c1" }]);
  });
});
