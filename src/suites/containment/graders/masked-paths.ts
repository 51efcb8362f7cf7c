import {
  fail,
  type Grader,
  maskedPaths,
  mountsOf,
  observed,
  pass,
  readonlyPaths,
  skip,
  unobservedReason,
} from "../evidence.js";

/** The grader of containment.masked_paths (its definition: src/cases/containment/masked-paths.ts). */
export const gradeMaskedPaths: Grader = (measured, target) => {
  const i = measured.inspect;
  const masked = maskedPaths(measured);
  const ro = readonlyPaths(measured);
  const evidence: Record<string, unknown> = {
    inspectMasked: i.maskedPaths,
    inspectReadonly: i.readonlyPaths,
  };
  if (i.privileged) return fail("privileged: the engine masks nothing", evidence);
  if (i.maskedPaths !== null && i.maskedPaths.length === 0)
    return fail("no masked paths (systempaths=unconfined)", evidence);
  const p = observed(measured);
  const mounts = mountsOf(measured, target);
  if (!p || !mounts || !p.rootReadable)
    return skip(unobservedReason(measured, "the subject's /proc and /sys"), evidence);
  const at = new Map(mounts.map((m) => [m.mountPoint, m]));
  const unmasked = masked.filter((x) => p.exists[x] && at.get(x)?.class !== "masking");
  const writable = ro.filter((x) => p.exists[x] && !at.get(x)?.options.includes("ro"));
  const notChecked = [...masked, ...ro].filter((x) => p.exists[x] === undefined);
  Object.assign(evidence, {
    masked: masked.filter((x) => p.exists[x]),
    absentInKernel: [...masked, ...ro].filter((x) => p.exists[x] === false),
    unmasked,
    writable,
  });
  if (unmasked.length || writable.length) {
    return fail(
      [
        unmasked.length ? `not masked: ${unmasked.join(", ")}` : "",
        writable.length ? `not read-only: ${writable.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; "),
      evidence,
    );
  }
  if (notChecked.length) return skip(`the probe did not check ${notChecked.join(", ")}`, evidence);
  return pass("the engine's masked and read-only /proc and /sys paths are in force", evidence);
};
