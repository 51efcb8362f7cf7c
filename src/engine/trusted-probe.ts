// Every trusted probe launches the same way, whatever the engine: the pinned image, labelled as
// the run's own, never gaining privileges, read-only root, every capability dropped but the ones
// the spec names, small limits. Providers launch this spec; none may loosen it.
import type { LaunchSpec, ProbeSpec } from "./provider.js";

export function probeLaunch(p: ProbeSpec): LaunchSpec {
  return {
    image: p.image,
    user: p.user,
    env: p.env,
    entrypoint: ["/bin/sh", "-c", p.script.text, p.script.name],
    command: [],
    labels: p.labels,
    init: false,
    readOnlyRoot: true,
    capabilities: { drop: ["ALL"], add: p.capabilities },
    noNewPrivileges: true,
    namespaces: p.namespaces,
    limits: { memoryBytes: 32 * 1024 * 1024, pids: 64 },
    tmpfs: {},
    publish: [],
  };
}
