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
/** The grader of containment.no_new_privileges (its definition: src/cases/containment/no-new-privileges.ts). */
export const gradeNoNewPrivileges: Grader = (measured) => {
  const setting = measured.inspect.security.noNewPrivileges;
  const option = setting?.value;
  const evidence: Record<string, unknown> = {
    setting: setting?.said ?? "absent",
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
