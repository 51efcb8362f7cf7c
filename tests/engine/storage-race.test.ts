// Podman's storage race (an image or layer removed while a build looks it up) is the engine's
// fault and the build is run again; the same words in text the pull request wrote (a step's
// command, a COPY source) never make a failing build the engine's. Messages as the engines print
// them; the real-engine attack: tests/docker/adversarial-inputs.test.ts (engine-words).
import { describe, expect, it } from "vitest";
import { isStorageRace } from "../../src/engine/providers/docker/storage-race.js";

describe("a build failure read as the engine losing its own images", () => {
  it("is the engine's own words for an image or layer it lost", () => {
    for (const reason of [
      'error building at STEP "RUN apk add curl": creating build container: locating image with ID "5368ad0b": image not known',
      'committing container for step {Env:[PATH=/usr/bin] Command:run Args:[echo hi] Original:RUN echo hi}: copying layers and metadata for container "4f1c": initializing source containers-storage:4f1c: layer not known',
    ])
      expect(isStorageRace(reason, "podman"), reason).toBe(true);
  });

  it("never a step that ran and failed, whatever its command says", () => {
    for (const reason of [
      'error building at STEP "RUN echo image not known && exit 1": while running runtime: exit status 1',
      "building at STEP \"RUN echo 'layer not known'\": while running runtime: exit status 2",
      'process "/bin/sh -c echo image not known; exit 1" did not complete successfully: exit code: 1',
    ])
      expect(isStorageRace(reason, "podman"), reason).toBe(false);
  });

  it("never the words inside what the engine quotes back (a COPY source, a step, a struct of the step)", () => {
    for (const reason of [
      'error building at STEP "COPY image not known /x": checking on sources under "/var/tmp/libpod_builder1/build": copier: stat: "/image not known": no such file or directory',
      "copying: stat 'layer not known': no such file",
      "committing container for step {Args:[image not known]}: no space left on device",
      "resolving [image not known]: invalid reference format",
    ])
      expect(isStorageRace(reason, "podman"), reason).toBe(false);
  });

  it("never on Docker for Podman's words: its COPY error does not quote the source", () => {
    const reason =
      "COPY failed: file not found in build context or excluded by .dockerignore: stat image not known: file does not exist";
    expect(isStorageRace(reason, "docker")).toBe(false);
    expect(isStorageRace('locating image with ID "5368ad0b": image not known', "docker")).toBe(false);
  });

  it("on Docker, its legacy builder's lost image (a cached step image another build's cleanup removed), and nothing around it", () => {
    const id = `sha256:${"74b767cdb855".repeat(5)}74b7`;
    expect(isStorageRace(`unable to find image "${id}"`, "docker")).toBe(true);
    expect(isStorageRace(`unable to find image "${id}"`, "podman")).toBe(false);
    for (const reason of [
      // What a Dockerfile can make the builder say, or a step print: never the whole message.
      `The command '/bin/sh -c echo 'unable to find image "${id}"'; exit 1' returned a non-zero code: 1`,
      `unable to find image "${id}": pull request words`,
      'unable to find image "web:1"',
      `invalid from flag value ${id}: unable to find image "${id}"`,
    ])
      expect(isStorageRace(reason, "docker"), reason).toBe(false);
  });
});
