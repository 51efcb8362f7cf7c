// Real-engine tests: with CI=true a missing engine is a failure, never a skip.
import Docker from "dockerode";
import { listOwned } from "../../src/engine/cleanup.js";
import { dockerDialect } from "../../src/engine/providers/docker/dialect.js";
import { DockerEngine } from "../../src/engine/providers/docker/engine.js";
import { readThroughRace } from "../../src/engine/providers/docker/storage-race.js";
import { type CreateOptions, createBody } from "../../src/engine/providers/docker/translate.js";
import { podmanDialect } from "../../src/engine/providers/podman/index.js";
import type { CleanupEvidence } from "../../src/report/model.js";
import type { LaunchPlan } from "../../src/suites/lifecycle/create.js";

export const BASE_IMAGE = process.env.DA_BASE_IMAGE ?? "docker-acceptance/busybox:local";
/** The trusted probe image in tests: nothing can be pulled here, so the local busybox stands in. */
export const PROBE_IMAGE = BASE_IMAGE;

let available: boolean | undefined;

export async function engineAvailable(): Promise<boolean> {
  if (available !== undefined) return available;
  try {
    await new Docker().ping();
    // Podman under a parallel file's cleanup can answer this read with its storage race.
    await readThroughRace(() => new Docker().getImage(BASE_IMAGE).inspect());
    available = true;
  } catch (err) {
    if (process.env.CI) {
      throw new Error(
        `CI=true but no Docker engine with ${BASE_IMAGE} answers (${(err as Error).message}); run scripts/engine.sh first`,
      );
    }
    available = false;
  }
  return available;
}

/** Use as `describe.skipIf(!(await hasEngine()))` is not possible at collect time, so: */
export const hasEngine = await engineAvailable();

/** The dialects createEngine() gives the Docker API transport (src/engine/providers/index.ts). */
export const DIALECTS = [dockerDialect, podmanDialect];

/** The Docker API transport at DOCKER_HOST, knowing both dialects (as createEngine() builds it). */
export function newEngine(): DockerEngine {
  return new DockerEngine(undefined, undefined, undefined, DIALECTS);
}

/** A launch plan's create body in the Docker API's terms (fixtures deviate from it there). */
export function dockerOptions(plan: LaunchPlan): CreateOptions {
  return createBody(plan.spec);
}

/** Which engine answers (DOCKER_HOST may point at Podman's Docker-compatible socket). */
export const ENGINE_KIND: "docker" | "podman" | undefined = hasEngine
  ? ((await newEngine().facts()).kind as "docker" | "podman")
  : undefined;

/** What kept a cleanup from completing, as an assertion message: what is left, failed or errored. */
export function cleanupProblems(e: CleanupEvidence): string {
  const failed = e.objects.filter((o) => o.action === "failed");
  return JSON.stringify({ remaining: e.remaining, errors: e.errors, failed });
}

/** What a run's cleanup did with each object and why, as an assertion message when some is left. */
export function cleanupStory(e: CleanupEvidence | null | undefined): string {
  if (!e) return "the report has no cleanup evidence";
  const objects = e.objects.map(({ kind, id, tag, action, reason, error }) => ({
    kind,
    id: id.replace(/^sha256:/, "").slice(0, 12),
    ...(tag ? { tag } : {}),
    action,
    reason,
    ...(error ? { error: error.message } : {}),
  }));
  return JSON.stringify({ completed: e.completed, remaining: e.remaining, errors: e.errors, objects });
}

/**
 * What a run left that it owns, but one kind: a step image another build stands on at that moment
 * (Podman's Buildah takes step images as cache, whoever made them), which the run's cleanup had to
 * keep and said so (retained: "another image now builds on it"); .ci/run sweeps those once every
 * run is over. Anything else left is a leak.
 */
export async function ownedLeft(
  owner: string,
  cleanups: (CleanupEvidence | null | undefined)[] = [],
  engine: DockerEngine = newEngine(),
): Promise<{ containers: unknown[]; images: unknown[] }> {
  const left = await listOwned(engine, { owner });
  const inUse = new Set(
    cleanups
      .flatMap((c) => c?.objects ?? [])
      .filter(
        (o) =>
          o.kind === "image" &&
          o.action === "retained" &&
          /^another image now builds on it/.test(o.reason ?? ""),
      )
      .map((o) => o.id),
  );
  return {
    containers: left.containers,
    images: left.images.filter((i) => !inUse.has(i.id) || i.tags.length > 0),
  };
}
