// Image builds: which builder runs (BuildKit unless the inventory or the engine says otherwise),
// the legacy builder's stream, and what each build created. The BuildKit session lives in
// buildkit.ts, imported only when a BuildKit build runs.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type Docker from "dockerode";
import { DOCKERFILE_MAX_BYTES } from "../../dockerfile.js";
import type { BuilderChoice, BuildRequest, BuildStep, EngineHost } from "../../provider.js";
import type { EngineIdentity } from "./identity.js";
import { withStageLabels } from "./stage-labels.js";
import { readThroughRace } from "./storage-race.js";

type ContextTar = typeof import("../../context.js").contextTar;
type SentApart = import("../../context.js").SentApart;

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

/**
 * BuildKit (API 1.39, Docker 18.09, on Linux) unless asked for legacy, the engine is not Docker, or
 * Docker keeps its images in containerd's store.
 */
export function chooseBuilder(
  requested: BuildRequest["builder"],
  engine: EngineIdentity,
  host?: Pick<EngineHost, "imageStore">,
): BuilderChoice {
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
  // There BuildKit cannot read a context sent with the request, as this tool sends it: every build
  // failed at "[internal] load remote build context" (moby/moby#47717, Docker 26 to 28 at least).
  if (host?.imageStore === "containerd") {
    return {
      builder: "legacy",
      reason:
        "the engine keeps images in containerd's image store, where BuildKit cannot read a build context sent with the API request (moby/moby#47717)",
    };
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
  engine: EngineIdentity,
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
  // Buildah (Podman) keeps no stage's image and caches by step: only Docker's needs the labels.
  const apart = engine.product === "docker" ? stageLabelled(req) : undefined;
  const out = await legacyBuild(docker, req, abortSignal, append, contextTar, apart);
  return { ...choice, ...out, log, steps: [] };
}

/** The Dockerfile with our labels in every stage (./stage-labels.ts), read within its bound. */
function stageLabelled(req: BuildRequest): SentApart | undefined {
  const file = path.join(req.context.root, req.context.dockerfile);
  try {
    if (statSync(file).size > DOCKERFILE_MAX_BYTES) return undefined;
    return withStageLabels(readFileSync(file, "utf8"), req.labels);
  } catch {
    return undefined; // the engine names a missing Dockerfile in its own words
  }
}

async function legacyBuild(
  docker: Docker,
  req: BuildRequest,
  abortSignal: AbortSignal,
  append: (l: string) => void,
  contextTar: ContextTar,
  apart: SentApart | undefined,
): Promise<Omit<BuildOutcome, keyof BuilderChoice | "log" | "steps">> {
  let failure: string | undefined;
  const started = Date.now();
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.buildImage(contextTar(req.context, apart), {
      t: req.tag,
      dockerfile: apart?.name ?? req.context.dockerfile,
      labels: req.labels,
      buildargs: req.buildArgs ?? {},
      ...(req.target ? { target: req.target } : {}),
      rm: true,
      forcerm: true,
      abortSignal,
    } as Docker.ImageBuildOptions);
  } catch (err) {
    const refused = err as { statusCode?: number; json?: { message?: string } | null; message?: string };
    if (refused.statusCode !== 400) throw err;
    // Refused before its first step, as a Dockerfile that does not parse is: asked again with the
    // pull request's own, so the engine's words name its lines, not the labelled copy's.
    if (apart) return legacyBuild(docker, req, abortSignal, append, contextTar, undefined);
    // The engine's own words open its message (dockerode puts them after its own prefix when the
    // answer was not parsed): a Dockerfile that does not parse is its fault, as BuildKit reports it.
    const said = (
      refused.json?.message ??
      refused.message?.replace(/^\(HTTP code 400\) unexpected - /, "") ??
      ""
    ).trim();
    if (/^dockerfile parse error\b/i.test(said)) {
      append(said);
      return { failure: said, intermediateImages: [] };
    }
    throw err;
  }
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
  const buildMs = Date.now() - started;
  const made = (built?: Docker.ImageInspectInfo) =>
    madeByBuild(docker, req, { built, labelled: apart !== undefined, buildMs }, abortSignal);
  if (failure) return { failure, intermediateImages: await made() };
  // The image is the one our tag names, and its step images are what the engine's record says:
  // its parent chain, as far as it runs through untagged images made during this build.
  let built: Docker.ImageInspectInfo;
  try {
    built = await readImage(docker, req.tag, abortSignal);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
    return { lostTag: true, intermediateImages: await made() };
  }
  const intermediateImages = await made(built);
  return { imageId: built.Id, failure, intermediateImages };
}

/**
 * The untagged images this build committed, for removal by ID: where every stage carried the
 * build's labels (./stage-labels.ts), those the engine lists with all of them; and the untagged
 * ancestors made during the build of those and of the built image (a base's ONBUILD steps, and
 * every step of a build whose stages could not be labelled).
 */
async function madeByBuild(
  docker: Docker,
  req: BuildRequest,
  at: { built: Docker.ImageInspectInfo | undefined; labelled: boolean; buildMs: number },
  abortSignal: AbortSignal,
): Promise<string[]> {
  const { built } = at;
  // Listed only by the labels the stages carried, never without them (all images would match).
  const label = Object.entries(req.labels).map(([k, v]) => `${k}=${v}`);
  const listed =
    at.labelled && label.length > 0
      ? await readThroughRace(
          () => docker.listImages({ all: true, filters: { label }, abortSignal } as Docker.ListImagesOptions),
          abortSignal,
        )
      : [];
  const labelled = listed.filter((i) => i.Id !== built?.Id && !isTagged(i.RepoTags));
  const out = new Set(labelled.map((i) => i.Id));
  // Each chain's oldest labelled image leads to the images made before its LABEL step.
  const starts = labelled.filter((i) => !out.has(i.ParentId)).map((i) => ({ id: i.Id, parent: i.ParentId }));
  if (built) starts.unshift({ id: built.Id, parent: built.Parent });
  const last = labelled.reduce<Docker.ImageInfo | undefined>(
    (a, i) => (a && a.Created >= i.Created ? a : i),
    undefined,
  );
  const newest = built ?? (last && (await readImage(docker, last.Id, abortSignal)));
  if (!newest) return [];
  // The build's start on the engine's clock: a created time of its own less its duration on ours.
  const since = Date.parse(newest.Created) - at.buildMs;
  for (const s of starts)
    for (const id of await ancestryMadeSince(docker, s.parent, since, abortSignal)) out.add(id);
  return [...out];
}

const isTagged = (tags: string[] | null | undefined) => (tags ?? []).some((t) => t !== "<none>:<none>");

/** A Dockerfile has far fewer steps; the walk stops here whatever the engine answers. */
const MAX_ANCESTRY = 500;

/**
 * The untagged ancestors from `parent` created since `since` (the engine's clock), nearest first:
 * each step image the legacy builder committed. An image made before it (a cached step, a base, an
 * image a Dockerfile names by ID) is not this build's, and neither is a tagged one; the walk stops
 * at the first of either.
 */
async function ancestryMadeSince(
  docker: Docker,
  from: string | undefined,
  since: number,
  abortSignal: AbortSignal,
): Promise<string[]> {
  const out: string[] = [];
  for (let parent = from; parent && out.length < MAX_ANCESTRY; ) {
    let info: Docker.ImageInspectInfo;
    try {
      info = await docker.getImage(parent).inspect({ abortSignal } as Docker.ImageInspectOptions);
    } catch {
      break; // gone or unreadable: nothing more is known
    }
    if (isTagged(info.RepoTags) || !(Date.parse(info.Created) >= since)) break;
    out.push(info.Id);
    parent = info.Parent;
  }
  return out;
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
