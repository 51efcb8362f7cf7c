import { describe, expect, it } from "vitest";
import { createBody } from "../../src/engine/providers/docker/translate.js";
import { signalName, signalNumber } from "../../src/engine/signals.js";
import { subjectSchema } from "../../src/inventory/schema.js";
import { planLaunch } from "../../src/suites/lifecycle/create.js";

const subject = (extra: Record<string, unknown> = {}) =>
  subjectSchema.parse({ name: "svc", image: "example/svc:1", ...extra });

const image = {
  user: "app",
  entrypoint: ["python3", "/opt/site/serve.py"],
  cmd: ["--greeting", "hi"],
  workingDir: "/srv/site",
  envNames: ["PATH", "SITE_PORT"],
  stopSignal: "SIGUSR2",
  exposedPorts: ["8081/tcp"],
  volumes: ["/var/cache/site", "/data"],
};

describe("the image's runtime configuration", () => {
  it("is taken from the image where the inventory is silent, and says so field by field", () => {
    const plan = planLaunch(
      subject({ port: 8081, writableRoots: ["/tmp", "/var/cache/site"] }),
      "i",
      "o",
      "c",
      image,
    );
    expect(createBody(plan.spec).StopSignal).toBe("SIGUSR2");
    expect(plan.runtime).toEqual({
      user: { value: "app", from: "image" },
      entrypoint: { value: '["python3","/opt/site/serve.py"]', from: "image" },
      command: { value: '["--greeting","hi"]', from: "image" },
      workingDir: { value: "/srv/site", from: "image" },
      env: { PATH: "image", SITE_PORT: "image" },
      stopSignal: { value: "SIGUSR2", from: "image" },
      healthcheck: { value: "none", from: "engine default" },
      port: { value: "8081/tcp (the image exposes 8081/tcp)", from: "inventory" },
      volumes: {
        "/var/cache/site": "an allotted writable root (a tmpfs over the VOLUME)",
        "/data": "the engine's anonymous volume (not allotted: containment.mounts)",
      },
    });
  });

  it("says where the engine mounts a VOLUME at a relative path: not matched to an allotted root", () => {
    const plan = planLaunch(subject(), "i", "o", "c", { volumes: ["../../tmp", "data"] });
    expect(plan.runtime.volumes).toEqual({
      "../../tmp":
        "the engine's anonymous volume at /tmp (a relative path: not matched to an allotted root, mounted over or under what the launch mounts there: containment.mounts, containment.writable_roots)",
      data: "the engine's anonymous volume at /data (a relative path: not matched to an allotted root, mounted over or under what the launch mounts there: containment.mounts, containment.writable_roots)",
    });
  });

  it("lets the inventory's user, command and environment win, names only", () => {
    const plan = planLaunch(
      subject({ user: "1000:1000", command: ["serve"], env: { SITE_PORT: "9000", TOKEN: "s3cret" } }),
      "i",
      "o",
      "c",
      image,
    );
    expect(plan.runtime.user).toEqual({ value: "1000:1000", from: "inventory" });
    expect(plan.runtime.command).toEqual({ value: '["serve"]', from: "inventory" });
    expect(plan.runtime.env).toEqual({ PATH: "image", SITE_PORT: "inventory", TOKEN: "inventory" });
    expect(JSON.stringify(plan.runtime)).not.toContain("s3cret");
  });

  it("falls back to the engine's defaults for an image that declares nothing", () => {
    const plan = planLaunch(subject(), "i", "o", "c", {});
    expect(plan.spec.stop?.signal).toBe("SIGTERM");
    expect(plan.runtime.stopSignal).toEqual({ value: "SIGTERM", from: "engine default" });
    expect(plan.runtime.user.from).toBe("engine default");
    expect(plan.runtime.workingDir).toEqual({ value: "/", from: "engine default" });
  });

  it.each([
    ["SIGINT", "SIGINT", 2],
    ["INT", "SIGINT", 2],
    ["2", "SIGINT", 2],
    ["sigquit", "SIGQUIT", 3],
    ["SIGRTMIN+3", "SIGRTMIN+3", 37],
    ["RTMAX", "SIGRTMIN+30", 64],
    // Names the engine's signal table has and Node's does not (moby/sys/signal).
    ["SIGCLD", "SIGCHLD", 17],
    ["UNUSED", "SIGSYS", 31],
  ])("reads STOPSIGNAL %s as %s (%d)", (raw, name, n) => {
    expect(signalName(raw)).toBe(name);
    expect(signalNumber(raw)).toBe(n);
  });

  it("reads an image's own spelling of a signal it does not know as not a signal", () => {
    expect(signalNumber("SIGNOPE")).toBeUndefined();
    expect(signalNumber("99")).toBeUndefined();
    expect(planLaunch(subject(), "i", "o", "c", { stopSignal: "SIGNOPE" }).spec.stop?.signal).toBe("SIGNOPE");
  });

  it("shows a hostile image's config to a bound, and still launches from all of it", () => {
    // EXPOSE 1-65535 is 65,535 ports: listed whole, 740 KB of report.json for one field.
    const ports = Array.from({ length: 65_535 }, (_, i) => `${i + 1}/tcp`);
    const envNames = Array.from({ length: 2_000 }, (_, i) => `N${i}${"y".repeat(200)}`);
    const volumes = Array.from({ length: 300 }, (_, i) => `/vol${i}`);
    const entrypoint = ["sh", "-c", "serve", ...Array.from({ length: 500 }, () => "e".repeat(100))];
    const plan = planLaunch(subject({ writableRoots: ["/tmp", "/vol299"] }), "i", "o", "c", {
      exposedPorts: ports,
      envNames,
      volumes,
      entrypoint,
      workingDir: `/${"w".repeat(10_000)}`,
    });
    const shown = JSON.stringify(plan.runtime);
    expect(shown.length).toBeLessThan(40_000);
    expect(plan.runtime.port.value).toMatch(
      /^8080\/tcp \(the image exposes 1\/tcp, 2\/tcp, .* and 65471 more\)$/,
    );
    expect(plan.runtime.omitted).toEqual({ env: 1_936, volumes: 236 });
    expect(Object.keys(plan.runtime.env)).toHaveLength(64);
    expect(plan.runtime.entrypoint.value).toMatch(/… \(\d+ more characters\)$/);
    expect(plan.runtime.workingDir.value.length).toBeLessThan(2_100);
    // The launch itself is not clipped: the allotted root past the shown ones is still a tmpfs.
    expect(plan.spec.tmpfs["/vol299"]).toBeDefined();
  });
});
