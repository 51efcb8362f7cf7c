// lifecycle.build: the declared context and Dockerfile into an image tagged and labelled as this
// run's, or a prebuilt image inspected. The context is read (and .dockerignore applied, escaping
// symlinks refused) before the engine hears of it.
import path from "node:path";
import { readBuildContext } from "../../engine/context.js";
import { BuildFailedError } from "../../engine/docker.js";
import { OWNER_LABEL, ownedTag, ROLE_LABEL } from "../../engine/ownership.js";
import { redact } from "../../errors.js";
import type { SubjectReport } from "../../report/model.js";
import { terminalSafe } from "../../report/text.js";
import { type CaseContext, type Draft, EXCERPT_BYTES } from "./case.js";

const BUILD_TIMEOUT_MS = 15 * 60_000;

export interface Built {
  draft: Draft;
  /** The immutable image ID to create from, when the case passed. */
  imageId?: string;
  report: Partial<SubjectReport>;
}

export async function buildSubject(c: CaseContext): Promise<Built> {
  const { engine, subject, owner, log } = c;
  if (subject.image) {
    const info = await engine.inspectImage(subject.image);
    return {
      imageId: info.Id,
      report: { image: subject.image, imageId: info.Id },
      draft: {
        status: "pass",
        message: `prebuilt ${subject.image}`,
        evidence: { image: subject.image, imageId: info.Id, prebuilt: true },
      },
    };
  }
  const b = subject.build!;
  const context = readBuildContext(path.resolve(c.workspace, b.context), b.dockerfile, b.context);
  const tag = ownedTag(owner, subject.name);
  let lines = 0;
  try {
    const built = await engine.build({
      context,
      tag,
      // Each build label is one legacy-builder step (and one intermediate image): only the two
      // ownership needs; the subject is in the tag.
      labels: { [OWNER_LABEL]: owner, [ROLE_LABEL]: "subject" },
      buildArgs: b.args,
      target: b.target,
      timeoutMs: BUILD_TIMEOUT_MS,
      signal: c.signal,
      onLine: (line) => {
        if (++lines % 20 === 0) log.info(`  build: ${lines} lines of output so far`);
        if (/^Step \d+\/\d+/.test(line)) log.info(`  build: ${terminalSafe(line.trim(), 200)}`);
      },
    });
    return {
      imageId: built.imageId,
      report: { image: tag, imageId: built.imageId, buildLog: redact(built.log) },
      draft: {
        status: "pass",
        message: `built ${tag}`,
        evidence: {
          tag,
          imageId: built.imageId,
          contextFiles: context.files.length,
          dockerfile: context.dockerfile,
        },
      },
    };
  } catch (err) {
    // The Dockerfile failed: the subject's fault, a FAIL with the log's tail, not an engine error.
    if (!(err instanceof BuildFailedError)) throw err;
    return {
      report: { buildLog: redact(err.log) },
      draft: {
        status: "fail",
        message: terminalSafe(err.message, 300),
        evidence: {
          tag,
          dockerfile: context.dockerfile,
          buildLogTail: redact(err.log.slice(-EXCERPT_BYTES)),
        },
        remediation: `fix the Dockerfile step that failed (the build log's last lines show it) in ${b.context}/${context.dockerfile}`,
      },
    };
  }
}
