// lifecycle.limits: what inspect reads back after start equals what was requested.
import type { ContainerView } from "../../engine/provider.js";
import type { Draft } from "./case.js";
import type { LaunchPlan } from "./create.js";

/** Pure: the limits as requested against an inspect document read after start. */
export function checkLimits(info: ContainerView, expected: LaunchPlan["expected"]): Draft {
  const actual = { memoryBytes: info.memory, pidsLimit: info.pidsLimit ?? 0, nanoCpus: info.nanoCpus };
  const diffs = (Object.keys(expected) as (keyof typeof actual)[]).filter((k) => actual[k] !== expected[k]);
  return diffs.length === 0
    ? {
        status: "pass",
        message: "memory, pids and cpu limits read back as requested",
        evidence: { expected, actual },
      }
    : {
        status: "fail",
        message: `limits differ from the request: ${diffs.join(", ")}`,
        evidence: { expected, actual },
        remediation: "the engine did not apply the requested limits: check the engine's cgroup support",
      };
}
