// lifecycle.ready: start the subject and wait, with backoff and no fixed sleeps, until GET
// <healthPath> answers 200 within the start-up deadline. An early exit is seen through the
// engine's wait, not by polling inspect; a failure carries a bounded, redacted log excerpt.
import { pollUntil } from "../../engine/deadline.js";
import type { DockerEngine } from "../../engine/docker.js";
import { errorEvidence, redact } from "../../errors.js";
import { type CaseContext, type Draft, EXCERPT_BYTES, netnsTarget } from "./case.js";
import { httpRequest } from "./http.js";
import { waitReadyInNetns } from "./netns-http.js";

const LOG_EXCERPT_LINES = 40;

export interface Ready {
  draft: Draft;
  /** The published port on 127.0.0.1 (network bridge). */
  hostPort?: number;
  logExcerpt?: string;
}

export async function startAndWaitReady(c: CaseContext, containerId: string): Promise<Ready> {
  const { engine, subject, signal, log } = c;
  await engine.start(containerId, signal);
  const started = Date.now();
  let hostPort: number | undefined;
  if (subject.network === "bridge") {
    const info = await engine.inspect(containerId, signal);
    const binding = info.NetworkSettings.Ports?.[`${subject.port}/tcp`]?.[0];
    hostPort = binding ? Number(binding.HostPort) : undefined;
    if (!hostPort) {
      return {
        draft: {
          status: "fail",
          message: `port ${subject.port}/tcp was not published`,
          evidence: { ports: info.NetworkSettings.Ports },
          remediation: "EXPOSE the declared port and make the subject listen on it",
        },
      };
    }
  }
  let exited: number | undefined;
  const waiting = engine.wait(containerId, subject.startupTimeoutMs + 60_000, signal).then(
    (code) => {
      exited = code;
    },
    () => {},
  );
  let attempts = 0;
  let last: { status: number } | undefined;
  const ready =
    subject.network === "none"
      ? await Promise.race([
          waitReadyInNetns(netnsTarget(c, containerId), subject.healthPath, subject.startupTimeoutMs).then(
            (ok) => (ok ? ("ready" as const) : undefined),
          ),
          waiting.then(() => (exited === undefined ? new Promise<never>(() => {}) : ("exited" as const))),
        ])
      : await pollUntil(
          async () => {
            if (exited !== undefined) return "exited" as const;
            attempts++;
            const answer = await httpRequest(hostPort!, "GET", subject.healthPath, 2000, signal);
            if (answer) last = answer;
            if (attempts % 20 === 0) {
              const waited = Math.round((Date.now() - started) / 1000);
              log.info(`  ready: still waiting for GET ${subject.healthPath} (${waited} s)`);
            }
            return answer?.status === 200 ? ("ready" as const) : undefined;
          },
          { deadlineMs: subject.startupTimeoutMs, initialDelayMs: 20, maxDelayMs: 250, signal },
        );
  const evidence = {
    attempts,
    waitedMs: Date.now() - started,
    healthPath: subject.healthPath,
    via: subject.network === "none" ? "probe in the subject's network namespace" : `127.0.0.1:${hostPort}`,
    lastStatus: last?.status,
  };
  if (ready === "ready") {
    return {
      hostPort,
      draft: {
        status: "pass",
        message: `GET ${subject.healthPath} answered 200 after ${evidence.waitedMs} ms`,
        evidence,
      },
    };
  }
  const logExcerpt = await excerptOf(engine, containerId);
  if (ready === "exited") {
    return {
      hostPort,
      logExcerpt,
      draft: {
        status: "fail",
        message: `exited with code ${exited} before becoming ready`,
        evidence: { ...evidence, exitCode: exited, logExcerpt },
        remediation:
          "the process exited during start-up: read the log excerpt; check CMD/ENTRYPOINT and that it runs as a non-root user with a read-only root",
      },
    };
  }
  return {
    hostPort,
    logExcerpt,
    draft: {
      status: "fail",
      message: `GET ${subject.healthPath} did not answer 200 within ${subject.startupTimeoutMs} ms (last status: ${last?.status ?? "no answer"})`,
      evidence: { ...evidence, logExcerpt },
      remediation: `make GET ${subject.healthPath} answer 200 once the service is ready, or raise startupTimeoutMs in the inventory`,
    },
  };
}

async function excerptOf(engine: DockerEngine, id: string): Promise<string> {
  try {
    const { stdout, stderr } = await engine.logs(id, LOG_EXCERPT_LINES);
    const text = redact(`${stdout}${stderr}`);
    return text.length > EXCERPT_BYTES ? `…${text.slice(-EXCERPT_BYTES)}` : text;
  } catch (err) {
    return `(logs unavailable: ${errorEvidence(err).message})`;
  }
}
