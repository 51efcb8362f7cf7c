// lifecycle.probes: every probe the subject declares holds once it is ready: each is a value of
// a check kind (../../checks/kinds/: HTTP, TCP, a log line, the image's HEALTHCHECK, ...), checked
// by its kind, all of one kind together (on network "none" every HTTP probe is asked from one
// probe container in the subject's network namespace); and the image's HEALTHCHECK itself when
// the inventory does not name it (./image-healthcheck.ts).
import type { CheckTarget, ProbeResult } from "../../checks/kind.js";
import { type Probe, probeKind } from "../../checks/registry.js";
import type { ImageHealthcheck } from "../../engine/provider.js";
import { type CaseContext, checkTarget, type Draft } from "./case.js";
import {
  holdImageCheck,
  IMAGE_CHECK_FIX,
  type ImageCheckResult,
  imageCheckToHold,
} from "./image-healthcheck.js";

export async function checkProbes(
  context: CaseContext,
  containerId: string,
  hostPort: number | undefined,
  healthcheck?: ImageHealthcheck,
): Promise<Draft> {
  const { subject } = context;
  const imageCheck = imageCheckToHold(subject, healthcheck);
  // Nothing declared, nothing to hold: a pass that says so (an empty list is not drift).
  if (subject.probes.length === 0 && !imageCheck)
    return { status: "pass", message: "no probes declared", evidence: { probes: [] } };
  const target = checkTarget(context, containerId, hostPort, subject.startupTimeoutMs);
  const [declared, image] = await Promise.all([
    checkDeclared(subject.probes, target),
    imageCheck ? holdImageCheck(context, containerId, imageCheck) : undefined,
  ]);
  const results: (ProbeResult | ImageCheckResult)[] = [...declared, ...(image ? [image] : [])];
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

/** Each kind checks its own probes (together, in one go where it can); results in declared order. */
async function checkDeclared(probes: readonly Probe[], t: CheckTarget): Promise<ProbeResult[]> {
  const groups = new Map<ReturnType<typeof probeKind>, number[]>();
  probes.forEach((p, i) => {
    const kind = probeKind(p);
    groups.set(kind, [...(groups.get(kind) ?? []), i]);
  });
  const results: ProbeResult[] = new Array(probes.length);
  await Promise.all(
    [...groups].map(async ([kind, at]) => {
      const checked = await kind.checkAll(
        at.map((i) => probes[i]!),
        t,
      );
      at.forEach((i, n) => {
        results[i] = checked[n]!;
      });
    }),
  );
  return results;
}
