// Readiness strategies as values (testcontainers' wait strategies): each turns the subject's
// declared `readiness` into one wait that resolves when the subject is ready or the deadline
// passes, and says what it last saw. Exits are not this module's business: ready.ts races them.
import { pollUntil, sleep } from "../../engine/deadline.js";
import { compileLinePattern } from "../../inventory/pattern.js";
import type { Readiness } from "../../inventory/schema.js";
import { type CaseContext, netnsTarget } from "./case.js";
import { httpRequest } from "./http.js";
import { waitReadyInNetns, waitTcpInNetns } from "./netns-http.js";
import { tcpExchange, tcpHeld } from "./tcp.js";

export interface WaitOutcome {
  ready: boolean;
  attempts: number;
  /** The last thing observed, for the failure message ("last status: 404"). */
  last?: string;
  /** Where the check ran from. */
  via: string;
}

export interface WaitTarget {
  containerId: string;
  /** The published port on 127.0.0.1 (network bridge, HTTP and TCP strategies). */
  hostPort?: number;
  deadlineMs: number;
}

/** One line naming the strategy, for messages: "GET /health answers 200", "tcp 6379 answers +PONG". */
export function describeReadiness(r: Readiness, port: number): string {
  switch (r.type) {
    case "http":
      return `GET ${r.path} answers ${r.expectStatus}`;
    case "tcp":
      return `tcp ${port} accepts a connection${r.expect !== undefined ? ` and answers ${JSON.stringify(r.expect)}` : ""}`;
    case "healthcheck":
      return "the image's HEALTHCHECK reports healthy";
    case "log":
      return `a log line matches /${r.pattern}/`;
    case "delay":
      return `still running after ${r.ms} ms`;
  }
}

const POLL = { initialDelayMs: 20, maxDelayMs: 250 };

export async function waitUntilReady(c: CaseContext, r: Readiness, t: WaitTarget): Promise<WaitOutcome> {
  const { engine, subject, signal } = c;
  const offline = subject.network === "none";
  let attempts = 0;
  let last: string | undefined;
  /** Polls until the attempt says true (ready) or "give up" (it never will be), or the deadline. */
  const poll = (attempt: () => Promise<boolean | "give up">) =>
    pollUntil(
      async () => {
        attempts++;
        const answer = await attempt();
        return answer === false ? undefined : answer;
      },
      { deadlineMs: t.deadlineMs, ...POLL, signal },
    ).then((ok) => ok === true);

  switch (r.type) {
    case "http": {
      if (offline) {
        const ready = await waitReadyInNetns(
          netnsTarget(c, t.containerId),
          r.path,
          t.deadlineMs,
          r.expectStatus,
        );
        return { ready, attempts: 1, via: "probe in the subject's network namespace" };
      }
      const ready = await poll(async () => {
        const answer = await httpRequest(t.hostPort!, "GET", r.path, 2000, signal);
        if (answer) last = `status ${answer.status}`;
        return answer?.status === r.expectStatus;
      });
      return { ready, attempts, via: `127.0.0.1:${t.hostPort}`, last: last ?? "no answer" };
    }
    case "tcp": {
      if (offline) {
        const ready = await waitTcpInNetns(netnsTarget(c, t.containerId), r.send, r.expect, t.deadlineMs);
        return { ready, attempts: 1, via: "probe in the subject's network namespace" };
      }
      const ready = await poll(async () => {
        const a = await tcpExchange(t.hostPort!, r.send, r.expect, 2000);
        last = a.connected ? `answered ${JSON.stringify(a.answer.slice(0, 80))}` : "connection refused";
        return tcpHeld(a, r.expect);
      });
      return { ready, attempts, via: `127.0.0.1:${t.hostPort}`, last };
    }
    case "healthcheck": {
      const ready = await poll(async () => {
        const health = (await engine.inspect(t.containerId, signal)).state.health;
        if (!health) {
          last = "the image declares no HEALTHCHECK";
          return "give up";
        }
        const output = health.lastOutput;
        last = `health ${health.status}${output ? ` (last check: ${output.slice(0, 200)})` : ""}`;
        // Unhealthy means the image's own retries are spent: waiting longer only delays the verdict.
        return health.status === "healthy" ? true : health.status === "unhealthy" ? "give up" : false;
      });
      return { ready, attempts, via: "the engine's health status", last };
    }
    case "log": {
      // Linear time (../../inventory/pattern.ts): the pattern and the log are both the PR's.
      const re = await compileLinePattern(r.pattern);
      const ready = await poll(async () => {
        const { stdout, stderr } = await engine.logs(t.containerId, 1000);
        return `${stdout}\n${stderr}`.split(/\r?\n/).some((line) => re.test(line));
      });
      return { ready, attempts, via: "the subject's log", last: "no matching line" };
    }
    case "delay": {
      await sleep(Math.min(r.ms, t.deadlineMs), signal);
      return { ready: r.ms <= t.deadlineMs, attempts: 1, via: "a fixed delay" };
    }
  }
}
