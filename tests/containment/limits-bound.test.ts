// containment.resources judges whether each limit bounds anything on the host the engine runs it
// on: a limit at or above what the host has is never reached, so it is no limit.
import { describe, expect, it } from "vitest";
import type { EngineHost } from "../../src/engine/provider.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import { cpusetSize, type InspectEvidence, PID_MAX_LIMIT } from "../../src/suites/containment/inspect.js";
import { hardenedInspect } from "../helpers/evidence.js";

const GIB = 1024 ** 3;
const host: EngineHost = {
  memoryBytes: 8 * GIB,
  cpus: 4,
  cgroupVersion: "2",
  macLayers: ["apparmor"],
};
const target = { subject: "s", writableRoots: ["/tmp"], allowedCapabilities: [], network: "bridge" as const };

function resources(over: Partial<InspectEvidence>) {
  const r = gradeContainment(
    {
      inspect: hardenedInspect({ engineHost: host, ...over }),
      probe: { error: "none" },
      host: { error: "none" },
    },
    target,
  ).find((c) => c.id === "containment.resources")!;
  return { status: r.status, message: r.message };
}

describe("limits that bound on this host", () => {
  it("passes limits below the host's memory, pid_max and CPUs, and says what each bounds", () => {
    const r = resources({ memory: 256 * 1024 ** 2, pidsLimit: 128, nanoCpus: 1e9 });
    expect(r.status).toBe("pass");
    expect(r.message).toBe(
      `limits bound this host: memory 256 MiB of the host's 8.0 GiB; pids 128 (below the kernel's largest pid_max ${PID_MAX_LIMIT}); cpu quota 1 CPUs of the host's 4`,
    );
  });

  it.each([
    ["memory at the host's memory", { memory: 8 * GIB }, "memory 8.0 GiB is at or above the host's 8.0 GiB"],
    ["memory four times the host's", { memory: 32 * GIB }, "memory 32.0 GiB is at or above"],
    ["pids at the kernel's largest pid_max", { pidsLimit: PID_MAX_LIMIT }, "pids 4194304 is at or above"],
    ["a quota of every CPU", { nanoCpus: 4e9 }, "cpu quota 4 CPUs is at or above the host's 4"],
    ["a CpuQuota of every CPU", { nanoCpus: 0, cpuQuota: 800_000, cpuPeriod: 200_000 }, "cpu quota 4 CPUs"],
    [
      "a cpuset of every CPU",
      { nanoCpus: 0, cpusetCpus: "0-3" },
      "cpuset 0-3 holds all 4 of the host's CPUs",
    ],
  ])("fails %s: it bounds nothing", (_name, over, text) => {
    const r = resources(over);
    expect(r.status).toBe("fail");
    expect(r.message).toContain("limits that bound nothing on this host");
    expect(r.message).toContain(text);
  });

  it.each([["0"], ["0,2"], ["1-2"]])("accepts a cpuset %s smaller than the host as the CPU bound", (set) => {
    const r = resources({ nanoCpus: 0, cpusetCpus: set });
    expect(r.status).toBe("pass");
    expect(r.message).toContain(`cpuset ${set}`);
  });

  it("judges pids against the host's own pid_max where the host reference measured it", () => {
    const ev = (pidMax?: number) =>
      gradeContainment(
        {
          inspect: hardenedInspect({ engineHost: host, pidsLimit: 32768 }),
          probe: { error: "none" },
          host: { ns: {}, ...(pidMax ? { pidMax } : {}) },
        },
        target,
      ).find((c) => c.id === "containment.resources")!;
    expect(ev(32768).status).toBe("fail");
    expect(ev(32768).message).toContain("pids 32768 is at or above the host's pid_max 32768");
    expect(ev().status).toBe("pass");
  });

  it("still fails a missing limit first, and says where it does not know the host", () => {
    expect(resources({ nanoCpus: 0 }).message).toBe("no cpu limit");
    const unknown = resources({ engineHost: undefined, memory: 64 * GIB });
    expect(unknown.status).toBe("pass");
    const noHost = resources({ engineHost: undefined, nanoCpus: 0, cpusetCpus: "0" });
    expect(noHost.status).toBe("fail");
    expect(noHost.message).toContain("cannot be compared with the host's CPUs");
  });

  it.each([
    ["0", 1],
    ["0-3", 4],
    ["0-1,4,6-7", 5],
    ["", 0],
    ["x", 0],
  ])("counts cpuset %j as %d CPUs", (list, n) => {
    expect(cpusetSize(list)).toBe(n);
  });
});
