import { fail, type Grader, pass } from "../evidence.js";
import { limitBounds } from "../inspect.js";

/** The grader of containment.resources (its definition: src/cases/containment/resources.ts). */
export const gradeResources: Grader = (measured) => {
  const i = measured.inspect;
  const { missing, unbounded, bounds } = limitBounds(
    i,
    "error" in measured.host ? undefined : measured.host.pidMax,
  );
  const evidence = {
    memory: i.memory,
    pidsLimit: i.pidsLimit,
    nanoCpus: i.nanoCpus,
    cpuQuota: i.cpuQuota,
    ...(i.cpusetCpus ? { cpusetCpus: i.cpusetCpus } : {}),
    host: i.engineHost
      ? { memoryBytes: i.engineHost.memoryBytes, cpus: i.engineHost.cpus }
      : "not known: the engine did not say (limits not compared with it)",
    bounds,
  };
  if (missing.length) return fail(`no ${missing.join(", ")} limit`, evidence);
  if (unbounded.length)
    return fail(`limits that bound nothing on this host: ${unbounded.join("; ")}`, {
      ...evidence,
      unbounded,
    });
  // --memory-swap -1: the memory limit holds for RAM only, swap use is unbounded.
  if (i.memorySwap === -1)
    return fail("memory is limited but swap is not (memory-swap -1): swap use is unbounded", {
      ...evidence,
      memorySwap: -1,
    });
  return pass(`limits bound this host: ${bounds.join("; ")}`, evidence);
};
