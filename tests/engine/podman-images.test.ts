// Podman's image removal through its own API: never its parents, and podman-rmi(1)'s exit codes
// read as the statuses cleanup judges (404 gone, 409 in use), never from the error's words.
import { describe, expect, it } from "vitest";
import type { EngineRequest } from "../../src/engine/providers/docker/dialect.js";
import { prunesParents, removeImage } from "../../src/engine/providers/podman/images.js";
import { EngineError } from "../../src/errors.js";

function answering(answer: unknown): { request: EngineRequest; asked: unknown[][] } {
  const asked: unknown[][] = [];
  const request: EngineRequest = async (method, path, body) => {
    asked.push([method, path, body]);
    return answer;
  };
  return { request, asked };
}

const signal = new AbortController().signal;

describe("Podman's image removal", () => {
  it("asks its own batch removal for the one image, with noprune", async () => {
    const { request, asked } = answering({ Deleted: ["abc"], ExitCode: 0, Errors: null });
    await removeImage("docker-acceptance:da-x-hardened", request, signal);
    expect(asked).toEqual([
      [
        "DELETE",
        "/v4.0.0/libpod/images/remove?",
        { images: "docker-acceptance:da-x-hardened", noprune: true },
      ],
    ]);
  });

  it.each([
    [1, 404],
    [2, 409],
    [125, 500],
  ])("exit code %i is status %i", async (code, status) => {
    const { request } = answering({
      ExitCode: code,
      Errors: ["image is in use by a container: image not known"],
    });
    const err = await removeImage("x", request, signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).statusCode).toBe(status);
    expect((err as EngineError).kind).toBe("engine");
  });

  it("an error listed without an exit code is the engine's failure", async () => {
    const { request } = answering({ Errors: ["storage broke"] });
    await expect(removeImage("x", request, signal)).rejects.toMatchObject({ statusCode: 500 });
  });

  it("prunes untagged parents whatever is asked before 4.3 only", () => {
    expect(prunesParents("4.2.1")).toBe(true);
    expect(prunesParents("3.4.4")).toBe(true);
    expect(prunesParents("4.3.1")).toBe(false);
    expect(prunesParents("4.9.3")).toBe(false);
    expect(prunesParents("5.0.0-dev")).toBe(false);
  });
});
