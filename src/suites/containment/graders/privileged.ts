import { fail, type Grader, pass } from "../evidence.js";

/** The grader of containment.privileged (its definition: src/cases/containment/privileged.ts). */
export const gradePrivileged: Grader = (measured) => {
  return measured.inspect.privileged
    ? fail("the container is privileged", { privileged: true })
    : pass("not privileged", { privileged: false });
};
