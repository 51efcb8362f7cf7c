import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listOwned } from "../../src/engine/cleanup.js";
import { pollUntil } from "../../src/engine/deadline.js";
import { OWNER_LABEL } from "../../src/engine/ownership.js";
import { runCli } from "../helpers/cli.js";
import { hasEngine, newEngine } from "../helpers/engine.js";
import { fixtureSubject, writeInventory } from "../helpers/inventory.js";

describe.skipIf(!hasEngine)("cancellation of docker-acceptance run", () => {
  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    it(`${sig} while the subject is starting: exits non-zero within 10 s, leaves nothing owned, keeps cleanup.json`, async () => {
      const engine = newEngine();
      const name = `sig-${sig.toLowerCase()}-${process.pid}`;
      const out = mkdtempSync(path.join(tmpdir(), "da-sig-"));
      const inventory = writeInventory([fixtureSubject("unhealthy", { name, startupTimeoutMs: 120_000 })]);
      const run = runCli([
        "run",
        "--inventory",
        inventory,
        "--suite",
        "lifecycle",
        "--out",
        out,
        "--format",
        "json",
      ]);
      // Wait until the subject container exists (the run is then waiting for readiness).
      const subject = await pollUntil(
        async () => (await engine.listContainers({ subject: name, status: ["running"] }))[0],
        { deadlineMs: 60_000, maxDelayMs: 100 },
      );
      expect(subject, "the subject container never started").toBeDefined();
      const owner = subject!.labels[OWNER_LABEL]!;
      const sent = Date.now();
      run.child.kill(sig);
      const result = await run;
      const tookMs = Date.now() - sent;
      expect(result.code).not.toBe(0);
      expect(result.code).toBe(sig === "SIGINT" ? 130 : 143);
      expect(tookMs).toBeLessThan(10_000);
      const left = await listOwned(engine, { owner });
      const cleanup = JSON.parse(readFileSync(path.join(out, "cleanup.json"), "utf8"));
      expect(left.containers, JSON.stringify(cleanup, null, 1)).toEqual([]);
      expect(left.images).toEqual([]);
      expect(cleanup.owner).toBe(owner);
      expect(cleanup.completed).toBe(true);
      const removed = cleanup.objects.filter((o: { action: string }) => o.action === "removed");
      expect(removed.map((o: { kind: string; id: string }) => o.id)).toContain(subject!.id);
      const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
      // The final report, not the provisional one written when the signal arrived.
      const cancelled = report.errors.find((e: { kind: string }) => e.kind === "cancelled");
      expect(cancelled?.message).toMatch(/cleanup ran$/);
    });
  }
});
