// Everything the tool creates is labelled with the run's owner; nothing unlabelled is ever removed.
import { hostname } from "node:os";
import { randomHex } from "../crypto.js";

export const OWNER_LABEL = "org.docker-acceptance.owner";
export const ROLE_LABEL = "org.docker-acceptance.role";
/** Where and by which process the owner was started: lets `sweep --stale` tell a dead run from a live one. */
const HOST_LABEL = "org.docker-acceptance.host";
export const PID_LABEL = "org.docker-acceptance.pid";

export type Role = "subject" | "probe" | "control";

const RUN_ID = /^da-[0-9a-f]{32}$/;

export function newRunId(): string {
  return `da-${randomHex(16)}`;
}

export function isRunId(value: string): boolean {
  return RUN_ID.test(value);
}

export const SUBJECT_LABEL = "org.docker-acceptance.subject";

/**
 * Built images are tagged `docker-acceptance:<run id>-<subject>`: one run may build several
 * subjects, and the tag stays unique to this run. Without a subject: the run's tag prefix.
 */
export function ownedTag(owner: string, subject?: string): string {
  return subject ? `docker-acceptance:${owner}-${subject}` : `docker-acceptance:${owner}`;
}

/**
 * One spelling per image reference: engines differ in how they name the same local image (Podman
 * lists `docker-acceptance:x` as `docker.io/library/docker-acceptance:x`, an imported
 * `a/b:c` as `localhost/a/b:c`). Ownership, cleanup and its proof compare normalised references.
 */
export function normalizeRef(ref: string): string {
  return ref.replace(/^(?:(?:index\.)?docker\.io\/(?:library\/)?|localhost\/)/, "");
}

/** True when `tag` is one this run (or this run's subject) created. */
export function isOwnedTag(raw: string, owner: string, subject?: string): boolean {
  const tag = normalizeRef(raw);
  return subject
    ? tag === ownedTag(owner, subject)
    : tag.startsWith(`${ownedTag(owner)}-`) || tag === ownedTag(owner);
}

/**
 * The name an owner's container is created under, reserved before the create (`<owner>-<role>-…`;
 * a subject's is `<owner>-<subject>`). Cleanup knows ours by it too: a container inherits its
 * image's labels, never its name: one another tool starts from an image of ours (kept by
 * cleanup-images: false) or from a Dockerfile that writes our labels carries the owner label
 * without being ours.
 */
export function ownedContainerName(owner: string, role: string, suffix: string): string {
  return `${owner}-${role}-${suffix}`;
}

/** Whether one of a container's names is an owner's (see ownedContainerName). */
export function namedByOwner(names: readonly string[], owner: string): boolean {
  return names.some((n) => n.replace(/^\//, "").startsWith(`${owner}-`));
}

export function ownerLabels(owner: string, role: Role): Record<string, string> {
  return {
    [OWNER_LABEL]: owner,
    [ROLE_LABEL]: role,
    [HOST_LABEL]: hostname(),
    [PID_LABEL]: String(process.pid),
  };
}

/** A run is gone when it started on this host and its process no longer exists. */
export function isOwnerAlive(labels: Record<string, string>): boolean | "unknown" {
  if (labels[HOST_LABEL] !== hostname()) return "unknown";
  const pid = Number(labels[PID_LABEL]);
  if (!Number.isInteger(pid) || pid <= 0) return "unknown";
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
