// lifecycle.build: the declared context and Dockerfile into an image tagged and labelled as this
// run's, or a prebuilt image inspected (and checked against its pinned ID). The context is read
// (and .dockerignore applied, escaping symlinks refused) before the engine hears of it.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { readBuildContext } from "../../engine/context.js";
import {
  DOCKERFILE_MAX_BYTES,
  instructionOfStep,
  type ParsedDockerfile,
  parseDockerfile,
} from "../../engine/dockerfile.js";
import { OWNER_LABEL, ownedTag, ROLE_LABEL, SUBJECT_LABEL } from "../../engine/ownership.js";
import {
  type BuildContext,
  type BuilderChoice,
  BuildFailedError,
  type BuildRequest,
  type BuildResult,
  type BuildStep,
  type ImageView,
} from "../../engine/provider.js";
import { EngineError, redact } from "../../errors.js";
import { type EnvironmentAccess, readImageIdPin, readSecret } from "../../inventory/environment.js";
import { BOUNDS } from "../../inventory/rules.js";
import type { SubjectReport } from "../../report/model.js";
import { terminalSafe } from "../../report/text.js";
import { type BuildGate, type CaseContext, type Draft, EXCERPT_BYTES } from "./case.js";
import type { DockerfileSource } from "./locate.js";
import { BuildProgress, outputBlock } from "./progress.js";

/** How many lines of a failing step's output the FAIL message's evidence keeps. */
const FAILED_STEP_LINES = 20;

interface Built {
  draft: Draft;
  /** The immutable image ID to create from, when the case passed. */
  imageId?: string;
  report: Partial<SubjectReport>;
  /** Untagged images the build created (legacy builder steps), for cleanup by ID. */
  intermediateImages: string[];
  /** The Dockerfile as read, repository-relative: where later failures point (locate.ts). */
  dockerfile?: DockerfileSource;
}

export async function buildSubject(context: CaseContext): Promise<Built> {
  return context.subject.image ? usePrebuilt(context, context.subject.image) : buildFromDockerfile(context);
}

/** A prebuilt image (e.g. docker/build-push-action's `load: true`), its pinned ID verified first. */
async function usePrebuilt(c: CaseContext, image: string): Promise<Built> {
  const pinned = resolvePin(c.subject.imageId, c.environment);
  if (pinned.problem) {
    return { report: { image }, intermediateImages: [], draft: pinned.problem };
  }
  const pin = pinned.value;
  const info = await c.engine.inspectImage(image);
  const report = { image, imageId: info.id };
  if (pin && !matchesPin(info, pin)) {
    return {
      report,
      intermediateImages: [],
      draft: {
        status: "fail",
        message: `${image} is ${info.id}, not the pinned ${pin}`,
        evidence: { image, imageId: info.id, pinned: pin, repoDigests: info.repoDigests },
        remediation: c.subject.imageId?.startsWith("env:")
          ? `${image} is not the image the build step produced: make sure nothing re-tags ${image} between the build and this step (and that the build used load: true)`
          : `the image changed since it was pinned: rebuild it from the reviewed commit, or update the subject's imageId to the new ID if the change is intended`,
      },
    };
  }
  return {
    imageId: info.id,
    report,
    intermediateImages: [],
    draft: {
      status: "pass",
      message: pin ? `prebuilt ${image}, ID verified against its pin` : `prebuilt ${image}`,
      evidence: {
        image,
        imageId: info.id,
        prebuilt: true,
        ...(pin ? { pinned: pin, pinVerified: true } : {}),
      },
    },
  };
}

/**
 * A literal pin, or one an earlier workflow step put in the environment ("env:NAME"). The value
 * is never quoted: only a `sha256:` digest comes back from the environment (../../inventory/environment.ts).
 */
function resolvePin(
  declared: string | undefined,
  access: EnvironmentAccess,
): { value?: string; problem?: Draft } {
  if (!declared?.startsWith("env:")) return { value: declared };
  const variable = declared.slice(4);
  const read = readImageIdPin(access, variable);
  if ("value" in read) return { value: read.value };
  // Nothing to verify against is never a pass: the image is not used.
  const message =
    "refused" in read
      ? `imageId comes from $${variable}, but the environment is not read for this inventory: ${read.refused}`
      : "invalid" in read
        ? `imageId comes from $${variable}, which does not hold sha256: and 64 hex digits (its value is not shown)`
        : `imageId comes from $${variable}, which is not set`;
  return {
    problem: {
      status: "error",
      message,
      evidence: { imageIdFrom: variable },
      remediation:
        "refused" in read
          ? ENV_FROM_BASE_FIX
          : `set ${variable} in the env: of the docker-acceptance step to the build step's image ID (docker/build-push-action: \${{ steps.<id>.outputs.imageid }})`,
    },
  };
}

/** What to do when the pull request's own inventory names environment variables. */
const ENV_FROM_BASE_FIX =
  "environment variables named by the inventory are read only when a maintainer declared them: at the pull request's base (check out with fetch-depth: 0 so the base is available), or once the inventory change is merged";

function matchesPin(info: ImageView, pin: string): boolean {
  return info.id === pin || info.repoDigests.some((d) => d.endsWith(`@${pin}`));
}

async function buildFromDockerfile(c: CaseContext): Promise<Built> {
  // Where an engine's API answers on the build's network, no RUN step of the PR's may run.
  const gate = await c.buildPreflight;
  if (gate?.refused) return { draft: gate.refused, report: {}, intermediateImages: [] };
  const plan = await planBuild(c);
  if ("refused" in plan) return plan.refused;
  const { choice, source } = plan;
  c.log.info(`  build: ${choice.builder === "buildkit" ? "BuildKit" : "legacy builder"} (${choice.reason})`);
  const progress = new BuildProgress(c.log);
  let busy = c.engineBusy;
  const onStep: BuildRequest["onStep"] = (event) => {
    busy?.();
    busy = undefined;
    progress.step(event);
  };
  try {
    const built = await c.engine.build(buildRequest(c, plan, onStep));
    return { dockerfile: source, ...builtImage(plan, built, gate) };
  } catch (err) {
    return { ...(await buildStopped(c, plan, err, progress)), dockerfile: source };
  } finally {
    progress.stop();
  }
}

/** What one subject's build needs, read before the engine hears of it. */
interface BuildPlan {
  build: NonNullable<CaseContext["subject"]["build"]>;
  context: BuildContext;
  /** The Dockerfile, repository-relative, and as parsed: where a failure points. */
  source: DockerfileSource;
  tag: string;
  secrets: Record<string, string>;
  choice: BuilderChoice;
}

/**
 * The context read (its .dockerignore applied), the Dockerfile parsed, the secrets read and the
 * builder chosen; or the ERROR that stops the build before it starts (a secret not set, secrets
 * the legacy builder cannot take).
 */
async function planBuild(c: CaseContext): Promise<BuildPlan | { refused: Built }> {
  const b = c.subject.build!;
  const context = readBuildContext(path.resolve(c.workspace, b.context), b.dockerfile, b.context);
  const dockerfileLabel = path.posix.normalize(`${b.context}/${context.dockerfile}`);
  const dockerfile = parseDockerfile(readDockerfile(context.root, context.dockerfile));
  const source = { path: dockerfileLabel, parsed: dockerfile };
  const tag = ownedTag(c.owner, c.subject.name);
  const secrets = readSecrets(b.secrets ?? {}, c.environment);
  if (secrets.missing.length > 0)
    return { refused: missingSecrets(secrets.missing, b.secrets ?? {}, c.environment) };
  const choice = await c.engine.builderFor(b.builder === "legacy" ? "legacy" : "auto");
  if (Object.keys(secrets.values).length > 0 && choice.builder === "legacy") {
    return {
      refused: notRunnable(
        `build.secrets need BuildKit, but the legacy builder runs: ${choice.reason}`,
        choice,
      ),
    };
  }
  return { build: b, context, source, tag, secrets: secrets.values, choice };
}

/** What the engine is asked to build: the subject's image, tagged and labelled as this run's. */
function buildRequest(c: CaseContext, plan: BuildPlan, onStep: BuildRequest["onStep"]): BuildRequest {
  const b = plan.build;
  return {
    context: plan.context,
    tag: plan.tag,
    // The subject's name too, so that two subjects of one run built from the same Dockerfile
    // never share an image ID: one's cleanup, removing its tag while the other's build was
    // settling on that same ID, left the other "No such image" (seen with 20 alike at once).
    // Each label is one legacy-builder step (and one intermediate image): these three only.
    labels: { [OWNER_LABEL]: c.owner, [ROLE_LABEL]: "subject", [SUBJECT_LABEL]: c.subject.name },
    buildArgs: b.args,
    target: b.target,
    builder: b.builder === "legacy" ? "legacy" : "auto",
    secrets: plan.secrets,
    timeoutMs: b.timeoutMs,
    signal: c.signal,
    onStep,
  };
}

/** lifecycle.build's PASS: the image built, with what the build did as its evidence. */
function builtImage(
  plan: BuildPlan,
  built: BuildResult,
  gate: BuildGate | undefined,
): Omit<Built, "dockerfile"> {
  const { tag, context, secrets } = plan;
  const target = plan.build.target;
  const cached = built.steps.filter((s) => s.cached).length;
  return {
    imageId: built.imageId,
    intermediateImages: built.intermediateImages,
    report: {
      image: tag,
      imageId: built.imageId,
      buildLog: redact(built.log),
      builder: built.builder,
      builderReason: built.reason,
    },
    draft: {
      status: "pass",
      message: `built ${tag} with ${builderName(built)}${built.steps.length ? ` (${cached}/${built.steps.length} steps cached)` : ""}${gate?.note ? `; ${gate.note}` : ""}`,
      evidence: {
        tag,
        imageId: built.imageId,
        builder: built.builder,
        builderReason: built.reason,
        contextFiles: context.files.length,
        ...(context.withheld ? { contextWithheld: context.withheld.slice(0, 20) } : {}),
        dockerfile: context.dockerfile,
        ...(target ? { target } : {}),
        ...(built.steps.length ? { steps: built.steps.slice(-60).map(stepSummary) } : {}),
        ...(built.intermediateImages.length ? { intermediateImages: built.intermediateImages } : {}),
        ...(Object.keys(secrets).length ? { secretIds: Object.keys(secrets) } : {}),
        ...(gate ? { preflight: gate.evidence } : {}),
      },
    },
  };
}

/**
 * A build that did not produce its image: at its time-out an ERROR naming the steps still running;
 * a failing Dockerfile the subject's FAIL, with the log's tail; anything else the engine's error.
 */
async function buildStopped(
  c: CaseContext,
  plan: BuildPlan,
  err: unknown,
  progress: BuildProgress,
): Promise<Built> {
  if (err instanceof EngineError && err.kind === "timeout") {
    const left = (await c.engine.facts().catch(() => undefined))?.leftBuild;
    return buildTimedOut(plan.build.timeoutMs, progress.runningSteps(), plan.choice, left);
  }
  // The Dockerfile failed: the subject's fault, a FAIL with the log's tail, not an engine error.
  if (!(err instanceof BuildFailedError)) throw err;
  showFailedOutput(c.log, err);
  return buildFailed(err, {
    tag: plan.tag,
    dockerfile: plan.source.parsed,
    dockerfileLabel: plan.source.path,
  });
}

/** The failing step's output in the job log (the legacy builder's: the log's end, where it stands). */
function showFailedOutput(log: CaseContext["log"], err: BuildFailedError): void {
  const step = err.failedStep;
  const output = redact(step?.outputTail || err.log);
  if (!output.trim()) return;
  const title = step
    ? `step ${terminalSafe(step.name, 120)} failed; its output (last lines)`
    : "build output (last lines)";
  log.info(outputBlock(title, output, FAILED_STEP_LINES));
}

/** What chooseBuilder says when the inventory asked for the legacy builder. */
const REQUESTED_LEGACY = /\(build\.builder: legacy\)/;
/** The legacy builder on a BuildKit-only instruction ("the --mount option requires BuildKit. ..."). */
const NEEDS_BUILDKIT = /^the --\w+ option requires BuildKit\b/;

function buildFailed(
  err: BuildFailedError,
  at: { tag: string; dockerfile: ParsedDockerfile; dockerfileLabel: string },
): Built {
  const report = { buildLog: redact(err.log), builder: err.choice.builder, builderReason: err.choice.reason };
  const base = { report, intermediateImages: err.intermediateImages };
  const step = err.failedStep;
  const instruction = step ? instructionOfStep(at.dockerfile, step.name) : undefined;
  const syntax = at.dockerfile.syntax;
  // A `# syntax=` frontend the engine could not get: no Dockerfile step ran. Not the Dockerfile's
  // fault and not measured either: an error with the way out.
  if (syntax && !err.log.split("\n").some((l) => /^#\d+ \[.*\d+\/\d+\]/.test(l))) {
    return {
      ...base,
      draft: {
        status: "error",
        message: terminalSafe(
          `the Dockerfile's "# syntax=${syntax.image}" directive (${at.dockerfileLabel}:${syntax.line}) needs that frontend image, and the build stopped before any step: ${err.reason}`,
          400,
        ),
        evidence: { tag: at.tag, syntax: syntax.image, buildLogTail: redact(err.log.slice(-EXCERPT_BYTES)) },
        location: { path: at.dockerfileLabel, line: syntax.line },
        remediation: `remove the "# syntax=" line from ${at.dockerfileLabel} (the engine's built-in Dockerfile frontend is used), or make ${syntax.image} available to the engine (\`{cli} pull\` or \`{cli} load\` it before this step)`,
      },
    };
  }
  const limit = buildKitOnly(err, at);
  if (limit) return { ...base, draft: limit };
  // The frontend's own parse errors carry the line in their text; diagnosis only, never a verdict.
  const line = instruction?.line ?? Number(/dockerfile parse error line (\d+)/i.exec(err.reason)?.[1] ?? 0);
  const where = line ? `${at.dockerfileLabel}:${line}` : at.dockerfileLabel;
  const tail = step ? lastLines(redact(step.outputTail), FAILED_STEP_LINES) : undefined;
  return {
    ...base,
    draft: {
      status: "fail",
      message: terminalSafe(step ? `step ${step.name} failed at ${where}: ${err.reason}` : err.message, 400),
      location: { path: at.dockerfileLabel, ...(line ? { line } : {}) },
      evidence: {
        tag: at.tag,
        builder: err.choice.builder,
        dockerfile: at.dockerfileLabel,
        ...(step ? { failedStep: step.name } : {}),
        ...(instruction ? { line: instruction.line, instruction: instruction.text } : {}),
        ...(tail !== undefined ? { stepOutputTail: tail } : {}),
        buildLogTail: redact(err.log.slice(-EXCERPT_BYTES)),
        ...(err.intermediateImages.length ? { intermediateImages: err.intermediateImages } : {}),
      },
      remediation: instruction
        ? `fix the step at ${where} (${terminalSafe(instruction.text, 120)}): its output's last lines are in the evidence`
        : line
          ? `fix ${where}`
          : `fix the Dockerfile step that failed (the build log's last lines show it) in ${at.dockerfileLabel}`,
    },
  };
}

/**
 * The legacy builder refusing what only BuildKit builds, where the tool, not the inventory, chose
 * it: the engine's limit, not the Dockerfile's fault. Only the engine's own words, opening its
 * message, match (a failing RUN's message opens with "The command '...'").
 */
function buildKitOnly(
  err: BuildFailedError,
  at: { tag: string; dockerfileLabel: string },
): Draft | undefined {
  const { choice } = err;
  if (choice.builder !== "legacy" || REQUESTED_LEGACY.test(choice.reason) || !NEEDS_BUILDKIT.test(err.reason))
    return undefined;
  return {
    status: "error",
    message: terminalSafe(
      `this Dockerfile needs BuildKit (${err.reason}), but the legacy builder runs: ${choice.reason}`,
      400,
    ),
    evidence: {
      tag: at.tag,
      builder: choice.builder,
      builderReason: choice.reason,
      buildLogTail: redact(err.log.slice(-EXCERPT_BYTES)),
    },
    location: { path: at.dockerfileLabel },
    remediation: `build on an engine where BuildKit builds: ${choice.reason}`,
  };
}

function readDockerfile(root: string, dockerfile: string): string {
  const file = path.join(root, dockerfile);
  try {
    return statSync(file).size <= DOCKERFILE_MAX_BYTES ? readFileSync(file, "utf8") : "";
  } catch {
    return ""; // the engine reports a missing Dockerfile in its own words
  }
}

/** Secret values from the environment variables the inventory names; registered for redaction. */
function readSecrets(named: Record<string, string>, access: EnvironmentAccess) {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const [id, variable] of Object.entries(named)) {
    const read = readSecret(access, variable);
    if ("value" in read) values[id] = read.value;
    else missing.push(id);
  }
  return { values, missing };
}

function missingSecrets(missing: string[], named: Record<string, string>, access: EnvironmentAccess): Built {
  const list = missing.map((id) => `${id} (from $${named[id]})`).join(", ");
  if (!access.read)
    return notRunnable(`build secret(s) ${list} are not read: ${access.why}`, undefined, ENV_FROM_BASE_FIX);
  return notRunnable(
    `build secret(s) ${list} not set in the environment`,
    undefined,
    `set ${missing.map((id) => named[id]).join(", ")} in the environment of the step that runs docker-acceptance (env: in the workflow), or drop the secret from build.secrets`,
  );
}

/**
 * A build still going at its time-out: not measured, so an ERROR, and named as what it is (it once
 * read "no answer within 600003 ms", an engine at fault, for a build the engine was running).
 */
function buildTimedOut(
  timeoutMs: number,
  running: string[],
  choice: BuilderChoice,
  leftBuild = "the engine stops it",
): Built {
  const minutes = `${Math.round(timeoutMs / 6000) / 10} min`;
  const where = running.length
    ? `still running: ${running.map((n) => terminalSafe(n, 120)).join(", ")}`
    : "no step was running (exporting the image, or the engine stopped reporting)";
  return notRunnable(
    `the build did not finish within its time-out of ${minutes} (build.timeoutMs); ${where}; the run left it: ${leftBuild}`,
    choice,
    `raise build.timeoutMs (at most ${BOUNDS.buildTimeoutMs / 60_000} min) for a build that takes longer, or build the image in an earlier step of the workflow and name it as the subject's image`,
  );
}

/** The build could not start for a reason outside the Dockerfile: an error, never a verdict. */
function notRunnable(message: string, choice?: BuilderChoice, remediation?: string): Built {
  return {
    report: choice ? { builder: choice.builder, builderReason: choice.reason } : {},
    intermediateImages: [],
    draft: {
      status: "error",
      message,
      evidence: choice ? { builder: choice.builder, builderReason: choice.reason } : {},
      remediation:
        remediation ??
        "remove build.builder: legacy (secrets are a BuildKit feature), or run on an engine with BuildKit",
    },
  };
}

function builderName(c: BuilderChoice): string {
  return c.builder === "buildkit" ? "BuildKit" : `the legacy builder (${c.reason})`;
}

function stepSummary(s: BuildStep) {
  return {
    name: s.name,
    cached: s.cached,
    ...(s.durationMs !== undefined ? { durationMs: s.durationMs } : {}),
  };
}

function lastLines(text: string, n: number): string {
  return text.trimEnd().split("\n").slice(-n).join("\n");
}
