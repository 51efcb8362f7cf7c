import { fail, type Grader, pass } from "../evidence.js";

/** The grader of containment.devices (its definition: src/cases/containment/devices.ts). */
export const gradeDevices: Grader = (measured) => {
  const i = measured.inspect;
  const evidence = {
    devices: i.devices,
    deviceRequests: i.deviceRequests,
    deviceCgroupRules: i.deviceCgroupRules,
    privileged: i.privileged,
  };
  const problems = [
    ...(i.privileged ? ["privileged (every host device)"] : []),
    ...i.devices.map((d) => `device ${d}`),
    ...(i.deviceRequests > 0 ? [`${i.deviceRequests} device request(s)`] : []),
    ...i.deviceCgroupRules.map((r) => `device cgroup rule ${r}`),
  ];
  return problems.length
    ? fail(problems.join("; "), evidence)
    : pass("no host devices, device requests or device cgroup rules", evidence);
};
