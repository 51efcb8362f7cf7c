// Each containment case's grader, keyed by the case's id (its definition is in src/cases/containment/):
// a Record over the catalogue's ids, so a case without a grader, or a grader for no case, does not
// compile. gradeContainment (../grade.ts) runs them in the catalogue's order.
import type { ContainmentCaseId } from "../../../cases/index.js";
import type { Grader } from "../evidence.js";
import { gradeCapabilities } from "./capabilities.js";
import { gradeDevices } from "./devices.js";
import { gradeMaskedPaths } from "./masked-paths.js";
import { gradeMounts } from "./mounts.js";
import { gradeNamespaces } from "./namespaces.js";
import { gradeNetwork } from "./network.js";
import { gradeNoNewPrivileges } from "./no-new-privileges.js";
import { gradePrivileged } from "./privileged.js";
import { gradeResources } from "./resources.js";
import { gradeRootfsReadonly } from "./rootfs-readonly.js";
import { gradeSeccomp } from "./seccomp.js";
import { gradeUser } from "./user.js";
import { gradeWritableRoots } from "./writable-roots.js";

export const GRADERS: Readonly<Record<ContainmentCaseId, Grader>> = {
  "containment.user": gradeUser,
  "containment.capabilities": gradeCapabilities,
  "containment.no_new_privileges": gradeNoNewPrivileges,
  "containment.seccomp": gradeSeccomp,
  "containment.privileged": gradePrivileged,
  "containment.namespaces": gradeNamespaces,
  "containment.rootfs_readonly": gradeRootfsReadonly,
  "containment.mounts": gradeMounts,
  "containment.writable_roots": gradeWritableRoots,
  "containment.devices": gradeDevices,
  "containment.resources": gradeResources,
  "containment.network": gradeNetwork,
  "containment.masked_paths": gradeMaskedPaths,
};
