import { describe, expect, it } from "vitest";
import { planCleanup } from "../../src/engine/cleanup.js";
import { isOwnedTag, normalizeRef } from "../../src/engine/ownership.js";
import type { OwnedImage } from "../../src/engine/provider.js";

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

describe("normalised image references (Podman spells local names in full)", () => {
  it("treats docker.io/library/x:y, docker.io/x/y:z and localhost/x:y as the short names", () => {
    expect(normalizeRef("docker.io/library/docker-acceptance:t")).toBe("docker-acceptance:t");
    expect(normalizeRef("docker.io/team/app:1")).toBe("team/app:1");
    expect(normalizeRef("localhost/docker-acceptance/busybox:local")).toBe("docker-acceptance/busybox:local");
    expect(normalizeRef("ghcr.io/org/app:1")).toBe("ghcr.io/org/app:1");
    expect(isOwnedTag(`docker.io/library/docker-acceptance:${owner}-svc`, owner, "svc")).toBe(true);
    expect(isOwnedTag(`quay.io/docker-acceptance:${owner}-svc`, owner, "svc")).toBe(false);
  });

  it("plans the removal of an image Podman lists under its full name", () => {
    const plan = planCleanup(
      { owner },
      { containers: [], images: [img("final", "", [`docker.io/library/docker-acceptance:${owner}-svc`])] },
    );
    expect(plan.map((a) => [a.id, a.remove, a.reason])).toEqual([
      ["final", true, "tagged by this run and by nothing else"],
    ]);
  });
});
