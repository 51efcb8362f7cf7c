import { fail, type Grader, mountsOf, pass, skip, unobservedReason } from "../evidence.js";
import { boundHostPath, judgeHostBinds, under } from "../mounts.js";

/** The grader of containment.mounts (its definition: src/cases/containment/mounts.ts). */
export const gradeMounts: Grader = (measured, target) => {
  const declared = measured.inspect.mounts.map((m) => ({ ...m }));
  const mounts = mountsOf(measured, target);
  if (!mounts) {
    // Inspect alone proves a host bind that is not allowed, a writable volume and an engine socket.
    const bad = [
      ...judgeHostBinds(measured.inspect, target.allowedHostPaths ?? [])
        .filter((b) => b.problem)
        .map((b) => `${b.destination}: ${b.problem}`),
      ...measured.inspect.mounts
        .filter((m) => boundHostPath(m) === undefined && (m.rw || /\.sock$/.test(m.source)))
        .map(
          (m) =>
            `${m.destination}: read-write ${m.type}${/\.sock$/.test(m.source) ? " (engine socket)" : ""}`,
        ),
    ];
    const evidence = { declared, ...(bad.length ? { findings: bad } : {}) };
    if (bad.length > 0)
      return fail(
        `launch settings mount ${bad.map((b) => b.split(":")[0]).join(", ")}: ${bad.join("; ")}`,
        evidence,
      );
    return skip(unobservedReason(measured, "the subject's mounts"), evidence);
  }
  const inventory = mounts.slice(0, MAX_LISTED).map((m) => ({
    mountPoint: m.mountPoint,
    fsType: m.fsType,
    options: m.options.join(","),
    class: m.class,
    reason: m.reason,
  }));
  const findings = mounts.filter((m) => m.class === "finding");
  const evidence = {
    total: mounts.length,
    inventory,
    findings: findings.map((m) => `${m.mountPoint}: ${m.reason}`),
  };
  if (findings.length > 0) {
    // A bind of a host tree brings its sub-mounts along: name the bind, count what came with it.
    const tops = findings.filter(
      (m) =>
        !findings.some((o) => o !== m && o.mountPoint !== m.mountPoint && under(m.mountPoint, o.mountPoint)),
    );
    const named = tops.map((m) => {
      const subs = findings.filter(
        (o) => o !== m && o.mountPoint !== m.mountPoint && under(o.mountPoint, m.mountPoint),
      ).length;
      return subs ? `${m.mountPoint} (and ${subs} sub-mount${subs > 1 ? "s" : ""})` : m.mountPoint;
    });
    return fail(
      `${findings.length} mount finding${findings.length > 1 ? "s" : ""}: ${named.join(", ")}`,
      evidence,
    );
  }
  return pass(
    `all ${mounts.length} mounts classified: none outside the allotted roots is writable`,
    evidence,
  );
};

const MAX_LISTED = 100;
