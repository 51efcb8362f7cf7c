import {
  type ContainmentEvidence,
  fail,
  type Grader,
  NAMESPACES,
  observed,
  pass,
  skip,
  unobservedReason,
  unreadablePids,
} from "../evidence.js";

/** The grader of containment.namespaces (its definition: src/cases/containment/namespaces.ts). */
export const gradeNamespaces: Grader = (measured) => {
  const m = measured.inspect.modes;
  const evidence: Record<string, unknown> = { modes: m };
  const host = "error" in measured.host ? undefined : measured.host.ns;
  if (host) evidence.host = host;
  if ("error" in measured.host) evidence.hostError = measured.host.error;
  if (measured.others && "error" in measured.others) evidence.othersError = measured.others.error;
  const p = observed(measured);
  const readable = p?.processes.filter((x) => Object.keys(x.ns).length > 0) ?? [];
  const unreadable = unreadablePids(measured, (x) => x.unreadable.includes("ns"));
  if (readable[0]) evidence.subject = readable[0].ns;
  if (unreadable.length) evidence.unreadableProcesses = unreadable;
  const shared = sharing(measured);
  const sysctls = unsafeSysctls(measured);
  evidence.sharedWith = Object.fromEntries([...shared].map(([k, v]) => [k, [...v]]));
  if (Object.keys(measured.inspect.sysctls).length) evidence.sysctls = measured.inspect.sysctls;
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
      ? `host namespaces were not measured${"error" in measured.host ? `: ${measured.host.error}` : ""}`
      : unobservedReason(measured, "the subject's namespaces");
    return skip(`${unmeasured.join(", ")} not compared: ${why}`, evidence);
  }
  if (measured.others && "error" in measured.others) {
    // Sharing with the host was ruled out, sharing with another container was not: a pass here
    // could hide a `--pid container:<peer>` or a sidecar joined to the subject.
    return {
      status: "error",
      message: `namespaces are not shared with the host, but the other containers could not be listed (${measured.others.error}): sharing with them is not ruled out`,
      evidence,
    };
  }
  const note = unreadable.length
    ? ` (process ${unreadable.join(", ")} not readable by the subject's user: judged from the others and inspect)`
    : "";
  return pass(
    `pid, net, ipc, uts, mnt and cgroup namespaces are the subject's own: none shared with the host${
      Array.isArray(measured.others) ? ` or any of ${measured.others.length} other containers` : ""
    }${note}`,
    evidence,
  );
};

/** Pod Security baseline's safe sysctls: namespaced and harmless to neighbours. */
const SAFE_SYSCTLS = [
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
