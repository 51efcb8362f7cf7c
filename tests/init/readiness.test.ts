// How init picks a subject's readiness when the Dockerfile exposes no port (draft.ts readinessOf):
// the image's HEALTHCHECK, waited on long enough for the engine's first check; with neither a
// HEALTHCHECK nor an EXPOSE, a short delay, said as the last resort it is. Each inventory init
// writes loads through the real loader, as a run loads it (paths checked against the workspace).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { init } from "../../src/commands/init.js";
import { loadInventory } from "../../src/inventory/load.js";
import { BOUNDS } from "../../src/inventory/rules.js";
import { commandLine } from "../helpers/cli.js";
import { tempDir } from "./repos.js";

const lines = (...l: string[]) => `${l.join("\n")}\n`;

/** init in a repository holding only this Dockerfile; what it wrote, raw and as a run loads it. */
async function initOn(dockerfile: string) {
  const ws = tempDir("readiness");
  writeFileSync(path.join(ws, "Dockerfile"), dockerfile);
  let out = "";
  const code = await init(...commandLine("init", ["--workspace", ws]), (t: string) => {
    out += t;
  });
  const file = path.join(ws, "acceptance/inventory.json");
  const raw = JSON.parse(readFileSync(file, "utf8"));
  const loaded = await loadInventory(file, { workspace: ws, existing: true });
  return { code, out, subject: raw.subjects[0], loaded: loaded.inventory.subjects[0]! };
}

describe("init: a HEALTHCHECK and no EXPOSE", () => {
  it("waits on the HEALTHCHECK, past the engine's first check (its interval), and declares no port", async () => {
    const r = await initOn(
      lines(
        "FROM busybox:1.37",
        "USER 10001:10001",
        "HEALTHCHECK CMD test -f /tmp/ready",
        'CMD ["sleep", "3600"]',
      ),
    );
    expect(r.code).toBe(0);
    // Docker's defaults: the first check 30 s after the start, which may itself take 30 s.
    expect(r.subject).toEqual({
      name: "app",
      description: expect.any(String),
      build: { context: "." },
      readiness: { type: "healthcheck" },
      startupTimeoutMs: 70_000,
    });
    expect(r.subject.description).toContain(
      "No port is exposed: ready when the image's HEALTHCHECK (line 3) reports healthy.",
    );
    expect(r.out).toContain("No port is exposed: ready when the image's HEALTHCHECK (line 3)");
    expect(r.loaded).toMatchObject({ readiness: { type: "healthcheck" }, startupTimeoutMs: 70_000 });
  });

  it("a quick check keeps the default start-up time-out, which covers it", async () => {
    const r = await initOn(
      lines(
        "FROM busybox:1.37",
        "USER 10001",
        "HEALTHCHECK --interval=5s --timeout=3s CMD true",
        "CMD sleep 1d",
      ),
    );
    expect(r.subject.readiness).toEqual({ type: "healthcheck" });
    expect(r.subject).not.toHaveProperty("startupTimeoutMs");
    expect(r.loaded.startupTimeoutMs).toBe(30_000);
  });

  it("a start period counts: the check may fail until it ends", async () => {
    const r = await initOn(
      lines(
        "FROM busybox:1.37",
        "USER 10001",
        "HEALTHCHECK --interval=10s --timeout=5s --start-period=1m CMD true",
      ),
    );
    expect(r.subject.startupTimeoutMs).toBe(60_000 + 10_000 + 5_000 + 10_000);
  });

  it("an interval past the start-up bound is capped at the bound, and says so: init still writes a loadable file", async () => {
    const r = await initOn(lines("FROM busybox:1.37", "USER 10001", "HEALTHCHECK --interval=15m CMD true"));
    expect(r.code).toBe(0);
    expect(r.subject.startupTimeoutMs).toBe(BOUNDS.startupTimeoutMs);
    expect(r.subject.description).toContain(
      "Its interval, timeout and start period may take 15 min 30 s, past the 10 min an inventory may wait (startupTimeoutMs): if lifecycle.ready times out, shorten the HEALTHCHECK's --interval or --start-period.",
    );
    expect(r.loaded.startupTimeoutMs).toBe(BOUNDS.startupTimeoutMs);
  });
});

describe("init: neither a HEALTHCHECK nor an EXPOSE (the fallback)", () => {
  for (const [what, healthcheck] of [
    ["no HEALTHCHECK line", []],
    ["HEALTHCHECK NONE over a base's", ["HEALTHCHECK NONE"]],
  ] as const) {
    it(`${what}: a 2 s delay, said to be the last resort with what to declare instead`, async () => {
      const r = await initOn(
        lines("FROM busybox:1.37", "USER 10001", ...healthcheck, 'CMD ["sleep", "3600"]'),
      );
      expect(r.code).toBe(0);
      expect(r.subject).toEqual({
        name: "app",
        description: expect.any(String),
        build: { context: "." },
        readiness: { type: "delay", ms: 2000 },
      });
      const why =
        "No EXPOSE and no HEALTHCHECK: readiness is a 2 s delay; declare `port` and a `readiness` that proves the service answers.";
      expect(r.subject.description).toContain(why);
      expect(r.out).toContain(why); // on the terminal too, in the summary
      // The delay ends well inside the default start-up time-out.
      expect(r.loaded).toMatchObject({ readiness: { type: "delay", ms: 2000 }, startupTimeoutMs: 30_000 });
    });
  }
});
