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

export const PODMAN_DIFFERENCES: EngineDifference[] = [
  {
    subject: "every subject",
    case: "lifecycle.create",
    docker: "pass",
    podman: "fail",
    why: 'Podman 4.3\'s Docker-compatible API ignores CgroupnsMode "private" and IpcMode "none", and adds writable tmpfs at /run and /var/tmp under a read-only root; the read-back names each setting. The subject still runs, so every other case is measured on what it really got.',
  },
];

/** The status a case has on `engine` when Docker gives `dockerStatus`. */
export function expectedOn(
  engine: "docker" | "podman" | undefined,
  subject: string,
  caseId: CaseId,
  dockerStatus: string,
): string {
  if (engine !== "podman") return dockerStatus;
  const d = PODMAN_DIFFERENCES.find(
    (x) => x.case === caseId && (x.subject === subject || x.subject === "every subject"),
  );
  return d && d.docker === dockerStatus ? d.podman : dockerStatus;
}
