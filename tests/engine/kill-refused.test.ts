// A stop whose SIGKILL meets a container that exited just as its grace ran out: Docker refuses the
// kill with 409, Podman with a 500 ("can only kill running containers ... container state
// improper", seen in CI under load, an ERROR of lifecycle.stop). Whether it still runs is asked of
// the engine: gone, the stop says it exited; still running, the refusal is the engine's error.
import type Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { DIALECTS } from "../helpers/engine.js";

const improper = () =>
  Object.assign(
    new Error(
      "(HTTP code 500) server error - can only kill running containers. 5ee74035 is in state exited: container state improper",
    ),
    { statusCode: 500 },
  );

/** A container that runs until the SIGKILL; `stillRunning`: the engine shows it running after the refusal. */
function engineWith(stillRunning: boolean) {
  let killed = false;
  const signals: string[] = [];
  const container = {
    inspect: async () => ({ Id: "5ee74035", State: { Running: !killed || stillRunning }, Config: {} }),
    kill: async ({ signal }: { signal: string }) => {
      signals.push(signal);
      if (signal !== "SIGKILL") return;
      killed = true;
      throw improper();
    },
    wait: ({ abortSignal }: { abortSignal: AbortSignal }) =>
      new Promise((_, reject) => abortSignal.addEventListener("abort", () => reject(new Error("aborted")))),
  };
  const docker = { getContainer: () => container } as unknown as Docker;
  return { engine: new DockerEngine(docker, undefined, undefined, DIALECTS), signals };
}

describe("a SIGKILL refused because the container is no longer running", () => {
  it("is an exit within the stop, not an error, when the engine shows it stopped", async () => {
    const { engine, signals } = engineWith(false);
    expect(await engine.stop("5ee74035", 0.05)).toBe("exited");
    expect(signals).toEqual(["SIGTERM", "SIGKILL"]);
  });

  it("stays the engine's error when the engine still shows it running", async () => {
    const { engine } = engineWith(true);
    await expect(engine.stop("5ee74035", 0.05)).rejects.toThrow(/container state improper/);
  });
});
