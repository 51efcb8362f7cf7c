// The verdicts that differ between Docker and Podman on the same subjects, each with its reason.
// Tests on the Podman leg expect exactly these differences; README "Engines" lists the same.
import type { CaseId } from "../../src/suites/ids.js";

export interface EngineDifference {
  /** What the difference is about: a fixture of the demo, the fault matrix or the lifecycle tests. */
  subject: string;
  case: CaseId;
  docker: string;
  podman: string;
  why: string;
}

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
];

/** The cases a subject fails on `engine`, given the ones it fails on Docker. */
export function failsOn(
  engine: "docker" | "podman" | undefined,
  dockerFails: readonly string[],
  readOnlyRoot = true,
  subject = "",
): string[] {
  if (engine !== "podman") return [...dockerFails].sort();
  const applies = PODMAN_DIFFERENCES.filter(
    (d) =>
      d.case.startsWith("containment.") &&
      (d.subject === "every subject" || d.subject === subject) &&
      (d.when === "always" || readOnlyRoot),
  );
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
