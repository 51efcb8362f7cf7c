// The engine-reach probe's report read back: an answer with an API-version header (Docker's, or
// Podman's Libpod-Api-Version) is the engine; any other HTTP answer is not; silence is nothing.
import { describe, expect, it } from "vitest";
import { parseReach } from "../../src/suites/containment/engine-reach.js";

describe("the engine-reach report", () => {
  it("tells the engine from another HTTP server and from no answer", () => {
    const out = [
      "@@gateway 172.17.0.1",
      "@@ask 172.17.0.1 2375",
      "http/1.0 200 ok",
      "api-version: 1.41",
      "@@end",
      "@@ask 10.88.0.1 8888",
      "http/1.1 200 ok",
      "libpod-api-version: 4.3.1",
      "@@end",
      "@@ask 172.17.0.1 8080",
      "http/1.1 404 not found",
      "@@end",
      "@@ask 127.0.0.1 2375",
      "@@end",
      "",
    ].join("\n");
    expect(parseReach(out)).toEqual({
      gateway: "172.17.0.1",
      asked: [
        { address: "172.17.0.1:2375", answer: "engine" },
        { address: "10.88.0.1:8888", answer: "engine" },
        { address: "172.17.0.1:8080", answer: "http" },
        { address: "127.0.0.1:2375", answer: "none" },
      ],
    });
  });

  it("no route out: no gateway, and only the engine's own address asked", () => {
    expect(parseReach("@@gateway \n@@ask 127.0.0.1 2375\n@@end\n")).toEqual({
      asked: [{ address: "127.0.0.1:2375", answer: "none" }],
    });
  });
});
