// Which credentials the subject probe runs as. When the launch settings leave no capability to hold
// (a numeric non-root uid:gid, or root with every capability dropped), the full probe runs at once
// as those, holding none; its report is kept only when the subject's processes, as the probe read
// them, hold exactly that, and otherwise it is discarded and the probe runs again as measured.
// The engine here is a scripted double that records each probe's launch settings.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ContainerView, Engine, ProbeSpec } from "../../src/engine/provider.js";
import { DOCKER_DEFAULTS } from "../../src/engine/providers/docker/dialect.js";
import { type ContainerInspect, toView } from "../../src/engine/providers/docker/translate.js";
import { collectEvidence, credentialsFromInspect } from "../../src/suites/containment/index.js";
import { hardenedInspect } from "../helpers/evidence.js";

const ID = "c".repeat(64);

/** A probe report as the probe frames it: the lines, then `Z <bytes> <sha256>`. */
function report(lines: string[]): string {
  const body = `${lines.join("\n")}\n`;
  const digest = createHash("sha256").update(body).digest("hex");
  return `${body}Z ${Buffer.byteLength(body)} ${digest}\n`;
}

/** One subject process as the probe reports it (uid and gid, permitted capabilities in hex). */
function processLines(uid: number, gid: number, capPrm: string): string[] {
  return [
    "P 1",
    `S Uid:\t${uid}\t${uid}\t${uid}\t${uid}`,
    `S Gid:\t${gid}\t${gid}\t${gid}\t${gid}`,
    `S CapPrm:\t${capPrm}`,
    "N pid pid:[11]",
    "M 1 0 0:1 / / ro,relatime - overlay overlay ro",
    "R 1",
  ];
}

function scriptedEngine(subject: { uid: number; gid: number; capPrm: string }) {
  const probes: ProbeSpec[] = [];
  const engine = {
    probe: async (spec: ProbeSpec) => {
      probes.push(spec);
      const stdout = report(["V 1", ...processLines(subject.uid, subject.gid, subject.capPrm)]);
      return { stdout, stderr: "", exitCode: 0 };
    },
  } as unknown as Engine;
  return { engine, probes };
}

function doc(user: string, capDrop: string[], capAdd: string[] = []): ContainerView {
  return toView(
    {
      Id: ID,
      Name: "/subject",
      State: { Running: true, Pid: 4242 },
      Config: { User: user, Labels: {} },
      HostConfig: { CapDrop: capDrop, CapAdd: capAdd, PidMode: "", IpcMode: "private" },
      Mounts: [],
      NetworkSettings: { Ports: {} },
    } as unknown as ContainerInspect,
    DOCKER_DEFAULTS,
  );
}

async function probe(inspect: ContainerView, subject: { uid: number; gid: number; capPrm: string }) {
  const { engine, probes } = scriptedEngine(subject);
  const ev = await collectEvidence(
    {
      containerId: ID,
      subject: "s",
      writableRoots: ["/tmp"],
      allowedCapabilities: [],
      network: "any",
      inspect,
    },
    {
      engine,
      owner: "run",
      probeImage: "probe:local",
      host: Promise.resolve({ ns: {} }),
      others: Promise.resolve([]),
    },
  );
  return {
    ev,
    probes: probes.map((p) => ({ user: p.user, capAdd: p.capabilities.length ? p.capabilities : undefined })),
  };
}

describe("the subject probe's credentials", () => {
  it("runs once, as the launch settings' non-root uid:gid with no capability, when the processes hold that", async () => {
    const { ev, probes } = await probe(doc("65532:65532", ["ALL"]), { uid: 65532, gid: 65532, capPrm: "0" });
    expect(probes).toEqual([{ user: "65532:65532", capAdd: undefined }]);
    expect("error" in ev.probe).toBe(false);
  });

  it("discards the first report and runs again as measured when the processes hold capabilities", async () => {
    // 0x400: CAP_NET_BIND_SERVICE (bit 10), e.g. from a file capability on the binary.
    const { ev, probes } = await probe(doc("65532:65532", []), { uid: 65532, gid: 65532, capPrm: "400" });
    expect(probes).toEqual([
      { user: "65532:65532", capAdd: undefined },
      { user: "65532:65532", capAdd: ["NET_BIND_SERVICE"] },
    ]);
    expect("error" in ev.probe ? undefined : ev.probe.uid).toBe(65532);
  });

  it("runs again as the uid:gid the processes run as when it differs from the launch settings", async () => {
    const { probes } = await probe(doc("0:0", ["ALL"]), { uid: 1000, gid: 1000, capPrm: "0" });
    expect(probes.map((p) => p.user)).toEqual(["0:0", "1000:1000"]);
  });

  it("measures first (an ids probe as nobody) when the launch settings could leave capabilities", async () => {
    const { probes } = await probe(doc("0:0", []), { uid: 0, gid: 0, capPrm: "400" });
    expect(probes).toEqual([
      { user: "65534:65534", capAdd: undefined },
      { user: "0:0", capAdd: ["NET_BIND_SERVICE"] },
    ]);
  });

  it("guesses only what can hold no capability: never root with capabilities, a name, or privileged", () => {
    expect(credentialsFromInspect(hardenedInspect())).toEqual({ uid: 65532, gid: 65532, caps: [] });
    expect(credentialsFromInspect(hardenedInspect({ user: "0:0", capDrop: ["ALL"] }))).toEqual({
      uid: 0,
      gid: 0,
      caps: [],
    });
    expect(credentialsFromInspect(hardenedInspect({ user: "0:0", capDrop: [] }))).toBeUndefined();
    expect(
      credentialsFromInspect(hardenedInspect({ user: "root", capDrop: ["ALL"], capAdd: ["CHOWN"] })),
    ).toBeUndefined();
    expect(credentialsFromInspect(hardenedInspect({ user: "", capDrop: [] }))).toBeUndefined();
    expect(credentialsFromInspect(hardenedInspect({ user: "nginx" }))).toBeUndefined();
    expect(credentialsFromInspect(hardenedInspect({ user: "1000" }))).toBeUndefined();
    expect(credentialsFromInspect(hardenedInspect({ privileged: true }))).toBeUndefined();
  });
});
