import type { ContainmentCaseDef } from "../types.js";

export const NAMESPACES = {
  id: "containment.namespaces",
  rank: 60,
  title: "Shares no namespace",
  measures:
    "pid, net, ipc, uts, mnt and cgroup namespace ids of the subject's processes against the host's (measured) **and every other container's**: `host` and `container:<peer>` modes, containers that joined the subject's namespaces (`--network container:<subject>`), ids measured in the same `check` run, and other containers' processes seen in the subject's pid namespace; the finding names the other container. Also carries **sysctls**: any namespaced sysctl outside PSS baseline's safe set (`kernel.shm_rmid_forced`, `net.ipv4.ip_local_port_range`, `ip_unprivileged_port_start`, `tcp_syncookies`, `ping_group_range`, `ip_local_reserved_ports`, `tcp_keepalive_time`, `tcp_fin_timeout`, `tcp_keepalive_intvl`, `tcp_keepalive_probes`) fails, because it changes the kernel the subject's namespaces give it",
  standards: { pss: "baseline: Host Namespaces, Sysctls", cis: "5.9, 5.15, 5.16, 5.20" },
  remediation: {
    inventory:
      "Remove `--pid host|container:X`, `--network host|container:X`, `--ipc host|container:X|shareable`, `--uts host` and `--cgroupns host` (also on the containers that join this one); launch with `--cgroupns private --ipc private` (compose: `pid`, `network_mode`, `ipc`, `uts`, `cgroup`); set only the Pod Security baseline's safe sysctls (`--sysctl`).",
    cli: "Remove `--pid host`, `--network host`, `--ipc host`, `--uts host` and `--cgroupns host` (and `container:` forms); start it with `--cgroupns private --ipc private`.",
    compose:
      "Remove `pid: host`, `network_mode: host`, `ipc: host`, `uts: host` and `cgroup: host` (and `service:`/`container:` forms); set `ipc: private` and `cgroup: private`.",
  },
} as const satisfies ContainmentCaseDef;
