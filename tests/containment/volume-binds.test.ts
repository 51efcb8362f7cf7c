// A local volume that binds a host directory is judged as the bind it is, from what the engine
// records of the mount (its driver options), whatever filesystem holds the directory: on a tmpfs
// (a runner's /run, /dev/shm) the kernel shows it as one more tmpfs.
import { describe, expect, it } from "vitest";
import type { MountView } from "../../src/engine/provider.js";
import type { ProbeEvidence } from "../../src/suites/containment/evidence.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import { boundHostPath } from "../../src/suites/containment/mounts.js";
import { hardenedInspect } from "../helpers/evidence.js";

const volume = (device: string, o = "bind"): MountView => ({
  type: "volume",
  name: "data",
  driver: "local",
  source: "/var/lib/docker/volumes/data/_data",
  destination: "/data",
  rw: false,
  volumeOptions: { type: "none", o, device },
});

// The same mount as the kernel shows it in each case: a bind of a directory on a tmpfs.
const MOUNTINFO = [
  "100 90 0:50 / / ro,relatime - overlay overlay rw",
  "101 100 0:60 /da-x /data ro,nosuid,nodev,relatime - tmpfs tmpfs rw",
  "102 100 0:61 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
];

function mounts(m: MountView, allowed: { path: string; readOnly: boolean }[] = []) {
  const probe: ProbeEvidence = {
    processes: [{ pid: 1, status: {}, ns: {}, unreadable: [] }],
    mountinfo: MOUNTINFO,
    writes: [],
    exists: {},
    rootReadable: true,
    uid: 65532,
    gid: 65532,
  };
  const r = gradeContainment(
    { inspect: hardenedInspect({ mounts: [m] }), probe, host: { error: "none" } },
    {
      subject: "s",
      writableRoots: ["/tmp"],
      allowedCapabilities: [],
      network: "bridge",
      allowedHostPaths: allowed,
    },
  ).find((c) => c.id === "containment.mounts")!;
  return { status: r.status, message: `${r.message} ${JSON.stringify(r.evidence.findings ?? [])}` };
}

describe("a volume that is a bind", () => {
  it.each([
    ["bind", "/dev/shm/x"],
    ["rbind,ro", "/dev/shm/x"],
    ["ro,bind", "/srv/x"],
  ])("o=%s device=%s is the bind of that host path", (o, device) => {
    expect(boundHostPath(volume(device, o))).toBe(device);
  });

  it("a volume without bind options is a volume, a bind mount its source", () => {
    expect(
      boundHostPath({ ...volume("/x"), volumeOptions: { type: "tmpfs", device: "tmpfs" } }),
    ).toBeUndefined();
    expect(boundHostPath({ ...volume("/x"), volumeOptions: undefined })).toBeUndefined();
    expect(boundHostPath({ ...volume("/x"), type: "bind", source: "/srv/y" })).toBe("/srv/y");
  });

  it("fails an unallowed one on a tmpfs, naming the volume and the path", () => {
    const r = mounts(volume("/dev/shm/da-x"));
    expect(r.status).toBe("fail");
    expect(r.message).toContain("volume data, a bind of host path /dev/shm/da-x is inside the host's /dev");
  });

  it("names a read-only volume of the host's /run as the sensitive path it is", () => {
    const r = mounts(volume("/run"));
    expect(r.status).toBe("fail");
    expect(r.message).toContain("host path /run is inside the host's /run: never allowed");
  });

  it("passes the same bind of an allowed read-only path", () => {
    expect(mounts(volume("/srv/site"), [{ path: "/srv/site", readOnly: true }]).status).toBe("pass");
    expect(mounts(volume("/srv/site"), []).message).toContain(
      "host path /srv/site is not an allowed host path",
    );
  });
});
