// The containment suite's cases, each defined once and whole: what it measures, where it maps
// onto the standards, its fix in each form, and its grader (pure over the evidence in evidence.ts).
// A new case is one entry here and its test. Label keys named in a fix are the ones check mode
// reads (check-stack.ts).
import type { CaseDef, FixForm, Suite } from "../case-def.js";
import {
  type ContainmentEvidence,
  decodeCaps,
  fail,
  firstField,
  type Grader,
  heldCapabilities,
  maskedPaths,
  mountsOf,
  NAMESPACES,
  normCap,
  type Outcome,
  observed,
  pass,
  procs,
  readonlyPaths,
  skip,
  unobservedReason,
  unreadablePids,
} from "./evidence.js";
import { limitBounds, noNewPrivilegesOption, seccompUnconfined } from "./inspect.js";
import { withLsm } from "./lsm.js";
import { boundHostPath, type ClassifiedMount, judgeHostBinds, under } from "./mounts.js";
import { allowedBeyondDefault, seccompSetting } from "./seccomp.js";

/** A containment case: its definition, its fix in every form, and its grader, in one place. */
export type ContainmentCaseDef = CaseDef & {
  readonly remediation: Readonly<Record<FixForm, string>>;
  readonly grade: Grader;
};

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
      grade(ev) {
        const configured = ev.inspect.user.trim();
        const rootish =
          ["", "root", "0", "0:0", "root:root", "root:0", "0:root"].includes(configured) ||
          /^(0|root):/.test(configured);
        const ps = procs(ev, "Uid");
        const byPid = ps?.map((p) => ({
          pid: p.pid,
          uid: p.status.Uid,
          gid: p.status.Gid,
          groups: p.status.Groups,
        }));
        const unreadable = unreadablePids(ev, (x) => x.status.Uid === undefined);
        const evidence = {
          configuredUser: configured || "(empty: the image default, root)",
          processes: byPid,
          ...(unreadable.length ? { unreadableProcesses: unreadable } : {}),
        };
        if (rootish)
          return fail(
            configured
              ? `configured user ${JSON.stringify(configured)} is root`
              : "no user configured: the image has no USER line (and none is set at launch), so it runs as root",
            evidence,
          );
        if (!ps) return skip(unobservedReason(ev), evidence);
        // Supplementary group 0 (--group-add 0, or root's group in /etc/group) is root's group too.
        const hasZero = (field: string | undefined) => (field ?? "").trim().split(/\s+/).includes("0");
        const zero = ps.filter(
          (p) => hasZero(p.status.Uid) || hasZero(p.status.Gid) || hasZero(p.status.Groups),
        );
        if (zero.length > 0)
          return fail(
            `process ${zero.map((p) => p.pid).join(", ")} runs with uid, gid or a supplementary group 0`,
            evidence,
          );
        return pass(`all ${ps.length} processes run with non-zero uid and gid`, evidence);
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
      grade(ev, t) {
        const allowed = new Set(t.allowedCapabilities.map(normCap));
        const i = ev.inspect;
        const added = i.capAdd.map(normCap);
        const dropsAll = i.capDrop.map(normCap).includes("ALL");
        // What inspect alone proves: the engine grants these whatever the probe sees.
        const granted = i.privileged
          ? ["ALL (privileged)"]
          : [
              ...(dropsAll ? [] : i.defaults.capabilities.filter((c) => !i.capDrop.map(normCap).includes(c))),
              ...added,
            ];
        const inspectExtra = granted.filter((c) => !allowed.has(c));
        const evidence: Record<string, unknown> = {
          allowed: [...allowed],
          capAdd: i.capAdd,
          capDrop: i.capDrop,
          privileged: i.privileged,
        };
        const ps = procs(ev, "CapBnd");
        if (ps) {
          const sets = ["CapEff", "CapPrm", "CapBnd", "CapAmb"] as const;
          const extra: Record<string, string[]> = {};
          for (const p of ps) {
            for (const s of sets) {
              const names = decodeCaps(p.status[s] ?? "0").filter((c) => !allowed.has(c));
              if (names.length > 0) extra[`${p.pid}.${s}`] = names;
            }
          }
          evidence.measured = Object.fromEntries(
            ps.map((p) => [p.pid, Object.fromEntries(sets.map((s) => [s, decodeCaps(p.status[s] ?? "0")]))]),
          );
          const all = [...new Set(Object.values(extra).flat())];
          if (all.length > 0)
            return fail(`processes hold capabilities that are not allowed: ${all.join(", ")}`, {
              ...evidence,
              extra,
            });
          if (inspectExtra.length > 0)
            return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
          // Least privilege (Tier 2, a note, not a failure): allowed, yet no process ever held it in effect.
          const effective = new Set(ps.flatMap((p) => decodeCaps(p.status.CapEff ?? "0")));
          const unused = [...allowed].filter((c) => !effective.has(c));
          if (unused.length > 0) evidence.unusedAllowed = unused;
          const note = unused.length
            ? `; Tier 2 note (least privilege): ${unused.join(", ")} allowed but in no process's effective set, drop it if the subject never needs it`
            : "";
          return pass(
            allowed.size
              ? `capability sets are within ${[...allowed].join(", ")}${note}`
              : "all capability sets are empty",
            evidence,
          );
        }
        if (inspectExtra.length > 0)
          return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
        return skip(unobservedReason(ev), evidence);
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
      grade(ev) {
        const option = noNewPrivilegesOption(ev.inspect.securityOpt);
        const evidence: Record<string, unknown> = {
          securityOpt: ev.inspect.securityOpt,
          parsedOption: option ?? "absent",
        };
        const ps = procs(ev, "NoNewPrivs");
        if (ps) {
          evidence.measured = Object.fromEntries(ps.map((p) => [p.pid, firstField(p.status.NoNewPrivs)]));
          const off = ps.filter((p) => firstField(p.status.NoNewPrivs) !== "1");
          if (off.length > 0)
            return fail(`NoNewPrivs is 0 for process ${off.map((p) => p.pid).join(", ")}`, evidence);
          if (option === false)
            return fail("no-new-privileges is set to false in the launch settings", evidence);
          return pass("NoNewPrivs is 1 for every process", evidence);
        }
        if (option === false)
          return fail("no-new-privileges is set to false in the launch settings", evidence);
        return skip(unobservedReason(ev), evidence);
      },
    },
    {
      id: "containment.seccomp",
      title: "Filtered by seccomp, confined by AppArmor/SELinux",
      measures:
        "`Seccomp` filter mode of every process, and the profile's **content**: a profile recorded in `SecurityOpt` fails when it lets through what the engine's default denies to a container with the same capabilities (user-namespace creation via `clone`/`clone3`, `unshare`, `setns`, `mount` and the new mount API, `keyctl`/`add_key`/`request_key`, `bpf`, `perf_event_open`, module loading, `reboot`, `kexec_*`, `open_by_handle_at`, `process_vm_*`, clock, swap and raw-I/O calls, ...), naming them; the default profile and stricter ones pass. (`ptrace` itself is allowed by the default profile on kernels >= 4.8; tracing other processes is a capability question.) **AppArmor and SELinux** too: `apparmor=unconfined`, `label=disable`, a `label=type:` other than the container types (`container_t`, `container_init_t`, `container_kvm_t`, `container_engine_t`) and a custom `label=user:`/`label=role:` fail from the launch settings on any host; a process whose measured label (`/proc/<pid>/attr/current`) is AppArmor `unconfined` or complain mode, or SELinux `spc_t`/`unconfined_t`, or one the engine launched AppArmor `unconfined` on a host with AppArmor, fails; the label is shown (e.g. the engine's default profile, `(enforce)`), and a host without AppArmor or SELinux is said to have no MAC layer",
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
      grade: (ev) => withLsm(ev, gradeSeccompFilter(ev)),
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
      grade(ev) {
        return ev.inspect.privileged
          ? fail("the container is privileged", { privileged: true })
          : pass("not privileged", { privileged: false });
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
      grade(ev) {
        const m = ev.inspect.modes;
        const evidence: Record<string, unknown> = { modes: m };
        const host = "error" in ev.host ? undefined : ev.host.ns;
        if (host) evidence.host = host;
        if ("error" in ev.host) evidence.hostError = ev.host.error;
        if (ev.others && "error" in ev.others) evidence.othersError = ev.others.error;
        const p = observed(ev);
        const readable = p?.processes.filter((x) => Object.keys(x.ns).length > 0) ?? [];
        const unreadable = unreadablePids(ev, (x) => x.unreadable.includes("ns"));
        if (readable[0]) evidence.subject = readable[0].ns;
        if (unreadable.length) evidence.unreadableProcesses = unreadable;
        const shared = sharing(ev);
        const sysctls = unsafeSysctls(ev);
        evidence.sharedWith = Object.fromEntries([...shared].map(([k, v]) => [k, [...v]]));
        if (Object.keys(ev.inspect.sysctls).length) evidence.sysctls = ev.inspect.sysctls;
        if (shared.size > 0 || sysctls.length > 0) {
          const parts = [...shared].map(([ns, who]) => {
            const names = [...who];
            const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : "";
            return `${ns} with ${names.slice(0, MAX_NAMED).join(", ")}${more}`;
          });
          const msg = [
            ...(parts.length ? [`shares its ${parts.join("; ")}`] : []),
            ...(sysctls.length
              ? [`sets sysctls outside Pod Security's safe set: ${sysctls.join(", ")}`]
              : []),
          ];
          return fail(msg.join("; "), evidence);
        }
        const unmeasured = NAMESPACES.filter((n) => !host?.[n] || !readable.some((x) => x.ns[n]));
        if (unmeasured.length > 0) {
          evidence.unmeasured = unmeasured;
          const why = !host
            ? `host namespaces were not measured${"error" in ev.host ? `: ${ev.host.error}` : ""}`
            : unobservedReason(ev, "the subject's namespaces");
          return skip(`${unmeasured.join(", ")} not compared: ${why}`, evidence);
        }
        if (ev.others && "error" in ev.others) {
          // Sharing with the host was ruled out, sharing with another container was not: a pass here
          // could hide a `--pid container:<peer>` or a sidecar joined to the subject.
          return {
            status: "error",
            message: `namespaces are not shared with the host, but the other containers could not be listed (${ev.others.error}): sharing with them is not ruled out`,
            evidence,
          };
        }
        const note = unreadable.length
          ? ` (process ${unreadable.join(", ")} not readable by the subject's user: judged from the others and inspect)`
          : "";
        return pass(
          `pid, net, ipc, uts, mnt and cgroup namespaces are the subject's own: none shared with the host${
            Array.isArray(ev.others) ? ` or any of ${ev.others.length} other containers` : ""
          }${note}`,
          evidence,
        );
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
      grade(ev, t) {
        const evidence: Record<string, unknown> = { readonlyRootfs: ev.inspect.readonlyRootfs };
        const mounts = mountsOf(ev, t);
        const root = mounts?.find((m) => m.mountPoint === "/");
        const write = observed(ev)?.writes.find((w) => w.path === "/");
        if (root) evidence.mountOptions = root.options.join(",");
        if (write) evidence.writeProbe = write.result;
        if (root && !root.options.includes("ro"))
          return fail("the root filesystem is mounted read-write", evidence);
        if (write?.result === "accepted") return fail("a write probe to / succeeded", evidence);
        if (!ev.inspect.readonlyRootfs)
          return fail("the launch settings do not make the root filesystem read-only", evidence);
        if (!root || !write) return skip(unobservedReason(ev, "the subject's mounts"), evidence);
        return pass("root is mounted read-only and a write probe to / was refused", evidence);
      },
    },
    {
      id: "containment.mounts",
      title: "No host binds or extra mounts",
      measures:
        "every line of the subject's mountinfo, classified with a reason. **Every host bind is a finding** unless its source is allowed (`allowedHostPaths` in the inventory, `--allow-host-path PATH[:ro|rw]` / `allowed-host-paths` in check mode), read-only unless allowed read-write; sub-mounts belong to their bind, so the verdict does not depend on the engine making them read-only (newer engine versions do, older ones do not). Sensitive host paths are findings even when allowed: `/`, `/proc`, `/sys`, `/etc`, `/run`, `/var/run`, the engine's data root and every engine's default one (whichever engine runs the subject), `/boot`, `/dev`, `/root`, `/home`, anything containing them, and any engine socket; the host's programs and libraries (`/usr`, `/lib`, `/lib32`, `/lib64`, `/bin`, `/sbin`, anything inside or holding them) are findings when mounted read-write, allowed or not; judged on the declared source **and on what the kernel mounted** (a symlink in an allowed directory that leads to one of them, or to the host's procfs, sysfs or devtmpfs, is measured through the bind's mountinfo root on the filesystem that holds the engine's own files), and a socket reached through an allowed path is a finding (an engine's socket by another name cannot be told apart). An allowed bind with shared propagation is a finding too. Also writable volumes (a local volume that is really a bind of a host directory is a host bind), extra tmpfs and writable engine files",
      standards: { pss: "baseline: HostPath Volumes", cis: "5.5, 5.19, 5.31" },
      remediation: {
        inventory:
          "Remove the mounts listed as findings: host binds (`-v /host/path:...`, `--mount type=bind`) unless the path is allowed (inventory subjects[].allowedHostPaths, check `--allow-host-path PATH[:ro|rw]`), read-write volumes (or add `:ro`) and extra `--tmpfs` outside the allotted roots. For a Dockerfile `VOLUME` path, either allot it in subjects[].writableRoots (the launch then mounts a tmpfs there, owned by the subject's user) or remove the VOLUME line. Sensitive host paths (/, /proc, /sys, /etc, /run, /var/run, the engine's data root, /boot, /dev, /root, /home, engine sockets) cannot be allowed at all. The host's /usr, /lib, /lib64, /bin and /sbin (and paths inside them) can be allowed read-only only.",
        cli: `Remove the mounts listed as findings (\`-v\`/\`--mount\` binds and volumes, or add \`:ro\`; extra \`--tmpfs\`; engine sockets). Allow a host directory it needs with the label \`org.docker-acceptance.host-paths=/srv/data:ro\` (never /, /etc, /proc, /sys, /home, the engine's data root or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`org.docker-acceptance.writable-roots=/tmp,/data\`.`,
        compose: `Remove the \`volumes:\` and \`tmpfs:\` entries listed as findings (or add \`:ro\`), and any engine socket. Allow a host directory it needs with the label \`org.docker-acceptance.host-paths: /srv/data:ro\` (never /, /etc, /proc, /sys, /home, the engine's data root or a socket), and a path it must write, such as a Dockerfile \`VOLUME\`, with \`org.docker-acceptance.writable-roots: /tmp,/data\`.`,
      },
      grade(ev, t) {
        const declared = ev.inspect.mounts.map((m) => ({ ...m }));
        const mounts = mountsOf(ev, t);
        if (!mounts) {
          // Inspect alone proves a host bind that is not allowed, a writable volume and an engine socket.
          const bad = [
            ...judgeHostBinds(ev.inspect, t.allowedHostPaths ?? [])
              .filter((b) => b.problem)
              .map((b) => `${b.destination}: ${b.problem}`),
            ...ev.inspect.mounts
              .filter((m) => boundHostPath(m) === undefined && (m.rw || /\.sock$/.test(m.source)))
              .map(
                (m) =>
                  `${m.destination}: read-write ${m.type}${/\.sock$/.test(m.source) ? " (engine socket)" : ""}`,
              ),
          ];
          const evidence = { declared, ...(bad.length ? { findings: bad } : {}) };
          if (bad.length > 0)
            return fail(
              `launch settings mount ${bad.map((b) => b.split(":")[0]).join(", ")}: ${bad.join("; ")}`,
              evidence,
            );
          return skip(unobservedReason(ev, "the subject's mounts"), evidence);
        }
        const inventory = mounts.slice(0, MAX_LISTED).map((m) => ({
          mountPoint: m.mountPoint,
          fsType: m.fsType,
          options: m.options.join(","),
          class: m.class,
          reason: m.reason,
        }));
        const findings = mounts.filter((m) => m.class === "finding");
        const evidence = {
          total: mounts.length,
          inventory,
          findings: findings.map((m) => `${m.mountPoint}: ${m.reason}`),
        };
        if (findings.length > 0) {
          // A bind of a host tree brings its sub-mounts along: name the bind, count what came with it.
          const tops = findings.filter(
            (m) =>
              !findings.some(
                (o) => o !== m && o.mountPoint !== m.mountPoint && under(m.mountPoint, o.mountPoint),
              ),
          );
          const named = tops.map((m) => {
            const subs = findings.filter(
              (o) => o !== m && o.mountPoint !== m.mountPoint && under(o.mountPoint, m.mountPoint),
            ).length;
            return subs ? `${m.mountPoint} (and ${subs} sub-mount${subs > 1 ? "s" : ""})` : m.mountPoint;
          });
          return fail(
            `${findings.length} mount finding${findings.length > 1 ? "s" : ""}: ${named.join(", ")}`,
            evidence,
          );
        }
        return pass(
          `all ${mounts.length} mounts classified: none outside the allotted roots is writable`,
          evidence,
        );
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
      grade(ev, t) {
        const p = observed(ev);
        if (!p?.rootReadable) return skip(unobservedReason(ev, "the subject's root (write probes)"), {});
        // Allowed read-write host paths are writable by declaration, like the allotted roots.
        const allowedRw = judgeHostBinds(ev.inspect, t.allowedHostPaths ?? [])
          .filter((b) => !b.problem && b.rw)
          .map((b) => b.destination);
        const inRoots = (path: string) => [...t.writableRoots, ...allowedRw].some((r) => under(path, r));
        const mounts = mountsOf(ev, t) ?? [];
        const probes = p.writes.filter((w) => w.path !== "/" && w.result !== "missing");
        const leaked = probes.filter((w) => !inRoots(w.path) && w.result === "accepted");
        // Writable means noexec, nosuid and nodev: a place the subject writes must not run what it wrote.
        const executable = p.writes
          .filter((w) => w.path !== "/" && w.result === "accepted" && mounts.length > 0)
          .map((w) => ({
            path: w.path,
            missing: EXEC_FLAGS.filter((f) => !mountOf(w.path, mounts)?.options.includes(f)),
          }))
          .filter((x) => x.missing.length > 0);
        const controls = t.writableRoots.map((r) => ({
          root: r,
          result: p.writes.find((w) => w.path === r)?.result ?? "not probed",
        }));
        const accepting = controls.filter((c) => c.result === "accepted");
        const stricter = controls.filter((c) => c.result !== "accepted");
        const uncleaned = p.writes
          .filter((w) => w.result === "accepted" && w.cleaned === false)
          .map((w) => w.path);
        const evidence = {
          asUser: `${p.uid}:${p.gid}`,
          probes: probes.map((w) => ({
            path: w.path,
            result: w.result,
            allotted: inRoots(w.path),
            options: mountOf(w.path, mounts)?.options.join(","),
          })),
          positiveControls: controls,
          ...(executable.length ? { withoutNoexec: executable } : {}),
          ...(uncleaned.length ? { probeFilesLeft: uncleaned } : {}),
        };
        const findings = [
          ...(leaked.length
            ? [`writable outside the allotted roots: ${leaked.map((w) => w.path).join(", ")}`]
            : []),
          ...executable.map((x) => `${x.path} is writable without ${x.missing.join(",")}`),
        ];
        if (findings.length > 0) return fail(findings.join("; "), evidence);
        // A place the probe could not test (neither written nor refused) is not shown to refuse.
        const untested = probes.filter((w) => w.result === "failed").map((w) => w.path);
        if (untested.length > 0)
          return skip(`the probe could not test whether ${untested.join(", ")} accepts writes`, evidence);
        // Stricter is not a failure: an allotted root that is missing or refuses the write is more
        // confined than allowed. One accepting root shows the probe's writes work (the positive control).
        if (accepting.length === 0 && controls.length > 0) {
          return skip(
            `no allotted root accepted the probe's write (${stricter.map((c) => `${c.root}: ${c.result}`).join(", ")}), so the refusals elsewhere are not shown to mean the subject cannot write there`,
            evidence,
          );
        }
        const refused = probes.filter((w) => !inRoots(w.path)).length;
        const note = stricter.length
          ? `; stricter than allowed (not a failure): ${stricter.map((c) => `${c.root} ${c.result}`).join(", ")}`
          : "";
        return pass(
          `${refused} writable mounts outside the allotted roots refused the subject's user; ${accepting.map((c) => c.root).join(", ") || "no allotted root"} accepted a write and ${accepting.length === 1 ? "is" : "are"} noexec,nosuid,nodev${note}`,
          evidence,
        );
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
      grade(ev) {
        const i = ev.inspect;
        const evidence = {
          devices: i.devices,
          deviceRequests: i.deviceRequests,
          deviceCgroupRules: i.deviceCgroupRules,
          privileged: i.privileged,
        };
        const problems = [
          ...(i.privileged ? ["privileged (every host device)"] : []),
          ...i.devices.map((d) => `device ${d}`),
          ...(i.deviceRequests > 0 ? [`${i.deviceRequests} device request(s)`] : []),
          ...i.deviceCgroupRules.map((r) => `device cgroup rule ${r}`),
        ];
        return problems.length
          ? fail(problems.join("; "), evidence)
          : pass("no host devices, device requests or device cgroup rules", evidence);
      },
    },
    {
      id: "containment.resources",
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
      grade(ev) {
        const i = ev.inspect;
        const { missing, unbounded, bounds } = limitBounds(
          i,
          "error" in ev.host ? undefined : ev.host.pidMax,
        );
        const evidence = {
          memory: i.memory,
          pidsLimit: i.pidsLimit,
          nanoCpus: i.nanoCpus,
          cpuQuota: i.cpuQuota,
          ...(i.cpusetCpus ? { cpusetCpus: i.cpusetCpus } : {}),
          host: i.engineHost
            ? { memoryBytes: i.engineHost.memoryBytes, cpus: i.engineHost.cpus }
            : "not known: the engine did not say (limits not compared with it)",
          bounds,
        };
        if (missing.length) return fail(`no ${missing.join(", ")} limit`, evidence);
        if (unbounded.length)
          return fail(`limits that bound nothing on this host: ${unbounded.join("; ")}`, {
            ...evidence,
            unbounded,
          });
        // --memory-swap -1: the memory limit holds for RAM only, swap use is unbounded.
        if (i.memorySwap === -1)
          return fail("memory is limited but swap is not (memory-swap -1): swap use is unbounded", {
            ...evidence,
            memorySwap: -1,
          });
        return pass(`limits bound this host: ${bounds.join("; ")}`, evidence);
      },
    },
    {
      id: "containment.network",
      title: "Ports on loopback only",
      measures:
        "published ports on loopback only (an IPv6 any-address or the bridge's address is not), each on a host port of 1024 or above (CIS 5.7: a privileged host port fails), `none` means loopback only (measured interfaces); and the engine's API does not answer from inside the subject's network (a trusted probe in its network namespace asks `GET /_ping` at the address this tool reaches the engine at and at the subject's gateway on that port and 2375: an `Api-Version` answer fails, the daemon's TCP socket reachable from a container is full control of the host)",
      standards: { pss: "baseline: Host Ports", cis: "5.7, 5.8, 5.13" },
      remediation: {
        inventory:
          "Publish ports on loopback only (`-p 127.0.0.1:8080:8080`), never on 0.0.0.0, and on a host port of 1024 or above; use `--network none` when the subject declares no network, and never `--network host`. Never let the engine's API listen where a container can reach it: an engine API on TCP on 127.0.0.1 with TLS only (never 0.0.0.0 or the bridge's address), a nested engine service on its TLS port with client certificates, or the subject on `network: none`.",
        cli: `Publish ports on loopback only (\`-p 127.0.0.1:8080:8080\`), never on 0.0.0.0, on a host port of 1024 or above, and never \`--network host\`; a service declared without network runs with \`--network none\` (label \`org.docker-acceptance.network\`).`,
        compose: `Publish ports on loopback only (\`ports: ["127.0.0.1:8080:8080"]\`), never on 0.0.0.0, on a host port of 1024 or above, and never \`network_mode: host\`; a service declared without network sets \`network_mode: none\` (label \`org.docker-acceptance.network\`).`,
      },
      grade(ev, t) {
        const i = ev.inspect;
        const mode = i.modes.net;
        const bindings = Object.entries(i.ports).flatMap(([port, bs]) =>
          bs.map((b) => ({ port, binding: b })),
        );
        const exposed = bindings.filter(
          ({ binding }) => !LOOPBACK.test(binding.slice(0, binding.lastIndexOf(":"))),
        );
        const p = observed(ev);
        const interfaces = p?.processes.find((x) => x.interfaces)?.interfaces;
        const evidence: Record<string, unknown> = {
          declared: t.network,
          mode,
          published: bindings.map((b) => `${b.binding}->${b.port}`),
          interfaces,
        };
        const reach = ev.reach;
        if (reach && !("error" in reach)) {
          evidence.engineApiAsked = reach.asked.map((a) => `${a.address}: ${a.answer}`);
          const engines = reach.asked.filter((a) => a.answer === "engine").map((a) => a.address);
          if (engines.length > 0)
            return fail(
              `the engine's API answers from inside the subject's network at ${engines.join(", ")}: whatever runs in it controls the engine`,
              evidence,
            );
        } else if (reach) evidence.engineApiAsked = `not asked: ${reach.error}`;
        if (mode === "host") return fail("the container uses the host's network", evidence);
        if (exposed.length > 0)
          return fail(
            `ports published beyond loopback: ${exposed.map((b) => `${b.binding}->${b.port}`).join(", ")}`,
            evidence,
          );
        // CIS 5.7: a host port below 1024 is a privileged port of the host, loopback or not.
        const hostPort = (binding: string) =>
          Number(binding.slice(binding.lastIndexOf(":") + 1) || Number.NaN);
        const low = bindings.filter(({ binding }) => hostPort(binding) > 0 && hostPort(binding) < 1024);
        if (low.length > 0)
          return fail(
            `ports published on privileged host ports (below 1024): ${low.map((b) => `${b.binding}->${b.port}`).join(", ")}`,
            evidence,
          );
        // A stopped container publishes nothing: its empty port list proves nothing about the launch.
        if (!i.running)
          return skip("the container is not running: its published ports cannot be read", evidence);
        if (t.network === "none") {
          if (mode !== "none")
            return fail(`declared network none, launched with ${mode || "default"}`, evidence);
          // Every network namespace has lo: an empty list is a file that could not be read.
          if (!interfaces?.length)
            return skip(unobservedReason(ev, "the subject's network interfaces"), evidence);
          const extra = interfaces.filter((n) => n !== "lo");
          if (extra.length > 0) return fail(`interfaces beyond loopback: ${extra.join(", ")}`, evidence);
          return pass("only loopback in the subject's network namespace", evidence);
        }
        if (t.network === "bridge" && mode === "none")
          return fail("declared bridge but launched with network none", evidence);
        // Not asked is not reachable: the pass says which, never silently.
        const api =
          reach && !("error" in reach)
            ? `; the engine's API does not answer from its network (asked ${reach.asked.map((a) => a.address).join(", ")})`
            : reach
              ? "; whether the engine's API answers from its network was not measured"
              : "";
        return pass(
          `${bindings.length ? "published ports are bound to loopback only" : "no published ports"}${api}`,
          evidence,
        );
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
      grade(ev, t) {
        const i = ev.inspect;
        const masked = maskedPaths(ev);
        const ro = readonlyPaths(ev);
        const evidence: Record<string, unknown> = {
          inspectMasked: i.maskedPaths,
          inspectReadonly: i.readonlyPaths,
        };
        if (i.privileged) return fail("privileged: the engine masks nothing", evidence);
        if (i.maskedPaths !== null && i.maskedPaths.length === 0)
          return fail("no masked paths (systempaths=unconfined)", evidence);
        const p = observed(ev);
        const mounts = mountsOf(ev, t);
        if (!p || !mounts || !p.rootReadable)
          return skip(unobservedReason(ev, "the subject's /proc and /sys"), evidence);
        const at = new Map(mounts.map((m) => [m.mountPoint, m]));
        const unmasked = masked.filter((x) => p.exists[x] && at.get(x)?.class !== "masking");
        const writable = ro.filter((x) => p.exists[x] && !at.get(x)?.options.includes("ro"));
        const notChecked = [...masked, ...ro].filter((x) => p.exists[x] === undefined);
        Object.assign(evidence, {
          masked: masked.filter((x) => p.exists[x]),
          absentInKernel: [...masked, ...ro].filter((x) => p.exists[x] === false),
          unmasked,
          writable,
        });
        if (unmasked.length || writable.length) {
          return fail(
            [
              unmasked.length ? `not masked: ${unmasked.join(", ")}` : "",
              writable.length ? `not read-only: ${writable.join(", ")}` : "",
            ]
              .filter(Boolean)
              .join("; "),
            evidence,
          );
        }
        if (notChecked.length) return skip(`the probe did not check ${notChecked.join(", ")}`, evidence);
        return pass("the engine's masked and read-only /proc and /sys paths are in force", evidence);
      },
    },
  ],
} as const satisfies Suite<ContainmentCaseDef>;

/** Pod Security baseline's safe sysctls: namespaced and harmless to neighbours. */
export const SAFE_SYSCTLS = [
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
];

const MAX_NAMED = 5;

/** Who the subject shares each namespace with: "the host" or "container <name>". */
function sharing(ev: ContainmentEvidence): Map<string, Set<string>> {
  const shared = new Map<string, Set<string>>();
  const add = (ns: string, who: string) => shared.set(ns, (shared.get(ns) ?? new Set()).add(who));
  const i = ev.inspect;
  const others = Array.isArray(ev.others) ? ev.others : [];
  const nameOf = (ref: string) =>
    others.find((o) => o.name === ref.replace(/^\//, "") || (ref.length >= 12 && o.id.startsWith(ref)))
      ?.name ?? ref.slice(0, 12);
  const modes: Record<string, string> = {
    pid: i.modes.pid,
    net: i.modes.net,
    ipc: i.modes.ipc,
    uts: i.modes.uts,
    cgroup: i.modes.cgroup,
  };
  for (const [ns, mode] of Object.entries(modes)) {
    if (mode === "host") add(ns, "the host");
    else if (mode.startsWith("container:")) add(ns, `container ${nameOf(mode.slice("container:".length))}`);
  }
  // Containers that joined the subject's namespaces (`--network container:<subject>`, ...).
  const me = (ref: string) => ref === i.id || ref === i.name || (ref.length >= 12 && i.id.startsWith(ref));
  for (const o of others) {
    for (const [ns, mode] of Object.entries(o.modes)) {
      if (mode?.startsWith("container:") && me(mode.slice("container:".length).replace(/^\//, "")))
        add(ns, `container ${o.name}`);
    }
  }
  // Measured: namespace ids of the subject's processes against the host's and other containers'.
  const host = "error" in ev.host ? undefined : ev.host.ns;
  const p = observed(ev);
  for (const proc of p?.processes ?? []) {
    for (const n of NAMESPACES) {
      const id = proc.ns[n];
      if (!id) continue;
      if (host?.[n] === id) add(n, "the host");
      for (const o of others) if (o.ns?.[n] === id) add(n, `container ${o.name}`);
    }
  }
  // Measured: processes in the subject's pid namespace that belong to another container (or none).
  for (const f of (p?.foreign ?? []).filter((x) => !x.container || !me(x.container)))
    add("pid", f.container ? `container ${nameOf(f.container)}` : `the host (${f.count} processes)`);
  return shared;
}

function unsafeSysctls(ev: ContainmentEvidence): string[] {
  return Object.entries(ev.inspect.sysctls)
    .map(([k, v]) => [k.replaceAll("/", "."), v] as const)
    .filter(([k]) => !SAFE_SYSCTLS.includes(k))
    .map(([k, v]) => `${k}=${v}`);
}

const MAX_LISTED = 100;

const EXEC_FLAGS = ["noexec", "nosuid", "nodev"];

/** The mount a path lives on: the deepest mount point above it. */
function mountOf(path: string, mounts: readonly ClassifiedMount[]): ClassifiedMount | undefined {
  return mounts
    .filter((m) => under(path, m.mountPoint))
    .sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0];
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

/** containment.seccomp without AppArmor and SELinux: the filter mode and the profile's content. */
function gradeSeccompFilter(ev: ContainmentEvidence): Outcome {
  const setting = seccompSetting(ev.inspect.securityOpt);
  const unconfined =
    setting.kind === "unconfined" || seccompUnconfined(ev.inspect.securityOpt) || ev.inspect.privileged;
  // A long profile is not repeated in the evidence: its kind and what it lets through are.
  const evidence: Record<string, unknown> = {
    securityOpt: ev.inspect.securityOpt.map((o) =>
      o.length > 200 ? `${o.slice(0, 80)}... (${o.length} chars)` : o,
    ),
    privileged: ev.inspect.privileged,
    profile: setting.kind,
  };
  const beyond =
    setting.kind === "profile" && !unconfined
      ? allowedBeyondDefault(setting.profile, heldCapabilities(ev))
      : [];
  if (beyond.length > 0) {
    evidence.allowedBeyondDefault = beyond;
    return fail(
      `the seccomp profile allows what the engine's default denies: ${beyond.join(", ")}`,
      evidence,
    );
  }
  const ps = procs(ev, "Seccomp");
  if (ps) {
    evidence.measured = Object.fromEntries(ps.map((p) => [p.pid, firstField(p.status.Seccomp)]));
    const off = ps.filter((p) => firstField(p.status.Seccomp) !== "2");
    if (off.length > 0)
      return fail(
        `seccomp is not in filter mode (2) for process ${off.map((p) => p.pid).join(", ")}`,
        evidence,
      );
    if (unconfined) return fail("launch settings disable seccomp", evidence);
    if (setting.kind === "unreadable")
      return skip(
        `filter mode (2), but the profile's content could not be judged: ${setting.reason}`,
        evidence,
      );
    return pass(
      setting.kind === "profile"
        ? "seccomp filter mode (2) for every process; the custom profile denies everything the default denies"
        : "seccomp filter mode (2) for every process with the engine's default profile",
      evidence,
    );
  }
  if (unconfined) return fail("launch settings disable seccomp (unconfined or privileged)", evidence);
  return skip(unobservedReason(ev), evidence);
}
