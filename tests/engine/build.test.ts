// The builder choice, BuildKit's status stream decoded into a readable log, a step name pointed
// back at its Dockerfile line, and which images a legacy build created.
import { describe, expect, it } from "vitest";
import { planCleanup } from "../../src/engine/cleanup.js";
import { instructionOfStep, parseDockerfile } from "../../src/engine/dockerfile.js";
import { chooseBuilder } from "../../src/engine/providers/docker/build.js";
import { maskSecrets, StatusLog } from "../../src/engine/providers/docker/buildkit.js";
import { encodeFields } from "../../src/engine/providers/docker/protowire.js";
import { engineHostOf } from "../../src/engine/providers/docker/translate.js";

const ts = (seconds: number, nanos = 0) =>
  encodeFields([[1, seconds], ...(nanos ? [[2, nanos] as [number, number]] : [])]);
type V = {
  digest: string;
  name: string;
  cached?: boolean;
  started?: number;
  completed?: number;
  error?: string;
};
const vertex = (v: V) =>
  encodeFields([
    [1, v.digest],
    [3, v.name],
    ...(v.cached ? [[4, 1] as [number, number]] : []),
    ...(v.started !== undefined ? [[5, ts(v.started)] as [number, Buffer]] : []),
    ...(v.completed !== undefined ? [[6, ts(v.completed, 500_000_000)] as [number, Buffer]] : []),
    ...(v.error ? [[7, v.error] as [number, string]] : []),
  ]);
const logMsg = (digest: string, text: string) =>
  encodeFields([
    [1, digest],
    [3, 1],
    [4, Buffer.from(text)],
  ]);
const trace = (vertexes: Buffer[], logs: Buffer[] = []) =>
  encodeFields([
    ...vertexes.map((v) => [1, v] as [number, Buffer]),
    ...logs.map((l) => [3, l] as [number, Buffer]),
  ]).toString("base64");

describe("StatusLog: BuildKit's moby.buildkit.trace messages as a readable log", () => {
  it("numbers steps, shows their output, marks cached ones, times the rest, reports the error", () => {
    const lines: string[] = [];
    const status = new StatusLog((l) => lines.push(l));
    status.add(
      trace([
        vertex({
          digest: "sha256:a",
          name: "[1/3] FROM docker.io/library/base",
          cached: true,
          started: 10,
          completed: 10,
        }),
      ]),
    );
    status.add(trace([vertex({ digest: "sha256:b", name: "[2/3] RUN make", started: 10 })]));
    status.add(trace([], [logMsg("sha256:b", "compiling\nlinking\n")]));
    status.add(trace([vertex({ digest: "sha256:b", name: "[2/3] RUN make", started: 10, completed: 12 })]));
    status.add(trace([vertex({ digest: "sha256:c", name: "[3/3] RUN test", started: 12 })]));
    status.add(trace([], [logMsg("sha256:c", "1 failed\n")]));
    status.add(
      trace([
        vertex({
          digest: "sha256:c",
          name: "[3/3] RUN test",
          started: 12,
          completed: 13,
          error: "exit code: 1",
        }),
      ]),
    );
    expect(lines).toEqual([
      "#1 [1/3] FROM docker.io/library/base",
      "#1 CACHED",
      "#2 [2/3] RUN make",
      "#2 compiling",
      "#2 linking",
      "#2 DONE 2.5s",
      "#3 [3/3] RUN test",
      "#3 1 failed",
      "#3 ERROR: exit code: 1",
    ]);
    expect(status.steps.map((s) => [s.n, s.cached, s.durationMs, s.error ?? null])).toEqual([
      [1, true, 500, null],
      [2, false, 2500, null],
      [3, false, 1500, "exit code: 1"],
    ]);
    expect(status.steps[2]?.outputTail).toBe("1 failed\n");
  });

  it("masks secret values in every line and in the step output it keeps", () => {
    const lines: string[] = [];
    const status = new StatusLog((l) => lines.push(l), maskSecrets(["hunter2-value"]));
    status.add(
      trace(
        [vertex({ digest: "d", name: "[1/1] RUN cat /run/secrets/t", started: 1 })],
        [logMsg("d", "hunter2-value\n")],
      ),
    );
    expect(lines.join("\n")).not.toContain("hunter2-value");
    expect(lines).toContain("#1 ***");
    expect(status.steps[0]?.outputTail).toBe("***\n");
  });
});

describe("instructionOfStep: a BuildKit step name back to its Dockerfile line", () => {
  const df = parseDockerfile(
    [
      "# syntax=docker/dockerfile:1",
      "ARG BASE=busybox",
      `FROM \${BASE} AS build`,
      "RUN --mount=type=cache,target=/root/.cache \\",
      "    make \\",
      "  # a comment inside the continuation",
      "    all",
      `FROM \${BASE}`,
      "ENV GREETING=hi",
      'RUN echo "$GREETING world"',
      "RUN make all",
    ].join("\n"),
  );

  it("reads the syntax directive and the stages", () => {
    expect(df.syntax).toEqual({ image: "docker/dockerfile:1", line: 1 });
    expect(df.stageCount).toBe(2);
  });

  it("matches joined continuations within the named stage", () => {
    expect(
      instructionOfStep(df, "[build 2/2] RUN --mount=type=cache,target=/root/.cache     make       all")
        ?.line,
    ).toBe(4);
  });

  it("tells two identical commands apart by their stage", () => {
    expect(instructionOfStep(df, "[stage-1 4/4] RUN make all")?.line).toBe(11);
  });

  it("matches a step whose variables BuildKit expanded", () => {
    expect(instructionOfStep(df, '[stage-1 3/4] RUN echo "hi world"')?.line).toBe(10);
  });

  it("points a FROM step (shown with the normalised reference) at its stage's FROM", () => {
    expect(instructionOfStep(df, "[stage-1 1/4] FROM docker.io/library/busybox")?.line).toBe(8);
  });

  it("has no line for BuildKit's internal steps", () => {
    expect(instructionOfStep(df, "[internal] load metadata for docker.io/library/busybox")).toBeUndefined();
    expect(instructionOfStep(df, "exporting to image")).toBeUndefined();
  });
});

describe("chooseBuilder", () => {
  const docker = { product: "docker", version: "20.10.24", apiVersion: "1.41", os: "linux" };
  it("is BuildKit by default, legacy when the inventory asks, and says why", () => {
    expect(chooseBuilder("auto", docker)).toEqual({
      builder: "buildkit",
      reason: "BuildKit is the default builder (engine API 1.41)",
    });
    expect(chooseBuilder("legacy", docker).reason).toContain("build.builder: legacy");
  });
  it("falls back to legacy on engines without a BuildKit session, naming the reason", () => {
    expect(chooseBuilder("auto", { ...docker, apiVersion: "1.38" })).toMatchObject({
      builder: "legacy",
      reason: expect.stringContaining("predates BuildKit"),
    });
    expect(chooseBuilder("auto", { ...docker, product: "podman", version: "4.3.1" })).toMatchObject({
      builder: "legacy",
      reason: expect.stringContaining("Podman"),
    });
    expect(chooseBuilder("auto", { ...docker, os: "windows" })).toMatchObject({
      builder: "legacy",
      reason: expect.stringContaining("windows containers"),
    });
  });
  it("builds with the legacy builder where Docker keeps images in containerd's store, as /info says", () => {
    // Docker 26.1's /info with "features": {"containerd-snapshotter": true}, as recorded on this host.
    const info = { Driver: "overlayfs", DriverStatus: [["driver-type", "io.containerd.snapshotter.v1"]] };
    const host = engineHostOf(info);
    expect(host.imageStore).toBe("containerd");
    expect(chooseBuilder("auto", { ...docker, version: "28.5.2", apiVersion: "1.51" }, host)).toMatchObject({
      builder: "legacy",
      reason: expect.stringContaining("moby/moby#47717"),
    });
    // The overlay2 store's /info: BuildKit, as before.
    const classic = engineHostOf({ Driver: "overlay2", DriverStatus: [["Backing Filesystem", "extfs"]] });
    expect(classic.imageStore).toBeUndefined();
    expect(chooseBuilder("auto", docker, classic).builder).toBe("buildkit");
  });
});

describe("planCleanup with build-created images known by ID", () => {
  const owner = `da-${"b".repeat(32)}`;
  const img = (id: string, parentId: string, tags: string[] = []) => ({
    id,
    parentId,
    tags,
    labels: {},
    created: 0,
  });
  it("removes unlabelled step images the build created, child-first, and keeps a kept image's ancestry", () => {
    const listing = {
      containers: [],
      images: [
        img("stage0", "base"),
        img("s1", "base"),
        img("final", "s1", [`docker-acceptance:${owner}-x`]),
      ],
    };
    const plan = planCleanup({ owner, builtImages: ["stage0", "s1"] }, listing);
    expect(plan.map((a) => [a.id, a.remove])).toEqual([
      ["final", true],
      ["stage0", true],
      ["s1", true],
    ]);
    const kept = planCleanup({ owner, builtImages: ["stage0", "s1"] }, listing, { removeImages: false });
    expect(kept.find((a) => a.id === "s1")?.remove).toBe(false);
    expect(kept.find((a) => a.id === "stage0")?.remove).toBe(true);
  });
  it("never removes an unlabelled image the build did not create", () => {
    const plan = planCleanup(
      { owner, builtImages: [] },
      { containers: [], images: [img("foreign", "base")] },
    );
    expect(plan[0]?.remove).toBe(false);
  });
});

describe("a Dockerfile is the pull request's: reading it is linear", () => {
  it("a line of many variables and a long continuation are matched exactly, and quickly", () => {
    const many = `RUN ${"$A".repeat(2000)}`;
    const df = parseDockerfile(`FROM base\n${many}\nRUN echo ${"x \\\n".repeat(20_000)}done\n`);
    // A step name that cannot match: a backtracking pattern would try every split of it.
    const shown = `[2/3] RUN ${"a".repeat(3000)}!`;
    expect(instructionOfStep(df, shown)?.line).toBe(2); // "$A" repeated may stand for this text
    expect(instructionOfStep(df, `[2/3] COPY ${"a".repeat(3000)}`)).toBeUndefined();
    expect(df.instructions[2]?.text.endsWith("x done")).toBe(true);
  });

  it("literal parts between variables must appear in order, not overlapping the end", () => {
    const df = parseDockerfile("FROM base\nRUN echo ${A}-$B.tar\n");
    expect(instructionOfStep(df, "[2/2] RUN echo 1-2.tar")?.line).toBe(2);
    expect(instructionOfStep(df, "[2/2] RUN echo 1.tar")).toBeUndefined();
    expect(instructionOfStep(df, "[2/2] RUN echo -.tar")?.line).toBe(2);
    expect(instructionOfStep(df, "[2/2] RUN echo .tar-")).toBeUndefined();
  });
});
