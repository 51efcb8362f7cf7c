import { expect, test } from "vitest";
import { parseCodeOwners } from "../../src/alignment/codeowners.js";

const owners = parseCodeOwners(
  [
    "# default owners",
    "*                 @org/maintainers",
    "*.py              @py-team   # inline comment",
    "/docs/            @docs-writer",
    "docs/*            @docs-lead",
    "apps/             @apps-team",
    "/src/engine/**    @engine @alice",
    "src/engine/vendored/",
    "\\#notes.md       @hash",
  ].join("\n"),
  ".github/CODEOWNERS",
);

test("the last matching pattern wins, following GitHub's gitignore rules", () => {
  expect(owners.ownersOf("README.md")).toEqual(["@org/maintainers"]);
  expect(owners.ownersOf("deep/in/tree/tool.py")).toEqual(["@py-team"]);
  // docs/* matches direct children only, so nested docs fall back to /docs/.
  expect(owners.ownersOf("docs/index.md")).toEqual(["@docs-lead"]);
  expect(owners.ownersOf("docs/guides/setup.md")).toEqual(["@docs-writer"]);
  // A slash-free directory pattern matches at any depth.
  expect(owners.ownersOf("services/apps/x.ts")).toEqual(["@apps-team"]);
  expect(owners.ownersOf("src/engine/docker.ts")).toEqual(["@engine", "@alice"]);
  // A later pattern with no owners clears ownership.
  expect(owners.ownersOf("src/engine/vendored/lib.ts")).toEqual([]);
  expect(owners.ownersOf("#notes.md")).toEqual(["@hash"]);
  expect(owners.rules).toHaveLength(8);
});
