// Image builds: which builder runs (BuildKit unless the inventory or the engine says otherwise),
// the legacy builder's stream, and what each build created. The BuildKit session lives in
// buildkit.ts, imported only when a BuildKit build runs.
import type Docker from "dockerode";
import type { BuilderChoice, BuildRequest, BuildStep } from "../../provider.js";
import type { EngineIdentity } from "./identity.js";
import { readThroughRace } from "./storage-race.js";

type ContextTar = typeof import("../../context.js").contextTar;

/** What a build call returns inside the engine's timeout wrapper; failures are data, not throws. */
interface BuildOutcome extends BuilderChoice {
  imageId?: string;
  failure?: string;
  /**
   * The engine said the build succeeded, then did not know the tag it had just applied (404): an
   * image of another build's cache removed under it, Podman's storage losing the name under load.
   * The engine's own status says so, never the build's text.
   */
  lostTag?: boolean;
  log: string;
  steps: BuildStep[];
  intermediateImages: string[];
}

const BUILD_LOG_LIMIT = 64 * 1024;

/** BuildKit (API 1.39, Docker 18.09, on Linux) unless asked for legacy or the engine is not Docker. */
export function chooseBuilder(requested: BuildRequest["builder"], engine: EngineIdentity): BuilderChoice {
  if (requested === "legacy")
    return { builder: "legacy", reason: "the inventory asks for it (build.builder: legacy)" };
  if (engine.product === "podman") {
    return {
      builder: "legacy",
      reason: "the engine is Podman, which builds with Buildah, not a BuildKit session",
    };
  }
  if (engine.os && engine.os !== "linux") {
    return {
      builder: "legacy",
      reason: `the engine runs ${engine.os} containers; BuildKit builds Linux images only`,
    };
  }
  const [major = 0, minor = 0] = engine.apiVersion.split(".").map(Number);
  if (major < 1 || (major === 1 && minor < 39)) {
    return { builder: "legacy", reason: `the engine's API ${engine.apiVersion} predates BuildKit (1.39)` };
  }
  return {
    builder: "buildkit",
    reason: `BuildKit is the default builder (engine API ${engine.apiVersion})`,
  };
}

let buildkit: Promise<typeof import("./buildkit.js")> | undefined;

/** BuildKit's session code (gRPC, about 300 KB), loaded once: at the first build, or before it. */
export function loadBuildKit(): Promise<typeof import("./buildkit.js")> {
  buildkit ??= import("./buildkit.js");
  return buildkit;
}

/** Runs one build with the chosen builder; the caller wraps it in its timeout. */
export async function runBuild(
  docker: Docker,
  req: BuildRequest,
  choice: BuilderChoice,
  abortSignal: AbortSignal,
): Promise<BuildOutcome> {
  // The context packer loads with the first build, not with the
  // engine: a run's first engine call comes long before its first build.
  const { contextTar } = await import("../../context.js");
  let log = "";
  let legacyStep: string | undefined;
  const append = (line: string) => {
    log = `${log}${line}\n`.slice(-BUILD_LOG_LIMIT);
    req.onLine?.(line);
    // The legacy builder's steps run one at a time: each step's line ends the one before
    // (Docker's "Step 2/4 : RUN ...", Buildah's "STEP 2/4: RUN ..." on Podman).
    if (choice.builder === "legacy" && /^step \d+\/\d+ ?: /i.test(line)) {
      if (legacyStep) req.onStep?.({ name: legacyStep, state: "done" });
      legacyStep = line.trim();
      req.onStep?.({ name: legacyStep, state: "running" });
    }
  };
  if (choice.builder === "buildkit") {
    const { buildWithBuildKit } = await loadBuildKit();
    const out = await buildWithBuildKit(docker, {
      context: contextTar(req.context),
      dockerfile: req.context.dockerfile,
      tag: req.tag,
      labels: req.labels,
      buildArgs: req.buildArgs ?? {},
      target: req.target,
      secrets: req.secrets ?? {},
      abortSignal,
      onLine: append,
      onStep: req.onStep,
    });
    if (out.failure) append(`ERROR: ${out.failure}`);
    return { ...choice, ...out, log, intermediateImages: [] };
  }
  const out = await legacyBuild(docker, req, abortSignal, append, contextTar);
  return { ...choice, ...out, log, steps: [] };
}

async function legacyBuild(
  docker: Docker,
  req: BuildRequest,
  abortSignal: AbortSignal,
  append: (l: string) => void,
  contextTar: ContextTar,
) {
  let failure: string | undefined;
  const started = Date.now();
  const stream = await docker.buildImage(contextTar(req.context), {
    t: req.tag,
    dockerfile: req.context.dockerfile,
    labels: req.labels,
    buildargs: req.buildArgs ?? {},
    ...(req.target ? { target: req.target } : {}),
    rm: true,
    forcerm: true,
    abortSignal,
  } as Docker.ImageBuildOptions);
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err) => (err ? reject(err) : resolve()),
      (ev: { stream?: string; error?: string }) => {
        // The steps' output is the subject's text: logged, never read for IDs.
        for (const line of (ev.stream ?? "").split("\n")) if (line.trim()) append(line);
        if (ev.error) {
          failure = ev.error.trim();
          append(ev.error.trim());
        }
      },
    );
  });
  if (failure) return { failure, intermediateImages: [] };
  // The image is the one our tag names, and its step images are what the engine's record says:
  // its parent chain, as far as it runs through untagged images made during this build.
  let built: Docker.ImageInspectInfo;
  try {
    built = await readImage(docker, req.tag, abortSignal);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return { lostTag: true, intermediateImages: [] };
    throw err;
  }
  const intermediateImages = await ancestryMadeSince(docker, built, Date.now() - started, abortSignal);
  return { imageId: built.Id, failure, intermediateImages };
}

/** An image's inspect, read through Podman's storage race (./storage-race.ts). */
export function readImage(
  docker: Docker,
  ref: string,
  abortSignal?: AbortSignal,
): Promise<Docker.ImageInspectInfo> {
  return readThroughRace(
    () => docker.getImage(ref).inspect({ abortSignal } as Docker.ImageInspectOptions),
    abortSignal,
  );
}

/** A Dockerfile has far fewer steps; the walk stops here whatever the engine answers. */
const MAX_ANCESTRY = 500;

/**
 * The untagged ancestors of `image` created during its build, nearest first: each step image the
 * legacy builder committed. The build's start on the engine's clock is the image's creation less
 * the build's duration on ours (measured from before the request, so never later than the start):
 * an image made before it (a cached step, a base, an image a Dockerfile names by ID) is not this
 * build's, and neither is a tagged one; the walk stops at the first of either.
 */
async function ancestryMadeSince(
  docker: Docker,
  image: Docker.ImageInspectInfo,
  buildMs: number,
  abortSignal: AbortSignal,
): Promise<string[]> {
  const since = Date.parse(image.Created) - buildMs;
  const out: string[] = [];
  for (let parent = image.Parent; parent && out.length < MAX_ANCESTRY; ) {
    let info: Docker.ImageInspectInfo;
    try {
      info = await docker.getImage(parent).inspect({ abortSignal } as Docker.ImageInspectOptions);
    } catch {
      break; // gone or unreadable: nothing more is known
    }
    const tagged = (info.RepoTags ?? []).some((t) => t !== "<none>:<none>");
    if (tagged || !(Date.parse(info.Created) >= since)) break;
    out.push(info.Id);
    parent = info.Parent;
  }
  return out;
}
