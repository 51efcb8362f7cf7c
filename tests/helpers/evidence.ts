// The inspect evidence of a hardened subject, for grader tests: each test overrides only the
// settings it is about, so what a case reacts to is visible at the call. Security settings are
// written in Docker's words and typed by its provider (securityOf), as an inspect reaches the graders.

import type { HostBinding } from "../../src/engine/provider.js";
import { DOCKER_DEFAULTS } from "../../src/engine/providers/docker/dialect.js";
import { securityOf } from "../../src/engine/providers/docker/security.js";
import type { InspectEvidence } from "../../src/suites/containment/inspect.js";

export function hardenedInspect(over: Partial<InspectEvidence> = {}): InspectEvidence {
  return {
    id: "c".repeat(64),
    name: "s",
    running: true,
    user: "65532:65532",
    privileged: false,
    capAdd: [],
    capDrop: ["ALL"],
    security: securityOf(["no-new-privileges:true"]),
    readonlyRootfs: true,
    modes: { pid: "", net: "bridge", ipc: "private", uts: "", cgroup: "private", userns: "" },
    memory: 1 << 28,
    pidsLimit: 128,
    nanoCpus: 1e9,
    cpuQuota: 0,
    devices: [],
    deviceRequests: 0,
    deviceCgroupRules: [],
    maskedPaths: ["/proc/kcore"],
    readonlyPaths: ["/proc/sys"],
    tmpfs: {},
    mounts: [],
    ports: {},
    sysctls: {},
    defaults: DOCKER_DEFAULTS,
    ...over,
  };
}

/** Port maps written as people write bindings ("127.0.0.1:49153", ":::49153"), as the engine seam gives them. */
export function bindingsOf(ports: Record<string, string[]>): Record<string, HostBinding[]> {
  return Object.fromEntries(
    Object.entries(ports).map(([port, bs]) => [
      port,
      bs.map((b) => ({
        address: b.slice(0, b.lastIndexOf(":")),
        port: Number(b.slice(b.lastIndexOf(":") + 1)) || 0,
      })),
    ]),
  );
}
