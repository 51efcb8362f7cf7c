// Docker's security options (HostConfig.SecurityOpt: `no-new-privileges:true`, `seccomp=<json>`,
// `apparmor=<profile>`, `label=type:<t>`, ...) in the tool's words, and the host's (/info's
// SecurityOptions: `name=apparmor`). Podman's inspect is read in Docker's terms first (its dialect's
// `hear`), so one reading serves both. Pure.
import type {
  AppArmorChoice,
  MacLayer,
  SeccompChoice,
  SecuritySettings,
  SelinuxOption,
} from "../../provider.js";

const TRUE = ["true", "1", "t", "yes"];
const FALSE = ["false", "0", "f", "no"];

/**
 * Each option, as the engine parses it: `key=value` or `key:value` (a bare `no-new-privileges` is
 * true). Some engines report several label options as one entry ("label=type:x,label=level:s0:c1,c2"):
 * split where the next option starts.
 */
function options(securityOpt: readonly string[]): string[] {
  return securityOpt
    .map((o) => o.trim())
    .flatMap((o) => (/^(?:label|apparmor)[=:]/.test(o) ? o.split(/,(?=(?:label|apparmor)[=:])/) : [o]));
}

/** What one option says, or undefined when the tool cannot type it (carried as untyped). */
type Typed =
  | { noNewPrivileges: boolean }
  | { seccomp: SeccompChoice }
  | { appArmor: AppArmorChoice }
  | { selinux: SelinuxOption };

function typeOption(said: string): Typed | undefined {
  const nnp = /^no-new-privileges(?:[:=](.*))?$/.exec(said);
  if (nnp) {
    const v = (nnp[1] ?? "true").trim().toLowerCase();
    return TRUE.includes(v)
      ? { noNewPrivileges: true }
      : FALSE.includes(v)
        ? { noNewPrivileges: false }
        : undefined;
  }
  const m = /^(seccomp|apparmor|label)[:=]([\s\S]*)$/.exec(said);
  if (!m) return undefined;
  const value = m[2]!.trim();
  if (m[1] === "seccomp") {
    if (value === "" || value === "builtin") return { seccomp: { kind: "default", said } };
    if (value === "unconfined") return { seccomp: { kind: "unconfined", said } };
    return { seccomp: { kind: "profile", text: value, said } };
  }
  if (m[1] === "apparmor") {
    if (value === "") return undefined;
    return {
      appArmor:
        value === "unconfined" ? { kind: "unconfined", said } : { kind: "profile", name: value, said },
    };
  }
  if (value === "disable") return { selinux: { kind: "disable", said } };
  const label = /^(type|user|role|level)[:=](.*)$/s.exec(value);
  return label
    ? { selinux: { kind: label[1] as "type" | "user" | "role" | "level", value: label[2]!.trim(), said } }
    : undefined;
}

/**
 * The typed settings of a SecurityOpt list. As the engine applies them, the last of each wins,
 * except that an unconfined seccomp or AppArmor anywhere is kept (the weaker reading: a stricter
 * one set after it cannot make a PASS). Anything not understood is carried untyped.
 */
export function securityOf(securityOpt: readonly string[]): SecuritySettings {
  const out: SecuritySettings = { seccomp: { kind: "default" }, selinux: [], untyped: [] };
  for (const said of options(securityOpt)) {
    const typed = typeOption(said);
    if (!typed) out.untyped.push(said);
    else if ("noNewPrivileges" in typed) out.noNewPrivileges = { value: typed.noNewPrivileges, said };
    else if ("seccomp" in typed) {
      if (out.seccomp.kind !== "unconfined") out.seccomp = typed.seccomp;
    } else if ("appArmor" in typed) {
      if (out.appArmor?.kind !== "unconfined") out.appArmor = typed.appArmor;
    } else out.selinux.push(typed.selinux);
  }
  return out;
}

/** The SecurityOpt list a launch's no-new-privileges says (the only security option a launch sets). */
export function securityOpt(noNewPrivileges: boolean): string[] {
  return noNewPrivileges ? ["no-new-privileges:true"] : [];
}

/** The MAC layers among the engine's /info SecurityOptions ("name=apparmor", "name=selinux"). */
export function macLayersOf(securityOptions: readonly string[]): MacLayer[] {
  const names = securityOptions.map((o) => /^name=([^,]+)/.exec(o.trim())?.[1] ?? "");
  return (["apparmor", "selinux"] as const).filter((l) => names.includes(l));
}

/** Docker's word for each hardened setting: its inspect's and create body's field. */
export const DOCKER_FIELD_NAMES = {
  "read-only root": "ReadonlyRootfs",
  "added capabilities": "CapAdd",
  "no-new-privileges": "SecurityOpt",
  "cgroup namespace": "CgroupnsMode",
  "IPC namespace": "IpcMode",
  "PID namespace": "PidMode",
  privileged: "Privileged",
  init: "Init",
  "tmpfs mounts": "Tmpfs",
  network: "NetworkMode",
  "published ports": "PortBindings",
} as const;
