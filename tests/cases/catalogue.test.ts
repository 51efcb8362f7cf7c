// The catalogue is its folders: one file per case in src/cases/<suite>/, each suite's index.ts
// listing them in run order, and one grader per containment case in src/suites/containment/graders/.
// These tests hold each list equal to its folder, so a case file left out of its index (and so out
// of every run, schema and table), or a grader left without its case, fails here by name.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUITE_REGISTRY } from "../../src/cases/index.js";
import { GRADERS } from "../../src/suites/containment/graders/index.js";
import { REPO_ROOT } from "../helpers/inventory.js";

/** The .ts files of a folder under the repository, index.ts aside, without their extension. */
const entries = (dir: string) =>
  readdirSync(path.join(REPO_ROOT, dir))
    .filter((f) => f.endsWith(".ts") && f !== "index.ts")
    .map((f) => f.slice(0, -".ts".length))
    .sort();

/** A case's file name: the id after its suite's prefix, words joined by "-" (no_new_privileges -> no-new-privileges). */
const fileOf = (id: string) => id.slice(id.indexOf(".") + 1).replaceAll("_", "-");

describe("the case catalogue's folders", () => {
  it("lists every case file of each suite's folder in its index, and only those", () => {
    for (const suite of SUITE_REGISTRY) {
      const listed = suite.cases.map((c) => fileOf(c.id)).sort();
      expect(listed, `src/cases/${suite.name}/index.ts against its folder`).toEqual(
        entries(`src/cases/${suite.name}`),
      );
    }
  });

  it("names each case's file after its id, and the file exports that one case", async () => {
    for (const suite of SUITE_REGISTRY) {
      for (const c of suite.cases) {
        const file = `src/cases/${suite.name}/${fileOf(c.id)}.ts`;
        const mod = (await import(path.join(REPO_ROOT, file))) as Record<string, { id?: string }>;
        expect(
          Object.values(mod).map((d) => d.id),
          file,
        ).toEqual([c.id]);
      }
    }
  });

  it("has one grader file per containment case, registered under the case's id", () => {
    const containment = SUITE_REGISTRY.find((s) => s.name === "containment")!;
    const ids = containment.cases.map((c) => c.id);
    expect(Object.keys(GRADERS).sort()).toEqual([...ids].sort());
    expect(entries("src/suites/containment/graders")).toEqual(ids.map(fileOf).sort());
  });

  it("has no folder for a suite the registry does not know", () => {
    const folders = readdirSync(path.join(REPO_ROOT, "src/cases"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders).toEqual(SUITE_REGISTRY.map((s) => s.name).sort());
  });
});
