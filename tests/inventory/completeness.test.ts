// Completeness: the cases that ran against the pins, per subject x suite, in each direction.
import { describe, expect, it } from "vitest";
import { CONTAINMENT_CASES, LIFECYCLE_CASES, type SuiteName } from "../../src/cases/index.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { checkCompleteness, describeDrift } from "../../src/inventory/verify.js";
import { computeVerdict } from "../../src/report/model.js";
import { allCases, makeCase, makeReport } from "../helpers/report.js";

const { inventory, sha256 } = parseInventory(
  "inventory.json",
  JSON.stringify({
    schemaVersion: 1,
    subjects: [
      { name: "web", image: "web:1" },
      { name: "api", image: "api:1" },
    ],
    suites: {
      lifecycle: {
        required: [...LIFECYCLE_CASES],
        subjects: { api: ["lifecycle.build", "lifecycle.ready"] },
      },
      containment: { required: [...CONTAINMENT_CASES] },
    },
  }),
);

const opts = (over: Partial<Parameters<typeof checkCompleteness>[2]> = {}) => ({
  suites: ["lifecycle", "containment"] as SuiteName[],
  subjects: ["web", "api"],
  requireComplete: true,
  path: "inventory.json",
  sha256,
  ...over,
});

const apiCases = () => [
  makeCase({ id: "lifecycle.build", subject: "api" }),
  makeCase({ id: "lifecycle.ready", subject: "api" }),
  ...CONTAINMENT_CASES.map((id) => makeCase({ id, subject: "api" })),
];

describe("checkCompleteness", () => {
  it("is complete when exactly the pinned cases ran, honouring a per-subject override", () => {
    const result = checkCompleteness(inventory, [...allCases("web"), ...apiCases()], opts());
    expect(result).toEqual({
      path: "inventory.json",
      sha256,
      complete: true,
      requireComplete: true,
      selected: { subjects: ["web", "api"], suites: ["lifecycle", "containment"] },
      drift: [],
      fixes: [],
    });
  });

  it("a required case that did not run is missing", () => {
    const cases = [...allCases("web").filter((c) => c.id !== "containment.seccomp"), ...apiCases()];
    const result = checkCompleteness(inventory, cases, opts());
    expect(result.complete).toBe(false);
    expect(result.drift).toEqual([
      { subject: "web", suite: "containment", missing: ["containment.seccomp"], unexpected: [], skipped: [] },
    ]);
    expect(describeDrift(result.drift[0]!)).toBe("web / containment: missing containment.seccomp");
  });

  it("an unpinned case that ran is unexpected (the override drops lifecycle.stop for api)", () => {
    const cases = [...allCases("web"), ...apiCases(), makeCase({ id: "lifecycle.stop", subject: "api" })];
    const result = checkCompleteness(inventory, cases, opts());
    expect(result.drift).toEqual([
      { subject: "api", suite: "lifecycle", missing: [], unexpected: ["lifecycle.stop"], skipped: [] },
    ]);
  });

  it("a required case that was skipped is skipped, and a failure is not drift", () => {
    const cases = [
      ...allCases("web").map((c) =>
        c.id === "lifecycle.probes"
          ? { ...c, status: "skip" as const }
          : c.id === "containment.user"
            ? { ...c, status: "fail" as const }
            : c,
      ),
      ...apiCases(),
    ];
    const result = checkCompleteness(inventory, cases, opts());
    expect(result.drift).toEqual([
      { subject: "web", suite: "lifecycle", missing: [], unexpected: [], skipped: ["lifecycle.probes"] },
    ]);
  });

  it("lists every direction at once, per subject x suite", () => {
    const cases = [
      ...allCases("web").filter((c) => c.id !== "lifecycle.build"),
      ...apiCases().map((c) => (c.id === "containment.devices" ? { ...c, status: "skip" as const } : c)),
      makeCase({ id: "lifecycle.limits", subject: "api" }),
    ];
    const result = checkCompleteness(inventory, cases, opts());
    expect(result.drift.map(describeDrift)).toEqual([
      "web / lifecycle: missing lifecycle.build",
      "api / lifecycle: unexpected lifecycle.limits",
      "api / containment: skipped containment.devices",
    ]);
  });

  it("judges only the selected subjects and suites (a shard)", () => {
    const result = checkCompleteness(
      inventory,
      allCases("web").filter((c) => c.suite === "lifecycle"),
      opts({ subjects: ["web"], suites: ["lifecycle"] }),
    );
    expect(result.complete).toBe(true);
  });

  it("cases for a subject or suite outside the selection are unexpected", () => {
    const result = checkCompleteness(
      inventory,
      [
        ...allCases("web").filter((c) => c.suite === "lifecycle"),
        makeCase({ id: "lifecycle.build", subject: "db" }),
      ],
      opts({ subjects: ["web"], suites: ["lifecycle"] }),
    );
    expect(result.drift).toEqual([
      { subject: "db", suite: "lifecycle", missing: [], unexpected: ["lifecycle.build"], skipped: [] },
    ]);
  });

  it("a suite the inventory does not pin pins nothing: every case it ran is unexpected", () => {
    const lifecycleOnly = parseInventory(
      "inventory.json",
      JSON.stringify({
        schemaVersion: 1,
        subjects: [{ name: "web", image: "web:1" }],
        suites: { lifecycle: { required: ["lifecycle.build"] } },
      }),
    ).inventory;
    const result = checkCompleteness(
      lifecycleOnly,
      [
        makeCase({ id: "lifecycle.build" }),
        makeCase({ id: "containment.user" }),
        makeCase({ id: "containment.seccomp" }),
      ],
      opts({ subjects: ["web"] }),
    );
    expect(result.drift).toEqual([
      {
        subject: "web",
        suite: "containment",
        missing: [],
        unexpected: ["containment.user", "containment.seccomp"],
        skipped: [],
      },
    ]);
  });

  it("fails the verdict when required, only warns when not", () => {
    const cases = allCases("web").filter((c) => c.id !== "lifecycle.stop");
    const required = checkCompleteness(inventory, cases, opts({ subjects: ["web"] }));
    const optional = checkCompleteness(inventory, cases, opts({ subjects: ["web"], requireComplete: false }));
    expect(computeVerdict(makeReport({ cases, inventory: required }))).toBe("fail");
    expect(computeVerdict(makeReport({ cases, inventory: optional }))).toBe("warn");
  });
});
