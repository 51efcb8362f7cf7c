import { fail, type Grader, mountsOf, observed, pass, skip, unobservedReason } from "../evidence.js";
import { mountAt } from "../mounts.js";

/** The grader of containment.rootfs_readonly (its definition: src/cases/containment/rootfs-readonly.ts). */
export const gradeRootfsReadonly: Grader = (measured, target) => {
  const evidence: Record<string, unknown> = { readonlyRootfs: measured.inspect.readonlyRootfs };
  const mounts = mountsOf(measured, target);
  const root = mounts && mountAt("/", mounts);
  const write = observed(measured)?.writes.find((w) => w.path === "/");
  if (root) evidence.mountOptions = root.options.join(",");
  if (write) evidence.writeProbe = write.result;
  if (root && !root.options.includes("ro"))
    return fail("the root filesystem is mounted read-write", evidence);
  if (write?.result === "accepted") return fail("a write probe to / succeeded", evidence);
  if (!measured.inspect.readonlyRootfs)
    return fail("the launch settings do not make the root filesystem read-only", evidence);
  if (!root || !write) return skip(unobservedReason(measured, "the subject's mounts"), evidence);
  return pass("root is mounted read-only and a write probe to / was refused", evidence);
};
