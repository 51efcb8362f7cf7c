// The verdicts that differ between Docker and Podman on the same subjects, each with its reason.
// Tests on the Podman leg expect exactly these differences; README "Engines" lists the same.
import type { CaseId } from "../../src/cases/index.js";

export interface EngineDifference {
  /** What the difference is about: a fixture of the demo, the fault matrix or the lifecycle tests. */
  subject: string;
  case: CaseId;
  docker: string;
  podman: string;
  why: string;
}

const SYS_ADMIN_WHY =
  "Podman gives a non-root user the capabilities added for it (in its ambient set), so the subject's processes hold SYS_ADMIN, above the probe's ceiling: the kernel shows their namespaces, root and mounts only to a reader holding it, so those are not read (Docker keeps an added capability of a non-root user in the bounding set only).";

/**
 * Every verdict that differs on rootful Podman 4.3 (cgroup v1), for the subjects it applies to:
 * only what Podman cannot do at all. The hardened launch goes through Podman's own API
 * (src/engine/providers/podman/libpod.ts), which applies the cgroup namespace, IPC "none", device
 * rules, empty masks and unlimited swap its Docker-compatible API dropped, and adds no tmpfs.
 */
export const PODMAN_DIFFERENCES: (EngineDifference & { when: "always" | "read-only root" })[] = [
  {
    subject: "healthcheck-missing-tool",
    case: "lifecycle.probes",
    docker: "fail",
    podman: "pass",
    when: "always",
    why: "Podman's Docker-compatible build writes OCI images, which have no HEALTHCHECK (Buildah drops it): the image has no check for the engine to run, nor for the tool to hold.",
  },
  {
    subject: "host-ipc",
    case: "containment.writable_roots",
    docker: "fail",
    podman: "pass",
    when: "always",
    why: "Podman mounts the host's /dev/shm into a container in the host's IPC namespace with noexec,nosuid,nodev (Docker binds it with the host's options, none of them): the allotted /dev/shm is writable but not executable. Sharing the host's IPC namespace still fails containment.namespaces.",
  },
  {
    subject: "dockerfile-volume",
    case: "containment.writable_roots",
    docker: "pass",
    podman: "fail",
    when: "always",
    why: "Podman chowns a new volume's directory to the container's user when it first mounts it (Docker copies the image directory's owner, root here): the Dockerfile VOLUME is writable by the subject's user, outside its allotted roots.",
  },
  {
    subject: "memory-swap-unlimited",
    case: "containment.resources",
    docker: "fail",
    podman: "pass",
    when: "always",
    why: "Podman 4.3's own API refuses a swap limit of -1 and, when none is said, bounds swap at twice the memory limit (its runtime config says so, and its inspect): the subject cannot get unlimited swap there.",
  },
  {
    subject: "engine-from-build-loopback",
    case: "lifecycle.build",
    docker: "pass",
    podman: "error",
    when: "always",
    why: "Podman runs a build's RUN steps in the host's network namespace (measured on 4.3, whatever the build asks for), so an engine's API on a loopback TCP address is reachable from the build and the pre-flight refuses it; on Docker a build runs on the default bridge, where loopback is its own.",
  },
  ...(
    [
      "containment.namespaces",
      "containment.rootfs_readonly",
      "containment.mounts",
      "containment.writable_roots",
      "containment.masked_paths",
    ] as const
  ).map((c) => ({
    subject: "cap-add-sys-admin",
    case: c,
    docker: "pass",
    podman: "skip",
    when: "always" as const,
    why: SYS_ADMIN_WHY,
  })),
];

/** The cases a subject fails on `engine`, given the ones it fails on Docker. */
export function failsOn(
  engine: "docker" | "podman" | undefined,
  dockerFails: readonly string[],
  readOnlyRoot = true,
  subject = "",
): string[] {
  if (engine !== "podman") return [...dockerFails].sort();
  const applies = differencesFor(subject, readOnlyRoot);
  const extra = applies.filter((d) => d.podman === "fail").map((d) => d.case);
  const fixed = new Set(applies.filter((d) => d.docker === "fail").map((d) => d.case as string));
  return [...new Set([...dockerFails.filter((c) => !fixed.has(c)), ...extra])].sort();
}

/** The status a case has on `engine` when Docker gives `dockerStatus`. */
export function expectedOn(
  engine: "docker" | "podman" | undefined,
  subject: string,
  caseId: CaseId,
  dockerStatus: string,
  readOnlyRoot = true,
): string {
  if (engine !== "podman") return dockerStatus;
  const d = PODMAN_DIFFERENCES.find(
    (x) =>
      x.case === caseId &&
      (x.subject === subject || x.subject === "every subject") &&
      (x.when === "always" || readOnlyRoot),
  );
  return d && d.docker === dockerStatus ? d.podman : dockerStatus;
}

/** The differences that apply to `subject` on Podman; one named for it replaces "every subject"'s. */
function differencesFor(subject: string, readOnlyRoot: boolean): EngineDifference[] {
  const applies = PODMAN_DIFFERENCES.filter(
    (d) =>
      d.case.startsWith("containment.") &&
      (d.subject === "every subject" || d.subject === subject) &&
      (d.when === "always" || readOnlyRoot),
  );
  const own = new Set(applies.filter((d) => d.subject === subject).map((d) => d.case));
  return applies.filter((d) => d.subject === subject || !own.has(d.case));
}

/** The cases a subject cannot have measured on `engine` (SKIP with the reason), where Docker measures them. */
export function skipsOn(
  engine: "docker" | "podman" | undefined,
  subject: string,
  readOnlyRoot = true,
): string[] {
  if (engine !== "podman") return [];
  return differencesFor(subject, readOnlyRoot)
    .filter((d) => d.podman === "skip")
    .map((d) => d.case)
    .sort();
}

/**
 * Verdicts that differ on a host whose engine confines containers with AppArmor (GitHub's runners),
 * whichever engine: the trusted probe runs under the engine's default profile, which lets a process
 * read only processes of its own profile as a tracer may, so a subject launched outside it keeps from
 * the probe whatever the kernel shows only to a permitted tracer: its namespace links (`cases`,
 * always), and, where the kernel also gates its root that way, everything read through it (its
 * mounts, the write probes, the masked paths). Not loosened: the profile is also what keeps such a
 * subject from tracing the probe. Each such case SKIPs saying so, naming AppArmor and both profiles
 * (`says`); every other case is measured as anywhere (the subject's unconfined launch FAILs
 * containment.seccomp either way). Measured in the runner VM: docs/platforms.md.
 */
export const APPARMOR_DIFFERENCES: { subject: string; cases: CaseId[]; says: RegExp }[] = [
  {
    subject: "apparmor-unconfined",
    cases: ["containment.namespaces"],
    says: /AppArmor refused it \(the subject runs under profile unconfined, the probe under the engine's default profile/,
  },
];

/** On a host with AppArmor (`appArmor`), what a subject's probe cannot read: the cases that must SKIP, and what a SKIP so caused says. */
export function appArmorSkips(
  appArmor: boolean,
  subject: string,
): { cases: CaseId[]; says: RegExp } | undefined {
  return appArmor ? APPARMOR_DIFFERENCES.find((d) => d.subject === subject) : undefined;
}
