import {
  allottedRoots,
  type ContainmentEvidence,
  fail,
  type Grader,
  type GradeTarget,
  mountsOf,
  observed,
  type ProbeEvidence,
  pass,
  skip,
  unobservedReason,
} from "../evidence.js";
import { judgeHostBinds, mountAt, under } from "../mounts.js";

/** The grader of containment.writable_roots (its definition: src/cases/containment/writable-roots.ts). */
export const gradeWritableRoots: Grader = (measured, target) => {
  const p = observed(measured);
  if (!p?.rootReadable) return skip(unobservedReason(measured, "the subject's root (write probes)"), {});
  const { probes, leaked, executable, controls, evidence } = readWrites(measured, target, p);
  const findings = [
    ...(leaked.length
      ? [`writable outside the allotted roots: ${leaked.map((w) => w.path).join(", ")}`]
      : []),
    ...executable.map(
      (x) => `${x.path} is writable without ${x.missing.join(",")}${x.over ? ` (${x.over})` : ""}`,
    ),
  ];
  if (findings.length > 0) return fail(findings.join("; "), evidence);
  // A place the probe could not test (neither written nor refused) is not shown to refuse.
  const untested = probes.filter((w) => w.result === "failed").map((w) => w.path);
  if (untested.length > 0)
    return skip(`the probe could not test whether ${untested.join(", ")} accepts writes`, evidence);
  // Stricter is not a failure: an allotted root that is missing or refuses the write is more
  // confined than allowed. One accepting root shows the probe's writes work (the positive control).
  const accepting = controls.filter((c) => c.result === "accepted");
  const stricter = controls.filter((c) => c.result !== "accepted");
  if (accepting.length === 0 && controls.length > 0) {
    return skip(
      `no allotted root accepted the probe's write (${stricter.map((c) => `${c.root}: ${c.result}`).join(", ")}), so the refusals elsewhere are not shown to mean the subject cannot write there`,
      evidence,
    );
  }
  const refused = probes.filter((w) => !w.allotted).length;
  const note = stricter.length
    ? `; stricter than allowed (not a failure): ${stricter.map((c) => `${c.root} ${c.result}`).join(", ")}`
    : "";
  return pass(
    `${refused} writable mounts outside the allotted roots refused the subject's user; ${accepting.map((c) => c.root).join(", ") || "no allotted root"} accepted a write and ${accepting.length === 1 ? "is" : "are"} noexec,nosuid,nodev${note}`,
    evidence,
  );
};

/**
 * The probe's writes read against the allotted roots (and the host paths allowed read-write): those
 * that landed outside them, those that landed where what was written could run, and the allotted
 * roots' own results (the positive controls), with the evidence that shows them.
 */
function readWrites(measured: ContainmentEvidence, target: GradeTarget, p: ProbeEvidence) {
  // Allowed read-write host paths are writable by declaration, like the allotted roots.
  const allowedRw = judgeHostBinds(measured.inspect, target.allowedHostPaths ?? [])
    .filter((b) => !b.problem && b.rw)
    .map((b) => b.destination);
  const inRoots = (path: string) =>
    [...allottedRoots(measured, target), ...allowedRw].some((r) => under(path, r));
  const mounts = mountsOf(measured, target) ?? [];
  // A declared root is written, and mounted, where the subject's links put it.
  const onDisk = (path: string) => p.resolvedRoots?.[path] ?? path;
  const probes = p.writes
    .filter((w) => w.path !== "/" && w.result !== "missing")
    .map((w) => ({ ...w, allotted: inRoots(w.path) }));
  const leaked = probes.filter((w) => !w.allotted && w.result === "accepted");
  // Writable means noexec, nosuid and nodev: a place the subject writes must not run what it wrote.
  const executable = p.writes
    .filter((w) => w.path !== "/" && w.result === "accepted" && mounts.length > 0)
    .map((w) => {
      const at = mountAt(onDisk(w.path), mounts);
      // Said where it hides another mount: the launch's own there was right, what covers it is not.
      const hides = at && mounts.some((m) => m.id === at.parent && m.mountPoint === at.mountPoint);
      return {
        path: w.path,
        missing: EXEC_FLAGS.filter((f) => !at?.options.includes(f)),
        ...(hides
          ? { over: `${at.fsType} mounted over another mount at ${at.mountPoint}, which it hides` }
          : {}),
      };
    })
    .filter((x) => x.missing.length > 0);
  const controls = target.writableRoots.map((r) => ({
    root: r,
    result: p.writes.find((w) => w.path === r)?.result ?? "not probed",
  }));
  const uncleaned = p.writes.filter((w) => w.result === "accepted" && w.cleaned === false).map((w) => w.path);
  const evidence = {
    asUser: `${p.uid}:${p.gid}`,
    probes: probes.map((w) => ({
      path: w.path,
      result: w.result,
      allotted: w.allotted,
      options: mountAt(onDisk(w.path), mounts)?.options.join(","),
    })),
    positiveControls: controls,
    ...(executable.length ? { withoutNoexec: executable } : {}),
    ...(uncleaned.length ? { probeFilesLeft: uncleaned } : {}),
  };
  return { probes, leaked, executable, controls, evidence };
}

const EXEC_FLAGS = ["noexec", "nosuid", "nodev"];
