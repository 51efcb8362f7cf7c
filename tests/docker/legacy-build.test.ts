// Docker's legacy builder and Podman's Buildah (the builder every Podman build uses): whatever a
// build commits, finished or failed, in every stage, is gone after the run, proven from the
// engine's whole image store and not only from what the run knew it made. And on Docker's
// containerd image store, where BuildKit cannot read the context the tool sends, the legacy builder.
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { engineHostOf } from "../../src/engine/providers/docker/translate.js";
import {
  buildCase,
  fresh,
  gone,
  imagesFrom,
  nothingOwned,
  run,
  SERVE,
  subject,
} from "../helpers/build-subject.js";
import { BASE_IMAGE, hasEngine } from "../helpers/engine.js";
import { ENGINE_SOCKET } from "../helpers/engine-forwarder.js";

describe.skipIf(!hasEngine)("a legacy build leaves nothing behind", () => {
  it("leaves nothing behind after a legacy multi-stage build: every stage's step images removed by ID", async () => {
    const nonce = randomBytes(6).toString("hex");
    const s = subject(
      [
        `FROM ${BASE_IMAGE} AS assets`,
        fresh(nonce),
        "RUN mkdir -p /out && echo legacy > /out/index.html",
        `FROM ${BASE_IMAGE}`,
        "COPY --from=assets /out /var/www",
        "COPY health /var/www/health",
        SERVE,
      ].join("\n"),
      { builder: "legacy" },
    );
    const r = await run(s);
    const b = buildCase(r);
    expect(b.status).toBe("pass");
    expect(b.evidence.builder).toBe("legacy");
    expect(r.subjects[0]?.builderReason).toContain("build.builder: legacy");
    const intermediates = b.evidence.intermediateImages as string[];
    // Two RUNs in the first stage, two COPYs, USER and CMD in the second.
    expect(intermediates.length).toBeGreaterThanOrEqual(5);
    const cleanup = r.cases.find((c) => c.id === "lifecycle.cleanup")!;
    expect(cleanup.status).toBe("pass");
    expect((cleanup.evidence.verifiedBy as string[]).join("\n")).toMatch(/inspect \d+ build-created image/);
    for (const id of intermediates) expect(await gone(id)).toBe(true);
    expect(await gone(b.evidence.imageId as string)).toBe(true);
    // The first stage's images were Docker's legacy builder's leftovers: nothing named them ours.
    expect(await imagesFrom(nonce)).toEqual([]);
    await nothingOwned(r);
  });

  it("leaves nothing behind after a legacy build that failed: each step image it committed is removed", async () => {
    const nonce = randomBytes(6).toString("hex");
    const s = subject(
      [`FROM ${BASE_IMAGE} AS assets`, fresh(nonce), "RUN echo half > /half", "RUN exit 3", SERVE].join("\n"),
      { builder: "legacy" },
    );
    const r = await run(s);
    expect(buildCase(r).status).toBe("fail");
    expect(buildCase(r).message).toMatch(/exit 3/);
    expect(r.cases.find((c) => c.id === "lifecycle.cleanup")?.status).toBe("pass");
    expect(await imagesFrom(nonce)).toEqual([]);
    await nothingOwned(r);
  });
});

/** Docker with its containerd image store (the VM's containerd leg, Docker 26 beside the host). */
const containerdStore =
  hasEngine &&
  engineHostOf(await new Docker({ socketPath: ENGINE_SOCKET }).info()).imageStore === "containerd";

describe.skipIf(!containerdStore)("Docker's containerd image store", () => {
  it("builds with the legacy builder and says why; a Dockerfile that needs BuildKit is the engine's ERROR", async () => {
    const plain = await run(subject(`FROM ${BASE_IMAGE}\n${fresh()}COPY health /var/www/health\n${SERVE}`));
    expect(buildCase(plain).status, buildCase(plain).message).toBe("pass");
    expect(plain.subjects[0]?.builderReason).toContain("moby/moby#47717");
    await nothingOwned(plain);
    const cache = await run(
      subject(`FROM ${BASE_IMAGE}\nRUN --mount=type=cache,target=/c echo cached > /c/x\n${SERVE}`),
    );
    expect(buildCase(cache).status).toBe("error");
    expect(buildCase(cache).message).toMatch(/needs BuildKit .*--mount.*containerd's image store/);
    await nothingOwned(cache);
  });
});
