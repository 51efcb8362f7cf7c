import {
  type ContainmentEvidence,
  fail,
  firstField,
  type Grader,
  heldCapabilities,
  type Outcome,
  pass,
  procs,
  skip,
  taskName,
  unobservedReason,
} from "../evidence.js";
import { securityWords } from "../inspect.js";
import { withLsm } from "../lsm.js";
import { allowedBeyondDefault, seccompSetting } from "../seccomp.js";

/** The grader of containment.seccomp (its definition: src/cases/containment/seccomp.ts). */
export const gradeSeccomp: Grader = (measured) =>
  withUntyped(measured, withLsm(measured, gradeSeccompFilter(measured)));

/** A long profile is not repeated in the evidence: its kind and what it lets through are. */
const shortened = (o: string) => (o.length > 200 ? `${o.slice(0, 80)}... (${o.length} chars)` : o);

/**
 * Security options the engine recorded and the tool cannot read (an option it does not know, a
 * value it cannot parse) may loosen anything: never part of a PASS. Named, in the engine's words.
 */
function withUntyped(ev: ContainmentEvidence, out: Outcome): Outcome {
  const untyped = ev.inspect.security.untyped;
  if (untyped.length === 0) return out;
  const named = untyped.map((o) => `\`${shortened(o)}\``).join(", ");
  const evidence = { ...out.evidence, untypedOptions: untyped.map(shortened) };
  if (out.status !== "pass") return { ...out, message: `${out.message}; not judged: ${named}`, evidence };
  return skip(
    `${out.message}; but the engine recorded security options this tool cannot judge: ${named}`,
    evidence,
  );
}

/** containment.seccomp without AppArmor and SELinux: the filter mode and the profile's content. */
function gradeSeccompFilter(ev: ContainmentEvidence): Outcome {
  const setting = seccompSetting(ev.inspect.security.seccomp);
  const unconfined = setting.kind === "unconfined" || ev.inspect.privileged;
  const evidence: Record<string, unknown> = {
    securityOptions: securityWords(ev.inspect.security).map(shortened),
    privileged: ev.inspect.privileged,
    profile: setting.kind,
  };
  const beyond =
    setting.kind === "profile" && !unconfined
      ? allowedBeyondDefault(setting.profile, heldCapabilities(ev))
      : [];
  if (beyond.length > 0) {
    evidence.allowedBeyondDefault = beyond;
    return fail(
      `the seccomp profile allows what the engine's default denies: ${beyond.join(", ")}`,
      evidence,
    );
  }
  const ps = procs(ev, "Seccomp");
  if (ps) {
    evidence.measured = Object.fromEntries(ps.map((p) => [p.pid, firstField(p.status.Seccomp)]));
    const off = ps.filter((p) => firstField(p.status.Seccomp) !== "2");
    if (off.length > 0)
      return fail(`seccomp is not in filter mode (2) for process ${off.map(taskName).join(", ")}`, evidence);
    if (unconfined) return fail("launch settings disable seccomp", evidence);
    if (setting.kind === "unreadable")
      return skip(
        `filter mode (2), but the profile's content could not be judged: ${setting.reason}`,
        evidence,
      );
    return pass(
      setting.kind === "profile"
        ? "seccomp filter mode (2) for every process; the custom profile denies everything the default denies"
        : "seccomp filter mode (2) for every process with the engine's default profile",
      evidence,
    );
  }
  if (unconfined) return fail("launch settings disable seccomp (unconfined or privileged)", evidence);
  return skip(unobservedReason(ev), evidence);
}
