import { decodeCaps, fail, type Grader, normCap, pass, procs, skip, unobservedReason } from "../evidence.js";

/** The grader of containment.capabilities (its definition: src/cases/containment/capabilities.ts). */
export const gradeCapabilities: Grader = (measured, target) => {
  const allowed = new Set(target.allowedCapabilities.map(normCap));
  const i = measured.inspect;
  const added = i.capAdd.map(normCap);
  const dropsAll = i.capDrop.map(normCap).includes("ALL");
  // What inspect alone proves: the engine grants these whatever the probe sees.
  const granted = i.privileged
    ? ["ALL (privileged)"]
    : [
        ...(dropsAll ? [] : i.defaults.capabilities.filter((c) => !i.capDrop.map(normCap).includes(c))),
        ...added,
      ];
  const inspectExtra = granted.filter((c) => !allowed.has(c));
  const evidence: Record<string, unknown> = {
    allowed: [...allowed],
    capAdd: i.capAdd,
    capDrop: i.capDrop,
    privileged: i.privileged,
  };
  const ps = procs(measured, "CapBnd");
  if (ps) {
    const sets = ["CapEff", "CapPrm", "CapBnd", "CapAmb"] as const;
    const extra: Record<string, string[]> = {};
    for (const p of ps) {
      for (const s of sets) {
        const names = decodeCaps(p.status[s] ?? "0").filter((c) => !allowed.has(c));
        if (names.length > 0) extra[`${p.pid}.${s}`] = names;
      }
    }
    evidence.measured = Object.fromEntries(
      ps.map((p) => [p.pid, Object.fromEntries(sets.map((s) => [s, decodeCaps(p.status[s] ?? "0")]))]),
    );
    const all = [...new Set(Object.values(extra).flat())];
    if (all.length > 0)
      return fail(`processes hold capabilities that are not allowed: ${all.join(", ")}`, {
        ...evidence,
        extra,
      });
    if (inspectExtra.length > 0) return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
    // Least privilege (Tier 2, a note, not a failure): allowed, yet no process ever held it in effect.
    const effective = new Set(ps.flatMap((p) => decodeCaps(p.status.CapEff ?? "0")));
    const unused = [...allowed].filter((c) => !effective.has(c));
    if (unused.length > 0) evidence.unusedAllowed = unused;
    const note = unused.length
      ? `; Tier 2 note (least privilege): ${unused.join(", ")} allowed but in no process's effective set, drop it if the subject never needs it`
      : "";
    return pass(
      allowed.size
        ? `capability sets are within ${[...allowed].join(", ")}${note}`
        : "all capability sets are empty",
      evidence,
    );
  }
  if (inspectExtra.length > 0) return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
  return skip(unobservedReason(measured), evidence);
};
