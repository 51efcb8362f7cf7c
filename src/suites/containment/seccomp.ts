// Seccomp judged by content. The engine records a custom profile verbatim (the launch's security
// settings carry its text); "filter mode (2)" alone says nothing about what the filter lets through.
// A profile fails when it lets through a syscall the engine's default profile denies to a container
// with the same capabilities: the kernel attack surface that user namespaces, mounts, keyrings,
// BPF, module loading, reboot/kexec, handle-based opens and cross-process memory access expose.

import type { SeccompChoice } from "../../engine/provider.js";

/**
 * Syscalls the engine's default profile denies to a container without the capability in (): what
 * every supported engine's default denies. The newest engines' default (github.com/moby/profiles
 * v0.1.0) lets through three that older defaults gated, and each is safe from first principles, so
 * none is a finding on any: `name_to_handle_at` only names a file (opening by the handle,
 * `open_by_handle_at`, still needs CAP_DAC_READ_SEARCH), and `process_vm_readv`/`writev` pass the
 * kernel's ptrace access check, as `ptrace` does, which both defaults allow from kernel 4.8.
 */
export const DEFAULT_DENIED: readonly string[] = [
  // namespaces and mounts (CAP_SYS_ADMIN in the default profile)
  "unshare",
  "setns",
  "clone3",
  "mount",
  "umount",
  "umount2",
  "pivot_root",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "move_mount",
  "open_tree",
  "mount_setattr",
  "sethostname",
  "setdomainname",
  "quotactl",
  "quotactl_fd",
  "lookup_dcookie",
  "fanotify_init",
  "perf_event_open",
  "bpf",
  // keyrings (never allowed)
  "keyctl",
  "add_key",
  "request_key",
  // kernel modules, reboot, kexec
  "init_module",
  "finit_module",
  "delete_module",
  "create_module",
  "query_module",
  "get_kernel_syms",
  "reboot",
  "kexec_load",
  "kexec_file_load",
  // the shocker escape (CAP_DAC_READ_SEARCH)
  "open_by_handle_at",
  // other processes' handles and memory advice (CAP_SYS_PTRACE)
  "kcmp",
  "pidfd_getfd",
  "process_madvise",
  // clocks, accounting, swap, raw I/O, old interfaces
  "settimeofday",
  "stime",
  "clock_settime",
  "acct",
  "swapon",
  "swapoff",
  "iopl",
  "ioperm",
  "syslog",
  "vhangup",
  "userfaultfd",
  "uselib",
  "ustat",
  "sysfs",
  "_sysctl",
  "nfsservctl",
  "vm86",
  "vm86old",
];

/** clone/unshare flags that create a user namespace: the step to uid 0 inside one. */
const CLONE_NEWUSER = 0x10000000n;

interface Arg {
  index: number;
  value: number;
  valueTwo?: number;
  op: string;
}
interface Rule {
  names?: string[];
  name?: string;
  action: string;
  args?: Arg[] | null;
  includes?: { caps?: string[]; arches?: string[] };
  excludes?: { caps?: string[]; arches?: string[] };
}
interface SeccompProfile {
  defaultAction: string;
  syscalls?: Rule[] | null;
}

type SeccompSetting =
  | { kind: "default" }
  | { kind: "unconfined" }
  | { kind: "profile"; profile: SeccompProfile }
  | { kind: "unreadable"; reason: string };

/** The seccomp setting the engine recorded, a profile's content read (its text as recorded). */
export function seccompSetting(choice: SeccompChoice): SeccompSetting {
  if (choice.kind !== "profile") return { kind: choice.kind };
  const value = choice.text;
  try {
    const profile = JSON.parse(value) as SeccompProfile;
    if (typeof profile?.defaultAction !== "string") {
      return { kind: "unreadable", reason: "the recorded profile has no defaultAction" };
    }
    return { kind: "profile", profile };
  } catch {
    return { kind: "unreadable", reason: `the recorded profile is not JSON (${value.slice(0, 60)})` };
  }
}

// An action that lets the call reach the kernel (LOG allows and logs; NOTIFY hands the decision to
// a user-space agent we cannot see, so it is not a denial we can count on).
const PASSES = new Set(["SCMP_ACT_ALLOW", "SCMP_ACT_LOG", "SCMP_ACT_NOTIFY"]);

/** Engine architecture names as seccomp profiles spell them. */
function engineArch(nodeArch: string = process.arch): string {
  return (
    { x64: "amd64", ia32: "x86", arm64: "arm64", arm: "arm", s390x: "s390x", ppc64: "ppc64le" }[nodeArch] ??
    nodeArch
  );
}

const cap = (c: string) => c.toUpperCase().replace(/^CAP_/, "");

function applies(rule: Rule, caps: ReadonlySet<string>, arch: string): boolean {
  const inc = rule.includes ?? {};
  const exc = rule.excludes ?? {};
  if (inc.caps?.length && !inc.caps.every((c) => caps.has(cap(c)))) return false;
  if (inc.arches?.length && !inc.arches.includes(arch)) return false;
  if (exc.caps?.some((c) => caps.has(cap(c)))) return false;
  if (exc.arches?.includes(arch)) return false;
  return true;
}

const flagsArg = (name: string, a: Arg) => a.index === 0 || (name === "clone" && a.index === 1);
const hasNewUser = (v: number | undefined) => (BigInt(v ?? 0) & CLONE_NEWUSER) !== 0n;

/** An allow rule for clone/unshare only when CLONE_NEWUSER is clear (flags & mask == 0). */
function allowsWithoutNewUser(name: string, args: readonly Arg[]): boolean {
  // s390 swaps clone's first two arguments; every other architecture passes the flags first.
  return args.some(
    (a) =>
      a.op === "SCMP_CMP_MASKED_EQ" && flagsArg(name, a) && hasNewUser(a.value) && !hasNewUser(a.valueTwo),
  );
}

/** A deny rule for clone/unshare whenever CLONE_NEWUSER is set (flags & NEWUSER == NEWUSER). */
function deniesNewUser(name: string, args: readonly Arg[]): boolean {
  return args.some(
    (a) =>
      a.op === "SCMP_CMP_MASKED_EQ" && flagsArg(name, a) && hasNewUser(a.value) && hasNewUser(a.valueTwo),
  );
}

/**
 * What the profile lets through that the default denies, for a container holding `caps` (names
 * without CAP_) on `arch`. Conservative where a rule is conditional: an allow rule with argument
 * conditions counts as allowing, except a clone/unshare condition that masks CLONE_NEWUSER out.
 */
export function allowedBeyondDefault(
  profile: SeccompProfile,
  caps: ReadonlySet<string>,
  arch = engineArch(),
): string[] {
  const rules = (profile.syscalls ?? []).filter((r) => applies(r, caps, arch));
  const named = (s: string) => rules.filter((r) => (r.names ?? (r.name ? [r.name] : [])).includes(s));
  const out: string[] = [];
  for (const s of ["clone", ...DEFAULT_DENIED]) {
    const own = named(s);
    const allowRules = own.filter((r) => PASSES.has(r.action));
    const newUserFlags = s === "clone" || s === "unshare";
    const denied = own.some(
      (r) => !PASSES.has(r.action) && (!r.args?.length || (newUserFlags && deniesNewUser(s, r.args))),
    );
    const byDefault = PASSES.has(profile.defaultAction) && !denied;
    const newUserSafe = (r: Rule) => newUserFlags && !!r.args?.length && allowsWithoutNewUser(s, r.args);
    const open = allowRules.some((r) => !newUserSafe(r)) || byDefault;
    if (!open) continue;
    // clone itself is ordinary (threads, fork); only its user-namespace flag is a finding.
    out.push(s === "clone" ? "clone(CLONE_NEWUSER)" : s);
  }
  return out;
}
