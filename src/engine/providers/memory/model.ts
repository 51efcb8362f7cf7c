// The in-memory engine's containers, and how they read back: the neutral view (everything the
// spec asked for, applied), the listing, and the filters an engine's listing takes.
import { normalizeRef } from "../../ownership.js";
import type {
  ContainerView,
  EngineDefaults,
  LaunchSpec,
  ListFilters,
  OwnedContainer,
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
 * label ("key" or "key=value"), status, name, id; images: reference (a tag, `*` as a wildcard),
 * label. As an engine reads them: every label must match, any one of several statuses.
 */
export function matches(
  object: { labels: Record<string, string>; tags?: string[]; status?: string; name?: string; id?: string },
  filters: ListFilters,
): boolean {
  return Object.entries(filters).every(([key, values]) =>
    values[key === "status" ? "some" : "every"]((v) => {
      if (key === "label") {
        const [k, val] = v.split(/=(.*)/s) as [string, string | undefined];
        return k in object.labels && (val === undefined || object.labels[k] === val);
      }
      if (key === "status") return object.status === v;
      if (key === "name") return object.name?.includes(v) ?? false;
      if (key === "id") return object.id?.startsWith(v) ?? false;
      if (key === "reference") {
        const re = new RegExp(
          `^${v
            .split("*")
            .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*")}$`,
        );
        return (object.tags ?? []).some((t) => re.test(t));
      }
      return false;
    }),
  );
}

export function listed(container: Container, images: Map<string, { tags: string[] }>): OwnedContainer {
  return {
    id: container.id,
    names: [`/${container.name}`],
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
  const publish = (port: { port: number; hostIp: string }) => `${port.port}/tcp`;
  return {
    id: container.id,
    name: container.name,
    image: s.image,
    imageId: container.imageId,
    labels: s.labels,
    state: {
      status: container.paused ? "paused" : container.status,
      running,
      pid: container.pid,
      exitCode: container.exitCode,
      oomKilled: false,
      ...(container.startedAt ? { startedAt: container.startedAt } : {}),
      ...(container.finishedAt ? { finishedAt: container.finishedAt } : {}),
      restartCount: 0,
    },
    init: s.init,
    defaults,
    running,
    user: s.user ?? "",
    privileged: false,
    capAdd: s.capabilities.add,
    capDrop: s.capabilities.drop,
    securityOpt: s.noNewPrivileges ? ["no-new-privileges:true"] : [],
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
    ports: running
      ? Object.fromEntries(
          s.publish.map((p) => [publish(p), [{ address: p.hostIp, port: 40000 + (p.port % 1000) }]]),
        )
      : {},
    publishConfig: Object.fromEntries(s.publish.map((p) => [publish(p), [{ address: p.hostIp, port: 0 }]])),
  };
}
