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

export function imageMatches(i: { id: string; tags: string[] }, ref: string): boolean {
  if (!ref) return false;
  const tag = normalizeRef(ref.includes(":") || ref.includes("@") ? ref : `${ref}:latest`);
  return (
    i.id === ref ||
    i.id === `sha256:${ref}` ||
    i.tags.includes(tag) ||
    (ref.length >= 12 && i.id.slice(7).startsWith(ref))
  );
}

/**
 * label ("key" or "key=value"), status, name, id; images: reference (a tag, `*` as a wildcard),
 * label. As an engine reads them: every label must match, any one of several statuses.
 */
export function matches(
  o: { labels: Record<string, string>; tags?: string[]; status?: string; name?: string; id?: string },
  filters: ListFilters,
): boolean {
  return Object.entries(filters).every(([key, values]) =>
    values[key === "status" ? "some" : "every"]((v) => {
      if (key === "label") {
        const [k, val] = v.split(/=(.*)/s) as [string, string | undefined];
        return k in o.labels && (val === undefined || o.labels[k] === val);
      }
      if (key === "status") return o.status === v;
      if (key === "name") return o.name?.includes(v) ?? false;
      if (key === "id") return o.id?.startsWith(v) ?? false;
      if (key === "reference") {
        const re = new RegExp(
          `^${v
            .split("*")
            .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*")}$`,
        );
        return (o.tags ?? []).some((t) => re.test(t));
      }
      return false;
    }),
  );
}

export function listed(c: Container, images: Map<string, { tags: string[] }>): OwnedContainer {
  return {
    id: c.id,
    names: [`/${c.name}`],
    state: c.paused ? "paused" : c.status,
    labels: c.spec.labels,
    image: images.get(c.imageId)?.tags[0] ?? c.imageId,
    created: c.created,
    networkMode: c.spec.namespaces.net,
  };
}

/** Everything the spec asked for, applied: this engine ignores nothing. */
export function viewOf(c: Container, defaults: EngineDefaults): ContainerView {
  const s = c.spec;
  const running = c.status === "running";
  const publish = (port: { port: number; hostIp: string }) => `${port.port}/tcp`;
  return {
    id: c.id,
    name: c.name,
    image: s.image,
    imageId: c.imageId,
    labels: s.labels,
    state: {
      status: c.paused ? "paused" : c.status,
      running,
      pid: c.pid,
      exitCode: c.exitCode,
      oomKilled: false,
      ...(c.startedAt ? { startedAt: c.startedAt } : {}),
      ...(c.finishedAt ? { finishedAt: c.finishedAt } : {}),
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
