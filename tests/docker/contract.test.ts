// The engine contract (tests/engine/contract.ts) against the real engine at DOCKER_HOST: Docker in
// the Docker leg, Podman's compatible socket in the Podman leg (.ci/run).
import { describe, it } from "vitest";
import { engineContract } from "../engine/contract.js";
import { BASE_IMAGE, ENGINE_KIND, hasEngine, newEngine } from "../helpers/engine.js";

/** Podman 4.3's compatible API ignores these (tests/helpers/differences.ts, README "Engines"). */
const PODMAN_IGNORES = ["CgroupnsMode", "IpcMode", "Tmpfs"];

if (hasEngine)
  engineContract(`real engine (${ENGINE_KIND})`, () => ({
    engine: newEngine(),
    image: BASE_IMAGE,
    knownDeviations: ENGINE_KIND === "podman" ? PODMAN_IGNORES : [],
  }));
else describe.skip("engine contract: real engine", () => it("needs an engine", () => undefined));
