// Judgement: pure graders over collected evidence. They never touch the subject. A case the probe
// could not observe is SKIP with the reason, never PASS; a failure provable from inspect alone is
// FAIL whether or not the probe saw anything. What each case is and its fixes: ../ids.ts.
import type { CaseResult } from "../../report/model.js";
import { CONTAINMENT_CASES, type ContainmentCaseId, remediationOf } from "../ids.js";
import { type InspectEvidence, noNewPrivilegesOption, seccompUnconfined } from "./inspect.js";
import {
  type ClassifiedMount,
  classifyMounts,
  type HostPathAllowance,
  judgeHostBinds,
  parseMountinfo,
  under,
} from "./mounts.js";
import { NAMESPACES, type ProbeEvidence, type ProcessEvidence } from "./probe.js";
import { allowedBeyondDefault, seccompSetting } from "./seccomp.js";

export interface ContainmentEvidence {
  inspect: InspectEvidence;
  /**
   * What the trusted probe read, or why it could not. `unverified`: a report arrived but failed its
   * length/digest check, so what it says cannot be trusted either way.
   */
  probe: ProbeEvidence | { error: string; unverified?: boolean };
  /** Host namespace identities, or why they could not be measured. */
  host: { ns: Record<string, string>; sources?: Record<string, string> } | { error: string };
  /** Other containers on the engine (never the subject, never this run's probes), or why not listed. */
  others?: OtherContainer[] | { error: string };
}

/** Another container, with what could be learnt about its namespaces. */
export interface OtherContainer {
  id: string;
  name: string;
  /** Its own `container:<ref>` / `host` modes where known (the listing gives net; inspect the rest). */
  modes: Partial<Record<"pid" | "net" | "ipc", string>>;
  /** Namespace ids measured by a trusted probe in the same run (graded together). */
  ns?: Record<string, string>;
}

export interface GradeTarget {
  subject: string;
  writableRoots: readonly string[];
  allowedCapabilities: readonly string[];
  network: "bridge" | "none" | "any";
  /** Host paths the subject may bind (sensitive ones never count). */
  allowedHostPaths?: readonly HostPathAllowance[];
}

type Outcome = Pick<CaseResult, "status" | "message" | "evidence"> & { remediation?: string };

const CAP_NAMES = [
  "CHOWN",
  "DAC_OVERRIDE",
  "DAC_READ_SEARCH",
  "FOWNER",
  "FSETID",
  "KILL",
  "SETGID",
  "SETUID",
  "SETPCAP",
  "LINUX_IMMUTABLE",
  "NET_BIND_SERVICE",
  "NET_BROADCAST",
  "NET_ADMIN",
  "NET_RAW",
  "IPC_LOCK",
  "IPC_OWNER",
  "SYS_MODULE",
  "SYS_RAWIO",
  "SYS_CHROOT",
  "SYS_PTRACE",
  "SYS_PACCT",
  "SYS_ADMIN",
  "SYS_BOOT",
  "SYS_NICE",
  "SYS_RESOURCE",
  "SYS_TIME",
  "SYS_TTY_CONFIG",
  "MKNOD",
  "LEASE",
  "AUDIT_WRITE",
  "AUDIT_CONTROL",
  "SETFCAP",
  "MAC_OVERRIDE",
  "MAC_ADMIN",
  "SYSLOG",
  "WAKE_ALARM",
  "BLOCK_SUSPEND",
  "AUDIT_READ",
  "PERFMON",
  "BPF",
  "CHECKPOINT_RESTORE",
];

/** A /proc/<pid>/status capability mask ("00000000a80425fb") as names. */
export function decodeCaps(hex: string): string[] {
  let mask = BigInt(`0x${hex.trim() || "0"}`);
  const out: string[] = [];
  for (let bit = 0; mask > 0n; bit++, mask >>= 1n) {
    if (mask & 1n) out.push(CAP_NAMES[bit] ?? `CAP_${bit}`);
  }
  return out;
}

const normCap = (c: string) => c.trim().toUpperCase().replace(/^CAP_/, "");

const pass = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "pass",
  message,
  evidence,
});
const fail = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "fail",
  message,
  evidence,
});
const skip = (message: string, evidence: Record<string, unknown> = {}): Outcome => ({
  status: "skip",
  message,
  evidence,
});

function observed(ev: ContainmentEvidence): ProbeEvidence | undefined {
  return "error" in ev.probe ? undefined : ev.probe;
}
function unobservedReason(ev: ContainmentEvidence, what = "the subject's processes"): string {
  if ("error" in ev.probe) return `the trusted probe could not observe ${what}: ${ev.probe.error}`;
  if (ev.probe.processes.length === 0) return `the trusted probe saw no process of the subject`;
  return `the trusted probe could not read ${what}`;
}
/** The processes whose `field` the probe read; undefined when it read none (nothing to judge). */
function procs(ev: ContainmentEvidence, field: string): ProcessEvidence[] | undefined {
  const p = observed(ev);
  const readable = p?.processes.filter((x) => x.status[field] !== undefined) ?? [];
  return readable.length > 0 ? readable : undefined;
}
/** Processes the probe could not read `what` of, named for the evidence. */
function unreadablePids(ev: ContainmentEvidence, what: (p: ProcessEvidence) => boolean): number[] {
  return (
    observed(ev)
      ?.processes.filter(what)
      .map((p) => p.pid) ?? []
  );
}
function firstField(v: string | undefined): string {
  return (v ?? "").split(/\s+/)[0] ?? "";
}

function gradeUser(ev: ContainmentEvidence): Outcome {
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
  const zero = ps.filter((p) => hasZero(p.status.Uid) || hasZero(p.status.Gid) || hasZero(p.status.Groups));
  if (zero.length > 0)
    return fail(
      `process ${zero.map((p) => p.pid).join(", ")} runs with uid, gid or a supplementary group 0`,
      evidence,
    );
  return pass(`all ${ps.length} processes run with non-zero uid and gid`, evidence);
}

function gradeCapabilities(ev: ContainmentEvidence, t: GradeTarget): Outcome {
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
    if (inspectExtra.length > 0) return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
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
  if (inspectExtra.length > 0) return fail(`launch settings grant ${inspectExtra.join(", ")}`, evidence);
  return skip(unobservedReason(ev), evidence);
}

function gradeNoNewPrivs(ev: ContainmentEvidence): Outcome {
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
    if (option === false) return fail("no-new-privileges is set to false in the launch settings", evidence);
    return pass("NoNewPrivs is 1 for every process", evidence);
  }
  if (option === false) return fail("no-new-privileges is set to false in the launch settings", evidence);
  return skip(unobservedReason(ev), evidence);
}

/** Capabilities the subject's processes can hold: from inspect, plus any bounding set measured. */
function heldCapabilities(ev: ContainmentEvidence): Set<string> {
  const i = ev.inspect;
  if (i.privileged) return new Set(CAP_NAMES);
  const drop = i.capDrop.map(normCap);
  const base = drop.includes("ALL") ? [] : i.defaults.capabilities.filter((c) => !drop.includes(c));
  const held = new Set([...base, ...i.capAdd.map(normCap)]);
  if (held.has("ALL")) return new Set(CAP_NAMES);
  for (const p of observed(ev)?.processes ?? [])
    for (const c of decodeCaps(p.status.CapBnd ?? "0")) held.add(c);
  return held;
}

function gradeSeccomp(ev: ContainmentEvidence): Outcome {
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

function gradePrivileged(ev: ContainmentEvidence): Outcome {
  return ev.inspect.privileged
    ? fail("the container is privileged", { privileged: true })
    : pass("not privileged", { privileged: false });
}

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

function gradeNamespaces(ev: ContainmentEvidence): Outcome {
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
      ...(sysctls.length ? [`sets sysctls outside Pod Security's safe set: ${sysctls.join(", ")}`] : []),
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
}

function mountsOf(ev: ContainmentEvidence, t: GradeTarget): ClassifiedMount[] | undefined {
  const p = observed(ev);
  if (!p || p.mountinfo.length === 0) return undefined;
  return classifyMounts(
    parseMountinfo(p.mountinfo),
    ev.inspect,
    t.writableRoots,
    maskedPaths(ev),
    readonlyPaths(ev),
    t.allowedHostPaths ?? [],
  );
}
function maskedPaths(ev: ContainmentEvidence): string[] {
  return [...new Set([...ev.inspect.defaults.maskedPaths, ...(ev.inspect.maskedPaths ?? [])])];
}
function readonlyPaths(ev: ContainmentEvidence): string[] {
  return [...new Set([...ev.inspect.defaults.readonlyPaths, ...(ev.inspect.readonlyPaths ?? [])])];
}

function gradeRootfs(ev: ContainmentEvidence, t: GradeTarget): Outcome {
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
}

const MAX_LISTED = 100;

function gradeMounts(ev: ContainmentEvidence, t: GradeTarget): Outcome {
  const declared = ev.inspect.mounts.map((m) => ({ ...m }));
  const mounts = mountsOf(ev, t);
  if (!mounts) {
    // Inspect alone proves a host bind that is not allowed, a writable volume and an engine socket.
    const bad = [
      ...judgeHostBinds(ev.inspect, t.allowedHostPaths ?? [])
        .filter((b) => b.problem)
        .map((b) => `${b.destination}: ${b.problem}`),
      ...ev.inspect.mounts
        .filter((m) => m.type !== "bind" && (m.rw || /\.sock$/.test(m.source)))
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
        !findings.some((o) => o !== m && o.mountPoint !== m.mountPoint && under(m.mountPoint, o.mountPoint)),
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
}

const EXEC_FLAGS = ["noexec", "nosuid", "nodev"];

/** The mount a path lives on: the deepest mount point above it. */
function mountOf(path: string, mounts: readonly ClassifiedMount[]): ClassifiedMount | undefined {
  return mounts
    .filter((m) => under(path, m.mountPoint))
    .sort((a, b) => b.mountPoint.length - a.mountPoint.length)[0];
}

function gradeWritableRoots(ev: ContainmentEvidence, t: GradeTarget): Outcome {
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
  const uncleaned = p.writes.filter((w) => w.result === "accepted" && w.cleaned === false).map((w) => w.path);
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
}

function gradeDevices(ev: ContainmentEvidence): Outcome {
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
}

function gradeResources(ev: ContainmentEvidence): Outcome {
  const i = ev.inspect;
  const evidence = { memory: i.memory, pidsLimit: i.pidsLimit, nanoCpus: i.nanoCpus, cpuQuota: i.cpuQuota };
  const missing = [
    ...(i.memory > 0 ? [] : ["memory"]),
    ...(i.pidsLimit !== null && i.pidsLimit > 0 ? [] : ["pids"]),
    ...(i.nanoCpus > 0 || i.cpuQuota > 0 ? [] : ["cpu"]),
  ];
  return missing.length
    ? fail(`no ${missing.join(", ")} limit`, evidence)
    : pass("memory, pids and cpu limits are set", evidence);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

function gradeNetwork(ev: ContainmentEvidence, t: GradeTarget): Outcome {
  const i = ev.inspect;
  const mode = i.modes.net;
  const bindings = Object.entries(i.ports).flatMap(([port, bs]) => bs.map((b) => ({ port, binding: b })));
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
  if (mode === "host") return fail("the container uses the host's network", evidence);
  if (exposed.length > 0)
    return fail(
      `ports published beyond loopback: ${exposed.map((b) => `${b.binding}->${b.port}`).join(", ")}`,
      evidence,
    );
  // A stopped container publishes nothing: its empty port list proves nothing about the launch.
  if (!i.running) return skip("the container is not running: its published ports cannot be read", evidence);
  if (t.network === "none") {
    if (mode !== "none") return fail(`declared network none, launched with ${mode || "default"}`, evidence);
    if (!interfaces) return skip(unobservedReason(ev, "the subject's network interfaces"), evidence);
    const extra = interfaces.filter((n) => n !== "lo");
    if (extra.length > 0) return fail(`interfaces beyond loopback: ${extra.join(", ")}`, evidence);
    return pass("only loopback in the subject's network namespace", evidence);
  }
  if (t.network === "bridge" && mode === "none")
    return fail("declared bridge but launched with network none", evidence);
  return pass(
    bindings.length ? "published ports are bound to loopback only" : "no published ports",
    evidence,
  );
}

function gradeMaskedPaths(ev: ContainmentEvidence, t: GradeTarget): Outcome {
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
}

/** Each case's grader: a Record over the catalogue's IDs, so a case without a grader does not compile. */
const GRADERS: Record<ContainmentCaseId, (ev: ContainmentEvidence, t: GradeTarget) => Outcome> = {
  "containment.user": gradeUser,
  "containment.capabilities": gradeCapabilities,
  "containment.no_new_privileges": gradeNoNewPrivs,
  "containment.seccomp": gradeSeccomp,
  "containment.privileged": gradePrivileged,
  "containment.namespaces": gradeNamespaces,
  "containment.rootfs_readonly": gradeRootfs,
  "containment.mounts": gradeMounts,
  "containment.writable_roots": gradeWritableRoots,
  "containment.devices": gradeDevices,
  "containment.resources": gradeResources,
  "containment.network": gradeNetwork,
  "containment.masked_paths": gradeMaskedPaths,
};

/** One CaseResult per containment case, in the catalogue's order. */
export function gradeContainment(ev: ContainmentEvidence, t: GradeTarget, collectMs = 0): CaseResult[] {
  return CONTAINMENT_CASES.map((id) => {
    const started = performance.now();
    let out: Outcome;
    try {
      out = GRADERS[id](ev, t);
    } catch (err) {
      out = { status: "error", message: `grader failed: ${(err as Error).message}`, evidence: {} };
    }
    // A case left unobserved because the report did not verify is an error, not a quiet skip.
    if (out.status === "skip" && "error" in ev.probe && ev.probe.unverified)
      out = { ...out, status: "error" };
    return {
      id,
      suite: "containment",
      subject: t.subject,
      status: out.status,
      severity: "fail",
      // Evidence is collected once for all cases: each carries an equal share of that time plus its
      // own judgement, so the suite's durations add up to the time it took (JUnit sums them).
      durationMs:
        Math.round((collectMs / CONTAINMENT_CASES.length + performance.now() - started) * 100) / 100,
      message: out.message,
      evidence: out.evidence,
      ...(out.status === "pass" ? {} : { remediation: remediationOf(id, "inventory") }),
    };
  });
}
