// The engine chosen is the engine spoken to: an endpoint answering as the other engine is refused.
import { describe, expect, it } from "vitest";
import { chooseBuilder } from "../../src/engine/providers/docker/build.js";
import type { DeferredEngine } from "../../src/engine/providers/docker/deferred.js";
import type { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { identityFromVersion } from "../../src/engine/providers/docker/identity.js";
import { createEngine } from "../../src/engine/select.js";
import { ENGINE_KIND, hasEngine } from "../helpers/engine.js";

describe.skipIf(!hasEngine)("engine selection on the real engine", () => {
  // An empty DOCKER_HOST is unset, as the docker CLI reads it.
  const host = process.env.DOCKER_HOST || "unix:///var/run/docker.sock";

  it("auto speaks to the engine DOCKER_HOST names and reads which one it is", async () => {
    const engine = createEngine("auto", { DOCKER_HOST: host });
    await engine.ping();
    expect((await engine.facts()).kind).toBe(ENGINE_KIND);
  });

  it("knows which engine answers without its /version (Podman's waits on the store lock), as /version says it", async () => {
    // The engine behind createEngine()'s (loaded on first use), whose /version is stubbed below.
    const engine = (await (
      createEngine("auto", { DOCKER_HOST: host }) as DeferredEngine
    ).loaded()) as DockerEngine;
    const fromVersion = identityFromVersion(await engine.docker.version());
    engine.docker.version = () => Promise.reject(new Error("/version was asked"));
    const facts = await engine.facts();
    expect(facts.kind).toBe(fromVersion.product);
    expect(facts.name).toBe(
      `${fromVersion.product === "podman" ? "Podman" : "Docker"} ${fromVersion.version}`,
    );
    expect(await engine.builderFor("auto")).toEqual(chooseBuilder("auto", fromVersion));
  });

  it("a ping names the engine: its facts and builder need no further call", async () => {
    const engine = createEngine("auto", { DOCKER_HOST: host }) as DeferredEngine;
    await engine.ping();
    engine.modem.dial = () => {
      throw new Error("the engine was asked again");
    };
    expect((await engine.facts()).kind).toBe(ENGINE_KIND);
    await engine.builderFor("auto");
  });

  it("asking for the other engine is refused at ping, naming what answered", async () => {
    const other = ENGINE_KIND === "podman" ? "docker" : "podman";
    const engine = createEngine(other, { DOCKER_HOST: host, CONTAINER_HOST: host });
    await expect(engine.ping()).rejects.toThrow(
      new RegExp(
        `engine ${other} was asked for, but the endpoint answers as ${ENGINE_KIND === "podman" ? "Podman" : "Docker"} `,
      ),
    );
  });
});
