// Podman's own create (libpod's SpecGenerator) from the Docker create body: every hardening
// setting its Docker-compatible create drops is said in Podman's terms, nothing is added, and a
// setting the translation cannot carry is refused by name. The real-engine proof is the Podman
// leg (tests/docker/contract.test.ts, the fault and realistic matrices on Podman).
import { describe, expect, it } from "vitest";
import type { ContainerInspect } from "../../src/engine/providers/docker/translate.js";
import { createBody } from "../../src/engine/providers/docker/translate.js";
import { podmanCreateOptions, podmanInspect } from "../../src/engine/providers/podman/compat.js";
import { libpodSpec, namespace } from "../../src/engine/providers/podman/libpod.js";
import { EngineError } from "../../src/errors.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";

const subject = (extra: Record<string, unknown> = {}) =>
  subjectSchema.parse({ name: "svc", image: "example/svc:1", user: "65532:65532", ...extra });
const hardened = (extra: Record<string, unknown> = {}, image = {}) =>
  podmanCreateOptions(createBody(planLaunch(subject(extra), "img", "da-x", "c1", image).spec));

describe("the hardened launch in Podman's own terms", () => {
  it("keeps the cgroup namespace private, IPC none, the root read-only with only the allotted tmpfs", () => {
    const s = libpodSpec(hardened({ writableRoots: ["/tmp"] }));
    expect(s.cgroupns).toEqual({ nsmode: "private" });
    expect(s.ipcns).toEqual({ nsmode: "none" });
    expect(s.read_only_filesystem).toBe(true);
    expect(s.no_new_privileges).toBe(true);
    expect(s.cap_drop).toEqual(["ALL"]);
    expect(s.user).toBe("65532:65532");
    expect(s.mounts).toEqual([
      {
        destination: "/tmp",
        type: "tmpfs",
        source: "tmpfs",
        options: ["rw", "noexec", "nosuid", "nodev", "size=64m", "mode=1777", "U"],
      },
    ]);
    expect(s.resource_limits).toEqual({
      memory: { limit: 256 * 1024 ** 2, swap: 256 * 1024 ** 2 },
      pids: { limit: 128 },
      cpu: { quota: 100_000, period: 100_000 },
    });
    expect(s.portmappings).toEqual([
      { host_ip: "127.0.0.1", container_port: 8080, host_port: 0, protocol: "tcp" },
    ]);
    expect(s.netns).toEqual({ nsmode: "bridge" });
    expect(s.stop_signal).toBe(15);
    expect(s.log_configuration).toEqual({ driver: "json-file", size: 1024 * 1024 });
  });

  it("sends the image's stop signal as the number Podman's API takes", () => {
    expect(libpodSpec(hardened({}, { stopSignal: "SIGINT" })).stop_signal).toBe(2);
    expect(libpodSpec(hardened({}, { stopSignal: "RTMIN+3" })).stop_signal).toBe(37);
  });

  it("carries the deviations the compatible create dropped: device rules, empty masks, unlimited swap", () => {
    const s = libpodSpec({
      Image: "x",
      HostConfig: {
        DeviceCgroupRules: ["c 10:229 rwm", "b *:* r"],
        MaskedPaths: [],
        Memory: 1 << 26,
        MemorySwap: -1,
      },
    } as never);
    expect(s.device_cgroup_rule).toEqual([
      { allow: true, type: "c", major: 10, minor: 229, access: "rwm" },
      { allow: true, type: "b", major: undefined, minor: undefined, access: "r" },
    ]);
    expect(s.unmask).toEqual(["ALL"]);
    // Podman's API refuses swap -1; left unsaid the runtime leaves swap unbounded, as -1 asks.
    expect(s.resource_limits).toEqual({ memory: { limit: 1 << 26 } });
  });

  it.each([
    ["host", { nsmode: "host" }],
    ["container:abc", { nsmode: "container", value: "abc" }],
    ["ns:/proc/1/ns/net", { nsmode: "path", value: "/proc/1/ns/net" }],
    ["none", { nsmode: "none" }],
  ])("reads the namespace mode %s as %j", (mode, ns) => {
    expect(namespace(mode, "private")).toEqual(ns);
  });

  it("binds, named volumes and security options as Podman names them", () => {
    const s = libpodSpec({
      Image: "x",
      HostConfig: {
        Binds: ["/srv/a:/a:ro", "vol:/v"],
        Mounts: [{ Type: "volume", Source: "data", Target: "/data", ReadOnly: true }],
        SecurityOpt: [
          "no-new-privileges:true",
          "seccomp=/tmp/p.json",
          "apparmor=unconfined",
          "label=type:spc_t",
        ],
      },
    } as never);
    expect(s.mounts).toEqual([
      { destination: "/a", type: "bind", source: "/srv/a", options: ["rbind", "ro"] },
    ]);
    expect(s.volumes).toEqual([
      { Name: "vol", Dest: "/v", Options: [] },
      { Name: "data", Dest: "/data", Options: ["ro"] },
    ]);
    expect(s).toMatchObject({
      no_new_privileges: true,
      seccomp_profile_path: "/tmp/p.json",
      apparmor_profile: "unconfined",
      selinux_opts: ["type:spc_t"],
      // Podman's inspect reads these options back from its CLI's annotations only.
      annotations: {
        "io.podman.annotations.seccomp": "/tmp/p.json",
        "io.podman.annotations.apparmor": "unconfined",
        "io.podman.annotations.label": "type:spc_t",
      },
    });
  });

  it.each([
    [{ Image: "x", HostConfig: { DeviceRequests: [{ Count: 1 }] } }, "HostConfig.DeviceRequests"],
    [{ Image: "x", HostConfig: { OomScoreAdj: 500 } }, "HostConfig.OomScoreAdj"],
    [{ Image: "x", Tty: true }, "Tty"],
    [{ Image: "x", HostConfig: { SecurityOpt: ["credentialspec=x"] } }, 'SecurityOpt "credentialspec=x"'],
    [{ Image: "x", StopSignal: "SIGNOPE" }, "StopSignal SIGNOPE"],
  ])("refuses a setting it cannot carry, naming it: %j", (body, name) => {
    let err: unknown;
    try {
      libpodSpec(body as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as Error).message).toContain(`the create setting ${name} cannot be applied`);
  });
});

describe("Podman's inspect in Docker's terms", () => {
  const doc = (host: Record<string, unknown>) =>
    ({ Id: `${Math.random()}`.slice(2), HostConfig: host }) as unknown as ContainerInspect;
  const request = async () => ({ HostConfig: { CgroupMode: "private" } });

  it("reads the cgroup namespace mode from Podman's own inspect", async () => {
    const read = await podmanInspect(doc({}), async (id) => id, request);
    expect((read.HostConfig as { CgroupnsMode?: string }).CgroupnsMode).toBe("private");
  });

  it("reads a memory limit with no swap limit recorded as unlimited swap (-1)", async () => {
    const read = await podmanInspect(doc({ Memory: 1 << 26, MemorySwap: 0 }), async (id) => id, request);
    expect(read.HostConfig.MemorySwap).toBe(-1);
    const bounded = await podmanInspect(
      doc({ Memory: 1 << 26, MemorySwap: 1 << 27 }),
      async (id) => id,
      request,
    );
    expect(bounded.HostConfig.MemorySwap).toBe(1 << 27);
  });
});
