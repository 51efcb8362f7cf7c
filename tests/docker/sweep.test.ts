import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { listOwned } from "../../src/engine/cleanup.js";
import { readBuildContext } from "../../src/engine/context.js";
import { newRunId, OWNER_LABEL, ownedTag, ownerLabels, SUBJECT_LABEL } from "../../src/engine/ownership.js";
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

  it("leaves alone an untagged image built FROM one of the owner's images after it", async () => {
    // A kept image of ours (cleanup-images: false) that another tool builds on: the child inherits
    // the owner label, and once its tag moves on it is untagged like our own build steps.
    const engine = newEngine();
    const owner = newRunId();
    const ours = ownedTag(owner, "web");
    const theirs = `da-inherit-${owner.slice(3, 15)}:latest`;
    const build = async (dockerfile: string, tag: string, labels: Record<string, string>) => {
      const ws = mkdtempSync(path.join(tmpdir(), "da-heir-"));
      writeFileSync(path.join(ws, "Dockerfile"), dockerfile);
      const context = readBuildContext(ws, "Dockerfile");
      return (await engine.build({ context, tag, labels, timeoutMs: 120_000 })).imageId;
    };
    await build(`FROM ${PROBE_IMAGE}\nRUN echo ours > /ours\n`, ours, {
      [OWNER_LABEL]: owner,
      [SUBJECT_LABEL]: "web",
    });
    await new Promise((r) => setTimeout(r, 1100)); // the engine's image clock counts seconds
    const child = await build(`FROM ${ours}\nRUN echo theirs-1 > /theirs\n`, theirs, {});
    const next = await build(`FROM ${PROBE_IMAGE}\nRUN echo theirs-2 > /theirs\n`, theirs, {});
    try {
      const info = await engine.inspectImage(child);
      expect(info.tags).toEqual([]);
      expect(info.labels[OWNER_LABEL]).toBe(owner);
      const swept = await runCli(["sweep", "--owner", owner]);
      expect(swept.code, swept.stdout + swept.stderr).toBe(0);
      expect(swept.stdout).toContain(`removed image ${ours}`);
      expect(swept.stdout).toContain(
        `retained image ${child.slice(0, 19)} (labelled ${OWNER_LABEL}=${owner} but built after ${ours} and not under it`,
      );
      expect((await engine.inspectImage(child)).id).toBe(child);
    } finally {
      for (const id of [next, child]) await engine.removeImage(id).catch(() => undefined);
      await engine.removeImage(ours).catch(() => undefined);
    }
  });

  it("refuses a malformed owner with a usage error", async () => {
    const r = await runCli(["sweep", "--owner", "not-a-run-id"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--owner "not-a-run-id": expected a run id');
  });
});
