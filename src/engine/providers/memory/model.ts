// The in-memory engine's containers, and how they read back: the neutral view (everything the
// spec asked for, applied), the listing, and the owned-objects query an engine's listing takes.
import { normalizeRef, OWNER_LABEL, ROLE_LABEL, SUBJECT_LABEL } from "../../ownership.js";
import {
  type ContainerQuery,
  type ContainerView,
  DEFAULT_SECURITY,
  type EngineDefaults,
  type ImageQuery,
  type LaunchSpec,
  type OwnedContainer,
} from "../../provider.js";
import type { Program } from "./script.js";

export interface Container {
  id: string;
  name: string;
  spec: LaunchSpec;
  imageId: string;
  program: Program;
  status: "created" | "running" | "exited";
  /** Frozen (pause): still running, executing nothing. */
  paused?: boolean;
  exitCode: number;
  pid: number;
  stdout: string;
  stderr: string;
  created: number;
  startedAt?: string;
  finishedAt?: string;
  timer?: NodeJS.Timeout;
  exited: { promise: Promise<number>; resolve: (code: number) => void };
}

export function deferred(): Container["exited"] {
  let resolve!: (code: number) => void;
  const promise = new Promise<number>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function imageMatches(image: { id: string; tags: string[] }, ref: string): boolean {
  if (!ref) return false;
  const tag = normalizeRef(ref.includes(":") || ref.includes("@") ? ref : `${ref}:latest`);
  return (
    image.id === ref ||
    image.id === `sha256:${ref}` ||
    image.tags.includes(tag) ||
    (ref.length >= 12 && image.id.slice(7).startsWith(ref))
  );
}

/**
 * The tool's owned-objects query, as an engine reads it: every field given must hold, any one of
 * a list's values; labels each carried (with the value, when given).
 */
export function matches(
  object: { labels: Record<string, string>; tags?: string[]; status?: string; name?: string; id?: string },
  query: ContainerQuery & ImageQuery,
): boolean {
  const labels = [
    ...(query.owner === undefined
      ? []
      : [{ key: OWNER_LABEL, ...(query.owner === true ? {} : { value: query.owner }) }]),
    ...(query.role ? [{ key: ROLE_LABEL, value: query.role }] : []),
    ...(query.subject ? [{ key: SUBJECT_LABEL, value: query.subject }] : []),
    ...(query.labels ?? []),
  ];
  const any = <T>(values: readonly T[] | undefined, test: (v: T) => boolean) =>
    !values?.length || values.some(test);
  const tag = query.tag;
  return (
    labels.every(
      (l) => l.key in object.labels && (l.value === undefined || object.labels[l.key] === l.value),
    ) &&
    any(query.status, (v) => object.status === v) &&
    any(query.names, (v) => object.name?.includes(v) ?? false) &&
    any(query.ids, (v) => object.id?.startsWith(v) ?? false) &&
    (tag === undefined ||
      (object.tags ?? []).some((t) =>
        typeof tag === "string" ? t === normalizeRef(tag) : t.startsWith(tag.prefix),
      ))
  );
}

export function listed(container: Container, images: Map<string, { tags: string[] }>): OwnedContainer {
  return {
    id: container.id,
    names: [container.name],
    state: container.paused ? "paused" : container.status,
    labels: container.spec.labels,
    image: images.get(container.imageId)?.tags[0] ?? container.imageId,
    created: container.created,
    networkMode: container.spec.namespaces.net,
  };
}

/** Everything the spec asked for, applied: this engine ignores nothing. */
export function viewOf(container: Container, defaults: EngineDefaults): ContainerView {
  const s = container.spec;
  const running = container.status === "running";
  return {
    id: container.id,
    name: container.name,
    image: s.image,
    imageId: container.imageId,
    labels: s.labels,
    state: stateOf(container),
    init: s.init,
    defaults,
    running,
    user: s.user ?? "",
    privileged: false,
    capAdd: s.capabilities.add,
    capDrop: s.capabilities.drop,
    security: {
      ...DEFAULT_SECURITY,
      ...(s.noNewPrivileges ? { noNewPrivileges: { value: true, said: "noNewPrivileges: true" } } : {}),
    },
    readonlyRootfs: s.readOnlyRoot,
    modes: {
      pid: s.namespaces.pid ?? "",
      net: s.namespaces.net,
      ipc: s.namespaces.ipc ?? "private",
      uts: s.namespaces.uts ?? "",
      cgroup: s.namespaces.cgroup ?? "private",
      userns: "",
    },
    memory: s.limits.memoryBytes ?? 0,
    memorySwap: s.limits.memorySwapBytes ?? 0,
    pidsLimit: s.limits.pids ?? null,
    nanoCpus: s.limits.nanoCpus ?? 0,
    cpuQuota: 0,
    devices: [],
    deviceRequests: 0,
    deviceCgroupRules: [],
    maskedPaths: [...defaults.maskedPaths],
    readonlyPaths: [...defaults.readonlyPaths],
    tmpfs: { ...s.tmpfs },
    mounts: [],
    sysctls: {},
    ...portsOf(s, running),
  };
}

function stateOf(container: Container): ContainerView["state"] {
  return {
    status: container.paused ? "paused" : container.status,
    running: container.status === "running",
    pid: container.pid,
    exitCode: container.exitCode,
    oomKilled: false,
    ...(container.startedAt ? { startedAt: container.startedAt } : {}),
    ...(container.finishedAt ? { finishedAt: container.finishedAt } : {}),
    restartCount: 0,
  };
}

/** The ports the spec publishes: bound (to a made-up host port) while it runs, as asked in its config. */
function portsOf(s: LaunchSpec, running: boolean): Pick<ContainerView, "ports" | "publishConfig"> {
  const publish = (port: { port: number; hostIp: string }) => `${port.port}/tcp`;
  return {
    ports: running
      ? Object.fromEntries(
          s.publish.map((p) => [publish(p), [{ address: p.hostIp, port: 40000 + (p.port % 1000) }]]),
        )
      : {},
    publishConfig: Object.fromEntries(s.publish.map((p) => [publish(p), [{ address: p.hostIp, port: 0 }]])),
  };
}
