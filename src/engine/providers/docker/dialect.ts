// An engine that answers the Docker Engine API in its own way (Podman's compatible API): how it is
// recognised (its kind is the product the engine's identity names), its facts, and what it needs
// said or read differently. Docker's own dialect says everything as written.
import type { EngineDefaults, EngineFacts, HardenedSetting } from "../../provider.js";
import type { EngineIdentity } from "./identity.js";
import { DOCKER_FIELD_NAMES } from "./security.js";
import type { ContainerInspect, CreateOptions } from "./translate.js";

/** A raw call to the engine's API, for what a dialect says in its own terms (Podman's libpod). */
export type EngineRequest = (
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
  signal?: AbortSignal,
) => Promise<unknown>;

export interface DockerDialect {
  /** The product whose engines speak this dialect (EngineIdentity.product). */
  kind: string;
  facts(engine: EngineIdentity): EngineFacts;
  /** The create body in this engine's terms. */
  speak(body: CreateOptions): CreateOptions;
  /**
   * Creates a container from the spoken body through the engine's own API, where its compatible
   * create drops hardening settings (Podman); absent: the compatible create. Its ID.
   */
  create?(body: CreateOptions, request: EngineRequest, signal: AbortSignal): Promise<string>;
  /**
   * The inspect document in Docker's terms; `nameOf` names a container by ID, `request` reads
   * what the compatible document leaves out from the engine's own API.
   */
  hear(
    doc: ContainerInspect,
    nameOf: (containerId: string) => Promise<string>,
    request: EngineRequest,
  ): Promise<ContainerInspect>;
  /**
   * Removes an image (by tag or ID, never forced, never its parents) through the engine's own API,
   * where its compatible removal prunes untagged parents (Podman); absent: the compatible removal.
   */
  removeImage?(ref: string, request: EngineRequest, signal: AbortSignal): Promise<void>;
  /** Kill a container before its forced removal (whose own stop would spend the grace period). */
  killBeforeRemove: boolean;
  /** Creates sent at once, at most (an engine that creates behind one lock); absent: no limit. */
  concurrentCreates?: number;
  /**
   * The log endpoint's `tail` drops the fragments of a line written in parts: the whole log is
   * read and its last lines are cut here instead (else a crash's last line loses its start).
   */
  tailDropsPartialLines?: boolean;
}

/** Docker's default capability set (moby oci/caps/defaults.go). */
const DEFAULT_CAPS = [
  "CHOWN",
  "DAC_OVERRIDE",
  "FSETID",
  "FOWNER",
  "MKNOD",
  "NET_RAW",
  "SETGID",
  "SETUID",
  "SETFCAP",
  "SETPCAP",
  "NET_BIND_SERVICE",
  "SYS_CHROOT",
  "KILL",
  "AUDIT_WRITE",
];

/** Docker's defaults (moby oci/defaults.go); the files it mounts itself, its init among them. */
export const DOCKER_DEFAULTS: EngineDefaults = {
  capabilities: DEFAULT_CAPS,
  maskedPaths: [
    "/proc/asound",
    "/proc/acpi",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/proc/scsi",
    "/sys/firmware",
  ],
  readonlyPaths: ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"],
  engineFiles: [
    "/etc/hosts",
    "/etc/hostname",
    "/etc/resolv.conf",
    "/sbin/docker-init",
    "/usr/sbin/docker-init",
  ],
  appArmorProfile: "docker-default",
};

/** Docker applies every hardened setting it accepts; a deviation there means an old or patched engine. */
const DOCKER_REMEDIATION: Partial<Record<HardenedSetting, string>> = {
  "cgroup namespace": "Docker applies CgroupnsMode from API 1.41 (Engine 20.10) on: upgrade the engine.",
};

export const dockerDialect: DockerDialect = {
  kind: "docker",
  facts: (engine) => ({
    kind: "docker",
    name: `Docker ${engine.version}`,
    cli: "docker",
    remediation: DOCKER_REMEDIATION,
    fieldNames: DOCKER_FIELD_NAMES,
    defaults: DOCKER_DEFAULTS,
    reportsOomKills: true,
  }),
  speak: (body) => body,
  hear: async (doc) => doc,
  killBeforeRemove: false,
};
