// A user given by name owns its writable roots only where that decides whether it can write them:
// a tmpfs over a directory the image has keeps that directory's mode, so over one anyone may write
// (/tmp) or where the image has nothing, the user's ids are not needed, and the subject is created
// once; over a directory only its owner may write, the ids are read from the image's /etc/passwd
// and the subject is created again with roots that user owns. On the engine double (the real
// engine: redis's /data and nginx's /tmp in tests/docker/realistic-matrix.test.ts).
import { describe, expect, it } from "vitest";
import type { LaunchSpec } from "../../src/engine/provider.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { writeInventory } from "../helpers/inventory.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

const OWNED = "example/owned-data:1";

async function runAs(root: string) {
  const engine = memoryEngine();
  const created: LaunchSpec[] = [];
  const create = engine.create.bind(engine);
  engine.create = (spec, signal) => {
    if (spec.labels["org.docker-acceptance.role"] === "subject") created.push(spec);
    return create(spec, signal);
  };
  engine.addImage(OWNED, {
    files: { "/etc/passwd": "root:x:0:0:root:/root:/bin/sh\napp:x:1000:1001::/:/bin/false\n" },
    dirs: { "/tmp": 0o1777, "/data": 0o755 },
  });
  const subject = {
    name: "svc",
    image: OWNED,
    user: "app",
    command: ["sh", "-c", "echo listening; sleep 300"],
    network: "none",
    readiness: { type: "log", pattern: "listening" },
    writableRoots: [root],
    startupTimeoutMs: 3000,
    stopTimeoutMs: 1000,
  };
  const report = await runPipeline({
    workspace: ".",
    inventoryPath: writeInventory([subject]),
    suites: ["lifecycle"],
    probeImage: MEMORY_BASE,
    log: silentLogger,
    signal: new AbortController().signal,
    engine,
  });
  return { report, calls: engine.calls, tmpfs: created.map((spec) => spec.tmpfs[root]) };
}

describe("lifecycle.create: a user given by name and its writable roots", () => {
  it("over a directory anyone may write, or none, the subject is created once and its ids are not read", async () => {
    for (const root of ["/tmp", "/srv/new"]) {
      const { report, calls, tmpfs } = await runAs(root);
      expect(report.cases.find((c) => c.id === "lifecycle.create")?.status).toBe("pass");
      expect(calls).not.toContain("readFile");
      expect(tmpfs).toEqual(["rw,noexec,nosuid,nodev,size=64m,mode=1777"]);
    }
  });

  it("over a directory only its owner may write, the user's ids are read and the roots are theirs", async () => {
    const { report, calls, tmpfs } = await runAs("/data");
    expect(report.cases.find((c) => c.id === "lifecycle.create")?.status).toBe("pass");
    expect(calls).toContain("readFile");
    expect(tmpfs).toEqual([
      "rw,noexec,nosuid,nodev,size=64m,mode=1777",
      "rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=1000,gid=1001",
    ]);
  });
});
