import type { ContainmentCaseDef } from "../types.js";

export const CAPABILITIES = {
  id: "containment.capabilities",
  rank: 20,
  title: "Holds only allowed capabilities",
  measures:
    "effective, permitted, bounding and ambient sets of every process against the allowed list (`capabilities`, `--allow-cap`), and what the launch grants",
  standards: { pss: "baseline + restricted: Capabilities", cis: "5.3" },
  remediation: {
    inventory:
      "Launch with `--cap-drop ALL` and add back only what the inventory allows (subjects[].capabilities, e.g. NET_BIND_SERVICE); remove `--cap-add` entries and `--privileged`.",
    cli: `Start it with \`--cap-drop ALL\` and \`--cap-add\` only what it needs; remove \`--privileged\`. A capability it needs is allowed with the label \`org.docker-acceptance.allowed-capabilities=NET_BIND_SERVICE\` or \`--allow-cap\`.`,
    compose: `Set \`cap_drop: [ALL]\` and list only what it needs under \`cap_add:\`; remove \`privileged: true\`. A capability it needs is allowed with the label \`org.docker-acceptance.allowed-capabilities: NET_BIND_SERVICE\` under \`labels:\`.`,
  },
} as const satisfies ContainmentCaseDef;
