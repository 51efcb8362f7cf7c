// The containment suite's cases, each defined once, as plain data (see ../ids.ts): what each
// measures, where it maps onto the standards, and its fix in each form. Its grader is bound to its
// ID in grade.ts. Label keys named in a fix are the ones check mode reads (check-stack.ts).
import type { CaseDef, FixForm, Suite } from "../ids.js";

export const CONTAINMENT_SUITE = {
  name: "containment",
  title: "Containment",
  purpose:
    "a trusted probe measures the running subject's processes: who they run as, what they may do, what they share and where they can write",
  cases: [
    {
      id: "containment.user",
      title: "Runs as a non-root user",
      measures:
        'uid, gid and supplementary groups of every subject process (`/proc/<pid>/status`): any 0 fails, also a root process next to a non-root one; the configured user `""`, `root`, `0`, `0:*` fails from inspect alone',
      standards: { pss: "restricted: Running as Non-root (user)", cis: "4.1" },
      remediation: {
        inventory:
          "Add `USER 65532:65532` (any non-zero uid and gid) to the Dockerfile after the last RUN, or launch with `--user 65532:65532` (inventory: subjects[].user); never root, 0, 0:0 or empty.",
        cli: "Add `USER 65532:65532` (any non-zero uid and gid) to the image's Dockerfile, or start it with `--user 65532:65532`; never root, 0, 0:0 or empty.",
        compose:
          'Add `USER 65532:65532` (any non-zero uid and gid) to the image\'s Dockerfile, or set `user: "65532:65532"` on the service; never root, 0, 0:0 or empty.',
      },
    },
    {
      id: "containment.capabilities",
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
    },
    {
      id: "containment.no_new_privileges",
      title: "Cannot gain privileges",
      measures: "`NoNewPrivs` of every process; `no-new-privileges=false` parsed as the engine parses it",
      standards: { pss: "restricted: Privilege Escalation", cis: "5.25" },
      remediation: {
        inventory:
          "Launch with `--security-opt no-new-privileges=true` (compose: `security_opt: [no-new-privileges:true]`); remove any `no-new-privileges=false`.",
        cli: "Start it with `--security-opt no-new-privileges=true`; remove any `no-new-privileges=false`.",
        compose: 'Set `security_opt: ["no-new-privileges:true"]`; remove any `no-new-privileges:false`.',
      },
    },
    {
      id: "containment.seccomp",
      title: "Filtered by seccomp",
      measures:
        "`Seccomp` filter mode of every process, and the profile's **content**: a profile recorded in `SecurityOpt` fails when it lets through what the engine's default denies to a container with the same capabilities (user-namespace creation via `clone`/`clone3`, `unshare`, `setns`, `mount` and the new mount API, `keyctl`/`add_key`/`request_key`, `bpf`, `perf_event_open`, module loading, `reboot`, `kexec_*`, `open_by_handle_at`, `process_vm_*`, clock, swap and raw-I/O calls, ...), naming them; the default profile and stricter ones pass. (`ptrace` itself is allowed by the default profile on kernels >= 4.8; tracing other processes is a capability question.)",
      standards: { pss: "baseline: Seccomp (not Unconfined); restricted: Seccomp", cis: "5.21" },
      remediation: {
        inventory:
          "Remove `--security-opt seccomp=unconfined` (and `--privileged`) so the engine's default seccomp profile applies, or pass a profile that denies at least what the default denies (`--security-opt seccomp=<file>`; never `defaultAction: SCMP_ACT_ALLOW` or allow rules for the syscalls named).",
        cli: "Remove `--security-opt seccomp=unconfined` and `--privileged` so the engine's default seccomp profile applies (or pass a stricter profile).",
        compose:
          "Remove `seccomp:unconfined` from `security_opt` and `privileged: true` so the engine's default seccomp profile applies (or name a stricter profile).",
      },
    },
    {
      id: "containment.privileged",
      title: "Not privileged",
      measures: "`Privileged` in the launch settings",
      standards: { pss: "baseline: Privileged Containers", cis: "5.4" },
      remediation: {
        inventory:
          "Remove `--privileged` (compose: `privileged: true`); grant single capabilities or devices instead.",
        cli: "Remove `--privileged`; grant single capabilities or devices instead.",
        compose: "Remove `privileged: true`; grant single capabilities (`cap_add`) or `devices` instead.",
      },
    },
    {
      id: "containment.namespaces",
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
    },
    {
      id: "containment.rootfs_readonly",
      title: "Read-only root filesystem",
      measures: "the root mount's options and a write probe to `/`",
      standards: { pss: "-", cis: "5.12" },
      remediation: {
        inventory:
          "Launch with `--read-only` (compose: `read_only: true`) and give the process tmpfs mounts for the directories it writes (`--tmpfs /tmp`).",
        cli: "Start it with `--read-only` and a `--tmpfs` for each directory it writes (`--tmpfs /tmp`).",
        compose:
          'Set `read_only: true` and list each directory it writes under `tmpfs:` (`tmpfs: ["/tmp"]`).',
      },
    },
    {
      id: "containment.mounts",
      title: "No host binds or extra mounts",
      measures:
        "every line of the subject's mountinfo, classified with a reason. **Every host bind is a finding** unless its source is allowed (`allowedHostPaths` in the inventory, `--allow-host-path PATH[:ro|rw]` / `allowed-host-paths` in check mode), read-only unless allowed read-write; sub-mounts belong to their bind, so the verdict does not depend on the engine making them read-only (newer engine versions do, older ones do not). Sensitive host paths are findings even when allowed: `/`, `/proc`, `/sys`, `/etc`, `/run`, `/var/run`, the engine's data root, `/boot`, `/dev`, `/root`, `/home`, anything containing them, and any engine socket. An allowed bind with shared propagation is a finding too. Also writable volumes (a local volume that is really a bind of a host directory is a host bind), extra tmpfs and writable engine files",
      standards: { pss: "baseline: HostPath Volumes", cis: "5.5, 5.19, 5.31" },
      remediation: {
        inventory:
          "Remove the mounts listed as findings: host binds (`-v /host/path:...`, `--mount type=bind`) unless the path is allowed (inventory subjects[].allowedHostPaths, check `--allow-host-path PATH[:ro|rw]`), read-write volumes (or add `:ro`) and extra `--tmpfs` outside the allotted roots. For a Dockerfile `VOLUME` path, either allot it in subjects[].writableRoots (the launch then mounts a tmpfs there, owned by the subject's user) or remove the VOLUME line. Sensitive host paths (/, /proc, /sys, /etc, /run, /var/run, the engine's data root, /boot, /dev, /root, /home, engine sockets) cannot be allowed at all.",
        cli: `Remove the mounts listed as findings (\`-v\`/\`--mount\` binds and volumes, or add \`:ro\`; extra \`--tmpfs\`; engine sockets). Allow a host directory it needs with the label \`org.docker-acceptance.host-paths=/srv/data:ro\` (never /, /etc, /proc, /sys, /home, the engine's data root or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`org.docker-acceptance.writable-roots=/tmp,/data\`.`,
        compose: `Remove the \`volumes:\` and \`tmpfs:\` entries listed as findings (or add \`:ro\`), and any engine socket. Allow a host directory it needs with the label \`org.docker-acceptance.host-paths: /srv/data:ro\` (never /, /etc, /proc, /sys, /home, the engine's data root or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`org.docker-acceptance.writable-roots: /tmp,/data\`.`,
      },
    },
    {
      id: "containment.writable_roots",
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
    },
    {
      id: "containment.devices",
      title: "No host devices",
      measures: "host devices, device requests, device cgroup rules",
      standards: { pss: "baseline: Privileged Containers", cis: "5.17" },
      remediation: {
        inventory:
          "Remove `--device`, `--gpus`/device requests and `--device-cgroup-rule` from the launch settings.",
        cli: "Remove `--device`, `--gpus` and `--device-cgroup-rule`.",
        compose:
          "Remove `devices:`, `device_cgroup_rules:` and device reservations under `deploy.resources`.",
      },
    },
    {
      id: "containment.resources",
      title: "Memory, pids and CPU limited",
      measures: "memory, pids and cpu limits",
      standards: { pss: "-", cis: "5.10, 5.11, 5.28" },
      remediation: {
        inventory:
          "Launch with `--memory`, `--pids-limit` and `--cpus` (inventory: subjects[].limits; compose: `mem_limit`, `pids_limit`, `cpus`).",
        cli: "Start it with `--memory 256m --pids-limit 128 --cpus 1` (sized for the service).",
        compose: "Set `mem_limit: 256m`, `pids_limit: 128` and `cpus: 1` (sized for the service).",
      },
    },
    {
      id: "containment.network",
      title: "Ports on loopback only",
      measures: "published ports on loopback only, `none` means loopback only (measured interfaces)",
      standards: { pss: "baseline: Host Ports", cis: "5.7, 5.8, 5.13" },
      remediation: {
        inventory:
          "Publish ports on loopback only (`-p 127.0.0.1:8080:8080`), never on 0.0.0.0; use `--network none` when the subject declares no network, and never `--network host`.",
        cli: `Publish ports on loopback only (\`-p 127.0.0.1:8080:8080\`), never on 0.0.0.0, and never \`--network host\`; a service declared without network runs with \`--network none\` (label \`org.docker-acceptance.network\`).`,
        compose: `Publish ports on loopback only (\`ports: ["127.0.0.1:8080:8080"]\`), never on 0.0.0.0, and never \`network_mode: host\`; a service declared without network sets \`network_mode: none\` (label \`org.docker-acceptance.network\`).`,
      },
    },
    {
      id: "containment.masked_paths",
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
    },
  ],
} as const satisfies Suite<CaseDef & { remediation: Readonly<Record<FixForm, string>> }>;
