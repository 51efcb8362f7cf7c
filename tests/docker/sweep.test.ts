import { describe, expect, it } from "vitest";
import { listOwned } from "../../src/engine/cleanup.js";
import { newRunId, ownerLabels } from "../../src/engine/ownership.js";
import { runCli } from "../helpers/cli.js";
import { hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";

describe.skipIf(!hasEngine)("docker-acceptance sweep", () => {
  it("removes an owner's leftovers, proves it by listing, and a second sweep removes nothing", async () => {
    const engine = newEngine();
    const owner = newRunId();
    const bystander = await engine.createContainer({
      Image: PROBE_IMAGE,
      Cmd: ["true"],
      Labels: { "org.example.unrelated": "yes" },
    });
    try {
      const ids = await Promise.all(
        ["subject", "probe"].map((role) =>
          engine.createContainer({
            Image: PROBE_IMAGE,
            Cmd: ["sleep", "30"],
            Labels: ownerLabels(owner, role as "subject"),
          }),
        ),
      );
      await engine.start(ids[0]!);

      const first = await runCli(["sweep", "--owner", owner]);
      expect(first.code).toBe(0);
      for (const id of ids) expect(first.stdout).toContain(`removed container ${id.slice(0, 19)}`);
      expect(first.stdout).toContain(
        `sweep ${owner}: verified by list containers label=org.docker-acceptance.owner=${owner}`,
      );
      expect((await listOwned(engine, { owner })).containers).toEqual([]);

      const second = await runCli(["sweep", "--owner", owner]);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`sweep ${owner}: nothing to remove`);
      // Never touches what it does not own.
      expect((await engine.inspect(bystander)).id).toBe(bystander);
    } finally {
      await engine.removeContainer(bystander);
    }
  });

  it("refuses a malformed owner with a usage error", async () => {
    const r = await runCli(["sweep", "--owner", "not-a-run-id"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--owner "not-a-run-id": expected a run id');
  });
});
