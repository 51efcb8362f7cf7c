// AppArmor and SELinux, judged beside seccomp (containment.seccomp): the other half of what the
// engine confines a process with by default. Pod Security baseline forbids turning the default
// AppArmor profile off and restricts the SELinux type and user/role (CIS 5.1, 5.2). Judged from the
// launch settings, which hold on every host, and from each process's measured label where the host
// has such an LSM (/proc/<pid>/attr/current; a host without one gives no label and no verdict).
import type { MacLayer, SecuritySettings } from "../../engine/provider.js";
import { type ContainmentEvidence, fail, type Outcome, observed, taskName } from "./evidence.js";

/** The SELinux types Pod Security baseline allows a container to set. */
const SELINUX_CONTAINER_TYPES = ["container_t", "container_init_t", "container_kvm_t", "container_engine_t"];

/**
 * What the launch settings do to AppArmor and SELinux that Pod Security baseline forbids, each
 * named in the engine's own words. Some engines add SELinux's `disable` themselves to a container
 * in the host's pid or ipc namespace: that one is left to containment.namespaces, which fails such
 * a container anyway.
 */
function lsmSettingProblems(security: SecuritySettings, hostPidOrIpc = false): string[] {
  const out: string[] = [];
  if (security.appArmor?.kind === "unconfined") out.push(`\`${security.appArmor.said}\` turns AppArmor off`);
  for (const o of security.selinux) {
    if (o.kind === "disable") {
      if (!hostPidOrIpc) out.push(`\`${o.said}\` turns SELinux labelling off`);
    } else if (o.kind === "type" && !SELINUX_CONTAINER_TYPES.includes(o.value))
      out.push(`\`${o.said}\` sets SELinux type ${o.value}, not a container type`);
    else if (o.kind === "user" || o.kind === "role")
      out.push(`\`${o.said}\` sets a custom SELinux ${o.kind}`);
  }
  return out;
}

/** Why a measured label means no confinement, or undefined (confined, or a label we do not read). */
function unconfinedLabel(label: string): string | undefined {
  const l = label.trim();
  if (l === "unconfined") return "AppArmor unconfined";
  if (/\(complain\)$/.test(l)) return `AppArmor profile ${l}: not enforced`;
  const type = l.split(":")[2];
  if (l.split(":").length >= 4 && type && (type === "spc_t" || /unconfined/.test(type)))
    return `SELinux type ${type}: unconfined`;
  return undefined;
}

/** The MAC layers the engine's host has, where the engine said (undefined: not said). */
function hostLsms(ev: ContainmentEvidence): MacLayer[] | undefined {
  return ev.inspect.engineHost?.macLayers;
}

/** A label as people read it: "AppArmor my-profile (enforce)", "SELinux …:container_t:…". */
function describeLabel(label: string): string {
  const l = label.trim();
  if (l.split(":").length >= 4) return `SELinux ${l}`;
  return `AppArmor ${l}`;
}

/**
 * What the subject's processes run under, said in the case: their measured labels, the profile the
 * engine recorded, or that the host has no MAC layer at all (then a PASS says so, never silently).
 */
function lsmSummary(ev: ContainmentEvidence, labels: readonly string[]): string {
  const lsms = hostLsms(ev);
  const distinct = [...new Set(labels)];
  if (distinct.length) return distinct.map(describeLabel).join(", ");
  if (lsms && lsms.length === 0) return "no MAC layer: the host has neither AppArmor nor SELinux";
  const profile = ev.inspect.appArmorProfile;
  if (profile) return `AppArmor ${profile} (as the engine recorded it; the label was not measured)`;
  return "AppArmor/SELinux label not measured";
}

/** The seccomp outcome, failed too (or instead) when AppArmor or SELinux confinement is off. */
export function withLsm(collected: ContainmentEvidence, seccomp: Outcome): Outcome {
  const { pid, ipc } = collected.inspect.modes;
  const settings = lsmSettingProblems(collected.inspect.security, pid === "host" || ipc === "host");
  const labels = (observed(collected)?.processes ?? []).filter((p) => p.lsm !== undefined);
  const measured = labels.flatMap((p) => {
    const why = unconfinedLabel(p.lsm!);
    return why ? [`process ${taskName(p)}: ${why}`] : [];
  });
  // The profile the engine launched it under, where the host has AppArmor: unconfined is a
  // finding even when the probe could not read the label (the settings may not say it).
  const recorded =
    collected.inspect.appArmorProfile === "unconfined" &&
    hostLsms(collected)?.includes("apparmor") &&
    !measured.length &&
    collected.inspect.security.appArmor?.kind !== "unconfined"
      ? ["the engine launched it AppArmor unconfined"]
      : [];
  const problems = [...settings, ...measured, ...recorded];
  const label = lsmSummary(
    collected,
    labels.map((p) => p.lsm!),
  );
  const evidence = {
    ...seccomp.evidence,
    mac: label,
    ...(labels.length ? { lsm: Object.fromEntries(labels.map((p) => [p.pid, p.lsm])) } : {}),
  };
  if (problems.length === 0) return { ...seccomp, message: `${seccomp.message}; ${label}`, evidence };
  const mac = `MAC confinement off: ${problems.join("; ")}`;
  return seccomp.status === "fail"
    ? { ...seccomp, message: `${seccomp.message}; ${mac}`, evidence: { ...evidence, lsmProblems: problems } }
    : fail(mac, { ...evidence, lsmProblems: problems });
}
