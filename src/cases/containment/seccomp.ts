import type { ContainmentCaseDef } from "../types.js";

export const SECCOMP = {
  id: "containment.seccomp",
  rank: 40,
  title: "Filtered by seccomp, confined by AppArmor/SELinux",
  measures:
    "`Seccomp` filter mode of every process, and the profile's **content**: a custom profile the engine recorded fails when it lets through what the engine's default denies to a container with the same capabilities (user-namespace creation via `clone`/`clone3`, `unshare`, `setns`, `mount` and the new mount API, `keyctl`/`add_key`/`request_key`, `bpf`, `perf_event_open`, module loading, `reboot`, `kexec_*`, `open_by_handle_at`, `kcmp`, `pidfd_getfd`, clock, swap and raw-I/O calls, ...), naming them; the default profile and stricter ones pass. (`ptrace` itself is allowed by the default profile on kernels >= 4.8; tracing other processes is a capability question.) **AppArmor and SELinux** too: `apparmor=unconfined`, `label=disable`, a `label=type:` other than the container types (`container_t`, `container_init_t`, `container_kvm_t`, `container_engine_t`) and a custom `label=user:`/`label=role:` fail from the launch settings on any host; a process whose measured label (`/proc/<pid>/attr/current`) is AppArmor `unconfined` or complain mode, or SELinux `spc_t`/`unconfined_t`, or one the engine launched AppArmor `unconfined` on a host with AppArmor, fails; the label is shown (e.g. the engine's default profile, `(enforce)`), and a host without AppArmor or SELinux is said to have no MAC layer. A security option the engine recorded that the tool cannot read (an option it does not know, a value it cannot parse) is named, and the case is then never a pass",
  standards: {
    pss: "baseline: Seccomp (not Unconfined), AppArmor, SELinux; restricted: Seccomp",
    cis: "5.1, 5.2, 5.21",
  },
  remediation: {
    inventory:
      "Remove `--security-opt seccomp=unconfined` (and `--privileged`) so the engine's default seccomp profile applies, or pass a profile that denies at least what the default denies (`--security-opt seccomp=<file>`; never `defaultAction: SCMP_ACT_ALLOW` or allow rules for the syscalls named); remove `apparmor=unconfined`, `label=disable`, `label=type:` other than a container type and `label=user:`/`label=role:` from `--security-opt`.",
    cli: "Remove `--security-opt seccomp=unconfined` and `--privileged` so the engine's default seccomp profile applies (or pass a stricter profile); remove `--security-opt apparmor=unconfined`, `label=disable`, `label=type:` other than a container type and `label=user:`/`label=role:`.",
    compose:
      "Remove `seccomp:unconfined` from `security_opt` and `privileged: true` so the engine's default seccomp profile applies (or name a stricter profile); remove `apparmor:unconfined`, `label:disable`, `label:type:` other than a container type and `label:user:`/`label:role:` from `security_opt`.",
  },
} as const satisfies ContainmentCaseDef;
