// Progress by the clock on the real engine: a build step that prints nothing for 35 s still gets
// a line at least every 15 s naming it (BuildKit on Docker, the legacy builder on Podman), and a
// failing step's own output is shown in the job log, not only in the report.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Logger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Report } from "../../src/report/model.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";

function recording(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(...m.split("\n")),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
    group: (_t, fn) => fn(),
  };
  return { log, lines };
}

async function build(dockerfile: string): Promise<{ report: Report; lines: string[] }> {
  const workspace = mkdtempSync(path.join(tmpdir(), "da-progress-"));
  mkdirSync(path.join(workspace, "ctx"));
  writeFileSync(path.join(workspace, "ctx", "Dockerfile"), dockerfile);
  const { log, lines } = recording();
  const report = await runPipeline({
    workspace,
    inventoryPath: writeInventory([
      {
        name: "slow",
        build: { context: "ctx" },
        port: 8080,
        limits: { memory: "64m", pids: 64, cpus: 0.5 },
        readiness: { type: "delay", ms: 100 },
        stopTimeoutMs: 3_000,
      },
    ]),
    suites: ["lifecycle"],
    probeImage: PROBE_IMAGE,
    log,
    signal: AbortSignal.timeout(5 * 60_000),
    engine: newEngine(),
  });
  return { report, lines };
}

/** A unique line so no earlier run's cache serves the step. */
const nonce = () => randomBytes(6).toString("hex");

describe.skipIf(!hasEngine)("build progress by the clock", () => {
  it("names a quiet 35 s step at least twice while it runs", async () => {
    const id = nonce();
    const { report, lines } = await build(
      `FROM ${BASE_IMAGE}\nRUN echo ${id} > /nonce && sleep 35\nUSER 65532:65532\nCMD ["httpd", "-f", "-p", "8080"]\n`,
    );
    const built = report.cases.find((c) => c.id === "lifecycle.build");
    expect(built?.status, built?.message).toBe("pass");
    const beats = lines.filter((l) => /^ {2}build: running .*sleep 35 \(\d+ s\)/.test(l) && l.includes(id));
    expect(beats.length, lines.join("\n")).toBeGreaterThanOrEqual(2);
    // Each names how long the step and the build have run, and the seconds grow.
    const ran = beats.map((l) => Number(/\((\d+) s\)/.exec(l)?.[1]));
    expect(ran[1]! - ran[0]!).toBeGreaterThanOrEqual(10);
    expect(beats[0]).toMatch(/; \d+ s in all$/);
  }, 180_000);

  it("shows a failing step's output in the log, bounded and terminal-safe", async () => {
    const id = nonce();
    const { report, lines } = await build(
      `FROM ${BASE_IMAGE}\nRUN echo "compiling ${id}" && printf 'error: \\033[31mmissing header foo.h\\n' && exit 2\n`,
    );
    const built = report.cases.find((c) => c.id === "lifecycle.build");
    expect(built?.status).toBe("fail");
    const at = lines.findIndex((l) =>
      /^ {6}(step .* failed; its output|build output) \(last lines\):$/.test(l),
    );
    expect(at, lines.join("\n")).toBeGreaterThan(-1);
    const block = lines.slice(at + 1).filter((l) => l.startsWith("      | "));
    expect(block.some((l) => l.includes(`compiling ${id}`))).toBe(true);
    const error = block.find((l) => l.includes("missing header foo.h"));
    expect(error).toBeDefined();
    expect(error).not.toContain("\x1b"); // the escape is shown, not sent to the terminal
    expect(block.length).toBeLessThanOrEqual(21);
  }, 180_000);
});
