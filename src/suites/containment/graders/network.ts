import { bindingText } from "../../../engine/provider.js";
import {
  type ContainmentEvidence,
  fail,
  type Grader,
  type Outcome,
  observed,
  pass,
  skip,
  unobservedReason,
} from "../evidence.js";

/** The grader of containment.network (its definition: src/cases/containment/network.ts). */
export const gradeNetwork: Grader = (measured, target) => {
  const i = measured.inspect;
  const mode = i.modes.net;
  const bindings = Object.entries(i.ports).flatMap(([port, bs]) =>
    bs.map((b) => ({ port, host: b, binding: bindingText(b) })),
  );
  const interfaces = observed(measured)?.processes.find((x) => x.interfaces)?.interfaces;
  const evidence: Record<string, unknown> = {
    declared: target.network,
    mode,
    published: bindings.map((b) => `${b.binding}->${b.port}`),
    interfaces,
  };
  const reached = engineReached(measured.reach, evidence);
  if (reached) return fail(reached, evidence);
  if (mode === "host") return fail("the container uses the host's network", evidence);
  const published = publishedProblem(bindings);
  if (published) return fail(published, evidence);
  // A stopped container publishes nothing: its empty port list proves nothing about the launch.
  if (!i.running) return skip("the container is not running: its published ports cannot be read", evidence);
  if (target.network === "none") return gradeNoNetwork(measured, mode, interfaces, evidence);
  if (target.network === "bridge" && mode === "none")
    return fail("declared bridge but launched with network none", evidence);
  // Not asked is not unreachable: a subject that stops its probe from reporting (or a host whose
  // engine address cannot be resolved) leaves the engine's reach unmeasured, which never passes.
  if (measured.reach && "error" in measured.reach)
    return skip(
      `whether the engine's API answers from the subject's network was not measured: ${measured.reach.error}`,
      evidence,
    );
  return pass(
    `${bindings.length ? "published ports are bound to loopback only" : "no published ports"}${apiNote(measured.reach)}`,
    evidence,
  );
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;

type Reach = ContainmentEvidence["reach"];

/** Records what the engine-reach asks found; the failure when the engine's API answered from inside. */
function engineReached(reach: Reach, evidence: Record<string, unknown>): string | undefined {
  if (reach && !("error" in reach)) {
    evidence.engineApiAsked = reach.asked.map((a) => `${a.address}: ${a.answer}`);
    if (reach.unasked) evidence.hostListenersNotAsked = reach.unasked;
    const engines = reach.asked.filter((a) => a.answer === "engine").map((a) => a.address);
    if (engines.length > 0)
      return `the engine's API answers from inside the subject's network at ${engines.join(", ")}: whatever runs in it controls the engine`;
  } else if (reach) evidence.engineApiAsked = `not asked: ${reach.error}`;
  return undefined;
}

/** Ports published beyond loopback, or (CIS 5.7) on a privileged host port, loopback or not. */
function publishedProblem(
  bindings: { port: string; host: { address: string; port: number }; binding: string }[],
): string | undefined {
  const exposed = bindings.filter(({ host }) => !LOOPBACK.test(host.address));
  if (exposed.length > 0)
    return `ports published beyond loopback: ${exposed.map((b) => `${b.binding}->${b.port}`).join(", ")}`;
  const low = bindings.filter(({ host }) => host.port > 0 && host.port < 1024);
  if (low.length > 0)
    return `ports published on privileged host ports (below 1024): ${low.map((b) => `${b.binding}->${b.port}`).join(", ")}`;
  return undefined;
}

/** Declared network none: launched so, and only loopback inside. */
function gradeNoNetwork(
  measured: ContainmentEvidence,
  mode: string,
  interfaces: string[] | undefined,
  evidence: Record<string, unknown>,
): Outcome {
  if (mode !== "none") return fail(`declared network none, launched with ${mode || "default"}`, evidence);
  // Every network namespace has lo: an empty list is a file that could not be read.
  if (!interfaces?.length)
    return skip(unobservedReason(measured, "the subject's network interfaces"), evidence);
  const extra = interfaces.filter((n) => n !== "lo");
  if (extra.length > 0) return fail(`interfaces beyond loopback: ${extra.join(", ")}`, evidence);
  return pass("only loopback in the subject's network namespace", evidence);
}

/** What was asked, said in the pass. */
function apiNote(reach: Reach): string {
  if (!reach || "error" in reach) return "";
  return `; the engine's API does not answer from its network (asked ${reach.asked.map((a) => a.address).join(", ")}${reach.unasked ? `; ${reach.unasked} more of the host's listeners not asked` : ""})`;
}
