import {
  countTasks,
  fail,
  type Grader,
  pass,
  procs,
  skip,
  taskName,
  unobservedReason,
  unreadablePids,
} from "../evidence.js";

/** The grader of containment.user (its definition: src/cases/containment/user.ts). */
export const gradeUser: Grader = (measured) => {
  const configured = measured.inspect.user.trim();
  const rootish =
    ["", "root", "0", "0:0", "root:root", "root:0", "0:root"].includes(configured) ||
    /^(0|root):/.test(configured);
  const ps = procs(measured, "Uid");
  const byPid = ps?.map((p) => ({
    pid: p.pid,
    ...(p.threadOf === undefined ? {} : { threadOf: p.threadOf }),
    uid: p.status.Uid,
    gid: p.status.Gid,
    groups: p.status.Groups,
  }));
  const unreadable = unreadablePids(measured, (x) => x.status.Uid === undefined);
  const evidence = {
    configuredUser: configured || "(empty: the image default, root)",
    processes: byPid,
    ...(unreadable.length ? { unreadableProcesses: unreadable } : {}),
  };
  if (rootish)
    return fail(
      configured
        ? `configured user ${JSON.stringify(configured)} is root`
        : "no user configured: the image has no USER line (and none is set at launch), so it runs as root",
      evidence,
    );
  if (!ps) return skip(unobservedReason(measured), evidence);
  // Supplementary group 0 (--group-add 0, or root's group in /etc/group) is root's group too.
  const hasZero = (field: string | undefined) => (field ?? "").trim().split(/\s+/).includes("0");
  const zero = ps.filter((p) => hasZero(p.status.Uid) || hasZero(p.status.Gid) || hasZero(p.status.Groups));
  if (zero.length > 0)
    return fail(
      `process ${zero.map(taskName).join(", ")} runs with uid, gid or a supplementary group 0`,
      evidence,
    );
  return pass(`all ${countTasks(ps)} run with non-zero uid and gid`, evidence);
};
