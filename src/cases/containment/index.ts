// The containment suite: its cases in run order, one file each in this folder (what it measures,
// where it maps onto the standards, its fix in each form; a test holds this list equal to the
// folder). Each case's grader is in src/suites/containment/graders/, keyed by its id. Label keys
// named in a fix are the ones check mode reads (src/commands/check-stack.ts).
import type { ContainmentCaseDef, Suite } from "../types.js";
import { CAPABILITIES } from "./capabilities.js";
import { DEVICES } from "./devices.js";
import { MASKED_PATHS } from "./masked-paths.js";
import { MOUNTS } from "./mounts.js";
import { NAMESPACES } from "./namespaces.js";
import { NETWORK } from "./network.js";
import { NO_NEW_PRIVILEGES } from "./no-new-privileges.js";
import { PRIVILEGED } from "./privileged.js";
import { RESOURCES } from "./resources.js";
import { ROOTFS_READONLY } from "./rootfs-readonly.js";
import { SECCOMP } from "./seccomp.js";
import { USER } from "./user.js";
import { WRITABLE_ROOTS } from "./writable-roots.js";

export const CONTAINMENT_SUITE = {
  name: "containment",
  title: "Containment",
  purpose:
    "a trusted probe measures the running subject's processes: who they run as, what they may do, what they share and where they can write",
  cases: [
    USER,
    CAPABILITIES,
    NO_NEW_PRIVILEGES,
    SECCOMP,
    PRIVILEGED,
    NAMESPACES,
    ROOTFS_READONLY,
    MOUNTS,
    WRITABLE_ROOTS,
    DEVICES,
    RESOURCES,
    NETWORK,
    MASKED_PATHS,
  ],
} as const satisfies Suite<ContainmentCaseDef>;
