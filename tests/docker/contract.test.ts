// The engine contract (tests/engine/contract.ts) against the real engine at DOCKER_HOST: Docker in
// the Docker leg, Podman's compatible socket in the Podman leg (.ci/run).
import { describe, it } from "vitest";
import { engineContract } from "../engine/contract.js";
import { BASE_IMAGE, ENGINE_KIND, hasEngine, newEngine } from "../helpers/engine.js";

if (hasEngine)
  engineContract(`real engine (${ENGINE_KIND})`, () => ({ engine: newEngine(), image: BASE_IMAGE }));
else describe.skip("engine contract: real engine", () => it("needs an engine", () => undefined));
