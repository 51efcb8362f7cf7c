// Which engine a run talks to, from `engine: auto|docker|podman` and the environment.
import { describe, expect, it } from "vitest";
import { PROVIDER_CATALOGUE } from "../../src/engine/provider-names.js";
import { PROVIDERS } from "../../src/engine/providers/index.js";
import { ENGINE_CHOICES, parseEngineChoice, resolveEndpoint } from "../../src/engine/select.js";
import { REQUEST_OPTIONS } from "../../src/request/options.js";

const none = () => false;
const only =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe("engine selection", () => {
  it("auto takes DOCKER_HOST, then CONTAINER_HOST, then Docker's socket, then Podman's", () => {
    expect(
      resolveEndpoint("auto", { DOCKER_HOST: "unix:///x.sock", CONTAINER_HOST: "unix:///y" }, none),
    ).toEqual({
      provider: "docker",
      host: "unix:///x.sock",
      from: "DOCKER_HOST",
    });
    expect(resolveEndpoint("auto", { CONTAINER_HOST: "unix:///y" }, none).provider).toBe("podman");
    expect(
      resolveEndpoint("auto", {}, only("/var/run/docker.sock", "/run/podman/podman.sock")).provider,
    ).toBe("docker");
    expect(resolveEndpoint("auto", {}, only("/run/podman/podman.sock"))).toEqual({
      provider: "podman",
      host: "unix:///run/podman/podman.sock",
      from: "default socket",
    });
    expect(
      resolveEndpoint(
        "auto",
        { XDG_RUNTIME_DIR: "/run/user/1000" },
        only("/run/user/1000/podman/podman.sock"),
      ).host,
    ).toBe("unix:///run/user/1000/podman/podman.sock");
  });

  it("podman prefers CONTAINER_HOST, then DOCKER_HOST, then its sockets; docker ignores CONTAINER_HOST", () => {
    expect(
      resolveEndpoint("podman", { CONTAINER_HOST: "unix:///c", DOCKER_HOST: "unix:///d" }, none).host,
    ).toBe("unix:///c");
    expect(resolveEndpoint("podman", { DOCKER_HOST: "unix:///d" }, none).host).toBe("unix:///d");
    expect(resolveEndpoint("docker", { CONTAINER_HOST: "unix:///c" }, none)).toEqual({
      provider: "docker",
      host: "unix:///var/run/docker.sock",
      from: "default socket",
    });
  });

  it("refuses an unknown engine with the field and the choices", () => {
    expect(parseEngineChoice(undefined, "--engine")).toBe("auto");
    expect(() => parseEngineChoice("containerd", "--engine")).toThrow(
      /--engine "containerd": expected one of auto, docker, podman/,
    );
  });

  it("offers exactly the registered providers (and auto), in the selection and in the engine input's values", () => {
    const registered = ["auto", ...PROVIDERS.map((p) => p.name)];
    expect([...ENGINE_CHOICES]).toEqual(registered);
    expect([...(REQUEST_OPTIONS.engine as { values: readonly string[] }).values]).toEqual(registered);
    for (const p of PROVIDERS) expect(resolveEndpoint(p.name as never, {}, none).provider).toBe(p.name);
  });

  it("the engine option's description and help name each provider's variable from the provider list", () => {
    const engine = REQUEST_OPTIONS.engine as { description: string; help: string };
    for (const p of PROVIDER_CATALOGUE) {
      expect(engine.description).toContain(p.env);
      expect(engine.description).toContain(`\`${p.name}\``);
      expect(engine.help).toContain(p.env);
    }
  });
});
