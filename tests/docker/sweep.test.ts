import Docker from "dockerode";
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

  it("leaves alone a container that has the owner's label only from its image", async () => {
    // Another tool runs an image whose labels name a run of ours (one kept by cleanup-images:
    // false, or a Dockerfile that writes our labels): the container inherits them, and is not ours.
    const docker = new Docker();
    const owner = newRunId();
    const repo = `da-inherit-${owner.slice(3, 15)}`;
    const maker = await docker.createContainer({ Image: PROBE_IMAGE, Cmd: ["true"] });
    const labels = Object.entries(ownerLabels(owner, "subject")).map(([k, v]) => `LABEL ${k}=${v}`);
    await maker.commit({ repo, tag: "latest", changes: labels });
    await maker.remove();
    const theirs = await docker.createContainer({
      Image: `${repo}:latest`,
      Cmd: ["sleep", "30"],
      name: `${repo}-svc`,
    });
    try {
      expect((await theirs.inspect()).Config.Labels?.["org.docker-acceptance.owner"]).toBe(owner);
      const swept = await runCli(["sweep", "--owner", owner]);
      expect(swept.code).toBe(0);
      expect(swept.stdout).toMatch(
        /retained container .* \(labelled org\.docker-acceptance\.owner=.* but not named by it/,
      );
      expect((await theirs.inspect()).Id).toBe(theirs.id);
    } finally {
      await theirs.remove({ force: true });
      await docker.getImage(`${repo}:latest`).remove();
    }
  });

  it("refuses a malformed owner with a usage error", async () => {
    const r = await runCli(["sweep", "--owner", "not-a-run-id"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--owner "not-a-run-id": expected a run id');
  });
});
