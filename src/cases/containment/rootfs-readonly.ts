import type { ContainmentCaseDef } from "../types.js";

export const ROOTFS_READONLY = {
  id: "containment.rootfs_readonly",
  rank: 70,
  title: "Read-only root filesystem",
  measures: "the root mount's options and a write probe to `/`",
  standards: { pss: "-", cis: "5.12" },
  remediation: {
    inventory:
      "Launch with `--read-only` (compose: `read_only: true`) and give the process tmpfs mounts for the directories it writes (`--tmpfs /tmp`).",
    cli: "Start it with `--read-only` and a `--tmpfs` for each directory it writes (`--tmpfs /tmp`).",
    compose: 'Set `read_only: true` and list each directory it writes under `tmpfs:` (`tmpfs: ["/tmp"]`).',
  },
} as const satisfies ContainmentCaseDef;
