// Which engine answers is read from /_ping's headers, recorded here from the engines this project
// runs on (Docker 20.10 and 26, Podman 4.3); /version is the fallback when they do not say.
import type Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { identityFromPing, identityFromVersion } from "../../src/engine/providers/docker/identity.js";

/** GET /_ping on Debian bookworm's docker.io 20.10.24. */
const DOCKER_20 = {
  "api-version": "1.41",
  "cache-control": "no-cache, no-store, must-revalidate",
  "docker-experimental": "false",
  ostype: "linux",
  pragma: "no-cache",
  server: "Docker/20.10.24+dfsg1 (linux)",
};
/** GET /_ping on Debian trixie's docker.io 26.1.5. */
const DOCKER_26 = {
  "api-version": "1.45",
  "builder-version": "2",
  "cache-control": "no-cache, no-store, must-revalidate",
  "docker-experimental": "false",
  ostype: "linux",
  pragma: "no-cache",
  server: "Docker/26.1.5+dfsg1 (linux)",
  swarm: "inactive",
};
/** GET /_ping on Podman 4.3.1's compatible socket (it sends no Ostype). */
const PODMAN_43 = {
  "api-version": "1.41",
  "builder-version": "",
  "buildkit-version": "",
  "cache-control": "no-cache",
  "docker-experimental": "true",
  "libpod-api-version": "4.3.1",
  "libpod-buildah-version": "1.28.2",
  pragma: "no-cache",
  server: "Libpod/4.3.1 (linux)",
};

describe("identityFromPing", () => {
  it("names Docker and its release from the Server header", () => {
    expect(identityFromPing(DOCKER_20)).toEqual({
      product: "docker",
      version: "20.10.24+dfsg1",
      apiVersion: "1.41",
      os: "linux",
    });
    expect(identityFromPing(DOCKER_26)).toMatchObject({
      product: "docker",
      version: "26.1.5+dfsg1",
      apiVersion: "1.45",
    });
  });

  it("names Podman from Libpod-API-Version, whatever its Server header says", () => {
    expect(identityFromPing(PODMAN_43)).toEqual({ product: "podman", version: "4.3.1", apiVersion: "1.41" });
    expect(identityFromPing({ ...PODMAN_43, server: "Docker/4.3.1 (linux)" })?.product).toBe("podman");
  });

  it("does not guess when the headers do not name the engine: /version is asked instead", () => {
    // A proxy that rewrites Server, an engine that sends no API version.
    expect(identityFromPing({ ...DOCKER_20, server: "nginx/1.22.1" })).toBeUndefined();
    expect(identityFromPing({ ...DOCKER_20, "api-version": undefined })).toBeUndefined();
    expect(identityFromPing({ ...PODMAN_43, "api-version": "" })).toBeUndefined();
  });
});

describe("identityFromVersion", () => {
  it("names Podman from its component, with Podman's release rather than the API's", () => {
    const podman = {
      Version: "4.3.1",
      ApiVersion: "1.41",
      Os: "linux",
      Components: [
        { Name: "Podman Engine", Version: "4.3.1" },
        { Name: "Conmon", Version: "conmon version 2.1.6" },
      ],
    } as unknown as Docker.DockerVersion;
    expect(identityFromVersion(podman)).toEqual({
      product: "podman",
      version: "4.3.1",
      apiVersion: "1.41",
      os: "linux",
    });
  });

  it("speaks as Docker for any engine that names no Podman component", () => {
    const docker = {
      Version: "26.1.5+dfsg1",
      ApiVersion: "1.45",
      Os: "linux",
      Components: [{ Name: "Engine", Version: "26.1.5+dfsg1" }],
    } as unknown as Docker.DockerVersion;
    expect(identityFromVersion(docker)).toEqual({
      product: "docker",
      version: "26.1.5+dfsg1",
      apiVersion: "1.45",
      os: "linux",
    });
  });
});
