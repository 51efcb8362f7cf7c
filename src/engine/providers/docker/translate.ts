// The Docker Engine API's terms for the neutral types: a launch spec as a create body, an inspect
// document as the neutral view. Pure; a dialect (Podman's) adjusts both around these.
import type Docker from "dockerode";
import type {
  ContainerView,
  EngineDefaults,
  EngineHost,
  HostBinding,
  ImageHealthcheck,
  ImageView,
  LaunchSpec,
} from "../../provider.js";
import { macLayersOf, securityOf, securityOpt } from "./security.js";

export type ContainerInspect = Docker.ContainerInspectInfo;
export type ImageInspect = Docker.ImageInspectInfo;
export type CreateOptions = Docker.ContainerCreateOptions;

/** The create body for `spec`: every setting of the spec, nothing the spec does not say. */
export function createBody(spec: LaunchSpec): CreateOptions {
  const ports = spec.publish.map((p) => [`${p.port}/tcp`, p.hostIp] as const);
  const ns = spec.namespaces;
  const add = spec.capabilities.add;
  return {
    ...(spec.name ? { name: spec.name } : {}),
    Image: spec.image,
    ...(spec.user !== undefined ? { User: spec.user } : {}),
    Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
    ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
    ...(spec.command ? { Cmd: spec.command } : {}),
    Labels: spec.labels,
    ExposedPorts: ports.length ? Object.fromEntries(ports.map(([p]) => [p, {}])) : undefined,
    ...(spec.stop ? { StopSignal: spec.stop.signal, StopTimeout: spec.stop.timeoutSec } : {}),
    HostConfig: {
      Init: spec.init,
      ReadonlyRootfs: spec.readOnlyRoot,
      CapDrop: spec.capabilities.drop,
      CapAdd: add.length > 0 ? add : undefined,
      SecurityOpt: securityOpt(spec.noNewPrivileges),
      ...(ns.pid && ns.pid !== "private" ? { PidMode: ns.pid } : {}),
      ...(ns.ipc ? { IpcMode: ns.ipc } : {}),
      ...(ns.uts ? { UTSMode: ns.uts } : {}),
      ...(ns.cgroup ? { CgroupnsMode: ns.cgroup } : {}),
      ...(spec.limits.pids !== undefined ? { PidsLimit: spec.limits.pids } : {}),
      ...(spec.limits.memoryBytes !== undefined ? { Memory: spec.limits.memoryBytes } : {}),
      ...(spec.limits.memorySwapBytes !== undefined ? { MemorySwap: spec.limits.memorySwapBytes } : {}),
      ...(spec.limits.nanoCpus !== undefined ? { NanoCpus: spec.limits.nanoCpus } : {}),
      Tmpfs: spec.tmpfs,
      NetworkMode: ns.net,
      PortBindings: ports.length
        ? Object.fromEntries(ports.map(([p, ip]) => [p, [{ HostIp: ip, HostPort: "" }]]))
        : undefined,
      LogConfig: spec.logRotation
        ? {
            Type: "json-file",
            Config: { "max-size": spec.logRotation.maxSize, "max-file": String(spec.logRotation.maxFiles) },
          }
        : { Type: "json-file", Config: {} },
      RestartPolicy: { Name: "no" },
    } as CreateOptions["HostConfig"],
  };
}

type Loose = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");
const num = (v: unknown) => (typeof v === "number" ? v : 0);
const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** Docker's port map ("8080/tcp" -> [{ HostIp, HostPort }]) as neutral bindings. */
function bindings(v: unknown): Record<string, HostBinding[]> {
  const out: Record<string, HostBinding[]> = {};
  for (const [port, b] of Object.entries((v ?? {}) as Record<string, Loose[] | null>))
    if (b) out[port] = b.map((x) => ({ address: str(x.HostIp), port: Number(str(x.HostPort)) || 0 }));
  return out;
}

/** The neutral view of an inspect document; `defaults` are the engine's own (its facts). */
export function toView(doc: ContainerInspect, defaults: EngineDefaults): ContainerView {
  const hc = (doc.HostConfig ?? {}) as Loose;
  const cfg = (doc.Config ?? {}) as Loose;
  return {
    id: doc.Id,
    name: (doc.Name ?? "").replace(/^\//, ""),
    image: str(cfg.Image),
    ...(doc.Image ? { imageId: doc.Image } : {}),
    labels: (cfg.Labels as Record<string, string> | null) ?? {},
    state: stateOf(doc),
    init: hc.Init === true,
    defaults,
    running: doc.State?.Running === true,
    user: str(cfg.User),
    privileged: hc.Privileged === true,
    capAdd: list(hc.CapAdd),
    capDrop: list(hc.CapDrop),
    security: securityOf(list(hc.SecurityOpt)),
    readonlyRootfs: hc.ReadonlyRootfs === true,
    modes: {
      pid: str(hc.PidMode),
      net: str(hc.NetworkMode),
      ipc: str(hc.IpcMode),
      uts: str(hc.UTSMode),
      cgroup: str(hc.CgroupnsMode),
      userns: str(hc.UsernsMode),
    },
    ...limitsOf(hc),
    ...devicesOf(hc),
    maskedPaths: Array.isArray(hc.MaskedPaths) ? list(hc.MaskedPaths) : null,
    readonlyPaths: Array.isArray(hc.ReadonlyPaths) ? list(hc.ReadonlyPaths) : null,
    tmpfs: (hc.Tmpfs as Record<string, string> | undefined) ?? {},
    mounts: (doc.Mounts ?? []).map((m) => ({
      type: String(m.Type ?? ""),
      source: String(m.Source ?? ""),
      destination: String(m.Destination ?? ""),
      rw: m.RW === true,
      ...(m.Name ? { name: String(m.Name) } : {}),
      ...(m.Driver ? { driver: String(m.Driver) } : {}),
      ...(m.Propagation ? { propagation: String(m.Propagation) } : {}),
      ...((m as { VolumeOptions?: Record<string, string> }).VolumeOptions
        ? { volumeOptions: (m as { VolumeOptions?: Record<string, string> }).VolumeOptions }
        : {}),
    })),
    ...(typeof (doc as { AppArmorProfile?: unknown }).AppArmorProfile === "string"
      ? { appArmorProfile: (doc as { AppArmorProfile: string }).AppArmorProfile }
      : {}),
    ...dataRootOf(doc),
    sysctls: (hc.Sysctls as Record<string, string> | undefined) ?? {},
    ports: bindings(doc.NetworkSettings?.Ports),
    publishConfig: bindings(hc.PortBindings),
  };
}

function limitsOf(hc: Loose) {
  return {
    memory: num(hc.Memory),
    memorySwap: num(hc.MemorySwap),
    pidsLimit: typeof hc.PidsLimit === "number" ? hc.PidsLimit : null,
    nanoCpus: num(hc.NanoCpus),
    cpuQuota: num(hc.CpuQuota),
    cpuPeriod: num(hc.CpuPeriod),
    cpusetCpus: str(hc.CpusetCpus),
  };
}

function devicesOf(hc: Loose) {
  return {
    devices: Array.isArray(hc.Devices)
      ? (hc.Devices as Loose[]).map((d) => `${str(d.PathOnHost)}:${str(d.PathInContainer)}`)
      : [],
    deviceRequests: Array.isArray(hc.DeviceRequests) ? hc.DeviceRequests.length : 0,
    deviceCgroupRules: list(hc.DeviceCgroupRules),
  };
}

function stateOf(doc: ContainerInspect): ContainerView["state"] {
  const s = (doc.State ?? {}) as Partial<ContainerInspect["State"]> & {
    Health?: { Status: string; Log?: { Output?: string }[] };
  };
  const output = s.Health?.Log?.at(-1)?.Output?.trim();
  return {
    status: str(s.Status),
    running: s.Running === true,
    pid: num(s.Pid),
    exitCode: num(s.ExitCode),
    oomKilled: s.OOMKilled === true,
    ...(s.Error ? { error: s.Error } : {}),
    ...(s.StartedAt ? { startedAt: s.StartedAt } : {}),
    ...(s.FinishedAt ? { finishedAt: s.FinishedAt } : {}),
    restartCount: num(doc.RestartCount),
    ...(s.Health ? { health: { status: s.Health.Status, ...(output ? { lastOutput: output } : {}) } } : {}),
  };
}

/** <data-root>/containers/<id>/resolv.conf -> <data-root>; nothing when the engine does not say. */
function dataRootOf(doc: ContainerInspect): { dataRoot?: string } {
  for (const p of [doc.ResolvConfPath, doc.HostnamePath, doc.HostsPath]) {
    const i = typeof p === "string" ? p.lastIndexOf("/containers/") : -1;
    if (i > 0) return { dataRoot: p.slice(0, i) };
  }
  return {};
}

export function imageView(info: ImageInspect, tags: (tag: string) => string): ImageView {
  const cfg = (info.Config ?? {}) as Loose;
  const view: ImageView = {
    id: info.Id,
    parentId: info.Parent ?? "",
    tags: (info.RepoTags ?? []).filter((t) => t !== "<none>:<none>").map(tags),
    repoDigests: info.RepoDigests ?? [],
    labels: (cfg.Labels as Record<string, string> | null) ?? {},
    created: Math.floor(Date.parse(info.Created) / 1000) || 0,
    user: str(cfg.User),
    volumes: Object.keys((cfg.Volumes as Record<string, unknown> | null) ?? {}),
    entrypoint: list(cfg.Entrypoint),
    cmd: list(cfg.Cmd),
    workingDir: str(cfg.WorkingDir),
    // Names only: a value in the image's ENV may be a credential someone baked in.
    envNames: list(cfg.Env).map((e) => e.split("=")[0]!),
    stopSignal: str(cfg.StopSignal),
    exposedPorts: Object.keys((cfg.ExposedPorts as Record<string, unknown> | null) ?? {}),
  };
  const healthcheck = healthcheckOf(cfg.Healthcheck as Loose | undefined);
  return healthcheck ? { ...view, healthcheck } : view;
}

const NS_PER_MS = 1_000_000;

/** The image's HEALTHCHECK in the engine's terms (durations in ns, 0 for the default). */
function healthcheckOf(h: Loose | undefined): ImageHealthcheck | undefined {
  const test = Array.isArray(h?.Test) ? (h.Test as string[]) : [];
  const [kind, ...rest] = test;
  const argv =
    kind === "CMD" ? rest : kind === "CMD-SHELL" && rest[0] !== undefined ? ["/bin/sh", "-c", rest[0]] : [];
  if (!argv.length) return undefined; // NONE, an empty test, or inherited ([] in the config)
  return {
    test,
    argv,
    timeoutMs: Math.round(Number(h?.Timeout ?? 0) / NS_PER_MS) || 30_000,
    retries: Number(h?.Retries ?? 0) || 3,
    startPeriodMs: Math.round(Number(h?.StartPeriod ?? 0) / NS_PER_MS),
  };
}

/** The engine's /info as the host its containers run on. */
export function engineHostOf(info: Loose): EngineHost {
  return {
    memoryBytes: num(info.MemTotal),
    cpus: num(info.NCPU),
    cgroupVersion: str(info.CgroupVersion),
    macLayers: macLayersOf(list(info.SecurityOptions)),
    ...(info.KernelVersion ? { kernelVersion: str(info.KernelVersion) } : {}),
    ...(containerdStore(info) ? { imageStore: "containerd" as const } : {}),
  };
}

/** Docker's containerd image store says so in its storage driver's status. */
function containerdStore(info: Loose): boolean {
  const rows: unknown[] = Array.isArray(info.DriverStatus) ? info.DriverStatus : [];
  return rows.some(
    (row) => Array.isArray(row) && row[0] === "driver-type" && row[1] === "io.containerd.snapshotter.v1",
  );
}
