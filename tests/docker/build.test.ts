// Builds on the real engine: BuildKit by default (cache, tmpfs and secret mounts, targets), a
// failing step pointed back at its line, a prebuilt image's pinned ID, and what Docker's legacy
// builder says of a Dockerfile (what any legacy build leaves: legacy-build.test.ts, both engines).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Report } from "../../src/report/model.js";
import { buildCase, fresh, nothingOwned, run, SERVE, subject } from "../helpers/build-subject.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";

describe.skipIf(!hasEngine)("builds on the real engine", () => {
  it("builds a cache-mount (and bind-mount) Dockerfile with BuildKit by default and says so", async () => {
    const s = subject(
      `FROM ${BASE_IMAGE}\n${fresh()}RUN --mount=type=cache,target=/cache echo x >> /cache/n && wc -l < /cache/n\nRUN --mount=type=bind,source=health,target=/mnt/health grep -q ok /mnt/health\nCOPY health /var/www/health\n${SERVE}`,
    );
    const r = await run(s);
    const b = buildCase(r);
    expect(b.status).toBe("pass");
    expect(b.message).toContain("with BuildKit");
    expect(b.evidence.builder).toBe("buildkit");
    expect(r.subjects[0]?.builder).toBe("buildkit");
    expect(r.subjects[0]?.builderReason).toMatch(/default builder/);
    // The log names the steps, readable: `#n [stage i/n] RUN --mount=type=cache ...`.
    expect(r.subjects[0]?.buildLog).toMatch(/#\d+ \[.*\] RUN --mount=type=cache,target=\/cache/);
    expect(r.cases.find((c) => c.id === "lifecycle.ready")?.status).toBe("pass");
    await nothingOwned(r);
  });

  it("gives two subjects built from one Dockerfile an image each, so one's cleanup never takes the other's", async () => {
    // Alike, they once shared one image ID: the first to finish removed its tag while the other's
    // build was settling on that ID, and the other's create met "No such image".
    const s = subject(`FROM ${BASE_IMAGE}\n${fresh()}COPY health /var/www/health\n${SERVE}`);
    const r = await runPipeline({
      workspace: s.workspace,
      inventoryPath: writeInventory([
        { ...s.subject, name: "alike-a" },
        { ...s.subject, name: "alike-b" },
      ]),
      suites: ["lifecycle"],
      probeImage: PROBE_IMAGE,
      log: silentLogger,
      signal: new AbortController().signal,
      engine: newEngine(),
      parallelism: 2,
    });
    const builds = r.cases.filter((c) => c.id === "lifecycle.build");
    expect(builds.map((c) => `${c.subject}: ${c.status}`)).toEqual(["alike-a: pass", "alike-b: pass"]);
    const ids = r.subjects.map((x) => x.imageId);
    expect(ids.every((id) => id?.startsWith("sha256:"))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    await nothingOwned(r);
  });

  it("builds a tmpfs-mount Dockerfile, and what the step wrote to the tmpfs is not in the image", async () => {
    const s = subject(
      `FROM ${BASE_IMAGE}\n${fresh()}RUN --mount=type=tmpfs,target=/var/www/scratch echo t > /var/www/scratch/tmp-file && cat /var/www/scratch/tmp-file\nCOPY health /var/www/health\n${SERVE}`,
      {},
      { probes: [{ path: "/scratch/tmp-file", expectStatus: 404 }] },
    );
    const r = await run(s);
    expect(buildCase(r).status).toBe("pass");
    expect(r.cases.find((c) => c.id === "lifecycle.probes")?.status).toBe("pass");
    await nothingOwned(r);
  });

  it("builds the target stage of a multi-stage Dockerfile, not the stages after it", async () => {
    const s = subject(
      [
        `FROM ${BASE_IMAGE} AS assets`,
        "RUN mkdir -p /out && echo from-assets > /out/index.html",
        `FROM ${BASE_IMAGE} AS site`,
        "COPY --from=assets /out /var/www",
        "COPY health /var/www/health",
        SERVE,
        `FROM ${BASE_IMAGE} AS broken`,
        "RUN exit 3",
        "",
      ].join("\n"),
      { target: "site" },
      { probes: [{ path: "/", bodyContains: "from-assets" }] },
    );
    const r = await run(s);
    expect(buildCase(r).status).toBe("pass");
    expect(buildCase(r).evidence.target).toBe("site");
    expect(r.subjects[0]?.buildLog).not.toContain("exit 3");
    expect(r.cases.find((c) => c.id === "lifecycle.probes")?.status).toBe("pass");
    await nothingOwned(r);
  });

  it("mounts a secret from the named environment variable and leaves it nowhere: log, report, history, filesystem", async () => {
    const secret = `s3cr3t-${randomBytes(12).toString("hex")}`;
    process.env.DA_TEST_BUILD_SECRET = secret;
    const s = subject(
      // The sleep outlasts BuildKit's 1 s session health check: the session must answer it.
      `FROM ${BASE_IMAGE}\n${fresh()}RUN sleep 2\nRUN --mount=type=secret,id=api_token cat /run/secrets/api_token; echo; wc -c < /run/secrets/api_token\nCOPY health /var/www/health\n${SERVE}`,
      { secrets: { api_token: "DA_TEST_BUILD_SECRET" } },
    );
    let r: Report | undefined;
    try {
      r = await run(s, { removeImages: false });
      const b = buildCase(r);
      expect(b.status, JSON.stringify(b)).toBe("pass");
      // The step printed the secret: the log shows *** in its place, with the byte count after it.
      expect(r.subjects[0]?.buildLog).toContain("***");
      expect(r.subjects[0]?.buildLog).toContain(String(secret.length));
      expect(JSON.stringify(r)).not.toContain(secret);
      const image = newEngine().docker.getImage(b.evidence.imageId as string);
      const history = await image.history();
      expect(JSON.stringify(history)).not.toContain(secret);
      expect(JSON.stringify(await image.inspect())).not.toContain(secret);
      // The whole image, every layer, as `docker save` writes it.
      const tar = await new Promise<Buffer>((resolve, reject) => {
        image.get((err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve(Buffer.concat(chunks)));
          stream.on("error", reject);
        });
      });
      expect(tar.length).toBeGreaterThan(1000);
      expect(tar.includes(Buffer.from(secret))).toBe(false);
    } finally {
      delete process.env.DA_TEST_BUILD_SECRET;
      if (r) await cleanupOwned(newEngine(), { owner: r.runId }, { trigger: "test-teardown" });
    }
  });

  it("reports a failing RUN step with its Dockerfile line, its output's last lines and the fix", async () => {
    const s = subject(
      `FROM ${BASE_IMAGE}\n${fresh()}RUN echo preparing && \\\n    echo the-last-words && \\\n    exit 7\nCOPY health /var/www/health\n${SERVE}`,
    );
    const r = await run(s);
    const b = buildCase(r);
    expect(b.status).toBe("fail");
    expect(b.message).toMatch(/RUN echo preparing .* failed at ctx\/Dockerfile:3/);
    expect(b.evidence.line).toBe(3);
    expect(String(b.evidence.stepOutputTail)).toContain("the-last-words");
    expect(b.remediation).toContain("ctx/Dockerfile:3");
    expect(r.cases.find((c) => c.id === "lifecycle.create")?.status).toBe("skip");
    await nothingOwned(r);
  });

  it("stops at a # syntax= frontend the engine cannot get with an error naming the directive and the way out", async () => {
    const s = subject(`# syntax=docker.invalid/no-such/dockerfile:1\nFROM ${BASE_IMAGE}\n${SERVE}`);
    const r = await run(s);
    const b = buildCase(r);
    expect(b.status).toBe("error");
    expect(b.message).toContain("# syntax=docker.invalid/no-such/dockerfile:1");
    expect(b.message).toContain("ctx/Dockerfile:1");
    expect(b.remediation).toMatch(
      /remove the "# syntax=" line .* or make docker.invalid\/no-such\/dockerfile:1 available/,
    );
    await nothingOwned(r);
  });

  it("names the pull request's own line when the legacy builder cannot parse its Dockerfile", async () => {
    const s = subject(`FROM ${BASE_IMAGE}\n\nFROB the-engine\n${SERVE}`, { builder: "legacy" });
    const r = await run(s);
    expect(buildCase(r).status).toBe("fail");
    expect(buildCase(r).message).toMatch(/line 3\b/);
    expect(buildCase(r).message).toMatch(/frob/i);
    await nothingOwned(r);
  });

  it("refuses build.secrets with the legacy builder, before building", async () => {
    process.env.DA_TEST_BUILD_SECRET = "unused-value";
    try {
      const s = subject(`FROM ${BASE_IMAGE}\n${SERVE}`, {
        builder: "legacy",
        secrets: { t: "DA_TEST_BUILD_SECRET" },
      });
      const r = await run(s);
      expect(buildCase(r).status).toBe("error");
      expect(buildCase(r).message).toContain("need BuildKit");
      await nothingOwned(r);
    } finally {
      delete process.env.DA_TEST_BUILD_SECRET;
    }
  });
});

describe.skipIf(!hasEngine)("a prebuilt image with its ID pinned", () => {
  const prebuilt = (imageId: string) => ({
    workspace: mkdtempSync(path.join(tmpdir(), "da-pin-")),
    subject: {
      name: "prebuilt",
      image: BASE_IMAGE,
      imageId,
      command: ["httpd", "-f", "-p", "8080", "-h", "/"],
      healthPath: "/",
      startupTimeoutMs: 10_000,
      stopTimeoutMs: 2_000,
    },
  });

  it("passes lifecycle.build when the image has the pinned ID", async () => {
    const baseId = (await newEngine().inspectImage(BASE_IMAGE)).id;
    const r = await run(prebuilt(baseId));
    expect(buildCase(r).status).toBe("pass");
    expect(buildCase(r).evidence.pinVerified).toBe(true);
  });

  it("takes the pin from the environment (env:NAME), as a build-push-action step passes it", async () => {
    process.env.DA_TEST_IMAGE_ID = (await newEngine().inspectImage(BASE_IMAGE)).id;
    try {
      const r = await run(prebuilt("env:DA_TEST_IMAGE_ID"));
      expect(buildCase(r).status).toBe("pass");
      expect(buildCase(r).evidence.pinned).toBe(process.env.DA_TEST_IMAGE_ID);
      process.env.DA_TEST_IMAGE_ID = `sha256:${"1".repeat(64)}`;
      expect(buildCase(await run(prebuilt("env:DA_TEST_IMAGE_ID"))).status).toBe("fail");
      delete process.env.DA_TEST_IMAGE_ID;
      const unset = buildCase(await run(prebuilt("env:DA_TEST_IMAGE_ID")));
      expect(unset.status).toBe("error");
      expect(unset.message).toBe("imageId comes from $DA_TEST_IMAGE_ID, which is not set");
    } finally {
      delete process.env.DA_TEST_IMAGE_ID;
    }
  });

  it("fails lifecycle.build, and creates nothing, when the image is not the pinned one", async () => {
    const other = `sha256:${"0".repeat(64)}`;
    const r = await run(prebuilt(other));
    const b = buildCase(r);
    expect(b.status).toBe("fail");
    expect(b.message).toContain(`not the pinned ${other}`);
    expect(b.remediation).toContain("imageId");
    expect(r.cases.find((c) => c.id === "lifecycle.create")?.status).toBe("skip");
  });
});
