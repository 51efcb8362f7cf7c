// What judges a pull request on a real engine (issue #20): a probe image named in the PR's
// inventory never runs, and the host reference probe runs unprivileged yet measures.
import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/engine/ownership.js";
import { probeLaunch } from "../../src/engine/trusted-probe.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { measureHostNamespaces } from "../../src/suites/containment/index.js";
import { hostProbeOptions } from "../../src/suites/containment/probe.js";
import { hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { ALL_PINNED, fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

describe.skipIf(!hasEngine)("trust on the engine", () => {
  it("a probe image from the PR's inventory is ignored, and the report says so", async () => {
    // Nothing can be pulled here: had the run used this image it would have been an error.
    const planted = "evil.example/probe:latest";
    const report = await runPipeline({
      workspace: REPO_ROOT,
      inventoryPath: writeInventory([fixtureSubject("hardened")], {
        probeImage: planted,
        suites: { containment: ALL_PINNED.containment },
      }),
      suites: ["containment"],
      probeImage: PROBE_IMAGE,
      log: silentLogger,
      signal: new AbortController().signal,
    });
    expect(report.errors).toEqual([]);
    expect(report.cases.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.verdict).toBe("pass");
    expect(report.trust?.probeImage).toBe(PROBE_IMAGE);
    expect(report.trust?.notes.join("\n")).toContain(`probeImage "${planted}" was ignored`);
    const comment = renderMarkdown(report, { target: "comment" });
    expect(comment).toMatch(/> \[!WARNING\]\n> The inventory's probeImage .*was ignored/);
  }, 180_000);

  it("the host reference runs as nobody with no capability and still reads every host namespace", async () => {
    const opts = hostProbeOptions("da-x", PROBE_IMAGE);
    expect(opts.user).toBe("65534:65534");
    expect(opts.capabilities).toEqual([]);
    expect(probeLaunch(opts).capabilities).toEqual({ drop: ["ALL"], add: [] });
    const host = await measureHostNamespaces(newEngine(), newRunId(), PROBE_IMAGE);
    expect(Object.keys(host.ns).sort()).toEqual(["cgroup", "ipc", "mnt", "net", "pid", "uts"]);
    expect(host.ns.pid).toMatch(/^pid:\[\d+\]$/);
  }, 60_000);
});
