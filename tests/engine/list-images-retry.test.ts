// Podman fails a whole image listing when another client removes an image while it walks them
// ("image not known"); cleanup's proof-by-listing must not turn that race into an incomplete cleanup.
// The same read-through holds for every read (src/engine/providers/docker/storage-race.ts); the
// real-engine case: tests/docker/engine-faults.test.ts.
import type Docker from "dockerode";
import { describe, expect, it, vi } from "vitest";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { DIALECTS } from "../helpers/engine.js";

const race = () =>
  Object.assign(
    new Error('(HTTP code 500) server error - locating image with ID "5368ad": image not known'),
    {
      statusCode: 500,
    },
  );
const image = { Id: "sha256:1", ParentId: "", RepoTags: ["docker.io/library/x:y"], Labels: {}, Created: 1 };

function engineAnswering(answers: (() => Promise<unknown>)[]) {
  let calls = 0;
  const docker = { listImages: () => answers[Math.min(calls++, answers.length - 1)]!() } as unknown as Docker;
  return { engine: new DockerEngine(docker, undefined, undefined, DIALECTS), calls: () => calls };
}

describe("listing images while another client removes one", () => {
  it("asks again after Podman's 'image not known' race and returns the listing", async () => {
    const { engine, calls } = engineAnswering([() => Promise.reject(race()), () => Promise.resolve([image])]);
    expect(await engine.listImages({})).toEqual([
      { id: "sha256:1", parentId: "", tags: ["x:y"], labels: {}, created: 1 },
    ]);
    expect(calls()).toBe(2);
  });

  it("asks again while the race lasts, backing off, and gives up after 20 s with the engine's message", async () => {
    vi.useFakeTimers();
    try {
      const { engine, calls } = engineAnswering([() => Promise.reject(race())]);
      const listed = engine.listImages({}).then(
        () => "listed",
        (err: Error) => err.message,
      );
      await vi.advanceTimersByTimeAsync(15_000);
      // Backing off from 100 ms to 2 s: 100+200+400+800+1600, then every 2 s.
      expect(calls()).toBe(11);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await listed).toMatch(/list images: .*image not known/);
      expect(calls()).toBeLessThanOrEqual(14);
    } finally {
      vi.useRealTimers();
    }
  });

  it("any other failure is not retried", async () => {
    const { engine, calls } = engineAnswering([() => Promise.reject(new Error("connect ECONNREFUSED"))]);
    await expect(engine.listImages({})).rejects.toThrow(/ECONNREFUSED/);
    expect(calls()).toBe(1);
  });
});
