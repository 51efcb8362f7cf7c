// Report fixtures built through the real schema, so a fixture the schema rejects fails here.
import { type CaseResult, computeVerdict, type Report, reportSchema } from "../../src/report/model.js";
import { makeCase as baseCase, makeCleanup } from "../helpers/report.js";

/** The shared factory (tests/helpers/report.ts); here every case names its id and status. */
export function makeCase(p: Partial<CaseResult> & Pick<CaseResult, "id" | "status">): CaseResult {
  return baseCase({ durationMs: 120, ...p });
}

export function makeReport(over: Partial<Report> = {}): Report {
  const base = {
    schemaVersion: 1,
    tool: { name: "docker-acceptance", version: "0.1.0" },
    runId: "da-0123456789abcdef0123456789abcdef",
    startedAt: "2025-01-01T00:00:00.000Z",
    durationMs: 12_345,
    verdict: "pass",
    head: { sha: "a".repeat(40), ref: "refs/pull/7/merge" },
    subjects: [
      {
        name: "web",
        image: "docker-acceptance:da-0123",
        phases: [
          { name: "build", startMs: 0, durationMs: 4000 },
          { name: "create", startMs: 4000, durationMs: 300 },
          { name: "ready", startMs: 4300, durationMs: 1500 },
          { name: "probes", startMs: 5800, durationMs: 800 },
          { name: "containment", startMs: 6600, durationMs: 2000 },
          { name: "stop", startMs: 8600, durationMs: 500 },
          { name: "cleanup", startMs: 9100, durationMs: 700 },
        ],
      },
    ],
    cases: [
      makeCase({ id: "lifecycle.build", status: "pass" }),
      makeCase({ id: "lifecycle.create", status: "pass" }),
      makeCase({ id: "containment.user", status: "pass" }),
    ],
    cleanup: makeCleanup({
      objects: [
        ...makeCleanup().objects,
        {
          kind: "image",
          id: "sha256:" + "d".repeat(64),
          tag: "docker-acceptance:da-0123",
          action: "untagged",
          reason: "built by this run",
        },
      ],
      verifiedBy: [
        "list containers label=org.docker-acceptance.owner",
        "list images label=org.docker-acceptance.owner",
      ],
    }),
    inventory: {
      path: "acceptance/inventory.json",
      sha256: "e".repeat(64),
      complete: true,
      requireComplete: true,
      drift: [],
    },
    artifacts: [],
    alignment: null,
    external: {},
    errors: [],
    ...over,
  };
  const parsed = reportSchema.parse(base);
  if (!("verdict" in over)) parsed.verdict = computeVerdict(parsed);
  return parsed;
}
