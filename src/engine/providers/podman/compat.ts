// What Podman's Docker-compatible API needs said differently, and how to fix what it does not apply.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sha256Hex } from "../../../crypto.js";
import type { HardenedSetting } from "../../provider.js";
import type { EngineRequest } from "../docker/dialect.js";
import type { ContainerInspect, CreateOptions } from "../docker/translate.js";
import { LIBPOD_API } from "./libpod.js";

/**
 * The create options in Podman's terms. Podman 4 refuses tmpfs `uid=`/`gid=` options ("unknown mount option"); its `U` option chowns the
 * tmpfs to the container's user, which is what uid/gid of the subject's user asked for.
 */
export function podmanCreateOptions(opts: CreateOptions): CreateOptions {
  const host = { ...opts.HostConfig };
  if (host.Tmpfs) {
    host.Tmpfs = Object.fromEntries(
      Object.entries(host.Tmpfs).map(([path, o]) => {
        const parts = o.split(",").filter(Boolean);
        const owned = parts.some((p) => /^(uid|gid)=/.test(p));
        const kept = parts.filter((p) => !/^(uid|gid)=/.test(p));
        return [path, (owned ? [...kept, "U"] : kept).join(",")];
      }),
    );
  }
  // Podman refuses an init in a pid namespace it does not own ("PID namespace isn't private"),
  // where Docker runs one: create without it, and let the read-back report Init as not applied.
  if (host.Init && /^(host|container:)/.test(String(host.PidMode ?? ""))) host.Init = false;
  // Docker takes a seccomp profile's JSON inline; Podman's compatible API reads the value as a
  // file path. Its socket is local (unix://), so the profile is written where it can read it.
  if (host.SecurityOpt) host.SecurityOpt = host.SecurityOpt.map(seccompAsFile);
  return { ...opts, HostConfig: host };
}

const SECCOMP_DIR = path.join(tmpdir(), "docker-acceptance-seccomp");

function seccompAsFile(opt: string): string {
  const m = /^seccomp[=:](\{[\s\S]*)$/.exec(opt);
  if (!m) return opt;
  const dir = SECCOMP_DIR;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${sha256Hex(m[1]!).slice(0, 32)}.json`);
  writeFileSync(file, m[1]!, { mode: 0o644 });
  return `seccomp=${file}`;
}

/**
 * Podman's inspect in Docker's terms, so evidence reads the same on both: a seccomp profile this
 * tool wrote to a file is shown inline again (as Docker shows it), and a namespace joined by
 * container ID names the container (Docker keeps the name it was given).
 */
export async function podmanInspect(
  info: ContainerInspect,
  nameOf: (containerId: string) => Promise<string>,
  request: EngineRequest,
): Promise<ContainerInspect> {
  const host = { ...info.HostConfig } as ContainerInspect["HostConfig"] & Record<string, unknown>;
  // The compatible document has no CgroupnsMode: Podman's own names it CgroupMode.
  if (!host.CgroupnsMode) host.CgroupnsMode = await cgroupnsMode(info.Id, request);
  // A memory limit with no swap limit recorded (0) is `--memory-swap -1`: the runtime then leaves
  // swap unbounded (Podman records twice the memory limit whenever swap is not said).
  if (Number(host.Memory) > 0 && host.MemorySwap === 0) host.MemorySwap = -1;
  host.SecurityOpt = (host.SecurityOpt ?? []).map((o: string) => {
    const file = /^seccomp[=:](.*)$/.exec(o)?.[1];
    if (!file || path.dirname(file) !== SECCOMP_DIR) return o;
    try {
      return `seccomp=${readFileSync(file, "utf8")}`;
    } catch {
      return o;
    }
  });
  for (const key of ["PidMode", "NetworkMode", "IpcMode"] as const) {
    const id = /^container:([0-9a-f]{64})$/.exec(String(host[key] ?? ""))?.[1];
    if (id) host[key] = `container:${await nameOf(id).catch(() => id)}`;
  }
  // Settings Podman 4.3 applies (they are in the runtime's config) but its inspect never shows:
  // for a container this process created, what it asked for. Each only ever adds a finding.
  const sent = asked.get(info.Id);
  if (sent?.Sysctls && isEmpty(host.Sysctls)) host.Sysctls = sent.Sysctls;
  if (sent?.DeviceCgroupRules && isEmpty(host.DeviceCgroupRules))
    host.DeviceCgroupRules = sent.DeviceCgroupRules;
  const mounts = await inheritedMounts(info, request);
  return {
    ...info,
    HostConfig: host,
    ...(mounts.length ? { Mounts: [...(info.Mounts ?? []), ...mounts] } : {}),
  };
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === "object" && Object.keys(v as object).length === 0);

type Asked = { Sysctls?: Record<string, string>; DeviceCgroupRules?: string[] };

/** What this process asked Podman to apply that its inspect cannot show, by container ID (bounded). */
const asked = new Map<string, Asked>();

/** Kept at create: the sysctls and device cgroup rules the create body (as sent) asked for. */
export function rememberAsked(containerId: string, body: CreateOptions): void {
  const hc = (body.HostConfig ?? {}) as Asked;
  const keep: Asked = {
    ...(isEmpty(hc.Sysctls) ? {} : { Sysctls: { ...hc.Sysctls } }),
    ...(isEmpty(hc.DeviceCgroupRules) ? {} : { DeviceCgroupRules: [...hc.DeviceCgroupRules!] }),
  };
  if (Object.keys(keep).length === 0) return;
  if (asked.size >= 1000) asked.delete(asked.keys().next().value!);
  asked.set(containerId, keep);
}

type Mount = NonNullable<ContainerInspect["Mounts"]>[number];

/**
 * The mounts a container takes from others (VolumesFrom "<id>[:ro|:rw]"), which Podman 4.3 mounts
 * but leaves out of its inspect: the source container's own mounts, read-only when asked so, as
 * the source's inspect records them. A source that is gone is skipped (nothing to read).
 */
async function inheritedMounts(info: ContainerInspect, request: EngineRequest): Promise<Mount[]> {
  const from = (info.HostConfig?.VolumesFrom as string[] | null | undefined) ?? [];
  const have = new Set((info.Mounts ?? []).map((m) => m.Destination));
  const out: Mount[] = [];
  for (const entry of from.slice(0, 64)) {
    const [ref = "", opt = ""] = entry.split(":");
    if (!ref) continue;
    const source = (await request("GET", `/containers/${encodeURIComponent(ref)}/json`).catch(
      () => undefined,
    )) as ContainerInspect | undefined;
    for (const m of source?.Mounts ?? []) {
      if (have.has(m.Destination)) continue;
      have.add(m.Destination);
      out.push({ ...m, RW: m.RW && !opt.split(",").includes("ro") });
    }
  }
  return out;
}

/** A container's cgroup namespace mode never changes: read once per container from Podman's own inspect. */
const cgroupModes = new Map<string, Promise<string>>();

function cgroupnsMode(id: string, request: EngineRequest): Promise<string> {
  let mode = cgroupModes.get(id);
  if (!mode) {
    if (cgroupModes.size >= 1000) cgroupModes.delete(cgroupModes.keys().next().value!);
    mode = request("GET", `${LIBPOD_API}/containers/${encodeURIComponent(id)}/json`).then((doc) =>
      String((doc as { HostConfig?: { CgroupMode?: unknown } }).HostConfig?.CgroupMode ?? ""),
    );
    cgroupModes.set(id, mode);
    mode.catch(() => cgroupModes.delete(id));
  }
  return mode;
}

/** How to get each setting applied on Podman, for a subject whose setting the engine ignored. */
export const PODMAN_REMEDIATION: Partial<Record<HardenedSetting, string>> = {
  "cgroup namespace":
    'Podman\'s Docker-compatible API ignores CgroupnsMode: set `cgroupns = "private"` in the [containers] section of the containers.conf the Podman service reads (CONTAINERS_CONF), or run the subject with `podman run --cgroupns=private`.',
  "tmpfs mounts":
    "Podman mounts writable tmpfs at /run, /tmp and /var/tmp under a read-only root (`--read-only-tmpfs`, on by default and not settable through its Docker-compatible API): allot those paths in the inventory's writableRoots if the subject may write there, or run it with `podman run --read-only --read-only-tmpfs=false`.",
  "IPC namespace":
    "Podman's Docker-compatible API ignores IpcMode \"none\" and mounts a writable /dev/shm: allot /dev/shm in the inventory's writableRoots if the subject may use it, or run it with `podman run --ipc=none`.",
  init: "Podman runs an init only when catatonit is installed and found (init_path in containers.conf): install catatonit.",
};
