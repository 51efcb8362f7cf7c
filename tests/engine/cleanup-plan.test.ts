import { describe, expect, it } from "vitest";
import { planCleanup } from "../../src/engine/cleanup.js";
import type { OwnedImage } from "../../src/engine/docker.js";

const owner = `da-${"a".repeat(32)}`;
const img = (id: string, parentId: string, tags: string[], labelled = true): OwnedImage => ({
  id,
  parentId,
  tags,
  labels: labelled ? { "org.docker-acceptance.owner": owner } : {},
  created: 0,
});

describe("planCleanup (side-effect free)", () => {
  it("removes our tag and our intermediate images child-first", () => {
    const plan = planCleanup(
      { owner },
      {
        containers: [],
        images: [
          img("p1", "base", []),
          img("p2", "p1", []),
          img("final", "p2", [`docker-acceptance:${owner}-svc`]),
        ],
      },
    );
    expect(plan.map((a) => [a.id, a.remove, a.tag ?? null])).toEqual([
      ["final", true, `docker-acceptance:${owner}-svc`],
      ["p2", true, null],
      ["p1", true, null],
    ]);
  });

  it("only untags a shared image and keeps its owned ancestry", () => {
    const plan = planCleanup(
      { owner },
      {
        containers: [],
        images: [img("p1", "base", []), img("final", "p1", [`docker-acceptance:${owner}-svc`, "team/app:1"])],
      },
    );
    const final = plan.find((a) => a.id === "final")!;
    expect(final).toMatchObject({ remove: true, untagOnly: true, tag: `docker-acceptance:${owner}-svc` });
    expect(final.reason).toContain("team/app:1 also references it");
    expect(plan.find((a) => a.id === "p1")).toMatchObject({ remove: false });
  });

  it("retains images when cleanup-images is false, and never removes an image another run tagged", () => {
    const plan = planCleanup(
      { owner },
      {
        containers: [],
        images: [
          img("final", "", [`docker-acceptance:${owner}-svc`]),
          img("other", "", ["docker-acceptance:da-other-svc"], false),
        ],
      },
      { removeImages: false },
    );
    expect(plan.map((a) => [a.id, a.remove])).toEqual([
      ["final", false],
      ["other", false],
    ]);
  });
});
