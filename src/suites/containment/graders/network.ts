import { bindingText } from "../../../engine/provider.js";
import { fail, type Grader, observed, pass, skip, unobservedReason } from "../evidence.js";

/** The grader of containment.network (its definition: src/cases/containment/network.ts). */
export const gradeNetwork: Grader = (measured, target) => {
  const i = measured.inspect;
  const mode = i.modes.net;
  const bindings = Object.entries(i.ports).flatMap(([port, bs]) =>
    bs.map((b) => ({ port, host: b, binding: bindingText(b) })),
  );
  const exposed = bindings.filter(({ host }) => !LOOPBACK.test(host.address));
  const p = observed(measured);
  const interfaces = p?.processes.find((x) => x.interfaces)?.interfaces;
  const evidence: Record<string, unknown> = {
    declared: target.network,
    mode,
    published: bindings.map((b) => `${b.binding}->${b.port}`),
    interfaces,
  };
  const reach = measured.reach;
  if (reach && !("error" in reach)) {
    evidence.engineApiAsked = reach.asked.map((a) => `${a.address}: ${a.answer}`);
    if (reach.unasked) evidence.hostListenersNotAsked = reach.unasked;
    const engines = reach.asked.filter((a) => a.answer === "engine").map((a) => a.address);
    if (engines.length > 0)
      return fail(
        `the engine's API answers from inside the subject's network at ${engines.join(", ")}: whatever runs in it controls the engine`,
        evidence,
      );
  } else if (reach) evidence.engineApiAsked = `not asked: ${reach.error}`;
  if (mode === "host") return fail("the container uses the host's network", evidence);
  if (exposed.length > 0)
    return fail(
      `ports published beyond loopback: ${exposed.map((b) => `${b.binding}->${b.port}`).join(", ")}`,
      evidence,
    );
  // CIS 5.7: a host port below 1024 is a privileged port of the host, loopback or not.
  const low = bindings.filter(({ host }) => host.port > 0 && host.port < 1024);
  if (low.length > 0)
    return fail(
      `ports published on privileged host ports (below 1024): ${low.map((b) => `${b.binding}->${b.port}`).join(", ")}`,
      evidence,
    );
  // A stopped container publishes nothing: its empty port list proves nothing about the launch.
  if (!i.running) return skip("the container is not running: its published ports cannot be read", evidence);
  if (target.network === "none") {
    if (mode !== "none") return fail(`declared network none, launched with ${mode || "default"}`, evidence);
    // Every network namespace has lo: an empty list is a file that could not be read.
    if (!interfaces?.length)
      return skip(unobservedReason(measured, "the subject's network interfaces"), evidence);
    const extra = interfaces.filter((n) => n !== "lo");
    if (extra.length > 0) return fail(`interfaces beyond loopback: ${extra.join(", ")}`, evidence);
    return pass("only loopback in the subject's network namespace", evidence);
  }
  if (target.network === "bridge" && mode === "none")
    return fail("declared bridge but launched with network none", evidence);
  // Not asked is not reachable: the pass says which, never silently.
  const api =
    reach && !("error" in reach)
      ? `; the engine's API does not answer from its network (asked ${reach.asked.map((a) => a.address).join(", ")}${reach.unasked ? `; ${reach.unasked} more of the host's listeners not asked` : ""})`
      : reach
        ? "; whether the engine's API answers from its network was not measured"
        : "";
  return pass(
    `${bindings.length ? "published ports are bound to loopback only" : "no published ports"}${api}`,
    evidence,
  );
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/;
