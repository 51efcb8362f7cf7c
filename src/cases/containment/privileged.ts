import type { ContainmentCaseDef } from "../types.js";

export const PRIVILEGED = {
  id: "containment.privileged",
  rank: 50,
  title: "Not privileged",
  measures: "`Privileged` in the launch settings",
  standards: { pss: "baseline: Privileged Containers", cis: "5.4" },
  remediation: {
    inventory:
      "Remove `--privileged` (compose: `privileged: true`); grant single capabilities or devices instead.",
    cli: "Remove `--privileged`; grant single capabilities or devices instead.",
    compose: "Remove `privileged: true`; grant single capabilities (`cap_add`) or `devices` instead.",
  },
} as const satisfies ContainmentCaseDef;
