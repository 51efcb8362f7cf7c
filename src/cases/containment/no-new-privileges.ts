import type { ContainmentCaseDef } from "../types.js";

export const NO_NEW_PRIVILEGES = {
  id: "containment.no_new_privileges",
  rank: 30,
  title: "Cannot gain privileges",
  measures: "`NoNewPrivs` of every process; `no-new-privileges=false` parsed as the engine parses it",
  standards: { pss: "restricted: Privilege Escalation", cis: "5.25" },
  remediation: {
    inventory:
      "Launch with `--security-opt no-new-privileges=true` (compose: `security_opt: [no-new-privileges:true]`); remove any `no-new-privileges=false`.",
    cli: "Start it with `--security-opt no-new-privileges=true`; remove any `no-new-privileges=false`.",
    compose: 'Set `security_opt: ["no-new-privileges:true"]`; remove any `no-new-privileges:false`.',
  },
} as const satisfies ContainmentCaseDef;
