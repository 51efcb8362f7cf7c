// lifecycle.probes: every HTTP probe the subject declares holds (method, path, expected status,
// optional body substring). Network "none": one probe container asks them all from inside.
import { type CaseContext, type Draft, netnsTarget } from "./case.js";
import { httpRequest } from "./http.js";
import { askInNetns } from "./netns-http.js";

export async function checkProbes(
  c: CaseContext,
  containerId: string,
  hostPort: number | undefined,
): Promise<Draft> {
  const { subject, signal } = c;
  if (subject.probes.length === 0)
    return { status: "skip", message: "no HTTP probes declared", evidence: {} };
  const viaNetns =
    subject.network === "none" ? await askInNetns(netnsTarget(c, containerId), subject.probes) : undefined;
  const results = await Promise.all(
    subject.probes.map(async (p, i) => {
      const answer = viaNetns ? viaNetns[i] : await httpRequest(hostPort!, p.method, p.path, 5000, signal);
      const statusOk = answer?.status === p.expectStatus;
      const bodyOk = p.bodyContains === undefined || (answer?.body.includes(p.bodyContains) ?? false);
      return {
        name: p.name ?? `${p.method} ${p.path}`,
        method: p.method,
        path: p.path,
        expectStatus: p.expectStatus,
        status: answer?.status ?? null,
        bodyContains: p.bodyContains,
        ok: statusOk && bodyOk,
      };
    }),
  );
  const failed = results.filter((r) => !r.ok);
  if (failed.length === 0)
    return { status: "pass", message: `${results.length} probe(s) held`, evidence: { probes: results } };
  return {
    status: "fail",
    message: failed
      .map(
        (f) =>
          `${f.name}: expected ${f.expectStatus}${f.bodyContains ? ` with "${f.bodyContains}"` : ""}, got ${f.status ?? "no answer"}`,
      )
      .join("; "),
    evidence: { probes: results },
    remediation:
      "fix the endpoint, or update the probe's expectStatus/bodyContains in the inventory if the change is intended",
  };
}
