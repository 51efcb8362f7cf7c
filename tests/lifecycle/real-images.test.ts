// Pure parts of "the image as it will run" (crash causes and exits: diagnose.test.ts): the
// `docker run` line quoted, memory sizes as Docker reads them, readiness declarations checked
// when the inventory loads, parallel subjects' log lines kept whole and attributed, and the two
// containment papercuts (a stopped container's network, an allowed capability never in effect).
import { describe, expect, it } from "vitest";
import { runLine } from "../../src/engine/providers/docker/run-line.js";
import { readinessOf } from "../../src/inventory/reading.js";
import { parseMemory } from "../../src/inventory/rules.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { type Logger, prefixedLogger } from "../../src/log.js";
import { renderText } from "../../src/report/text.js";
import type { ContainmentEvidence } from "../../src/suites/containment/evidence.js";
import { gradeContainment } from "../../src/suites/containment/grade.js";
import type { InspectEvidence } from "../../src/suites/containment/inspect.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";
import { reproduceImage, shellQuote } from "../../src/suites/lifecycle/reproduce.js";
import { lookupGroup, lookupPasswd, numericIds } from "../../src/suites/lifecycle/user.js";
import { hardenedInspect } from "../helpers/evidence.js";
import { makeCase, makeReport } from "../helpers/report.js";

const subject = (extra: Record<string, unknown> = {}) =>
  subjectSchema.parse({ name: "svc", image: "example/svc:1", ...extra });

describe("the docker run line", () => {
  it("quotes every word for a POSIX shell", () => {
    expect(shellQuote("plain/ok:1.0")).toBe("plain/ok:1.0");
    expect(shellQuote("it's $HOME")).toBe(`'it'"'"'s $HOME'`);
    expect(shellQuote("a;rm -rf /")).toBe("'a;rm -rf /'");
  });

  it("reproduces the launch with environment names only", () => {
    const s = subject({
      env: { TOKEN: "secret-value" },
      capabilities: ["NET_BIND_SERVICE"],
      init: true,
      user: "1000:1000",
      writableRoots: ["/tmp"],
      command: ["serve", "--name", "a b"],
    });
    const { spec } = planLaunch(s, "sha256:abc", "o", "c");
    expect(runLine("docker", spec, reproduceImage(s))).toBe(
      "docker run --rm --user 1000:1000 --init --read-only --tmpfs /tmp:rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=1000,gid=1000 --cap-drop ALL --cap-add NET_BIND_SERVICE --security-opt no-new-privileges:true --ipc none --cgroupns private --memory 268435456b --memory-swap 268435456b --pids-limit 128 --cpus 1 -p 127.0.0.1::8080 --stop-timeout 10 -e TOKEN example/svc:1 serve --name 'a b'",
    );
  });
});

describe("inventory fields", () => {
  it.each([
    ["256MB", 256 * 1024 ** 2],
    ["256m", 256 * 1024 ** 2],
    ["1g", 1024 ** 3],
    ["1GiB", 1024 ** 3],
    ["512 k", 512 * 1024],
    ["1.5g", 1.5 * 1024 ** 3],
    ["100", 100],
  ])("memory %s is %i bytes", (text, bytes) => {
    expect(subject({ limits: { memory: text } }).limits.memory).toBe(text);
    expect(parseMemory(text)).toBe(bytes);
  });

  it("refuses a size Docker would refuse, a bad log pattern and healthPath beside readiness", () => {
    expect(() => subject({ limits: { memory: "lots" } })).toThrow();
    expect(() => subject({ readiness: { type: "log", pattern: "([" } })).toThrow(
      /not a valid regular expression/,
    );
    expect(() => subject({ healthPath: "/h", readiness: { type: "tcp" } })).toThrow(
      /both `healthPath` and `readiness`/,
    );
    expect(() => subject({ readiness: { type: "carrier-pigeon" } })).toThrow();
  });

  it("readiness defaults to GET healthPath (or /health) answering 200", () => {
    expect(readinessOf(subject())).toEqual({ type: "http", path: "/health", expectStatus: 200 });
    expect(readinessOf(subject({ healthPath: "/ready" }))).toEqual({
      type: "http",
      path: "/ready",
      expectStatus: 200,
    });
    expect(readinessOf(subject({ readiness: { type: "delay", ms: 500 } }))).toEqual({
      type: "delay",
      ms: 500,
    });
  });

  it("resolves a user given by name from passwd and group text", () => {
    expect(numericIds("65532:65532")).toEqual({ uid: 65532, gid: 65532 });
    expect(numericIds("redis")).toBeUndefined();
    expect(
      lookupPasswd("root:x:0:0::/:/bin/sh\nredis:x:100:101::/data:/usr/sbin/nologin\n", "redis"),
    ).toEqual([100, 101]);
    expect(lookupGroup("root:x:0:\nwww-data:x:33:\n", "www-data")).toBe(33);
  });
});

describe("parallel subjects' log lines", () => {
  it("carry the subject's name on every line and go out whole", () => {
    const writes: string[] = [];
    const sink: Logger = {
      info: (m) => writes.push(m),
      warn: (m) => writes.push(m),
      error: (m) => writes.push(m),
      group: (_t, fn) => fn(),
    };
    const a = prefixedLogger(sink, "a");
    a.info("      log (last lines):\n      | one\n      | two");
    expect(writes).toEqual(["[a]       log (last lines):\n[a]       | one\n[a]       | two"]);
  });
});

describe("containment papercuts", () => {
  const inspect = (over: Partial<InspectEvidence> = {}) =>
    hardenedInspect({ capAdd: ["NET_BIND_SERVICE"], ...over });
  const target = {
    subject: "s",
    writableRoots: ["/tmp"],
    allowedCapabilities: ["NET_BIND_SERVICE"],
    network: "bridge" as const,
  };

  it("containment.network never passes a container that is not running", () => {
    const ev: ContainmentEvidence = {
      inspect: inspect({ running: false }),
      probe: { error: "the container is not running" },
      host: { error: "n/a" },
    };
    const network = gradeContainment(ev, target).find((r) => r.id === "containment.network")!;
    expect(network.status).toBe("skip");
    expect(network.message).toContain("not running");
  });

  it("an allowed capability the subject never holds in effect is a Tier 2 note on a pass", () => {
    const bnd = "0000000000000400"; // NET_BIND_SERVICE in the bounding set only
    const ev = {
      inspect: inspect(),
      probe: {
        processes: [
          {
            pid: 1,
            status: { CapEff: "0", CapPrm: "0", CapBnd: bnd, CapAmb: "0", Uid: "65532\t65532\t65532\t65532" },
            ns: {},
            unreadable: [],
          },
        ],
        mountinfo: [],
        writes: [],
        exists: {},
        rootReadable: true,
        uid: 65532,
        gid: 65532,
      },
      host: { error: "n/a" },
    } as unknown as ContainmentEvidence;
    const caps = gradeContainment(ev, target).find((r) => r.id === "containment.capabilities")!;
    expect(caps.status).toBe("pass");
    expect(caps.message).toContain(
      "Tier 2 note (least privilege): NET_BIND_SERVICE allowed but in no process's effective set",
    );
    expect(caps.evidence.unusedAllowed).toEqual(["NET_BIND_SERVICE"]);
  });
});

describe("the terminal report of a failing subject", () => {
  it("shows the bounded, escaped log excerpt under the failed case and one docker run line", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    const report = makeReport({
      subjects: [{ name: "web", phases: [], reproduce: "docker run --rm --read-only img" }],
      cases: [
        makeCase({
          subject: "web",
          id: "lifecycle.ready",
          status: "fail",
          message: "exited with code 1",
          evidence: { logExcerpt: `${lines.join("\n")}\n\u001b[31mcannot write pid file\u001b[0m\n` },
        }),
      ],
    });
    const text = renderText(report);
    expect(text).toContain("      | [31mcannot write pid file[0m");
    expect(text).not.toContain("\u001b");
    expect(text).not.toContain("| line 20\n");
    expect(text).toContain("| line 21\n");
    expect(text).toContain("Reproduce by hand:\n  - web: docker run --rm --read-only img\n");
  });
});
