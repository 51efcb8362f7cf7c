// Which credentials the subject probe runs as, and that nothing a report says can raise them. The
// bound is the subject's own launch (the capabilities it grants) under the probe ceiling; the
// first probe runs as the launch's uid:gid within it while the subject is frozen, and a report is
// kept when the processes it read call for exactly what the probe held; a measurement only narrows.
// Through the in-memory engine: a real subject container, real pauses, each probe's launch recorded.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newRunId, ownerLabels } from "../../src/engine/ownership.js";
import type { LaunchSpec, ProbeSpec } from "../../src/engine/provider.js";
import { PROBE_CAPABILITY_CEILING, probeLaunch } from "../../src/engine/trusted-probe.js";
import { capabilityBound, grantedCapabilities } from "../../src/suites/containment/credentials.js";
import { collectEvidence, gradeContainment } from "../../src/suites/containment/index.js";
import { hardenedInspect } from "../helpers/evidence.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

/** A probe report as the probe frames it: the lines, then `Z <bytes> <sha256>`. */
function report(lines: string[]): string {
  const body = `${lines.join("\n")}\n`;
  const digest = createHash("sha256").update(body).digest("hex");
  return `${body}Z ${Buffer.byteLength(body)} ${digest}\n`;
}

interface Subject {
  uid: number;
  gid: number;
  /** The processes' permitted set, as /proc/<pid>/status gives it (hex). */
  capPrm: string;
}

/** What the subject probe reads: one process; a full probe also its mounts, and its own permitted set. */
function answer(subject: Subject, heldHex: (spec: ProbeSpec) => string) {
  return (spec: ProbeSpec) => {
    const proc = [
      "P 1",
      `S Uid:\t${subject.uid}\t${subject.uid}\t${subject.uid}\t${subject.uid}`,
      `S Gid:\t${subject.gid}\t${subject.gid}\t${subject.gid}\t${subject.gid}`,
      `S CapPrm:\t${subject.capPrm}`,
    ];
    const full = [
      `I ${heldHex(spec)}`,
      ...proc,
      "N pid pid:[11]",
      "M 1 0 0:1 / / ro,relatime - overlay overlay ro",
      "M 2 1 0:2 / /tmp rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw",
      "R 1",
      "W refused /",
      "W accepted-cleaned /tmp",
    ];
    const lines = spec.env.DA_MODE === "ids" ? proc : full;
    return { stdout: report(["V 1", ...lines]), stderr: "", exitCode: 0 };
  };
}

const bits: Record<string, number> = { CHOWN: 0, KILL: 5, SETGID: 6, SETUID: 7, NET_BIND_SERVICE: 10 };
/** The permitted set a probe launched so would hold: what it asked for under the ceiling, as hex. */
const asAsked = (spec: ProbeSpec) =>
  probeLaunch(spec)
    .capabilities.add.reduce((m, c) => m | (1n << BigInt(bits[c] ?? 40)), 0n)
    .toString(16);

async function probe(
  launch: Partial<LaunchSpec>,
  subject: Subject,
  opts: { held?: (spec: ProbeSpec) => string; cannotPause?: boolean } = {},
) {
  const engine = memoryEngine();
  const owner = newRunId();
  const probes: ProbeSpec[] = [];
  const respond = answer(subject, opts.held ?? asAsked);
  engine.answerProbes((spec) => {
    probes.push(spec);
    return respond(spec);
  });
  if (opts.cannotPause) engine.inject("pause", "fail");
  const id = await engine.create({
    image: MEMORY_BASE,
    env: {},
    command: ["sleep", "300"],
    labels: ownerLabels(owner, "subject"),
    init: false,
    readOnlyRoot: true,
    capabilities: { drop: ["ALL"], add: [] },
    noNewPrivileges: true,
    namespaces: { net: "none" },
    limits: {},
    tmpfs: { "/tmp": "rw,noexec,nosuid,nodev" },
    publish: [],
    ...launch,
  });
  await engine.start(id);
  const target = {
    containerId: id,
    subject: "s",
    writableRoots: ["/tmp"],
    allowedCapabilities: [],
    network: "any" as const,
  };
  const ev = await collectEvidence(target, {
    engine,
    owner,
    probeImage: MEMORY_BASE,
    host: Promise.resolve({ ns: {} }),
    others: Promise.resolve([]),
  });
  const launched = probes.map((p) => ({
    user: p.user,
    mode: p.env.DA_MODE,
    caps: [...probeLaunch(p).capabilities.add].sort(),
  }));
  return { ev, launched, engine, id, results: gradeContainment(ev, target) };
}

describe("the subject probe's credentials", () => {
  it("runs once, frozen, as the launch's non-root uid:gid holding nothing, when the processes hold that", async () => {
    const { ev, launched, engine, id } = await probe(
      { user: "65532:65532" },
      { uid: 65532, gid: 65532, capPrm: "0" },
    );
    expect(launched).toEqual([{ user: "65532:65532", mode: "full", caps: [] }]);
    expect(ev.freeze).toMatchObject({ held: true });
    expect("error" in ev.probe).toBe(false);
    // Thawed afterwards: the subject runs on.
    expect((await engine.inspect(id)).state.status).toBe("running");
  });

  it("runs again as the processes call for when they hold less than the probe held", async () => {
    // The launch grants the engine's defaults (CHOWN, KILL, NET_BIND_SERVICE, SETGID, SETUID);
    // the processes dropped all but NET_BIND_SERVICE (bit 10).
    const { launched } = await probe(
      { user: "0:0", capabilities: { drop: [], add: [] } },
      { uid: 0, gid: 0, capPrm: "400" },
    );
    expect(launched).toEqual([
      { user: "0:0", mode: "full", caps: ["CHOWN", "KILL", "NET_BIND_SERVICE", "SETGID", "SETUID"] },
      { user: "0:0", mode: "full", caps: ["NET_BIND_SERVICE"] },
    ]);
  });

  it("keeps the first report when what the probe held (its own permitted set) is what the processes hold", async () => {
    // A non-root probe given capabilities by the launch holds none (Docker: bounding set only).
    const { launched } = await probe(
      { user: "65532:65532", capabilities: { drop: [], add: [] } },
      { uid: 65532, gid: 65532, capPrm: "0" },
      { held: () => "0" },
    );
    expect(launched).toHaveLength(1);
  });

  it("runs again as the uid:gid the processes run as when it differs from the launch's", async () => {
    const { launched } = await probe({ user: "0:0" }, { uid: 1000, gid: 1000, capPrm: "0" });
    expect(launched.map((p) => p.user)).toEqual(["0:0", "1000:1000"]);
  });

  it("a measurement claiming every capability gives the next probe none the launch did not grant", async () => {
    // The processes "hold" all 41 (a forged line, or a file capability beyond the launch).
    const { launched } = await probe(
      { user: "0:0", capabilities: { drop: ["ALL"], add: ["SETUID"] } },
      { uid: 0, gid: 0, capPrm: "1ffffffffff" },
    );
    expect(launched.length).toBeGreaterThan(0);
    for (const p of launched) expect(p.caps).toEqual(["SETUID"]);
  });

  it("never holds more than the ceiling, whatever the launch granted", async () => {
    const { launched } = await probe(
      {
        user: "0:0",
        capabilities: { drop: [], add: ["SYS_ADMIN", "SYS_PTRACE", "DAC_READ_SEARCH", "NET_ADMIN"] },
      },
      { uid: 0, gid: 0, capPrm: "1ffffffffff" },
    );
    expect(launched.length).toBeGreaterThan(0);
    for (const p of launched) {
      for (const c of p.caps) expect(PROBE_CAPABILITY_CEILING).toContain(c);
      expect(p.caps).not.toContain("SYS_ADMIN");
      expect(p.caps).not.toContain("SYS_PTRACE");
      expect(p.caps).not.toContain("DAC_READ_SEARCH");
    }
    expect(launched.at(-1)!.caps).toContain("NET_ADMIN");
  });

  it("a user given by name is measured first (status only, as nobody holding nothing), then probed as measured", async () => {
    const { launched } = await probe({ user: "nginx" }, { uid: 101, gid: 101, capPrm: "0" });
    expect(launched).toEqual([
      { user: "65534:65534", mode: "ids", caps: [] },
      { user: "101:101", mode: "full", caps: [] },
    ]);
  });

  it("an engine that cannot pause: reads before any write (measure, then one probe), and no write-probe pass", async () => {
    const { ev, launched, results } = await probe(
      { user: "65532:65532" },
      { uid: 65532, gid: 65532, capPrm: "0" },
      { cannotPause: true },
    );
    expect(launched.map((p) => p.mode)).toEqual(["ids", "full"]);
    expect(ev.freeze).toMatchObject({ held: false, reason: expect.stringMatching(/did not pause it/) });
    const writes = results.find((r) => r.id === "containment.writable_roots")!;
    expect(writes.status).toBe("error");
    expect(writes.message).toMatch(/could watch the write probes and race them: not a pass/);
    // What the kernel showed and no write decided still passes (read before any write).
    expect(results.find((r) => r.id === "containment.user")!.status).toBe("pass");
  });
});

describe("the capability bound", () => {
  it("is what the launch grants: the engine's defaults minus drops plus adds, all when privileged", () => {
    const defaults = hardenedInspect().defaults.capabilities;
    expect(grantedCapabilities(hardenedInspect({ capDrop: ["ALL"], capAdd: ["NET_BIND_SERVICE"] }))).toEqual([
      "NET_BIND_SERVICE",
    ]);
    expect(grantedCapabilities(hardenedInspect({ capDrop: ["CAP_CHOWN"], capAdd: [] })).sort()).toEqual(
      defaults.filter((c) => c !== "CHOWN").sort(),
    );
    expect(grantedCapabilities(hardenedInspect({ privileged: true }))).toContain("SYS_ADMIN");
    expect(grantedCapabilities(hardenedInspect({ capDrop: ["ALL"], capAdd: ["ALL"] }))).toContain("BPF");
  });

  it("is cut to the ceiling: a privileged launch gives a probe only the ceiling's", () => {
    expect(capabilityBound(hardenedInspect({ privileged: true })).sort()).toEqual(
      [...PROBE_CAPABILITY_CEILING].sort(),
    );
  });
});
