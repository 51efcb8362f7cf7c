// The fixture matrices state, per fixture, only what it is about: the cases it fails (and, in the
// realistic matrix, the ones it skips, by named sets); every other case of the catalogue is
// expected to pass. These tests hold each entry to the catalogue without an engine, so a renamed
// case or a typo fails here by file, fixture and field, and show that a case added to the
// catalogue is expected to pass in every fixture that does not name it.
import { describe, expect, it } from "vitest";
import { ALL_CASES, CONTAINMENT_CASES } from "../../src/cases/index.js";
import { loadFaults } from "../containment/faults.js";
import { expectationProblems, expectedStatuses, loadRealistic } from "../helpers/realistic.js";

describe("the realistic matrix's expectations", () => {
  const matrix = loadRealistic();

  it("name only cases of the catalogue, suites and defined sets", () => {
    expect(expectationProblems(matrix)).toEqual([]);
  });

  it("refuses a typo, an undefined set and a set naming a removed case, saying where and what to write", () => {
    const broken = structuredClone(matrix);
    broken.sets = { ...broken.sets, gone: ["containment.no_such_case"] };
    broken.cases[0]!.fails = ["containment.usr"];
    broken.cases[1]!.skips = ["@unobservd"];
    expect(expectationProblems(broken)).toEqual([
      'acceptance/fixtures/realistic/realistic.json: sets.gone: "containment.no_such_case" is no case of the catalogue (src/cases/): name a case ID',
      `acceptance/fixtures/realistic/realistic.json: cases[0] ("${matrix.cases[0]!.name}").fails: "containment.usr" names nothing: write a case ID, "<suite>.*" or "@<set>" with the set defined in "sets"`,
      `acceptance/fixtures/realistic/realistic.json: cases[1] ("${matrix.cases[1]!.name}").skips: "@unobservd" names nothing: write a case ID, "<suite>.*" or "@<set>" with the set defined in "sets"`,
    ]);
  });

  it("expand sets and suites, a fail winning over a skip, and pass every case no fixture names", () => {
    const crash = matrix.cases.find((c) => c.name === "root-drop-hardened")!;
    const got = expectedStatuses(crash, ALL_CASES, matrix.sets);
    expect(got["containment.user"]).toBe("fail");
    expect(got["lifecycle.ready"]).toBe("fail");
    expect(got["containment.masked_paths"]).toBe("skip");
    expect(got["lifecycle.stop"]).toBe("skip");
    expect(got["containment.privileged"]).toBe("pass");
    expect(Object.keys(got)).toEqual([...ALL_CASES]);
    // A case the catalogue gains tomorrow: expected to pass in every fixture, none edited.
    const tomorrow = [...ALL_CASES, "containment.new_case"];
    for (const c of matrix.cases)
      expect(expectedStatuses(c, tomorrow, matrix.sets)["containment.new_case"]).toBe("pass");
    expect(
      expectedStatuses({ ...crash, skips: ["containment.*"] }, tomorrow, matrix.sets)["containment.new_case"],
    ).toBe("skip");
  });
});

describe("the fault matrix's expectations", () => {
  it("name only containment cases of the catalogue, and a safe twin fails none", () => {
    for (const f of loadFaults()) {
      for (const id of f.fails) expect(CONTAINMENT_CASES, `faults.json: ${f.name}.fails`).toContain(id);
      if (f.safe) expect(f.fails, f.name).toEqual([]);
    }
  });
});
