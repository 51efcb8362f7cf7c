import type { ContainmentCaseDef } from "../types.js";

export const MASKED_PATHS = {
  id: "containment.masked_paths",
  rank: 130,
  title: "/proc and /sys masked",
  measures: "the engine's masked and read-only `/proc` and `/sys` paths exist as masks",
  standards: { pss: "baseline: /proc Mount Type", cis: "5.4" },
  remediation: {
    inventory:
      "Remove `--security-opt systempaths=unconfined` and `--privileged` so the engine masks /proc and /sys paths (kcore, keys, timer_list, firmware, ...) and keeps /proc/sys read-only.",
    cli: "Remove `--security-opt systempaths=unconfined` and `--privileged` so the engine masks /proc and /sys paths.",
    compose:
      "Remove `systempaths=unconfined` from `security_opt` and `privileged: true` so the engine masks /proc and /sys paths.",
  },
} as const satisfies ContainmentCaseDef;
