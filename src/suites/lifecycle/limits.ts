// lifecycle.limits: what inspect reads back after start equals what was requested.
import type { ContainerInspect } from "../../engine/providers/docker/engine.js";
import type { Draft } from "./case.js";
import type { LaunchPlan } from "./create.js";

/** Pure: the limits as requested against an inspect document read after start. */
export function checkLimits(info: ContainerInspect, expected: LaunchPlan["expected"]): Draft {
  const hc = info.HostConfig as { Memory?: number; PidsLimit?: number; NanoCpus?: number };
  const actual = { memoryBytes: hc.Memory ?? 0, pidsLimit: hc.PidsLimit ?? 0, nanoCpus: hc.NanoCpus ?? 0 };
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
