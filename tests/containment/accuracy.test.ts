// Containment accuracy (#14) on synthetic evidence: host paths, namespaces shared with anything,
// seccomp by content, writable means noexec, sysctls, partial observation, stricter-is-not-failure.
// The real-engine counterparts are fixtures in acceptance/fixtures/faults/faults.json.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { securityOf } from "../../src/engine/providers/docker/security.js";
import type {
  ContainmentEvidence,
  GradeTarget,
  ProbeEvidence,
  ProcessEvidence,
} from "../../src/suites/containment/evidence.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import type { InspectEvidence } from "../../src/suites/containment/inspect.js";
import {
  judgeHostBinds,
  parseHostPathAllowance,
  sensitiveHostPath,
} from "../../src/suites/containment/mounts.js";
import {
  allowedBeyondDefault,
  DEFAULT_DENIED,
  seccompSetting,
} from "../../src/suites/containment/seccomp.js";
import { bindingsOf, hardenedInspect } from "../helpers/evidence.js";

const ID = "c".repeat(64);
const PEER = "e".repeat(64);
const HOST_NS = {
  pid: "pid:[1]",
  net: "net:[2]",
  ipc: "ipc:[3]",
  uts: "uts:[4]",
  mnt: "mnt:[5]",
  cgroup: "cgroup:[6]",
};
const OWN_NS = {
  pid: "pid:[11]",
  net: "net:[12]",
  ipc: "ipc:[13]",
  uts: "uts:[14]",
  mnt: "mnt:[15]",
  cgroup: "cgroup:[16]",
};

const target: GradeTarget = {
  subject: "s",
  writableRoots: ["/tmp", "/dev/shm"],
  allowedCapabilities: [],
  network: "bridge",
};

const inspect = (over: Partial<InspectEvidence> = {}) =>
  hardenedInspect({ id: ID, maskedPaths: [], readonlyPaths: [], dataRoot: "/var/lib/docker", ...over });

function proc(pid: number, over: Partial<ProcessEvidence> = {}): ProcessEvidence {
  return {
    pid,
    status: {
      Uid: "65532\t65532\t65532\t65532",
      Gid: "65532\t65532\t65532\t65532",
      Groups: "",
      CapInh: "0",
      CapPrm: "0",
      CapEff: "0",
      CapBnd: "0",
      CapAmb: "0",
      NoNewPrivs: "1",
      Seccomp: "2",
    },
    ns: { ...OWN_NS },
    unreadable: [],
    ...over,
  };
}

const MOUNTINFO = [
  "72 48 0:39 / / ro,relatime - overlay overlay rw",
  "73 72 0:42 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw",
  "90 72 0:48 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
  "91 72 0:49 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw",
];

function probe(over: Partial<ProbeEvidence> = {}): ProbeEvidence {
  return {
    processes: [proc(1)],
    mountinfo: MOUNTINFO,
    writes: [
      { path: "/", result: "refused" },
      { path: "/tmp", result: "accepted", cleaned: true },
      { path: "/dev/shm", result: "accepted", cleaned: true },
    ],
    exists: {},
    rootReadable: true,
    uid: 65532,
    gid: 65532,
    ...over,
  };
}

function grade(
  i: Partial<InspectEvidence>,
  p: Partial<ProbeEvidence> = {},
  extra: Partial<ContainmentEvidence> = {},
  t: Partial<GradeTarget> = {},
) {
  const results = gradeContainment(
    { inspect: inspect(i), probe: probe(p), host: { ns: HOST_NS }, others: [], ...extra },
    { ...target, ...t },
  );
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

describe("host paths", () => {
  const bind = (source: string, destination: string, rw = false) => ({
    type: "bind",
    source,
    destination,
    rw,
  });

  it.each([
    ["/", "the host's root filesystem"],
    ["/etc", "inside the host's /etc"],
    ["/etc/ssl/certs", "inside the host's /etc"],
    ["/proc/", "inside the host's /proc"],
    ["/var", "contains the host's /var/run"],
    ["/var/lib/docker/volumes/x/_data", "inside the host's /var/lib/docker"],
    ["/srv/docker-data/overlay2", "inside the engine's data root /srv/docker-data"],
    ["/home/alice/src", "inside the host's /home"],
    ["/tmp/d26/docker.sock", "an engine socket"],
    ["/var/lib/containers", "inside the host's /var/lib/containers"],
    ["/var/lib/containerd/io.containerd.content.v1.content", "inside the host's /var/lib/containerd"],
    ["/srv/run/containerd.sock.ttrpc", "an engine socket"],
  ])("%s is sensitive (%s)", (src, why) => {
    expect(sensitiveHostPath(src, "/srv/docker-data")).toBe(why);
  });

  it("an ordinary host path is not sensitive", () => {
    expect(sensitiveHostPath("/srv/data", "/var/lib/docker")).toBeUndefined();
    expect(sensitiveHostPath("/tmp/da-fault-bind-x")).toBeUndefined();
  });

  it("parses allowances as the flag, input and label give them", () => {
    expect(parseHostPathAllowance("/srv/data")).toEqual({ path: "/srv/data", readOnly: true });
    expect(parseHostPathAllowance("/srv/data/:rw")).toEqual({ path: "/srv/data", readOnly: false });
    expect(() => parseHostPathAllowance("srv:ro")).toThrow(/absolute host path/);
    expect(() => parseHostPathAllowance("/srv:rx")).toThrow(/:ro or :rw/);
  });

  it("judges every bind: not allowed, allowed read-only but rw, sensitive even when allowed", () => {
    const allowed = [
      { path: "/srv/data", readOnly: true },
      { path: "/etc", readOnly: true },
    ];
    const judged = judgeHostBinds(
      {
        mounts: [
          bind("/srv/data/a", "/a"),
          bind("/srv/data", "/b", true),
          bind("/opt/x", "/c"),
          bind("/etc", "/d"),
        ],
        dataRoot: "/var/lib/docker",
      },
      allowed,
    );
    expect(judged.map((b) => b.problem ?? "ok")).toEqual([
      "ok",
      "host path /srv/data is allowed read-only but mounted read-write",
      "host path /opt/x is not an allowed host path",
      "host path /etc is inside the host's /etc: never allowed, read-only or not",
    ]);
  });

  it("the host's programs and libraries allowed read-write are still a finding; read-only they pass (CIS 5.5)", () => {
    const allowed = [
      { path: "/usr/local/share", readOnly: false },
      { path: "/lib64", readOnly: false },
      { path: "/opt", readOnly: false },
    ];
    const judged = judgeHostBinds(
      {
        mounts: [
          bind("/usr/local/share/fonts", "/a", true),
          bind("/usr/local/share/fonts", "/b"),
          bind("/lib64", "/c", true),
          bind("/opt", "/d", true),
        ],
        dataRoot: "/var/lib/docker",
      },
      allowed,
    );
    expect(judged.map((b) => b.problem ?? "ok")).toEqual([
      "host path /usr/local/share/fonts is inside the host's /usr, mounted read-write: the subject can change what the host runs (read-only at most)",
      "ok",
      "host path /lib64 is inside the host's /lib64, mounted read-write: the subject can change what the host runs (read-only at most)",
      "ok",
    ]);
  });

  it("an allowed host path with shared propagation is a finding (CIS 5.19)", () => {
    const judged = judgeHostBinds(
      { mounts: [{ ...bind("/srv/data", "/a"), propagation: "rshared" }], dataRoot: "/var/lib/docker" },
      [{ path: "/srv/data", readOnly: true }],
    );
    expect(judged[0]!.problem).toBe(
      "host path /srv/data is mounted with rshared propagation (mounts made inside reach the host)",
    );
  });

  it("a read-only bind of the host's /proc fails containment.mounts, sub-mounts read-only or not", () => {
    const mounts = [bind("/proc", "/host/proc")];
    const lines = [
      ...MOUNTINFO,
      "95 72 0:5 / /host/proc ro,nosuid,nodev,noexec - proc proc rw",
      "96 95 0:50 / /host/proc/sys/fs/binfmt_misc ro - binfmt_misc binfmt_misc rw",
    ];
    const r = grade({ mounts }, { mountinfo: lines });
    expect(r["containment.mounts"]!.status).toBe("fail");
    expect((r["containment.mounts"]!.evidence as { findings: string[] }).findings).toEqual([
      "/host/proc: host path /proc is inside the host's /proc: never allowed, read-only or not",
      "/host/proc/sys/fs/binfmt_misc: sub-mount of /host/proc: host path /proc is inside the host's /proc: never allowed, read-only or not",
    ]);
    // Inspect alone says the same when the probe saw nothing.
    const blind = gradeContainment(
      { inspect: inspect({ mounts }), probe: { error: "x" }, host: { error: "x" } },
      target,
    );
    expect(blind.find((c) => c.id === "containment.mounts")!.status).toBe("fail");
  });

  it("an allowed read-only host path passes; a writable sub-mount of it does not", () => {
    const mounts = [bind("/srv/data", "/data")];
    const lines = [...MOUNTINFO, "95 72 8:1 /srv/data /data ro,relatime - ext4 /dev/sda1 rw"];
    const ok = grade(
      { mounts },
      { mountinfo: lines },
      {},
      { allowedHostPaths: [{ path: "/srv/data", readOnly: true }] },
    );
    expect(ok["containment.mounts"]!.status).toBe("pass");
    const sub = grade(
      { mounts },
      { mountinfo: [...lines, "96 95 0:60 / /data/run rw,nosuid - tmpfs tmpfs rw"] },
      {},
      { allowedHostPaths: [{ path: "/srv/data", readOnly: true }] },
    );
    expect(sub["containment.mounts"]!.message).toContain("/data/run");
    expect(grade({ mounts }, { mountinfo: lines })["containment.mounts"]!.status).toBe("fail");
  });

  it("a symlink inside an allowed directory is judged by what the kernel mounted, not the path given", () => {
    const mounts = [bind("/srv/data/link", "/data")];
    const allow = { allowedHostPaths: [{ path: "/srv/data", readOnly: true }] };
    // The engine's own file for this container shows which filesystem holds host paths as they are.
    const hosts = "94 72 8:1 /var/lib/docker/containers/c/hosts /etc/hosts ro,relatime - ext4 /dev/sda1 rw";
    const at = (line: string) =>
      grade({ mounts }, { mountinfo: [...MOUNTINFO, hosts, line] }, {}, allow)["containment.mounts"]!;
    expect(at("95 72 8:1 /etc /data ro,relatime - ext4 /dev/sda1 rw").message).toBe("1 mount finding: /data");
    expect(
      (at("95 72 8:1 /etc /data ro,relatime - ext4 /dev/sda1 rw").evidence as { findings: string[] })
        .findings,
    ).toEqual([
      "/data: host path /etc is inside the host's /etc (bound through /srv/data/link): never allowed, read-only or not",
    ]);
    expect(at("95 72 8:1 / /data ro,relatime - ext4 /dev/sda1 rw").status).toBe("fail");
    expect(at("95 72 0:5 / /data ro,nosuid,nodev,noexec - proc proc rw").message).toBe(
      "1 mount finding: /data",
    );
    // A link that stays inside the allowed directory, and one to an ordinary path, pass.
    expect(at("95 72 8:1 /srv/data/inside /data ro,relatime - ext4 /dev/sda1 rw").status).toBe("pass");
    expect(at("95 72 8:1 /opt/other /data ro,relatime - ext4 /dev/sda1 rw").status).toBe("pass");
    // On a filesystem not provably the host's root, a path inside it is not a host path: no verdict from it.
    expect(at("95 72 8:2 /etc /data ro,relatime - ext4 /dev/sdb1 rw").status).toBe("pass");
  });

  it("a socket reached through an allowed host path is a finding: an engine's socket by another name", () => {
    const mounts = [bind("/srv/data/app.sock", "/app.sock")];
    const allow = { allowedHostPaths: [{ path: "/srv/data", readOnly: true }] };
    const lines = [...MOUNTINFO, "95 72 8:1 /srv/data/app.sock /app.sock ro,relatime - ext4 /dev/sda1 rw"];
    const socket = grade({ mounts }, { mountinfo: lines, sockets: ["/app.sock"] }, {}, allow);
    expect((socket["containment.mounts"]!.evidence as { findings: string[] }).findings).toEqual([
      "/app.sock: host path /srv/data/app.sock is a socket: never allowed (an engine's socket cannot be told apart by its name)",
    ]);
    expect(grade({ mounts }, { mountinfo: lines }, {}, allow)["containment.mounts"]!.status).toBe("pass");
  });

  it("a local volume that is really a bind of a host directory is a finding", () => {
    const mounts = [
      {
        type: "volume",
        source: "/var/lib/docker/volumes/v/_data",
        destination: "/v",
        rw: false,
        name: "v",
        driver: "local",
      },
    ];
    const disguised = grade(
      { mounts },
      { mountinfo: [...MOUNTINFO, "95 72 8:1 /etc /v ro - ext4 /dev/sda1 rw"] },
    );
    expect(disguised["containment.mounts"]!.message).toContain("/v");
    const real = grade(
      { mounts },
      { mountinfo: [...MOUNTINFO, "95 72 8:1 /var/lib/docker/volumes/v/_data /v ro - ext4 /dev/sda1 rw"] },
    );
    expect(real["containment.mounts"]!.status).toBe("pass");
  });
});

describe("namespaces shared with anything", () => {
  const others = [{ id: PEER, name: "peer", modes: {} }];

  it("--pid container:<peer> fails and names the peer (inspect mode)", () => {
    const r = grade(
      {
        modes: {
          pid: `container:${PEER}`,
          net: "bridge",
          ipc: "private",
          uts: "",
          cgroup: "private",
          userns: "",
        },
      },
      {},
      { others },
    );
    expect(r["containment.namespaces"]!.status).toBe("fail");
    expect(r["containment.namespaces"]!.message).toBe("shares its pid with container peer");
  });

  it("processes of another container in the subject's pid namespace are measured sharing", () => {
    const r = grade({}, { foreign: [{ container: PEER, count: 2 }] }, { others });
    expect(r["containment.namespaces"]!.message).toBe("shares its pid with container peer");
  });

  it("a process of the subject's own container in another of its cgroups is not another container", () => {
    const r = grade({}, { foreign: [{ container: ID, count: 1 }] }, { others });
    expect(r["containment.namespaces"]!.status).toBe("pass");
  });

  it("a container that joined the subject's network is named", () => {
    const r = grade({}, {}, { others: [{ id: PEER, name: "sidecar", modes: { net: `container:${ID}` } }] });
    expect(r["containment.namespaces"]!.message).toBe("shares its net with container sidecar");
  });

  it("measured namespace ids equal to another graded container's fail", () => {
    const r = grade(
      {},
      {},
      { others: [{ id: PEER, name: "peer", modes: {}, ns: { ...HOST_NS, ipc: OWN_NS.ipc } }] },
    );
    expect(r["containment.namespaces"]!.message).toBe("shares its ipc with container peer");
  });

  it("other containers that could not be listed make the case ERROR, never PASS: a peer may hide there", () => {
    const r = grade({}, {}, { others: { error: "list containers: no answer within 30000 ms" } });
    expect(r["containment.namespaces"]!.status).toBe("error");
    expect(r["containment.namespaces"]!.message).toContain("sharing with them is not ruled out");
    expect(r["containment.namespaces"]!.message).toContain("no answer within 30000 ms");
    // Sharing found elsewhere still fails: the listing's error does not soften a finding.
    const shared = grade({ modes: { ...inspect().modes, pid: "host" } }, {}, { others: { error: "x" } });
    expect(shared["containment.namespaces"]!.status).toBe("fail");
  });

  it("sysctls outside Pod Security's safe set fail; the safe set passes", () => {
    const bad = grade({ sysctls: { "net.ipv4.ip_forward": "1", "kernel.shm_rmid_forced": "1" } });
    expect(bad["containment.namespaces"]!.message).toBe(
      "sets sysctls outside Pod Security's safe set: net.ipv4.ip_forward=1",
    );
    const safe = grade({
      sysctls: { "net.ipv4.ip_unprivileged_port_start": "80", "net/ipv4/ping_group_range": "0 0" },
    });
    expect(safe["containment.namespaces"]!.status).toBe("pass");
  });

  it("partial observation: an unreadable root process is named, the rest judged, user fails", () => {
    const root = proc(7, {
      ns: {},
      unreadable: ["ns"],
      status: { ...proc(7).status, Uid: "0\t0\t0\t0", Gid: "0\t0\t0\t0" },
    });
    const r = grade({}, { processes: [proc(1), root] });
    expect(r["containment.user"]!.status).toBe("fail");
    expect(r["containment.namespaces"]!.status).toBe("pass");
    expect(r["containment.namespaces"]!.message).toContain("process 7 not readable");
    expect(r["containment.namespaces"]!.evidence.unreadableProcesses).toEqual([7]);
    for (const id of ["containment.capabilities", "containment.seccomp", "containment.no_new_privileges"])
      expect(r[id]!.status, id).toBe("pass");
  });
});

describe("seccomp judged by content", () => {
  const profileOpt = (p: object) => ["no-new-privileges:true", `seccomp=${JSON.stringify(p)}`];
  const denyAll = DEFAULT_DENIED.map((n) => ({ names: [n], action: "SCMP_ACT_ERRNO" }));
  const cloneNoUserns = {
    names: ["clone"],
    action: "SCMP_ACT_ALLOW",
    args: [{ index: 0, value: 0x7e020000, valueTwo: 0, op: "SCMP_CMP_MASKED_EQ" }],
  };

  // The engine's own default, handed over explicitly, passes on every engine: Docker 28's lets
  // through three calls that 20.10's gated (CI's fault matrix in the runner VM read them as a FAIL).
  it("the engine's own default profile passes: Docker 28's (moby profiles v0.1.0) and the host engine's", () => {
    const read = (f: string) => JSON.parse(readFileSync(f, "utf8"));
    expect(
      allowedBeyondDefault(read("acceptance/fixtures/faults/seccomp/moby-profiles-v0.1.0.json"), new Set()),
    ).toEqual([]);
    const host = process.env.DA_SECCOMP_DEFAULT;
    if (host) expect(allowedBeyondDefault(read(host), new Set())).toEqual([]);
  });

  it("a profile that allows everything fails naming the syscalls", () => {
    const r = grade({ security: securityOf(profileOpt({ defaultAction: "SCMP_ACT_ALLOW" })) });
    expect(r["containment.seccomp"]!.status).toBe("fail");
    expect(r["containment.seccomp"]!.message).toMatch(
      /clone\(CLONE_NEWUSER\), unshare, setns, clone3, mount/,
    );
    expect(r["containment.seccomp"]!.message).toMatch(/keyctl.*bpf|bpf.*keyctl/s);
  });

  it("an allow-list profile that lets unshare and keyctl through fails naming exactly them", () => {
    const p = {
      defaultAction: "SCMP_ACT_ERRNO",
      syscalls: [cloneNoUserns, { names: ["read", "write", "unshare", "keyctl"], action: "SCMP_ACT_ALLOW" }],
    };
    expect(allowedBeyondDefault(p, new Set())).toEqual(["unshare", "keyctl"]);
  });

  it("clone allowed without the CLONE_NEWUSER mask is a finding; with it, not", () => {
    const open = {
      defaultAction: "SCMP_ACT_ERRNO",
      syscalls: [{ names: ["clone"], action: "SCMP_ACT_ALLOW" }],
    };
    expect(allowedBeyondDefault(open, new Set())).toEqual(["clone(CLONE_NEWUSER)"]);
    expect(
      allowedBeyondDefault({ defaultAction: "SCMP_ACT_ERRNO", syscalls: [cloneNoUserns] }, new Set()),
    ).toEqual([]);
  });

  it("capability-gated rules count only when the container holds the capability", () => {
    const p = {
      defaultAction: "SCMP_ACT_ERRNO",
      syscalls: [{ names: ["mount"], action: "SCMP_ACT_ALLOW", includes: { caps: ["CAP_SYS_ADMIN"] } }],
    };
    expect(allowedBeyondDefault(p, new Set())).toEqual([]);
    expect(allowedBeyondDefault(p, new Set(["SYS_ADMIN"]))).toEqual(["mount"]);
  });

  it("a stricter profile (allow by default, every default denial kept) passes", () => {
    const denyNewUser = {
      names: ["clone", "unshare"],
      action: "SCMP_ACT_ERRNO",
      args: [{ index: 0, value: 0x10000000, valueTwo: 0x10000000, op: "SCMP_CMP_MASKED_EQ" }],
    };
    const p = { defaultAction: "SCMP_ACT_ALLOW", syscalls: [...denyAll, denyNewUser] };
    const r = grade({ security: securityOf(profileOpt(p)) });
    expect(r["containment.seccomp"]!.status, r["containment.seccomp"]!.message).toBe("pass");
  });

  it("the default profile, unconfined and unreadable profiles are told apart", () => {
    const setting = (opts: string[]) => seccompSetting(securityOf(opts).seccomp);
    expect(setting(["no-new-privileges"])).toEqual({ kind: "default" });
    expect(setting(["seccomp:unconfined"])).toEqual({ kind: "unconfined" });
    expect(setting(["seccomp=/etc/x.json"]).kind).toBe("unreadable");
  });

  // The engine's own default profile, where the Debian package of the engine's source provides it.
  const DEFAULT_JSON =
    process.env.DA_SECCOMP_DEFAULT ??
    "/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json";
  it.skipIf(!existsSync(DEFAULT_JSON) && process.env.CI !== "true")(
    "the engine's default profile, given explicitly, passes on every architecture",
    () => {
      const p = JSON.parse(readFileSync(DEFAULT_JSON, "utf8"));
      for (const arch of ["amd64", "arm64", "s390x", "ppc64le"])
        expect(allowedBeyondDefault(p, new Set(), arch)).toEqual([]);
    },
  );
});

describe("published ports (containment.network)", () => {
  const net = (ports: Record<string, string[]>) =>
    grade({ ports: bindingsOf(ports) })["containment.network"]!;

  it("loopback on a high host port passes; any address, the bridge's, IPv6's any and a low host port fail", () => {
    expect(net({ "8080/tcp": ["127.0.0.1:49153"] }).status).toBe("pass");
    expect(net({ "8080/tcp": ["::1:49153"] }).status).toBe("pass");
    expect(net({ "8080/tcp": ["0.0.0.0:49153"] }).status).toBe("fail");
    expect(net({ "8080/tcp": [":::49153"] }).status).toBe("fail");
    expect(net({ "8080/tcp": ["172.17.0.1:49153"] }).status).toBe("fail");
    expect(net({ "8080/tcp": ["127.0.0.1:81"] }).message).toBe(
      "ports published on privileged host ports (below 1024): 127.0.0.1:81->8080/tcp",
    );
    // A binding without a host port yet is not a low port.
    expect(net({ "8080/tcp": ["127.0.0.1:"] }).status).toBe("pass");
  });
});

describe("limits (containment.resources)", () => {
  it("a memory limit with unlimited swap fails; swap equal to memory, or not read, passes", () => {
    const res = (memorySwap?: number) => grade({ memorySwap })["containment.resources"]!;
    expect(res(-1).message).toBe("memory is limited but swap is not (memory-swap -1): swap use is unbounded");
    expect(res(256 * 1024 * 1024).status).toBe("pass");
    expect(res(undefined).status).toBe("pass");
  });
});

describe("AppArmor and SELinux (containment.seccomp)", () => {
  const seccomp = (i: Partial<InspectEvidence>, p: Partial<ProbeEvidence> = {}) =>
    grade(i, p)["containment.seccomp"]!;
  const NNP = "no-new-privileges:true";

  it("launch settings that turn AppArmor or SELinux off fail on any host, naming the option", () => {
    for (const opt of ["apparmor=unconfined", "apparmor:unconfined", "label=disable", "label:disable"]) {
      const r = seccomp({ security: securityOf([NNP, opt]) });
      expect(r.status, opt).toBe("fail");
      expect(r.message).toContain(opt);
    }
    expect(seccomp({ security: securityOf([NNP, "label=type:spc_t"]) }).message).toContain(
      "sets SELinux type spc_t, not a container type",
    );
    expect(seccomp({ security: securityOf([NNP, "label=user:system_u"]) }).message).toContain(
      "custom SELinux user",
    );
    expect(seccomp({ security: securityOf([NNP, "label=role:system_r"]) }).message).toContain(
      "custom SELinux role",
    );
  });

  it("reads Podman's merged entry; leaves the engine's own label=disable of a host pid/ipc container to namespaces", () => {
    const merged = "label=type:container_t,label=level:s0:c100,c200";
    expect(seccomp({ security: securityOf([NNP, merged]) }).status).toBe("pass");
    expect(seccomp({ security: securityOf([NNP, "label=type:spc_t,label=level:s0"]) }).message).toContain(
      "spc_t",
    );
    const hostPid = grade({
      security: securityOf([NNP, "label=disable"]),
      modes: { ...inspect().modes, pid: "host" },
    });
    expect(hostPid["containment.seccomp"]!.status).toBe("pass");
    expect(hostPid["containment.namespaces"]!.status).toBe("fail");
  });

  it("what Pod Security baseline allows passes: a named AppArmor profile, a container type, a level", () => {
    for (const opt of ["apparmor=docker-default", "label=type:container_t", "label=level:s0:c100,c200"])
      expect(seccomp({ security: securityOf([NNP, opt]) }).status, opt).toBe("pass");
  });

  it("a measured unconfined label fails; the engine's confined labels pass", () => {
    const at = (lsm: string) => seccomp({}, { processes: [proc(1, { lsm })] });
    expect(at("unconfined").message).toContain("process 1: AppArmor unconfined");
    expect(at("docker-default (complain)").status).toBe("fail");
    expect(at("system_u:system_r:spc_t:s0").message).toContain("SELinux type spc_t");
    expect(at("unconfined_u:unconfined_r:unconfined_t:s0").status).toBe("fail");
    expect(at("docker-default (enforce)").status).toBe("pass");
    expect(at("system_u:system_r:container_t:s0:c12,c34").status).toBe("pass");
  });

  it("a security option the provider could not type is never part of a PASS: named, and the case says it cannot judge it", () => {
    for (const opt of ["writable-cgroups=true", "label=nested", "no-new-privileges=maybe"]) {
      const r = seccomp({ security: securityOf([NNP, opt]) });
      expect(r.status, opt).toBe("skip");
      expect(r.message).toContain(`the engine recorded security options this tool cannot judge: \`${opt}\``);
      expect(r.evidence.untypedOptions).toEqual([opt]);
    }
    // A failure stays a failure, naming what was not judged too.
    const failed = seccomp({ security: securityOf(["seccomp=unconfined", "writable-cgroups=true"]) });
    expect(failed.status).toBe("fail");
    expect(failed.message).toMatch(/; not judged: `writable-cgroups=true`$/);
  });

  it("a seccomp failure keeps its message and adds the MAC one", () => {
    const r = seccomp({ security: securityOf(["seccomp=unconfined", "apparmor=unconfined"]) });
    expect(r.message).toMatch(/seccomp[\s\S]*MAC confinement off: `apparmor=unconfined` turns AppArmor off/);
  });
});

describe("writable means noexec; stricter is never a failure", () => {
  it("an allotted root without noexec fails containment.writable_roots", () => {
    const lines = MOUNTINFO.map((l) => l.replace("/tmp rw,nosuid,nodev,noexec", "/tmp rw,nosuid,nodev"));
    const r = grade({}, { mountinfo: lines });
    expect(r["containment.writable_roots"]!.status).toBe("fail");
    expect(r["containment.writable_roots"]!.message).toBe("/tmp is writable without noexec");
  });

  it("of two mounts at an allotted root, the one on top is judged: what the subject writes to", () => {
    // An image's anonymous volume at a relative path (`VOLUME ../../tmp`) is stacked over the
    // tmpfs; at `VOLUME data` the engine mounts it first, and the tmpfs hides it.
    const volume = (id: number, parent: number) =>
      `${id} ${parent} 254:0 /var/lib/docker/volumes/${"a".repeat(64)}/_data /tmp rw,relatime - ext4 /dev/vda rw`;
    const over = grade({}, { mountinfo: [...MOUNTINFO, volume(92, 90)] });
    expect(over["containment.writable_roots"]!.message).toBe(
      "/tmp is writable without noexec,nosuid,nodev (ext4 mounted over another mount at /tmp, which it hides)",
    );
    const tmpfsOver = "90 92 0:48 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw";
    const under = MOUNTINFO.map((l) => (l.startsWith("90 ") ? volume(92, 72) : l)).concat(tmpfsOver);
    expect(grade({}, { mountinfo: under })["containment.writable_roots"]!.status).toBe("pass");
  });

  it("a missing or refusing allotted root passes with a note when another accepted", () => {
    const r = grade(
      {},
      {
        writes: [
          { path: "/", result: "refused" },
          { path: "/tmp", result: "missing" },
          { path: "/dev/shm", result: "accepted", cleaned: true },
        ],
      },
    );
    expect(r["containment.writable_roots"]!.status).toBe("pass");
    expect(r["containment.writable_roots"]!.message).toContain(
      "stricter than allowed (not a failure): /tmp missing",
    );
  });

  it("no accepting root: says what it could not prove instead of passing or failing", () => {
    const r = grade(
      {},
      {
        writes: [
          { path: "/tmp", result: "refused" },
          { path: "/dev/shm", result: "refused" },
        ],
      },
    );
    expect(r["containment.writable_roots"]!.status).toBe("skip");
    expect(r["containment.writable_roots"]!.message).toMatch(/no allotted root accepted/);
  });
});
