import { describe, expect, it } from "vitest";
import { createBody } from "../../src/engine/providers/docker/translate.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { type LaunchPlan, LaunchSpecError, planLaunch as plan } from "../../src/suites/lifecycle/create.js";

/** The plan with its launch spec in the Docker API's terms, as the Docker provider sends it. */
const planLaunch = (
  ...args: Parameters<typeof plan>
): LaunchPlan & { options: ReturnType<typeof createBody> } => {
  const p = plan(...args);
  return { ...p, options: createBody(p.spec) };
};

import { runCli } from "../helpers/cli.js";
import { writeInventory } from "../helpers/inventory.js";

const subject = (extra: Record<string, unknown> = {}) =>
  subjectSchema.parse({ name: "svc", image: "example/svc:1", ...extra });

describe("hardened launch settings", () => {
  it("derive every default from the declaration", () => {
    const { options, expected } = planLaunch(subject(), "sha256:abc", "da-" + "0".repeat(32), "c1");
    const hc = options.HostConfig as NonNullable<typeof options.HostConfig> & { CgroupnsMode?: string };
    // The image as it will run: its own USER and PID 1, no forced user, no forced init.
    expect(options.User).toBeUndefined();
    expect(hc.ReadonlyRootfs).toBe(true);
    expect(hc.CapDrop).toEqual(["ALL"]);
    expect(hc.CapAdd).toBeUndefined();
    expect(hc.SecurityOpt).toEqual(["no-new-privileges:true"]);
    expect(hc.CgroupnsMode).toBe("private");
    expect(hc.Init).toBe(false);
    expect(hc.IpcMode).toBe("private");
    expect(hc.Tmpfs).toEqual({ "/tmp": "rw,noexec,nosuid,nodev,size=64m,mode=1777" });
    expect(hc.PortBindings).toEqual({ "8080/tcp": [{ HostIp: "127.0.0.1", HostPort: "" }] });
    expect(hc.LogConfig).toEqual({ Type: "json-file", Config: { "max-size": "1m", "max-file": "2" } });
    expect(expected).toEqual({ memoryBytes: 256 * 1024 * 1024, pidsLimit: 128, nanoCpus: 1e9 });
    expect(options.Labels?.["org.docker-acceptance.role"]).toBe("subject");
  });

  it("runs as the declared user and init, else the image's, and owns each tmpfs for a numeric user", () => {
    const declared = planLaunch(subject({ user: "1000:1001", init: true }), "i", "o", "c", { user: "app" });
    expect(declared.options.User).toBe("1000:1001");
    expect(declared.options.HostConfig?.Init).toBe(true);
    expect(declared.user).toEqual({ value: "1000:1001", from: "inventory" });
    expect(declared.options.HostConfig?.Tmpfs?.["/tmp"]).toBe(
      "rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=1000,gid=1001",
    );
    const image = planLaunch(subject({ writableRoots: ["/tmp", "/data"] }), "i", "o", "c", { user: "65532" });
    expect(image.options.User).toBeUndefined();
    expect(image.user).toEqual({ value: "65532", from: "image" });
    expect(image.options.HostConfig?.Tmpfs?.["/data"]).toBe(
      "rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=65532",
    );
    // /dev/shm not allotted: no shared-memory mount at all.
    expect(image.options.HostConfig?.IpcMode).toBe("none");
    const named = planLaunch(subject(), "i", "o", "c", { user: "nginx" });
    expect(named.options.HostConfig?.Tmpfs?.["/tmp"]).toBe("rw,noexec,nosuid,nodev,size=64m,mode=1777");
  });

  it("relaxes only what the inventory names", () => {
    const { options, relaxed } = planLaunch(subject({ relax: ["read-only-root"] }), "i", "o", "c");
    expect(relaxed).toEqual(["read-only-root"]);
    expect(options.HostConfig?.ReadonlyRootfs).toBe(false);
    expect(options.HostConfig?.SecurityOpt).toEqual(["no-new-privileges:true"]);
    expect(options.HostConfig?.CapDrop).toEqual(["ALL"]);
  });

  it("grants only the declared capabilities and publishes nothing on network none", () => {
    const { options } = planLaunch(
      subject({ capabilities: ["NET_BIND_SERVICE"], network: "none" }),
      "i",
      "o",
      "c",
    );
    expect(options.HostConfig?.CapAdd).toEqual(["NET_BIND_SERVICE"]);
    expect(options.HostConfig?.NetworkMode).toBe("none");
    expect(options.HostConfig?.PortBindings).toBeUndefined();
  });

  it.each([
    [{ writableRoots: ["/proc"] }, "writableRoots", "/proc cannot be an allotted writable root"],
    [{ writableRoots: ["/tmp", "/tmp"] }, "writableRoots", "lists the same path twice"],
    [{ capabilities: ["SYS_ADMIN"] }, "capabilities", "SYS_ADMIN would defeat containment"],
    [{ limits: { memory: "1m" } }, "limits.memory", "below the engine's 6 MiB minimum"],
  ])("refuses a spec it cannot enforce: %j", (extra, field, reason) => {
    let err: unknown;
    try {
      planLaunch(subject(extra), "i", "o", "c");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LaunchSpecError);
    expect((err as LaunchSpecError).field).toBe(field);
    expect((err as LaunchSpecError).reason).toContain(reason);
  });

  it("makes an unenforceable spec a configuration error (exit 2) naming file, field and fix", async () => {
    const file = writeInventory([{ name: "svc", image: "example/svc:1", capabilities: ["SYS_ADMIN"] }]);
    const r = await runCli(["run", "--inventory", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}: subjects[0].capabilities: SYS_ADMIN would defeat containment (fix: drop it`,
    );
  });
});
