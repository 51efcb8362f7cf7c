import {
  countTasks,
  fail,
  firstField,
  type Grader,
  pass,
  procs,
  skip,
  taskName,
  unobservedReason,
} from "../evidence.js";
import { noNewPrivilegesOption } from "../inspect.js";

/** The grader of containment.no_new_privileges (its definition: src/cases/containment/no-new-privileges.ts). */
export const gradeNoNewPrivileges: Grader = (measured) => {
  const option = noNewPrivilegesOption(measured.inspect.securityOpt);
  const evidence: Record<string, unknown> = {
    securityOpt: measured.inspect.securityOpt,
    parsedOption: option ?? "absent",
  };
  const ps = procs(measured, "NoNewPrivs");
  if (ps) {
    evidence.measured = Object.fromEntries(ps.map((p) => [p.pid, firstField(p.status.NoNewPrivs)]));
    const off = ps.filter((p) => firstField(p.status.NoNewPrivs) !== "1");
    if (off.length > 0) return fail(`NoNewPrivs is 0 for process ${off.map(taskName).join(", ")}`, evidence);
    if (option === false) return fail("no-new-privileges is set to false in the launch settings", evidence);
    return pass(`NoNewPrivs is 1 for every process (${countTasks(ps)})`, evidence);
  }
  if (option === false) return fail("no-new-privileges is set to false in the launch settings", evidence);
  return skip(unobservedReason(measured), evidence);
};
