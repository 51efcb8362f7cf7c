// The stable, dotted case IDs (DESIGN.md). Adding an ID here is a schema change: the inventory
// validates against this list, and reports are compared against pinned subsets of it.

export const LIFECYCLE_CASES = [
  "lifecycle.build",
  "lifecycle.create",
  "lifecycle.ready",
  "lifecycle.probes",
  "lifecycle.limits",
  "lifecycle.stop",
  "lifecycle.cleanup",
] as const;

export const CONTAINMENT_CASES = [
  "containment.user",
  "containment.capabilities",
  "containment.no_new_privileges",
  "containment.seccomp",
  "containment.privileged",
  "containment.namespaces",
  "containment.rootfs_readonly",
  "containment.mounts",
  "containment.writable_roots",
  "containment.devices",
  "containment.resources",
  "containment.network",
  "containment.masked_paths",
] as const;

export const SUITES = ["lifecycle", "containment"] as const;
export type SuiteName = (typeof SUITES)[number];
export type LifecycleCaseId = (typeof LIFECYCLE_CASES)[number];
export type ContainmentCaseId = (typeof CONTAINMENT_CASES)[number];
export type CaseId = LifecycleCaseId | ContainmentCaseId;

export const ALL_CASES: readonly CaseId[] = [...LIFECYCLE_CASES, ...CONTAINMENT_CASES];
export const CASES_BY_SUITE: Record<SuiteName, readonly CaseId[]> = {
  lifecycle: LIFECYCLE_CASES,
  containment: CONTAINMENT_CASES,
};

export function suiteOf(id: CaseId): SuiteName {
  return id.startsWith("lifecycle.") ? "lifecycle" : "containment";
}
