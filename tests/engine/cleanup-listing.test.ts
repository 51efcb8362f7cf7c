// How many listings a cleanup costs: a listing that found nothing owned is already the proof (no
// second round of listings at the end of every check); anything removed is listed again.
import { describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { OWNER_LABEL } from "../../src/engine/ownership.js";
import type { Engine, OwnedContainer } from "../../src/engine/provider.js";

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
  names: ["/p1"],
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
