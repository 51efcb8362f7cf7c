// A Docker create body as Podman's own container spec (libpod's SpecGenerator, POST
// /libpod/containers/create). Podman's Docker-compatible create drops hardening a subject was
// promised: it ignores CgroupnsMode (the cgroup namespace stays the host's on cgroup v1), IpcMode
// "none", DeviceCgroupRules and MemorySwap -1, and it adds writable tmpfs at /run, /tmp and
// /var/tmp under a read-only root (its --read-only-tmpfs, which that API cannot turn off). Its own
// API takes each as said and adds nothing. Everything else still goes through the compatible API.
// Pure: every setting is translated or refused by name, never dropped.
import { EngineError } from "../../../errors.js";
import { signalNumber } from "../../signals.js";
import type { CreateOptions } from "../docker/translate.js";

type Loose = Record<string, unknown>;
type Namespace = { nsmode: string; value?: string };

/** The libpod API version this transport speaks (Podman 4 and 5 serve it). */
export const LIBPOD_API = "/v4.0.0/libpod";

/** A setting this translation does not carry: refused, naming it, rather than silently dropped. */
function refuse(key: string, why = "this tool does not send it through Podman's own API"): never {
  throw new EngineError(
    `Podman: the create setting ${key} cannot be applied (${why}); leave it out, or launch the container yourself and grade it with check`,
    "engine",
    400,
  );
}

const empty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === false ||
  v === "" ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** A Docker namespace mode as libpod's: host, private, none, shareable, container:<ref>, ns:<path>. */
export function namespace(mode: string, fallback: string): Namespace | undefined {
  if (mode === "") return undefined;
  if (mode.startsWith("container:")) return { nsmode: "container", value: mode.slice("container:".length) };
  if (mode.startsWith("ns:")) return { nsmode: "path", value: mode.slice("ns:".length) };
  if (mode === "default") return { nsmode: fallback };
  return { nsmode: mode };
}

/** "1m", "512k", "2g", "1048576": bytes. */
function sizeBytes(v: string): number {
  const m = /^(\d+)([kmg]?)b?$/i.exec(v.trim());
  if (!m) return refuse("LogConfig max-size", `${JSON.stringify(v)} is not a size`);
  return Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
}

/** SecurityOpt entries in libpod's terms. */
function security(opts: readonly string[]): Loose {
  const out: Loose = {};
  const add = (key: string, v: string) => {
    out[key] = [...((out[key] as string[] | undefined) ?? []), v];
  };
  for (const raw of opts) {
    const m = /^([a-z-]+)(?:[=:](.*))?$/s.exec(raw.trim());
    const [key, value = ""] = m ? [m[1]!, m[2] ?? ""] : [raw, ""];
    if (key === "no-new-privileges")
      out.no_new_privileges = !["false", "0", "f", "no"].includes(value.toLowerCase());
    else if (key === "seccomp") out.seccomp_profile_path = value;
    else if (key === "apparmor") out.apparmor_profile = value;
    else if (key === "label") add("selinux_opts", value);
    else if (key === "systempaths" && value === "unconfined") add("unmask", "ALL");
    else if (key === "mask" || key === "unmask") for (const p of value.split(":")) add(key, p);
    else refuse(`SecurityOpt ${JSON.stringify(raw)}`);
  }
  // Podman's inspect shows a container's seccomp, AppArmor and SELinux options only from these
  // annotations, which its own CLI writes beside the options (pkg/specgenutil): without them a
  // container created here reads as if launched with none (`label=type:spc_t` graded a pass).
  const annotations: Record<string, string> = {};
  if (typeof out.seccomp_profile_path === "string")
    annotations["io.podman.annotations.seccomp"] = out.seccomp_profile_path;
  if (typeof out.apparmor_profile === "string")
    annotations["io.podman.annotations.apparmor"] = out.apparmor_profile;
  if (Array.isArray(out.selinux_opts))
    annotations["io.podman.annotations.label"] = out.selinux_opts.join(",label=");
  if (Object.keys(annotations).length) out.annotations = annotations;
  return out;
}

/** Binds ("src:dst[:opts]"), Mounts and Tmpfs as libpod's mounts and named volumes. */
function mounts(hc: Loose): { mounts: Loose[]; volumes: Loose[] } {
  const out = { mounts: [] as Loose[], volumes: [] as Loose[] };
  const bindOrVolume = (source: string, dest: string, options: string[]) => {
    if (source.startsWith("/")) out.mounts.push({ destination: dest, type: "bind", source, options });
    else out.volumes.push({ Name: source, Dest: dest, Options: options });
  };
  for (const b of (hc.Binds as string[] | undefined) ?? []) {
    const [source = "", dest = "", opts = ""] = b.split(":");
    if (!dest) refuse(`Binds ${JSON.stringify(b)}`, "an anonymous volume needs a destination");
    const options = opts.split(",").filter(Boolean);
    bindOrVolume(source, dest, source.startsWith("/") ? ["rbind", ...options] : options);
  }
  for (const m of (hc.Mounts as Loose[] | undefined) ?? []) {
    const [type, source, target] = [String(m.Type), String(m.Source ?? ""), String(m.Target)];
    const ro = m.ReadOnly === true ? ["ro"] : [];
    const propagation = (m.BindOptions as Loose | undefined)?.Propagation;
    if (type === "bind")
      bindOrVolume(source, target, ["rbind", ...ro, ...(propagation ? [String(propagation)] : [])]);
    else if (type === "volume" && source) bindOrVolume(source, target, ro);
    else if (type === "tmpfs") tmpfs(out.mounts, target, ro.join(","));
    else refuse(`Mounts type ${type}${source ? "" : " without a source"}`);
  }
  for (const [dest, opts] of Object.entries((hc.Tmpfs as Record<string, string> | undefined) ?? {}))
    tmpfs(out.mounts, dest, opts);
  return out;
}

function tmpfs(into: Loose[], destination: string, options: string): void {
  into.push({ destination, type: "tmpfs", source: "tmpfs", options: options.split(",").filter(Boolean) });
}

/** Memory, swap, pids and CPU as the OCI resources libpod takes. */
function resources(hc: Loose): Loose | undefined {
  const r: Record<string, Loose> = {};
  const set = (group: string, key: string, v: unknown) => {
    if (typeof v === "number" && v !== 0) r[group] = { ...r[group], [key]: v };
  };
  set("memory", "limit", hc.Memory);
  // Podman's own API refuses a swap limit of -1 ("unlimited" to Docker), and unsaid, Podman 4.3
  // bounds swap at twice the memory limit (measured in the runtime's config; its inspect says so):
  // the subject gets a bounded swap, stricter than asked, and its inspect is graded as it is.
  if (hc.MemorySwap !== -1) set("memory", "swap", hc.MemorySwap);
  // Docker's PidsLimit 0 is "unlimited", as the runtime reads an OCI limit of 0: passed as said.
  if (typeof hc.PidsLimit === "number") r.pids = { limit: hc.PidsLimit };
  const nano = typeof hc.NanoCpus === "number" ? hc.NanoCpus : 0;
  if (nano > 0) r.cpu = { quota: Math.round(nano / 10_000), period: 100_000 };
  set("cpu", "quota", hc.CpuQuota);
  set("cpu", "period", hc.CpuPeriod);
  set("cpu", "shares", hc.CpuShares);
  if (typeof hc.CpusetCpus === "string" && hc.CpusetCpus) r.cpu = { ...r.cpu, cpus: hc.CpusetCpus };
  if (typeof hc.CpusetMems === "string" && hc.CpusetMems) r.cpu = { ...r.cpu, mems: hc.CpusetMems };
  return Object.keys(r).length ? r : undefined;
}

/** "c 10:229 rwm" as an OCI device rule. */
function deviceRule(rule: string): Loose {
  const m = /^([abc])\s+(\d+|\*):(\d+|\*)\s+([rwm]+)$/.exec(rule.trim());
  if (!m) return refuse(`DeviceCgroupRules ${JSON.stringify(rule)}`, "not a device cgroup rule");
  const num = (v: string) => (v === "*" ? undefined : Number(v));
  return { allow: true, type: m[1], major: num(m[2]!), minor: num(m[3]!), access: m[4] };
}

const portOf = (key: string) => {
  const [port, protocol = "tcp"] = key.split("/");
  return { port: Number(port), protocol };
};

/** The HostConfig keys translated below; any other with a value is refused by name. */
const HOST_KEYS = new Set(
  (
    "Init ReadonlyRootfs CapDrop CapAdd SecurityOpt PidMode IpcMode UTSMode CgroupnsMode NetworkMode " +
    "UsernsMode PidsLimit Memory MemorySwap NanoCpus CpuQuota CpuPeriod CpuShares CpusetCpus CpusetMems " +
    "Tmpfs Binds Mounts VolumesFrom Devices DeviceCgroupRules GroupAdd Sysctls MaskedPaths ReadonlyPaths " +
    "PublishAllPorts PortBindings Privileged LogConfig RestartPolicy AutoRemove Ulimits ExtraHosts ShmSize"
  ).split(" "),
);
const CONFIG_KEYS = new Set(
  (
    "name Image User Env Entrypoint Cmd Labels ExposedPorts StopSignal StopTimeout WorkingDir Hostname " +
    "Healthcheck NetworkDisabled HostConfig AttachStdin AttachStdout AttachStderr StdinOnce"
  ).split(" "),
);

/** The create body as libpod's SpecGenerator; throws an EngineError naming a setting it cannot carry. */
export function libpodSpec(body: CreateOptions): Loose {
  const b = body as unknown as Loose;
  const hc = (b.HostConfig ?? {}) as Loose;
  for (const [k, v] of Object.entries(b)) if (!CONFIG_KEYS.has(k) && !empty(v)) refuse(k);
  for (const [k, v] of Object.entries(hc)) if (!HOST_KEYS.has(k) && !empty(v)) refuse(`HostConfig.${k}`);
  const net =
    b.NetworkDisabled === true ? { nsmode: "none" } : namespace(String(hc.NetworkMode ?? ""), "bridge");
  return { ...processFields(b), ...securityFields(hc), ...nsFields(hc, net), ...hostFields(hc) };
}

/** What runs, as whom, and how it is stopped and checked. */
function processFields(b: Loose): Loose {
  const stop = typeof b.StopSignal === "string" ? signalNumber(b.StopSignal) : undefined;
  // A number past the signals (an image's STOPSIGNAL 100, which builds take) is left to the engine's
  // default: no signal can carry it, and lifecycle.stop judges the image's value without sending it.
  if (typeof b.StopSignal === "string" && stop === undefined && !/^\s*\d+\s*$/.test(b.StopSignal))
    refuse(`StopSignal ${b.StopSignal}`, "not a signal");
  const env = ((b.Env as string[] | undefined) ?? []).map((e) => [
    e.split("=")[0],
    e.slice(e.indexOf("=") + 1),
  ]);
  const exposed = Object.keys((b.ExposedPorts as Loose | undefined) ?? {}).map(portOf);
  return {
    image: b.Image,
    ...(b.name ? { name: b.name } : {}),
    ...(b.User !== undefined ? { user: b.User } : {}),
    env: Object.fromEntries(env),
    ...(Array.isArray(b.Entrypoint) ? { entrypoint: b.Entrypoint } : {}),
    ...(Array.isArray(b.Cmd) ? { command: b.Cmd } : {}),
    labels: b.Labels ?? {},
    ...(exposed.length ? { expose: Object.fromEntries(exposed.map((p) => [p.port, p.protocol])) } : {}),
    ...(stop !== undefined ? { stop_signal: stop } : {}),
    ...(typeof b.StopTimeout === "number" ? { stop_timeout: b.StopTimeout } : {}),
    ...(b.WorkingDir ? { work_dir: b.WorkingDir, create_working_dir: true } : {}),
    ...(b.Hostname ? { hostname: b.Hostname } : {}),
    ...(b.Healthcheck ? { healthconfig: b.Healthcheck } : {}),
  };
}

/** Privileges: capabilities, no-new-privileges, seccomp, MAC labels, masks, a read-only root. */
function securityFields(hc: Loose): Loose {
  const unmaskAll =
    (Array.isArray(hc.MaskedPaths) && hc.MaskedPaths.length === 0) ||
    (Array.isArray(hc.ReadonlyPaths) && hc.ReadonlyPaths.length === 0);
  const sec = security((hc.SecurityOpt as string[] | undefined) ?? []);
  if (unmaskAll) sec.unmask = ["ALL"];
  else if (Array.isArray(hc.MaskedPaths)) sec.mask = [...((sec.mask as string[]) ?? []), ...hc.MaskedPaths];
  return {
    init: hc.Init === true,
    read_only_filesystem: hc.ReadonlyRootfs === true,
    cap_drop: hc.CapDrop ?? [],
    cap_add: hc.CapAdd ?? [],
    privileged: hc.Privileged === true,
    ...sec,
  };
}

/** Limits, mounts, devices, ports, logging and restart. */
function hostFields(hc: Loose): Loose {
  const log = hc.LogConfig as { Type?: string; Config?: Record<string, string> } | undefined;
  const maxSize = log?.Config?.["max-size"];
  const limits = resources(hc);
  const bindings = Object.entries((hc.PortBindings as Record<string, Loose[] | null> | undefined) ?? {});
  return {
    ...(limits ? { resource_limits: limits } : {}),
    ...mounts(hc),
    ...(hc.VolumesFrom ? { volumes_from: hc.VolumesFrom } : {}),
    // Image VOLUMEs as anonymous volumes, as the compatible API and `docker run` make them.
    image_volume_mode: "anonymous",
    devices: ((hc.Devices as Loose[] | undefined) ?? []).map((d) => ({
      path: `${d.PathOnHost}:${d.PathInContainer}:${d.CgroupPermissions ?? "rwm"}`,
    })),
    device_cgroup_rule: ((hc.DeviceCgroupRules as string[] | undefined) ?? []).map(deviceRule),
    ...(hc.GroupAdd ? { groups: hc.GroupAdd } : {}),
    ...(hc.Sysctls ? { sysctl: hc.Sysctls } : {}),
    ...(hc.PublishAllPorts ? { publish_image_ports: true } : {}),
    portmappings: bindings.flatMap(([key, list]) =>
      (list ?? []).map((p) => ({
        host_ip: p.HostIp ?? "",
        container_port: portOf(key).port,
        host_port: Number(p.HostPort || 0),
        protocol: portOf(key).protocol,
      })),
    ),
    ...(log?.Type
      ? { log_configuration: { driver: log.Type, ...(maxSize ? { size: sizeBytes(maxSize) } : {}) } }
      : {}),
    restart_policy: (hc.RestartPolicy as { Name?: string } | undefined)?.Name || "no",
    ...(hc.AutoRemove ? { remove: true } : {}),
    ...(hc.ShmSize ? { shm_size: hc.ShmSize } : {}),
    ...(hc.ExtraHosts ? { hostadd: hc.ExtraHosts } : {}),
    ...(Array.isArray(hc.Ulimits)
      ? {
          r_limits: (hc.Ulimits as Loose[]).map((u) => ({
            type: `RLIMIT_${String(u.Name).toUpperCase()}`,
            hard: u.Hard,
            soft: u.Soft,
          })),
        }
      : {}),
  };
}

/** The namespaces, each as said (absent: the default of the service's containers.conf). */
function nsFields(hc: Loose, net: Namespace | undefined): Loose {
  const out: Loose = {};
  const put = (key: string, mode: unknown, fallback: string) => {
    const ns = namespace(String(mode ?? ""), fallback);
    if (ns) out[key] = ns;
  };
  put("pidns", hc.PidMode, "private");
  put("ipcns", hc.IpcMode, "shareable");
  put("utsns", hc.UTSMode, "private");
  put("cgroupns", hc.CgroupnsMode, "private");
  put("userns", hc.UsernsMode, "host");
  if (net) out.netns = net;
  return out;
}
