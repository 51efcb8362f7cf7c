// Which engine answers the Docker Engine API, and which API it speaks. /_ping's headers say it:
// Docker's server names itself (Server: Docker/26.1.5 (linux)), Podman adds Libpod-API-Version,
// the header its API documentation names for telling the engines apart. /version is asked only
// when the headers do not say (a proxy in between): Podman's gathers its storage facts under the
// store lock, and beside running builds it answered after 53 s while /_ping took 0.1 s.
import type { IncomingHttpHeaders } from "node:http";
import type Docker from "dockerode";

export interface EngineIdentity {
  /** The dialect's kind: "docker", "podman". */
  product: string;
  /** The engine's release: "20.10.24+dfsg1", "4.3.1". */
  version: string;
  /** The Docker Engine API version it speaks: "1.41". */
  apiVersion: string;
  /** What its containers run: "linux", "windows"; absent when it did not say. */
  os?: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** The identity /_ping's headers give, or undefined when they do not name the engine. */
export function identityFromPing(headers: IncomingHttpHeaders): EngineIdentity | undefined {
  const apiVersion = header(headers, "api-version");
  if (!apiVersion) return undefined;
  const os = header(headers, "ostype");
  const libpod = header(headers, "libpod-api-version");
  if (libpod) return { product: "podman", version: libpod, apiVersion, ...(os ? { os } : {}) };
  const docker = /^Docker\/(\S+)/.exec(header(headers, "server") ?? "");
  if (docker?.[1]) return { product: "docker", version: docker[1], apiVersion, ...(os ? { os } : {}) };
  return undefined;
}

/** The identity /version gives; an engine that names no Podman component speaks as Docker. */
export function identityFromVersion(version: Docker.DockerVersion): EngineIdentity {
  const podman = (version.Components ?? []).find((c) => /podman/i.test(c.Name ?? ""));
  return {
    product: podman ? "podman" : "docker",
    version: podman?.Version || version.Version,
    apiVersion: version.ApiVersion,
    ...(version.Os ? { os: version.Os } : {}),
  };
}
