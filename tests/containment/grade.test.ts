// Pure graders and parsers: the flag-reading mistakes docker-bench-security makes must not be ours,
// and an unobserved subject is SKIP, never PASS, while inspect-provable failures stay FAIL.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseFilters } from "../../src/commands/check.js";
import { DOCKER_DEFAULTS } from "../../src/engine/providers/docker/dialect.js";
import { securityOf } from "../../src/engine/providers/docker/security.js";
import { type ContainmentEvidence, decodeCaps } from "../../src/suites/containment/evidence.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import { type InspectEvidence, numericUser } from "../../src/suites/containment/inspect.js";
import { classifyMounts, parseMountinfo } from "../../src/suites/containment/mounts.js";
import { ProbeParseError, parseHostOutput, parseProbeOutput } from "../../src/suites/containment/probe.js";
import { bindingsOf, hardenedInspect } from "../helpers/evidence.js";

const target = {
  subject: "s",
  writableRoots: ["/tmp", "/dev/shm"],
  allowedCapabilities: [],
  network: "bridge" as const,
};

const inspect = (over: Partial<InspectEvidence> = {}) =>
  hardenedInspect({ ports: bindingsOf({ "8080/tcp": ["127.0.0.1:49153"] }), ...over });

const status = (id: string, results: ReturnType<typeof gradeContainment>) =>
  results.find((r) => r.id === id)!.status;

describe("inspect parsing", () => {
  it.each([
    [["no-new-privileges"], true],
    [["no-new-privileges:true"], true],
    [["no-new-privileges=true"], true],
    [["no-new-privileges=false"], false],
    [["no-new-privileges:false"], false],
    [["seccomp=unconfined"], undefined],
    [[], undefined],
  ])("no-new-privileges %j parses as %s (a boolean, not a substring)", (opts, expected) => {
    expect(securityOf(opts).noNewPrivileges?.value).toBe(expected);
  });

  it.each([
    ["", { uid: 0, gid: 0 }],
    ["0:0", { uid: 0, gid: 0 }],
    ["root", { uid: 0, gid: 0 }],
    ["65532:65532", { uid: 65532, gid: 65532 }],
    ["1000", { uid: 1000 }],
    ["nonroot", undefined],
  ])("user %j -> %j", (u, expected) => {
    expect(numericUser(u)).toEqual(expected);
  });

  it("decodes /proc status capability masks", () => {
    expect(decodeCaps("0000000000000000")).toEqual([]);
    expect(decodeCaps("0000000000000400")).toEqual(["NET_BIND_SERVICE"]);
    expect(decodeCaps("00000000a80425fb")).toHaveLength(14);
    expect(decodeCaps("00000000a80425fb")).toContain("DAC_OVERRIDE");
  });

  it("parses --filter KEY=VALUE with '=' inside the value, into the owned-objects query", () => {
    expect(parseFilters(["label=com.docker.compose.project=shop", "label=x", "name=web"])).toEqual({
      labels: [{ key: "com.docker.compose.project", value: "shop" }, { key: "x" }],
      names: ["web"],
    });
    expect(parseFilters(["id=0a1b2c", "id=ffee"])).toEqual({ ids: ["0a1b2c", "ffee"] });
    expect(parseFilters([])).toBeUndefined();
  });

  it("refuses a filter the query cannot say, naming the forms that work and the fix", () => {
    for (const v of ["ancestor=nginx", "status=exited", "network=host", "before=web"])
      expect(() => parseFilters([v], "input container-filter")).toThrow(
        new RegExp(
          `^input container-filter "${v}": check selects running containers by label=KEY, label=KEY=VALUE, name=TEXT \\(a part of the name\\) or id=PREFIX; label the containers and select them by label, or name each with --container \\(input container\\)$`,
        ),
      );
    expect(() => parseFilters(["label"])).toThrow(/expected KEY=VALUE/);
  });
});

describe("case durations", () => {
  it("the evidence time is shared, not carried by every case: the suite's durations add up to it", () => {
    const started = performance.now();
    const r = gradeContainment(
      { inspect: inspect(), probe: { error: "none" }, host: { error: "none" } },
      target,
      1300,
    );
    // On top of the shared 1300 ms, only the grading's own time (however loaded the machine is).
    const grading = performance.now() - started;
    const total = r.reduce((t, c) => t + c.durationMs, 0);
    expect(total).toBeGreaterThanOrEqual(1299);
    expect(total).toBeLessThanOrEqual(1300 + Math.ceil(grading) + r.length);
    for (const c of r) expect(c.durationMs).toBeLessThan(1300 / 2);
  });
});

describe("SKIP never hides FAIL", () => {
  const unobserved = (i: InspectEvidence): ContainmentEvidence => ({
    inspect: i,
    probe: { error: "no subject process visible" },
    host: { error: "host probe failed" },
  });

  it("an unobserved hardened subject is SKIP for every measured case, PASS only where inspect decides", () => {
    const r = gradeContainment(unobserved(inspect()), target);
    for (const id of [
      "containment.user",
      "containment.capabilities",
      "containment.seccomp",
      "containment.namespaces",
      "containment.mounts",
    ]) {
      expect(status(id, r), id).toBe("skip");
    }
    expect(r.find((x) => x.id === "containment.user")!.message).toContain("no subject process visible");
    expect(status("containment.privileged", r)).toBe("pass");
    expect(status("containment.resources", r)).toBe("pass");
    for (const x of r.filter((c) => c.status !== "pass")) expect(x.remediation).toBeTruthy();
  });

  it("inspect-provable failures stay FAIL when the probe saw nothing", () => {
    const r = gradeContainment(
      unobserved(
        inspect({
          user: "0:0",
          security: securityOf(["no-new-privileges=false", "seccomp=unconfined"]),
          capAdd: ["SYS_ADMIN"],
          modes: { pid: "host", net: "bridge", ipc: "private", uts: "", cgroup: "private", userns: "" },
          readonlyRootfs: false,
        }),
      ),
      target,
    );
    for (const id of [
      "containment.user",
      "containment.no_new_privileges",
      "containment.seccomp",
      "containment.capabilities",
      "containment.namespaces",
      "containment.rootfs_readonly",
    ]) {
      expect(status(id, r), id).toBe("fail");
    }
  });

  it("a 0.0.0.0 binding fails network, a loopback one passes", () => {
    const open = gradeContainment(
      unobserved(inspect({ ports: bindingsOf({ "8080/tcp": ["0.0.0.0:49153", ":::49153"] }) })),
      target,
    );
    expect(status("containment.network", open)).toBe("fail");
    expect(status("containment.network", gradeContainment(unobserved(inspect()), target))).toBe("pass");
  });

  it("an engine reach the probe never reported is SKIP, never a pass that says so in passing", () => {
    const measured = {
      ...unobserved(inspect()),
      reach: { error: "the probe did not report: the report does not verify" },
    };
    const network = gradeContainment(measured, target).find((c) => c.id === "containment.network")!;
    expect(network.status).toBe("skip");
    expect(network.message).toContain("was not measured: the probe did not report");
  });
});

/** A report framed as the probe frames it: the lines, then `Z <bytes> <sha256>`. */
function frame(lines: string[]): string {
  const payload = `${lines.join("\n")}\n`;
  const digest = createHash("sha256").update(payload).digest("hex");
  return `${payload}Z ${Buffer.byteLength(payload)} ${digest}\n`;
}

describe("probe report parser", () => {
  const lines = [
    "V 1",
    "P 1",
    "S Uid:\t65532\t65532\t65532\t65532",
    "S NoNewPrivs:\t1",
    "N pid pid:[4026532181]",
    "U ns",
    "D lo ",
    "M 72 48 0:39 / / ro,relatime master:2 - overlay overlay rw",
    "R 1",
    "X 1 /proc/keys",
    "X 0 /proc/kcore",
    "W refused /",
    "W accepted-cleaned /tmp",
    "W accepted /var/cache",
    "W missing /etc/hosts",
  ];
  const report = frame(lines);

  it("reads every record", () => {
    const ev = parseProbeOutput(report, 65532, 65532);
    expect(ev.processes).toHaveLength(1);
    expect(ev.processes[0]).toMatchObject({
      pid: 1,
      ns: { pid: "pid:[4026532181]" },
      interfaces: ["lo"],
      unreadable: ["ns"],
    });
    expect(ev.processes[0]!.status.NoNewPrivs).toBe("1");
    expect(ev.exists).toEqual({ "/proc/keys": true, "/proc/kcore": false });
    expect(ev.writes).toEqual([
      { path: "/", result: "refused" },
      { path: "/tmp", result: "accepted", cleaned: true },
      { path: "/var/cache", result: "accepted", cleaned: false },
      { path: "/etc/hosts", result: "missing" },
    ]);
    expect(ev.rootReadable).toBe(true);
  });

  it("network none: loopback only passes, another interface fails, interfaces it could not read SKIP (never 'loopback only')", () => {
    const none = { ...target, network: "none" as const };
    const offline = inspect({
      ports: {},
      modes: { pid: "", net: "none", ipc: "private", uts: "", cgroup: "private", userns: "" },
    });
    const grade = (d: string[]) => {
      const probe = parseProbeOutput(
        frame(["V 1", "P 1", "S Uid:\t65532\t65532\t65532\t65532", ...d]),
        65532,
        65532,
      );
      return status(
        "containment.network",
        gradeContainment({ inspect: offline, probe, host: { error: "-" } }, none),
      );
    };
    expect(grade(["D lo "])).toBe("pass");
    expect(grade(["D lo eth0 "])).toBe("fail");
    // The probe prints no D line when net/dev cannot be read; an empty list would read as loopback only.
    expect(grade([])).toBe("skip");
    expect(grade(["D "])).toBe("skip");
  });

  it("reads paths as the kernel escapes them (space, tab, newline, backslash), a full place as writable, and what the probe held", () => {
    const ev = parseProbeOutput(
      frame([
        "V 1",
        "I 0000000000000400",
        "P 1",
        "K /app\\040dir/app.sock",
        "X 1 /proc/a\\134b",
        "W accepted-cleaned /run/a\\040b",
        "W full /var/cache",
        "W failed /odd\\012name",
      ]),
      0,
      0,
    );
    expect(ev.held).toEqual(["NET_BIND_SERVICE"]);
    expect(ev.sockets).toEqual(["/app dir/app.sock"]);
    expect(ev.exists).toEqual({ "/proc/a\\b": true });
    expect(ev.writes).toEqual([
      { path: "/run/a b", result: "accepted", cleaned: true },
      { path: "/var/cache", result: "accepted", cleaned: true, full: true },
      { path: "/odd\nname", result: "failed" },
    ]);
  });

  it("a procfs that is not the kernel's view of the subject's namespace is not evidence (ERROR)", () => {
    expect(() => parseProbeOutput(frame(["V 1", "U view"]), 0, 0)).toThrow(ProbeParseError);
    expect(() => parseProbeOutput(frame(["V 1", "U view"]), 0, 0)).toThrow(/not the kernel's view/);
  });

  it("refuses output that is not a complete report", () => {
    expect(() => parseProbeOutput("hello", 0, 0)).toThrow(/not a report/);
    expect(() => parseProbeOutput("V 1\nP 1\n", 0, 0)).toThrow(/truncated/);
    expect(() => parseProbeOutput(frame(["V 0", "P 1"]), 0, 0)).toThrow(/V 1/);
    expect(() => parseHostOutput("V 1\nN pid pid:[1]\n")).toThrow();
    expect(parseHostOutput(frame(["V 1", "N pid pid:[1]", "N mnt mnt:[2]", "F mnt dockerd"]))).toEqual({
      ns: { pid: "pid:[1]", mnt: "mnt:[2]" },
      sources: { mnt: "dockerd" },
    });
  });
});

describe("mount classification", () => {
  const lines = [
    "72 48 0:39 / / ro,relatime - overlay overlay rw",
    "73 72 0:42 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw",
    "76 72 0:45 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw",
    "90 72 0:48 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
    "91 72 254:0 /run/docker.sock /var/run/docker.sock ro,relatime - ext4 /dev/vda rw",
    "92 72 254:0 /srv/my\\040data /data rw,relatime - ext4 /dev/vda rw",
    "93 72 254:0 /x/hosts /etc/hosts ro,relatime - ext4 /dev/vda rw",
    "54 73 0:43 /null /proc/keys rw,nosuid - tmpfs tmpfs rw",
  ];
  const classified = classifyMounts(
    parseMountinfo(lines),
    {
      mounts: [{ type: "bind", source: "/srv/my data", destination: "/data", rw: true }],
      maskedPaths: [],
      readonlyPaths: [],
      defaults: DOCKER_DEFAULTS,
    },
    ["/tmp"],
    ["/proc/keys"],
    [],
  );
  const cls = Object.fromEntries(classified.map((m) => [m.mountPoint, `${m.class}: ${m.reason}`]));

  it("gives every mount a class and a reason", () => {
    expect(classified).toHaveLength(lines.length);
    expect(cls["/"]).toMatch(/^rootfs/);
    expect(cls["/proc"]).toMatch(/^kernel/);
    expect(cls["/tmp"]).toMatch(/^allotted/);
    expect(cls["/etc/hosts"]).toMatch(/^engine-file/);
    expect(cls["/proc/keys"]).toMatch(/^masking/);
  });

  it("flags a read-only engine socket, a writable host bind and a sysfs without ro", () => {
    expect(cls["/var/run/docker.sock"]).toMatch(/^finding: an engine socket/);
    expect(cls["/data"]).toBe("finding: host path /srv/my data is not an allowed host path");
    expect(cls["/sys"]).toMatch(/^finding: sysfs lacks ro/);
  });
});
