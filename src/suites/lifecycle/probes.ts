// lifecycle.probes: every probe the subject declares holds once it is ready: HTTP (method, path,
// expected status, optional body substring), TCP (connect, optional send and expected answer),
// a log line, or the image's HEALTHCHECK; and the image's HEALTHCHECK itself when the inventory
// does not name it (./image-healthcheck.ts). Network "none": HTTP and TCP are asked from a probe
// container in the subject's network namespace.
import { sleep } from "../../engine/deadline.js";
import type { ImageHealthcheck } from "../../engine/provider.js";
import { compileLinePattern } from "../../inventory/pattern.js";
import type { HttpProbe, Probe } from "../../inventory/schema.js";
import { type CaseContext, type Draft, netnsTarget } from "./case.js";
import { type HttpAnswer, httpRequest } from "./http.js";
import {
  holdImageCheck,
  IMAGE_CHECK_FIX,
  type ImageCheckResult,
  imageCheckToHold,
} from "./image-healthcheck.js";
import { askInNetns, tcpInNetns } from "./netns-http.js";
import { tcpExchange, tcpHeld } from "./tcp.js";

interface ProbeResult {
  name: string;
  type: string;
  ok: boolean;
  /** What was expected and what came, as short text. */
  expected: string;
  got: string;
  [more: string]: unknown;
}

export async function checkProbes(
  c: CaseContext,
  containerId: string,
  hostPort: number | undefined,
  healthcheck?: ImageHealthcheck,
): Promise<Draft> {
  const { subject } = c;
  const imageCheck = imageCheckToHold(subject, healthcheck);
  // Nothing declared, nothing to hold: a pass that says so (an empty list is not drift).
  if (subject.probes.length === 0 && !imageCheck)
    return { status: "pass", message: "no probes declared", evidence: { probes: [] } };
  const http = subject.probes.filter(isHttp);
  const viaNetns =
    subject.network === "none" && http.length > 0
      ? await askInNetns(netnsTarget(c, containerId), http)
      : undefined;
  const results: (ProbeResult | ImageCheckResult)[] = await Promise.all([
    ...subject.probes.map((p) =>
      isHttp(p)
        ? checkHttp(c, p, viaNetns ? viaNetns[http.indexOf(p)] : undefined, hostPort)
        : checkOther(c, p, containerId, hostPort),
    ),
    ...(imageCheck ? [holdImageCheck(c, containerId, imageCheck)] : []),
  ]);
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0)
    return { status: "pass", message: `${results.length} probe(s) held`, evidence: { probes: results } };
  const fixes = new Set(failed.map((f) => (f.type === "image-healthcheck" ? IMAGE_CHECK_FIX : PROBE_FIX)));
  return {
    status: "fail",
    message: failed.map((f) => `${f.name}: expected ${f.expected}, got ${f.got}`).join("; "),
    evidence: { probes: results },
    remediation: [...fixes].join("; "),
  };
}

const PROBE_FIX =
  "fix the endpoint, or update the probe's expectation in the inventory if the change is intended";

function isHttp(p: Probe): p is HttpProbe {
  return p.type === undefined || p.type === "http";
}

async function checkHttp(
  c: CaseContext,
  p: HttpProbe,
  fromNetns: HttpAnswer | undefined,
  hostPort: number | undefined,
): Promise<ProbeResult> {
  const answer =
    c.subject.network === "none" ? fromNetns : await httpRequest(hostPort!, p.method, p.path, 5000, c.signal);
  const statusOk = answer?.status === p.expectStatus;
  const bodyOk = p.bodyContains === undefined || (answer?.body.includes(p.bodyContains) ?? false);
  return {
    name: p.name ?? `${p.method} ${p.path}`,
    type: "http",
    method: p.method,
    path: p.path,
    expectStatus: p.expectStatus,
    status: answer?.status ?? null,
    bodyContains: p.bodyContains,
    ok: statusOk && bodyOk,
    expected: `${p.expectStatus}${p.bodyContains ? ` with "${p.bodyContains}"` : ""}`,
    got: String(answer?.status ?? "no answer"),
  };
}

async function checkOther(
  c: CaseContext,
  p: Exclude<Probe, HttpProbe>,
  containerId: string,
  hostPort: number | undefined,
): Promise<ProbeResult> {
  const { engine, subject, signal } = c;
  switch (p.type) {
    case "tcp": {
      const a =
        subject.network === "none"
          ? await tcpInNetns(netnsTarget(c, containerId), p.send)
          : await tcpExchange(hostPort!, p.send, p.expect, 5000);
      return {
        name: p.name ?? `tcp ${subject.port}`,
        type: "tcp",
        ok: tcpHeld(a, p.expect),
        expected: p.expect === undefined ? "a connection" : JSON.stringify(p.expect),
        got: a.connected ? JSON.stringify(a.answer.slice(0, 200)) : "connection refused",
      };
    }
    case "log": {
      const { stdout, stderr } = await engine.logs(containerId, 1000);
      const re = await compileLinePattern(p.pattern); // linear time: the pattern and log are the PR's
      const ok = `${stdout}\n${stderr}`.split(/\r?\n/).some((line) => re.test(line));
      return {
        name: p.name ?? `log /${p.pattern}/`,
        type: "log",
        ok,
        expected: `a log line matching /${p.pattern}/`,
        got: ok ? "a matching line" : "no matching line",
      };
    }
    case "healthcheck": {
      // "starting" is undecided: wait (bounded) for the image's own check to decide.
      const read = async () => (await engine.inspect(containerId, signal)).state.health;
      let health = await read();
      const end = Date.now() + subject.startupTimeoutMs;
      while (health?.status === "starting" && Date.now() < end && !signal.aborted) {
        await sleep(250, signal);
        health = await read();
      }
      return {
        name: p.name ?? "HEALTHCHECK",
        type: "healthcheck",
        ok: health?.status === "healthy",
        expected: "healthy",
        got: health ? health.status : "no HEALTHCHECK in the image",
      };
    }
  }
}
