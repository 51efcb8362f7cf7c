import type { ContainmentCaseDef } from "../types.js";

export const RESOURCES = {
  id: "containment.resources",
  rank: 110,
  title: "Memory, pids and CPU limited",
  measures:
    "memory, pids and cpu limits that **bound on this host**: a memory limit at or above the host's memory, a pids limit at or above pid_max (the host's where measured, else the kernel's largest, 4194304) or a CPU quota at or above the host's CPUs is no limit and fails; a cpuset of fewer CPUs than the host has is a CPU bound; a memory limit with unlimited swap (`--memory-swap -1`) fails",
  standards: { pss: "-", cis: "5.10, 5.11, 5.28" },
  remediation: {
    inventory:
      "Launch with `--memory`, `--pids-limit` and `--cpus` (or `--cpuset-cpus`) below what the host has (inventory: subjects[].limits; compose: `mem_limit`, `pids_limit`, `cpus`).",
    cli: "Start it with `--memory 256m --pids-limit 128 --cpus 1` (sized for the service, below the host's memory, pid_max and CPUs), never `--memory-swap -1`.",
    compose:
      "Set `mem_limit: 256m`, `pids_limit: 128` and `cpus: 1` (sized for the service, below the host's memory, pid_max and CPUs), never `memswap_limit: -1`.",
  },
} as const satisfies ContainmentCaseDef;
