import type { ContainmentCaseDef } from "../types.js";

export const WRITABLE_ROOTS = {
  id: "containment.writable_roots",
  rank: 90,
  title: "Writes only where allotted",
  measures:
    "write probes, as the subject's user, to every writable mount and allotted root: a write outside the allotted roots fails; **every place that accepted a write must be `noexec`, `nosuid` and `nodev`** (allotted roots included); an allotted root that is missing or refuses the write passes with a note as long as one root accepted it (the positive control), else the case says what it could not prove",
  standards: { pss: "-", cis: "5.12" },
  remediation: {
    inventory:
      "Make every writable place outside the allotted roots refuse the subject's user (remove the mount, add `:ro`, or fix ownership), and mount every writable place noexec, nosuid and nodev (`--tmpfs /tmp:rw,noexec,nosuid,nodev`).",
    cli: `Make every writable place outside the allowed roots refuse its user (remove the mount, add \`:ro\`, or fix ownership) and mount each allowed root \`--tmpfs /tmp:rw,noexec,nosuid,nodev\`; allowed roots: label \`org.docker-acceptance.writable-roots\` or \`--writable-root\`.`,
    compose: `Make every writable place outside the allowed roots refuse its user (remove the \`volumes:\` entry, add \`:ro\`, or fix ownership) and list each allowed root under \`tmpfs:\` (\`/tmp:rw,noexec,nosuid,nodev\`); allowed roots: label \`org.docker-acceptance.writable-roots\`.`,
  },
} as const satisfies ContainmentCaseDef;
