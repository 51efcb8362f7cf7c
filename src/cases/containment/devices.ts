import type { ContainmentCaseDef } from "../types.js";

export const DEVICES = {
  id: "containment.devices",
  rank: 100,
  title: "No host devices",
  measures: "host devices, device requests, device cgroup rules",
  standards: { pss: "baseline: Privileged Containers", cis: "5.17" },
  remediation: {
    inventory:
      "Remove `--device`, `--gpus`/device requests and `--device-cgroup-rule` from the launch settings.",
    cli: "Remove `--device`, `--gpus` and `--device-cgroup-rule`.",
    compose: "Remove `devices:`, `device_cgroup_rules:` and device reservations under `deploy.resources`.",
  },
} as const satisfies ContainmentCaseDef;
