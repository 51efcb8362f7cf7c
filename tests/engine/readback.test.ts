// Read-back of hardened settings: inspect documents as Docker 20.10 and Podman 4.3 (its
// Docker-compatible API) returned them for the same create options, recorded on this VM.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCKER_DEFAULTS } from "../../src/engine/providers/docker/dialect.js";
import { type ContainerInspect, createBody, toView } from "../../src/engine/providers/docker/translate.js";
import { podmanCreateOptions } from "../../src/engine/providers/podman/compat.js";
import { readBack } from "../../src/engine/readback.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { hardenedSubject } from "../containment/faults.js";

const plan = planLaunch({ ...hardenedSubject, init: true }, "img", `da-${"0".repeat(32)}`, "n");
const asked = createBody(plan.spec).HostConfig;
const inspectOf = (hc: Record<string, unknown>) =>
  toView({ Id: "c", HostConfig: hc } as unknown as ContainerInspect, DOCKER_DEFAULTS);

const dockerHc = {
  ReadonlyRootfs: true,
  CapAdd: null,
  CapDrop: ["ALL"],
  SecurityOpt: ["no-new-privileges:true"],
  CgroupnsMode: "private",
  IpcMode: asked?.IpcMode,
  PidMode: "",
  Privileged: false,
  Init: true,
  Tmpfs: asked?.Tmpfs,
  NetworkMode: "bridge",
  PortBindings: { "8080/tcp": [{ HostIp: "127.0.0.1", HostPort: "" }] },
};
const podmanHc = {
  ...dockerHc,
  CapAdd: [],
  CapDrop: ["AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE"],
  SecurityOpt: ["no-new-privileges"],
  CgroupnsMode: "",
  IpcMode: "shareable",
  PidMode: "private",
  Tmpfs: {
    "/run": "rw,rprivate,nosuid,nodev,tmpcopyup",
    "/tmp": "rw,noexec,nosuid,nodev,size=64m,mode=1777,U,rprivate,tmpcopyup",
    "/var/tmp": "rw,rprivate,nosuid,nodev,tmpcopyup",
  },
  PortBindings: { "8080/tcp": [{ HostIp: "127.0.0.1", HostPort: "44005" }] },
};

describe("read-back of hardened settings", () => {
  it("finds nothing missing when the engine applied every setting", () => {
    expect(readBack(plan.spec, inspectOf(dockerHc))).toEqual([]);
  });

  it("names what Podman's compatible API silently did not apply", () => {
    const deviations = readBack(plan.spec, inspectOf(podmanHc));
    expect(deviations.map((d) => d.setting).sort()).toEqual(
      asked?.IpcMode === "none"
        ? ["IPC namespace", "cgroup namespace", "tmpfs mounts"]
        : ["cgroup namespace", "tmpfs mounts"],
    );
    expect(deviations.find((d) => d.setting === "tmpfs mounts")?.got).toBe("added /run, /var/tmp");
    expect(deviations.find((d) => d.setting === "cgroup namespace")).toMatchObject({
      asked: '"private"',
      got: "(engine default)",
    });
  });

  it("catches a capability, a privileged flag or a port the engine added", () => {
    const worse = { ...dockerHc, CapAdd: ["SYS_ADMIN"], Privileged: true, ReadonlyRootfs: false };
    worse.PortBindings = { "8080/tcp": [{ HostIp: "0.0.0.0", HostPort: "" }] };
    expect(
      readBack(plan.spec, inspectOf(worse))
        .map((d) => d.setting)
        .sort(),
    ).toEqual(["added capabilities", "privileged", "published ports", "read-only root"]);
  });
});

describe("create options in Podman's terms", () => {
  it("turns tmpfs uid=/gid= (which Podman 4 refuses) into U, keeping every other option", () => {
    const out = podmanCreateOptions({
      HostConfig: { Tmpfs: { "/tmp": "rw,noexec,size=64m,uid=65532,gid=65532" } },
    });
    expect(out.HostConfig?.Tmpfs).toEqual({ "/tmp": "rw,noexec,size=64m,U" });
  });
});

describe("seccomp profiles in Podman's terms", () => {
  it("writes an inline profile to a file Podman can read and passes its path", () => {
    const profile = '{"defaultAction":"SCMP_ACT_ERRNO"}';
    const out = podmanCreateOptions({
      HostConfig: { SecurityOpt: ["no-new-privileges:true", `seccomp=${profile}`] },
    });
    const [nnp, seccomp] = out.HostConfig?.SecurityOpt ?? [];
    expect(nnp).toBe("no-new-privileges:true");
    expect(seccomp).toMatch(/^seccomp=\/.*\.json$/);
    expect(readFileSync(seccomp!.slice("seccomp=".length), "utf8")).toBe(profile);
    expect(
      podmanCreateOptions({ HostConfig: { SecurityOpt: ["seccomp=unconfined"] } }).HostConfig?.SecurityOpt,
    ).toEqual(["seccomp=unconfined"]);
  });
});
