// The recipe for a new engine provider (issue #28 item 6; docs/architecture.md, "An engine
// provider"): its folder under src/engine/providers/, its name in PROVIDER_CATALOGUE
// (src/engine/provider-names.ts) and its implementation in IMPLEMENTATIONS
// (src/engine/providers/index.ts), and its contract test. In a copy of the tree a throwaway
// provider (an in-memory engine behind an endpoint of its own) is added by exactly those edits and
// `npm run docs` run; then it is selectable by name and found by `engine: auto` from its variable,
// createEngine gives its engine, both doors' request takes it, the `engine` option's values, help
// and description name it, and so do action.yml and the README (generated); nothing else changed,
// the tree typechecks and the structure check passes. With its name and no implementation the tree
// does not typecheck.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/inventory.js";
import { bundleAndRun, copyTree, runIn } from "../helpers/tree-copy.js";

/** The provider's folder: where it answers (its variable, else a default) and its engine. */
const NEW_PROVIDER = `// A throwaway engine provider: the provider recipe's test adds it to a copy of the tree.
import type { Endpoint, EndpointSearch, Engine } from "../../provider.js";
import { MemoryEngine } from "../memory/engine.js";

export function throwawayEndpoint(
  env: NodeJS.ProcessEnv,
  _exists: (path: string) => boolean,
  search: EndpointSearch,
): Endpoint | undefined {
  const host = env.THROWAWAY_HOST?.trim();
  if (host) return { provider: "throwaway", host, from: "THROWAWAY_HOST" };
  return search === "named" ? { provider: "throwaway", host: "memory://throwaway", from: "its default" } : undefined;
}

export function throwawayEngine(_endpoint: Endpoint, _expect: string | undefined): Engine {
  return new MemoryEngine();
}
`;

const CATALOGUE_ENTRY = `  {
    name: "throwaway",
    env: "THROWAWAY_HOST",
    about: "an engine the provider recipe's test adds",
  },
] as const;`;

const IMPORT = `import { throwawayEndpoint, throwawayEngine } from "./throwaway/index.js";\n`;
const IMPLEMENTATION = `  throwaway: { endpoint: throwawayEndpoint, create: throwawayEngine },\n};`;

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

const NAMES = "src/engine/provider-names.ts";
const LIST = "src/engine/providers/index.ts";
/** What `npm run docs` regenerates from the catalogue: the engine input's description. */
const GENERATED = ["action.yml", "README.md"];

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

/** `file` of the copy with `before` (which must be there, once) replaced. */
function edit(file: string, before: string, after: string): void {
  const text = read(copy, file);
  expect(text.split(before)).toHaveLength(2);
  writeFileSync(path.join(copy, file), text.replace(before, after));
}

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
  // The recipe, and nothing else: one folder, one catalogue entry, one implementation entry.
  mkdirSync(path.join(copy, "src/engine/providers/throwaway"));
  writeFileSync(path.join(copy, "src/engine/providers/throwaway/index.ts"), NEW_PROVIDER);
  edit(NAMES, "\n] as const;", `\n${CATALOGUE_ENTRY}`);
  const podman = 'import { podmanDialect, podmanEndpoint } from "./podman/index.js";\n';
  edit(LIST, podman, podman + IMPORT);
  edit(LIST, "\n};\n\n/** In the order", `\n${IMPLEMENTATION}\n\n/** In the order`);
  run(["scripts/docs.mjs"]);
}, 120_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("a new engine provider is its folder, its catalogue entry and its implementation entry", () => {
  it("npm run docs names it in the engine input's description (action.yml, README); nothing else changes", () => {
    const action = parse(read(copy, "action.yml"));
    expect(action.inputs.engine.description).toBe(
      "The container engine: `auto` (DOCKER_HOST, then CONTAINER_HOST, then THROWAWAY_HOST, then the default Docker and Podman and Throwaway sockets), `docker`, `podman` (its service's socket, rootful or rootless: `podman system service`), or `throwaway` (an engine the provider recipe's test adds).",
    );
    expect(read(copy, "README.md")).toContain("or `throwaway` (an engine the provider recipe's test adds).");
    // Besides the three edits, only what npm run docs generates differs from the repository.
    const untouched = [
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
    const changed = [NAMES, LIST, ...GENERATED, ...untouched].filter(
      (f) => read(copy, f) !== read(REPO_ROOT, f),
    );
    expect(changed).toEqual([NAMES, LIST, ...GENERATED]);
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

  it("the tree typechecks with it, and does not with its name but no implementation", () => {
    expect(typecheck()).toBeUndefined();
    const list = read(copy, LIST);
    try {
      writeFileSync(path.join(copy, LIST), list.replace(IMPLEMENTATION, "};").replace(IMPORT, ""));
      const failed = typecheck();
      expect(failed?.status).toBe(2);
      // The one error: IMPLEMENTATIONS, a Record over the catalogue's names, misses it.
      const errors = failed!.stdout.split("\n").filter((l) => /error TS/.test(l));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^src\/engine\/providers\/index\.ts\(\d+,\d+\): error TS2741: .*'throwaway'/);
    } finally {
      writeFileSync(path.join(copy, LIST), list);
    }
  }, 600_000); // two type checks of the whole tree: minutes at a high load
});
