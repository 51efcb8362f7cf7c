// Podman fails a whole image listing when another client removes an image while it walks them
// ("image not known"); cleanup's proof-by-listing must not turn that race into an incomplete cleanup.
import type Docker from "dockerode";
import { describe, expect, it } from "vitest";
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

  it("gives up after five races, with the engine's message", async () => {
    const { engine, calls } = engineAnswering([() => Promise.reject(race())]);
    await expect(engine.listImages({})).rejects.toThrow(/list images: .*image not known/);
    expect(calls()).toBe(5);
  });

  it("any other failure is not retried", async () => {
    const { engine, calls } = engineAnswering([() => Promise.reject(new Error("connect ECONNREFUSED"))]);
    await expect(engine.listImages({})).rejects.toThrow(/ECONNREFUSED/);
    expect(calls()).toBe(1);
  });
});
