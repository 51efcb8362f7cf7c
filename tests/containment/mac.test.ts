// AppArmor and SELinux in containment.seccomp: the label each process runs under is shown, an
// unconfined one where the host has AppArmor is a finding, a host without a MAC layer is said, and
// a probe AppArmor refused is said to be that, naming the profile.
import { describe, expect, it } from "vitest";
import type { EngineHost } from "../../src/engine/provider.js";
import { macLayersOf } from "../../src/engine/providers/docker/security.js";
import type { ContainmentEvidence, ProcessEvidence } from "../../src/suites/containment/evidence.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import type { InspectEvidence } from "../../src/suites/containment/inspect.js";
import { hardenedInspect } from "../helpers/evidence.js";

const host = (lsm: string[]): EngineHost => ({
  memoryBytes: 8 * 1024 ** 3,
  cpus: 4,
  cgroupVersion: "2",
  macLayers: macLayersOf([...lsm.map((l) => `name=${l}`), "name=seccomp,profile=builtin"]),
});
const proc = (over: Partial<ProcessEvidence> = {}): ProcessEvidence => ({
  pid: 1,
  status: { Seccomp: "2", Uid: "65532\t65532\t65532\t65532", NoNewPrivs: "1" },
  ns: { pid: "pid:[1]" },
  unreadable: [],
  ...over,
});
const target = { subject: "s", writableRoots: ["/tmp"], allowedCapabilities: [], network: "bridge" as const };

function grade(inspect: Partial<InspectEvidence>, processes: ProcessEvidence[]) {
  const ev: ContainmentEvidence = {
    inspect: hardenedInspect(inspect),
    probe: { processes, mountinfo: [], writes: [], exists: {}, rootReadable: false, uid: 65532, gid: 65532 },
    host: { error: "none" },
  };
  return Object.fromEntries(gradeContainment(ev, target).map((r) => [r.id, r]));
}

describe("AppArmor and SELinux, judged", () => {
  it("shows the label each process runs under on a PASS", () => {
    const r = grade({ engineHost: host(["apparmor"]), appArmorProfile: "docker-default" }, [
      proc({ lsm: "docker-default (enforce)" }),
    ])["containment.seccomp"]!;
    expect(r.status).toBe("pass");
    expect(r.message).toMatch(/; AppArmor docker-default \(enforce\)$/);
    expect(r.evidence.mac).toBe("AppArmor docker-default (enforce)");
  });

  it("says so when the host has no MAC layer at all, never a silent PASS", () => {
    const r = grade({ engineHost: host([]) }, [proc()])["containment.seccomp"]!;
    expect(r.status).toBe("pass");
    expect(r.message).toContain("no MAC layer: the host has neither AppArmor nor SELinux");
  });

  it.each([
    ["unconfined", "AppArmor unconfined"],
    ["docker-default (complain)", "not enforced"],
    ["system_u:system_r:spc_t:s0", "SELinux type spc_t: unconfined"],
  ])("fails a process measured under %s", (label, text) => {
    const r = grade({ engineHost: host(["apparmor"]) }, [proc({ lsm: label })])["containment.seccomp"]!;
    expect(r.status).toBe("fail");
    expect(r.message).toContain(text);
  });

  it("fails a launch the engine recorded as AppArmor unconfined on an AppArmor host, label unread", () => {
    const r = grade({ engineHost: host(["apparmor"]), appArmorProfile: "unconfined" }, [proc()])[
      "containment.seccomp"
    ]!;
    expect(r.status).toBe("fail");
    expect(r.message).toContain("the engine launched it AppArmor unconfined");
    // Where the host has no AppArmor the recorded name confines nothing and judges nothing.
    expect(
      grade({ engineHost: host([]), appArmorProfile: "unconfined" }, [proc()])["containment.seccomp"]!.status,
    ).toBe("pass");
  });

  it("names AppArmor and the profile when the probe could not read a process under another one", () => {
    const blind = proc({ ns: {}, unreadable: ["ns"], status: { Seccomp: "2" } });
    const r = grade({ engineHost: host(["apparmor"]), appArmorProfile: "custom-app" }, [blind])[
      "containment.mounts"
    ]!;
    expect(r.status).toBe("skip");
    expect(r.message).toContain(
      "AppArmor refused it (the subject runs under profile custom-app, the probe under the engine's default profile",
    );
  });
});
