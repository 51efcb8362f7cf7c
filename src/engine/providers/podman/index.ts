// Podman, through its Docker-compatible socket: the Docker API transport with Podman's dialect
// (what it needs said differently, what it reports differently, how to fix what it ignores).

import { EngineError } from "../../../errors.js";
import type { Endpoint, EndpointSearch, EngineDefaults } from "../../provider.js";
import { DOCKER_DEFAULTS, type DockerDialect } from "../docker/dialect.js";
import { DOCKER_FIELD_NAMES } from "../docker/security.js";
import type { ProviderImplementation } from "../types.js";
import { PODMAN_REMEDIATION, podmanCreateOptions, podmanInspect, rememberAsked } from "./compat.js";
import { prunesParents, removeImage } from "./images.js";
import { LIBPOD_API, libpodSpec } from "./libpod.js";

/**
 * Podman's own default capability set (containers.conf) is smaller than Docker's, but the service
 * reads it from a file this tool does not see: reasoning from inspect alone keeps Docker's larger
 * set, which can only add a finding, never hide one. Its init is catatonit at /run/podman-init.
 */
const PODMAN_DEFAULTS: EngineDefaults = {
  ...DOCKER_DEFAULTS,
  engineFiles: ["/etc/hosts", "/etc/hostname", "/etc/resolv.conf", "/run/podman-init"],
  // containers-default-<version of containers/common>
  appArmorProfile: "containers-default",
};

export const podmanDialect: DockerDialect = {
  kind: "podman",
  facts: (engine) => ({
    kind: "podman",
    name: `Podman ${engine.version}`,
    cli: "podman",
    remediation: PODMAN_REMEDIATION,
    // Its settings are read back from its Docker-compatible inspect, in Docker's fields.
    fieldNames: DOCKER_FIELD_NAMES,
    defaults: PODMAN_DEFAULTS,
    // Measured on 4.3 (cgroup v1): a container OOM-killed under --memory reads OOMKilled false.
    reportsOomKills: false,
    // Measured on 4.3: after the client hung up, a `RUN sleep` step ran to its end, no later step
    // ran, and the step image it ran on could not be removed meanwhile (in use by its container).
    leftBuild:
      "Podman does not stop a build its client left: the step still running runs to its end, and an image of this build it runs on is kept until then (the post step or `docker-acceptance sweep` removes it afterwards)",
    // Its compatible removal takes an image's untagged, childless parents with it, `noprune` or
    // not; its own removal (./images.ts) honours `noprune` from 4.3 on: measured there by
    // tests/docker/adversarial-inputs.test.ts (the step images go, the untagged base stays).
    prunesUntaggedParents: prunesParents(engine.version),
    // Measured on 4.3: a build's RUN step sees the host's interfaces and loopback, through the
    // compatible build and its own alike, whatever `networkmode` (bridge, none) or `isolation` asks.
    buildNetwork: {
      mode: "host",
      why: "Podman runs a build's RUN steps in the host's network namespace (measured on 4.3, whatever the build asks)",
    },
    unreadable: {
      // Measured on 4.3: a container created with IPC "none" has no /dev/shm at all, yet its
      // inspect says "shareable", as for every container with an IPC namespace of its own
      // (libpod/container_inspect_linux.go never reaches its "none" branch).
      "IPC namespace":
        'Podman 4.3 reports IpcMode "shareable" for a container created with IPC "none" (it has no /dev/shm): the subject\'s mounts are measured instead',
    },
  }),
  speak: podmanCreateOptions,
  // Created through Podman's own API: its compatible create drops the cgroup namespace, IPC "none",
  // device rules and unlimited swap, and adds writable tmpfs under a read-only root (./libpod.ts).
  async create(body, request, signal) {
    const answer = (await request("POST", `${LIBPOD_API}/containers/create`, libpodSpec(body), signal)) as {
      Id?: string;
    };
    if (!answer?.Id)
      throw new EngineError("create container: Podman answered without a container ID", "engine");
    rememberAsked(answer.Id, body);
    return answer.Id;
  },
  hear: podmanInspect,
  // Through its own API: only the image asked for goes, never an untagged parent (./images.ts).
  removeImage,
  // Podman's forced removal stops the container with its stop timeout first (SIGTERM, then
  // SIGKILL after the grace period), which would spend a cancelled run's bounded cleanup time:
  // SIGKILL it outright, as Docker's forced removal does.
  killBeforeRemove: true,
  // Podman creates one container at a time behind a lock: 50 creates sent together (a stack's
  // probes) each wait for all the others and pass their own timeout; 4 at a time each answer.
  concurrentCreates: 4,
  // Measured on 4.3: `printf "setpriv: setresuid failed" >&2; printf ": Operation not permitted\n" >&2`
  // read with tail=40 gives only ": Operation not permitted".
  tailDropsPartialLines: true,
};

function podmanSockets(env: NodeJS.ProcessEnv): string[] {
  const rootless = env.XDG_RUNTIME_DIR ? [`${env.XDG_RUNTIME_DIR}/podman/podman.sock`] : [];
  return ["/run/podman/podman.sock", ...rootless];
}

/**
 * CONTAINER_HOST; when Podman was asked for, DOCKER_HOST too (its compatible socket); else the
 * rootful or rootless service's socket that exists (asked for: the rootful one's path).
 */
function podmanEndpoint(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
  search: EndpointSearch,
): Endpoint | undefined {
  const container = env.CONTAINER_HOST?.trim();
  if (container) return { provider: "podman", host: container, from: "CONTAINER_HOST" };
  if (search === "env") return undefined;
  const docker = env.DOCKER_HOST?.trim();
  if (search === "named" && docker) return { provider: "podman", host: docker, from: "DOCKER_HOST" };
  const sockets = podmanSockets(env);
  const socket = sockets.find(exists) ?? (search === "named" ? sockets[0] : undefined);
  return socket ? { provider: "podman", host: `unix://${socket}`, from: "default socket" } : undefined;
}

/** Podman's implementation (../index.ts lists it under its catalogue entry, ./catalogue.ts). */
export const podmanProvider: ProviderImplementation = { endpoint: podmanEndpoint, dialect: podmanDialect };
