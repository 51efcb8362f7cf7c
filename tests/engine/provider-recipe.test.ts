// The recipe for a new engine provider (issue #28; docs/architecture.md, "An engine provider"): its
// folder under src/engine/providers/, holding its catalogue entry (catalogue.ts: plain data) and its
// implementation (index.ts), and its contract test. In a copy of the tree a throwaway provider (an
// in-memory engine behind an endpoint of its own) is added as that folder and nothing else, and
// `npm run docs` run; then only generated files changed (the catalogue's list, the implementations'
// Record, action.yml and the README), it is selectable by name and found by `engine: auto` from its
// variable, createEngine gives its engine, both doors' request takes it, the `engine` option's
// values, help and description name it; the tree typechecks and the structure check passes. With
// its catalogue entry and no implementation the tree does not typecheck.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/inventory.js";
import { bundleAndRun, copyTree, runIn } from "../helpers/tree-copy.js";

/** The provider's implementation: where it answers (its variable, else a default) and its engine. */
const NEW_PROVIDER = `// A throwaway engine provider: the provider recipe's test adds it to a copy of the tree.
import type { Endpoint, EndpointSearch, Engine } from "../../provider.js";
import { MemoryEngine } from "../memory/engine.js";
import type { ProviderImplementation } from "../types.js";

function throwawayEndpoint(
  env: NodeJS.ProcessEnv,
  _exists: (path: string) => boolean,
  search: EndpointSearch,
): Endpoint | undefined {
  const host = env.THROWAWAY_HOST?.trim();
  if (host) return { provider: "throwaway", host, from: "THROWAWAY_HOST" };
  return search === "named" ? { provider: "throwaway", host: "memory://throwaway", from: "its default" } : undefined;
}

function throwawayEngine(_endpoint: Endpoint, _expect: string | undefined): Engine {
  return new MemoryEngine();
}

export const throwawayProvider: ProviderImplementation = { endpoint: throwawayEndpoint, create: throwawayEngine };
`;

/** Its catalogue entry: plain data, after Podman (rank 20). */
const NEW_CATALOGUE = `import type { CatalogueEntry } from "../types.js";

export const throwawayCatalogue = {
  name: "throwaway",
  env: "THROWAWAY_HOST",
  about: "an engine the provider recipe's test adds",
  rank: 30,
} as const satisfies CatalogueEntry;
`;

/** Bundled in the copy and run there: what selecting an engine and parsing a request do. */
const PROBE = `import { createEngine, ENGINE_CHOICES, parseEngineChoice, resolveEndpoint } from "./src/engine/select.js";
import { REQUEST_OPTIONS } from "./src/request/options.js";
import { parseRequest } from "./src/request/parse.js";
const none = () => false;
const engine = createEngine(parseEngineChoice("throwaway", "input engine"), {});
console.log(JSON.stringify({
  choices: ENGINE_CHOICES,
  named: resolveEndpoint("throwaway", {}, none),
  auto: resolveEndpoint("auto", { THROWAWAY_HOST: "memory://here" }, none),
  autoWithout: resolveEndpoint("auto", {}, none).provider,
  kind: (await engine.facts()).kind,
  input: parseRequest({ engine: "throwaway" }, ["engine"], "input").engine,
  flag: parseRequest({ engine: "throwaway" }, ["engine"], "flag").engine,
  values: REQUEST_OPTIONS.engine.values,
  help: REQUEST_OPTIONS.engine.help,
  description: REQUEST_OPTIONS.engine.description,
}));
`;

const FOLDER = "src/engine/providers/throwaway";
const IMPLEMENTATIONS = "src/engine/providers/implementations.ts";
/**
 * What `npm run docs` regenerates from the folder: the catalogue's list, the implementations'
 * Record, and the engine input's description (action.yml, README).
 */
const GENERATED = ["src/engine/provider-names.ts", IMPLEMENTATIONS, "action.yml", "README.md"];

let copy: string;
const run = (args: string[]) => runIn(copy, args);
const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8");
const failure = (args: string[]) => {
  try {
    run(args);
    return undefined;
  } catch (err) {
    return err as { status: number; stdout: string; stderr: string };
  }
};
const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
/** The copy's src typechecked, incrementally (the second run rechecks only what changed). */
const typecheck = () => failure([TSC, "-p", "tsconfig.json"]);

beforeAll(() => {
  copy = copyTree("da-provider-recipe-", ["tsconfig.json"]);
  const tsconfig = JSON.parse(read(copy, "tsconfig.json"));
  tsconfig.include = ["src/**/*.ts"];
  tsconfig.compilerOptions = {
    ...tsconfig.compilerOptions,
    incremental: true,
    tsBuildInfoFile: ".tsbuildinfo",
  };
  writeFileSync(path.join(copy, "tsconfig.json"), JSON.stringify(tsconfig));
  // The recipe, and nothing else: one folder, its catalogue entry and its implementation.
  mkdirSync(path.join(copy, FOLDER));
  writeFileSync(path.join(copy, FOLDER, "catalogue.ts"), NEW_CATALOGUE);
  writeFileSync(path.join(copy, FOLDER, "index.ts"), NEW_PROVIDER);
  run(["scripts/docs.mjs"]);
}, 120_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("a new engine provider is its folder: its catalogue entry and its implementation", () => {
  it("npm run docs lists it in the catalogue and the implementations, and names it in the engine input's description; only generated files change", () => {
    const names = read(copy, "src/engine/provider-names.ts");
    expect(names).toContain('import { throwawayCatalogue } from "./providers/throwaway/catalogue.js";');
    expect(names).toContain(
      "export const PROVIDER_CATALOGUE = [dockerCatalogue, podmanCatalogue, throwawayCatalogue] as const;",
    );
    // Still plain data: the catalogue's list imports the catalogue modules and nothing else.
    const imports = [...names.matchAll(/^import .* from "(.*)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual([
      "./providers/docker/catalogue.js",
      "./providers/podman/catalogue.js",
      "./providers/throwaway/catalogue.js",
    ]);
    const implementations = read(copy, IMPLEMENTATIONS);
    expect(implementations).toContain('import { throwawayProvider } from "./throwaway/index.js";');
    expect(implementations).toContain("  podman: podmanProvider,\n  throwaway: throwawayProvider,\n};");
    const action = parse(read(copy, "action.yml"));
    expect(action.inputs.engine.description).toBe(
      "The container engine: `auto` (DOCKER_HOST, then CONTAINER_HOST, then THROWAWAY_HOST, then the default Docker and Podman and Throwaway sockets), `docker`, `podman` (its service's socket, rootful or rootless: `podman system service`), or `throwaway` (an engine the provider recipe's test adds).",
    );
    expect(read(copy, "README.md")).toContain("or `throwaway` (an engine the provider recipe's test adds).");
    // Besides the new folder, only what npm run docs generates differs from the repository.
    const untouched = [
      "src/engine/providers/index.ts",
      "src/engine/select.ts",
      "src/request/options.ts",
      "src/checks/kinds/index.ts",
      "src/cases/containment/index.ts",
      "src/cases/ids.ts",
      "src/inventory/precheck-plan.json",
      "src/cases/lifecycle/index.ts",
      "src/suites/containment/graders/index.ts",
      "src/github/publishers/index.ts",
      "acceptance/inventory.schema.json",
      "acceptance/report.schema.json",
      "docs/architecture.md",
    ];
    const changed = [...GENERATED, ...untouched].filter((f) => read(copy, f) !== read(REPO_ROOT, f));
    expect(changed).toEqual(GENERATED);
    expect(run(["scripts/docs.mjs", "--check"])).toMatch(/in sync/);
  });

  it("it is selectable by name and by its variable, createEngine gives its engine, and both doors take it", async () => {
    const out = JSON.parse(await bundleAndRun(copy, PROBE, [], { externalPackages: true }));
    expect(out.choices).toEqual(["auto", "docker", "podman", "throwaway"]);
    expect(out.named).toEqual({ provider: "throwaway", host: "memory://throwaway", from: "its default" });
    expect(out.auto).toEqual({ provider: "throwaway", host: "memory://here", from: "THROWAWAY_HOST" });
    // Found by auto only where it is named: with nothing set, the first provider's default stays.
    expect(out.autoWithout).toBe("docker");
    expect(out.kind).toBe("memory");
    expect([out.input, out.flag]).toEqual(["throwaway", "throwaway"]);
    expect(out.values).toEqual(out.choices);
    expect(out.help).toBe(
      "the container engine (auto: DOCKER_HOST, CONTAINER_HOST, THROWAWAY_HOST, the default sockets)",
    );
    expect(out.description).toBe(parse(read(copy, "action.yml")).inputs.engine.description);
  }, 60_000);

  it("the structure check passes with it", () => {
    expect(run([path.join(copy, "scripts/check-structure.mjs"), "--root", copy])).toMatch(
      /0 new or grown, 0 fixed but still listed/,
    );
  }, 60_000);

  it("npm run docs refuses an implementation without a catalogue entry, and an entry not named as its folder", () => {
    const catalogue = path.join(copy, FOLDER, "catalogue.ts");
    try {
      rmSync(catalogue);
      expect(failure(["scripts/docs.mjs", "--check"])?.stderr).toContain(
        `${FOLDER}/index.ts exports a ProviderImplementation: add its catalogue entry, ${FOLDER}/catalogue.ts`,
      );
      writeFileSync(catalogue, NEW_CATALOGUE.replace('name: "throwaway"', 'name: "other"'));
      expect(failure(["scripts/docs.mjs", "--check"])?.stderr).toContain(
        `${FOLDER}/catalogue.ts: its name is "other"; a provider is named as its folder ("throwaway")`,
      );
    } finally {
      writeFileSync(catalogue, NEW_CATALOGUE);
    }
  }, 60_000);

  it("the tree typechecks with it, and does not with its catalogue entry but no implementation", () => {
    expect(typecheck()).toBeUndefined();
    const index = path.join(copy, FOLDER, "index.ts");
    try {
      // Its implementation not exported as one: npm run docs leaves it out of the Record.
      writeFileSync(
        index,
        NEW_PROVIDER.replace(
          "export const throwawayProvider: ProviderImplementation",
          "export const throwawayProvider",
        ),
      );
      expect(failure(["scripts/docs.mjs", "--check"])).toMatchObject({
        status: 1,
        stderr: expect.stringMatching(/out of date: src\/engine\/providers\/implementations\.ts \(/),
      });
      run(["scripts/docs.mjs"]);
      expect(read(copy, IMPLEMENTATIONS)).not.toContain("throwaway");
      const failed = typecheck();
      expect(failed?.status).toBe(2);
      // The one error: IMPLEMENTATIONS, a Record over the catalogue's names, misses it.
      const errors = failed!.stdout.split("\n").filter((l) => /error TS/.test(l));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^src\/engine\/providers\/implementations\.ts\(\d+,\d+\): error TS2741: .*'throwaway'/,
      );
    } finally {
      // The copy's lists are left without it: this test is the last.
      writeFileSync(index, NEW_PROVIDER);
    }
  }, 600_000); // two type checks of the whole tree: minutes at a high load
});
