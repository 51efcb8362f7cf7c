// Keeps generated documentation in sync with its sources: each suite's list of cases
// (src/cases/<suite>/index.ts, between markers) from its case files and their ranks, the containment
// graders' index (src/suites/containment/graders/index.ts) from the grader files, the check kinds'
// list (src/checks/kinds/index.ts) from their modules, the provider catalogue's list
// (src/engine/provider-names.ts) and the providers' implementations
// (src/engine/providers/implementations.ts) from the provider folders, action.yml's inputs
// from the option table and its outputs from the step outputs' declarations
// (src/action/step-outputs.ts), the list of publishers (src/github/publishers/index.ts) from their
// modules, the inventory's and the report's JSON Schemas (acceptance/*.schema.json, what
// `docker-acceptance schema` prints) from their zod schemas; the README's inputs and outputs
// tables are generated from action.yml, and its case tables from the registry of suites
// (src/cases/index.ts), between marker comments; docs/architecture.md's layer table and its
// imports folder by folder from scripts/check-structure.mjs. `npm run docs` rewrites them;
// `npm run docs:check` (CI) fails with exit 1 when a committed one differs.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";

const root = fileURLToPath(new URL("..", import.meta.url));
const README = `${root}README.md`;
const ACTION = `${root}action.yml`;

/** A table cell: one line, pipes escaped so a description cannot split the row. */
const cell = (text) =>
  String(text ?? "")
    .replace(/\s*\n\s*/g, " ")
    .trim()
    .replace(/\|/g, "\\|");

/** Defaults are shown as code; an empty default as an em dash so the column never looks missing. */
const defaultCell = (value) => {
  if (value === undefined || value === "") return "—";
  const text = String(value);
  // A backtick inside the default would end the code span: use a double-backtick span then.
  return text.includes("`") ? `\`\` ${cell(text)} \`\`` : `\`${cell(text)}\``;
};

/**
 * With the request's options (src/request/options.ts), the inputs table gains the CLI
 * flag each input shares with the command line: the two doors parse into one request.
 */
export function renderTables(actionYaml, options) {
  const action = parse(actionYaml);
  const flags = options && flagsByInput(options);
  const inputs = Object.entries(action.inputs ?? {}).map(([name, i]) =>
    flags
      ? `| \`${name}\` | ${flags[name] ?? "—"} | ${cell(i.description)} | ${defaultCell(i.default)} |`
      : `| \`${name}\` | ${cell(i.description)} | ${defaultCell(i.default)} |`,
  );
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, o]) => `| \`${name}\` | ${cell(o.description)} |`,
  );
  return {
    inputs: [
      ...(flags
        ? ["| Input | CLI flag | Description | Default |", "| --- | --- | --- | --- |"]
        : ["| Input | Description | Default |", "| --- | --- | --- |"]),
      ...inputs,
    ].join("\n"),
    outputs: ["| Output | Description |", "| --- | --- |", ...outputs].join("\n"),
  };
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`; throws naming a missing marker. */
export function replaceBetween(text, name, body, source = "action.yml") {
  const start = `<!-- ${name}:start (generated from ${source} by scripts/docs.mjs) -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) {
    throw new Error(`README.md: marker pair for "${name}" not found; add the lines\n${start}\n${end}`);
  }
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}

/** Input name to its CLI flag and the commands that take it, as a table cell. */
function flagsByInput(options) {
  return Object.fromEntries(
    Object.values(options)
      .filter((o) => o.input && o.flag)
      .map((o) => [o.input, `\`--${o.flag}\` (${o.commands.join(", ")})`]),
  );
}

/** One action.yml scalar: plain or quoted as the yaml library writes it, folded when long. */
function yamlScalar(text, indent) {
  const one = stringify(text, { lineWidth: 0 }).trimEnd();
  if (indent.length + "description: ".length + one.length <= 100) return one;
  // Folded (`>-`): lines of at most 100 columns, broken at single spaces, which folding restores.
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + 2 + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return `>-\n${lines.map((l) => `${indent}  ${l}`).join("\n")}`;
}

/** action.yml's `inputs:` entries, from the option table (each input's description and default). */
export function renderActionInputs(options) {
  return Object.values(options)
    .filter((o) => o.input)
    .map((o) => {
      if (!o.description)
        throw new Error(`option ${o.input}: an input needs a description (field description)`);
      const dflt = o.actionDefault ?? o.default ?? "";
      return [
        `  ${o.input}:`,
        `    description: ${yamlScalar(o.description, "    ")}`,
        "    required: false",
        `    default: ${stringify(dflt).trimEnd()}`,
      ].join("\n");
    })
    .join("\n");
}

/** action.yml's `outputs:` entries, from the step outputs' declarations (name to its description). */
export function renderActionOutputs(outputs) {
  return Object.entries(outputs)
    .map(([name, o]) => {
      if (!o.description) throw new Error(`step output ${name}: an output needs a description`);
      return [`  ${name}:`, `    description: ${yamlScalar(o.description, "    ")}`].join("\n");
    })
    .join("\n");
}

const ACTION_SECTIONS = {
  inputs: "the option table, src/request/options.ts and src/github/publishers/",
  outputs:
    "the step outputs' declarations, src/action/step-outputs.ts, src/github/publishers/ and src/bot/outputs.ts",
};

/** Replaces action.yml's text between `  # NAME:start (...)` and `  # NAME:end`; throws naming a missing marker. */
function replaceActionSection(actionYaml, name, body) {
  const start = `  # ${name}:start (generated from ${ACTION_SECTIONS[name]}, by scripts/docs.mjs)`;
  const end = `  # ${name}:end`;
  const i = actionYaml.indexOf(start);
  const j = actionYaml.indexOf(end, i);
  if (i < 0 || j < i)
    throw new Error(`action.yml: marker pair for the ${name} not found; add the lines\n${start}\n${end}`);
  return `${actionYaml.slice(0, i + start.length)}\n${body}\n${actionYaml.slice(j)}`;
}

/**
 * action.yml with its inputs regenerated between `# inputs:start` and `# inputs:end` from the
 * option table, and its outputs between `# outputs:start` and `# outputs:end` from the step
 * outputs' declarations (STEP_OUTPUTS, src/action/step-outputs.ts).
 */
export function generateActionYaml(actionYaml, options, outputs) {
  if (!outputs) throw new Error("generateActionYaml: pass the step outputs (STEP_OUTPUTS) as well");
  const withInputs = replaceActionSection(actionYaml, "inputs", renderActionInputs(options));
  return replaceActionSection(withInputs, "outputs", renderActionOutputs(outputs));
}

/**
 * The modules of `dir` (index.ts and `skip` aside) exporting `export const <id> = <define>(`, each
 * with the rank read from the module itself (one bundle for them all), by rank (ties by id).
 */
async function rankedModules(dir, define, skip = []) {
  const declared = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".ts") || name === "index.ts" || skip.includes(name)) continue;
    const text = readFileSync(`${dir}${name}`, "utf8");
    for (const m of text.matchAll(new RegExp(`^export const (\\w+) = ${define}\\(`, "gm")))
      declared.push({ name, id: m[1] });
  }
  const entry = declared
    .map((p, i) => `export { ${p.id} as p${i} } from ${JSON.stringify(`${dir}${p.name}`)};`)
    .join("\n");
  const mods = declared.length ? await loadTsSource(entry, dir) : {};
  const found = declared.map((p, i) => {
    const rank = mods[`p${i}`].rank;
    if (!Number.isFinite(rank))
      throw new Error(
        `${dir.slice(root.length)}${p.name}: ${p.id} needs a rank (a number: its place in the list)`,
      );
    return { file: p.name.replace(/\.ts$/, ".js"), id: p.id, rank };
  });
  return found.sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
}

/** One import line per module, in file order (as biome sorts them). */
const importLines = (found) =>
  [...found]
    .sort((a, b) => a.file.localeCompare(b.file))
    .map((p) => `import { ${p.id} } from "./${p.file}";`);

/**
 * src/github/publishers/index.ts: every module of that folder calling definePublisher, by rank
 * (each read from the module itself), so a new publisher is its module and its test.
 */
export async function generatePublisherList(dir = `${root}src/github/publishers/`) {
  const found = await rankedModules(dir, "definePublisher", ["types.ts"]);
  const list = `export const PUBLISHERS = [${found.map((p) => p.id).join(", ")}] as const;`;
  const wrapped =
    list.length <= 110
      ? list
      : `export const PUBLISHERS = [\n${found.map((p) => `  ${p.id},`).join("\n")}\n] as const;`;
  return [
    "// Generated by scripts/docs.mjs (`npm run docs`) from the modules of this folder that call",
    "// definePublisher, in the order of their rank: do not edit; docs:check fails when it is stale.",
    ...importLines(found),
    "",
    wrapped,
    "",
  ].join("\n");
}

const KINDS_START =
  "// kinds:start (generated by `npm run docs` from this folder's modules calling defineKind, in the order of their rank: do not edit)";
const KINDS_END = "// kinds:end";

/**
 * src/checks/kinds/index.ts with CHECK_KINDS regenerated between its `// kinds:start` and
 * `// kinds:end` lines: every module of that folder calling defineKind, by rank, so a new check
 * kind is its module and its test.
 */
export async function generateKindList(indexText, dir = `${root}src/checks/kinds/`) {
  const found = await rankedModules(dir, "defineKind");
  const body = [
    ...importLines(found),
    "",
    `export ${constList(
      "CHECK_KINDS",
      found.map((k) => k.id),
    )}`,
  ];
  return replaceMarked(indexText, KINDS_START, KINDS_END, body.join("\n"), "src/checks/kinds/index.ts");
}

/** `text` with the lines between `start` and `end` replaced by `body`; throws naming a missing marker. */
function replaceMarked(text, start, end, body, where) {
  const i = text.indexOf(start);
  const j = text.indexOf(end, i);
  if (i < 0 || j < i) throw new Error(`${where}: marker pair not found; add the lines\n${start}\n${end}`);
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}

const PROVIDERS_DIR = `${root}src/engine/providers/`;

/** The name its folder's index.ts exports its implementation under (`export const <name>: ProviderImplementation = `). */
function implementationOf(dir, folder) {
  const index = `${dir}${folder}/index.ts`;
  if (!existsSync(index)) return undefined;
  const found = [...readFileSync(index, "utf8").matchAll(/^export const (\w+): ProviderImplementation = /gm)];
  if (found.length > 1)
    throw new Error(
      `src/engine/providers/${folder}/index.ts: a provider exports one ProviderImplementation (found ${found.length})`,
    );
  return found[0]?.[1];
}

/**
 * The provider folders (those with a catalogue.ts: the engine double's memory/ has none), by the
 * rank of their catalogue entry (read from the module): each with its folder's name, the name its
 * catalogue.ts exports its entry under and the name its index.ts exports its implementation under.
 */
export async function loadProviderFolders(dir = PROVIDERS_DIR) {
  const found = [];
  for (const folder of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const name = folder.name;
    const where = `src/engine/providers/${name}/`;
    const implementation = implementationOf(dir, name);
    if (!existsSync(`${dir}${name}/catalogue.ts`)) {
      if (implementation)
        throw new Error(
          `${where}index.ts exports a ProviderImplementation: add its catalogue entry, ${where}catalogue.ts`,
        );
      continue;
    }
    const entries = [
      ...readFileSync(`${dir}${name}/catalogue.ts`, "utf8").matchAll(/^export const (\w+) = /gm),
    ];
    if (entries.length !== 1)
      throw new Error(`${where}catalogue.ts: exports exactly one catalogue entry (found ${entries.length})`);
    found.push({ name, where, entry: entries[0][1], implementation });
  }
  const source = found
    .map((p, i) => `export { ${p.entry} as c${i} } from ${JSON.stringify(`${dir}${p.name}/catalogue.ts`)};`)
    .join("\n");
  const mods = found.length ? await loadTsSource(source, dir) : {};
  found.forEach((p, i) => {
    const { name, rank } = mods[`c${i}`];
    if (name !== p.name)
      throw new Error(
        `${p.where}catalogue.ts: its name is "${name}"; a provider is named as its folder ("${p.name}")`,
      );
    if (!Number.isFinite(rank))
      throw new Error(`${p.where}catalogue.ts: needs a rank (a number: where \`engine: auto\` looks for it)`);
    p.rank = rank;
  });
  return found.sort((a, b) => a.rank - b.rank || byCodeUnit(a.name, b.name));
}

const CATALOGUE_START =
  "// catalogue:start (generated by `npm run docs` from each provider folder's catalogue.ts, in the order of their rank: do not edit)";
const CATALOGUE_END = "// catalogue:end";

/**
 * src/engine/provider-names.ts with PROVIDER_CATALOGUE regenerated between its `// catalogue:start`
 * and `// catalogue:end` lines: each provider folder's catalogue entry (plain data), by rank.
 */
export function generateProviderCatalogue(namesText, providers) {
  const imports = [...providers]
    .sort((a, b) => byCodeUnit(a.name, b.name))
    .map((p) => `import { ${p.entry} } from "./providers/${p.name}/catalogue.js";`);
  const list = `export ${constList(
    "PROVIDER_CATALOGUE",
    providers.map((p) => p.entry),
  )}`;
  const body = [...imports, "", list].join("\n");
  return replaceMarked(namesText, CATALOGUE_START, CATALOGUE_END, body, "src/engine/provider-names.ts");
}

/**
 * src/engine/providers/implementations.ts: each provider's implementation keyed by its name, in the
 * catalogue's order. A folder with a catalogue entry and no implementation is left out, so the
 * Record over the catalogue's names does not compile.
 */
export function generateProviderImplementations(providers) {
  const implemented = providers.filter((p) => p.implementation);
  const imports = [
    ...implemented.map((p) => [
      `./${p.name}/index.js`,
      `import { ${p.implementation} } from "./${p.name}/index.js";`,
    ]),
    ["./types.js", 'import type { ProviderImplementation } from "./types.js";'],
  ]
    .sort((a, b) => byCodeUnit(a[0], b[0]))
    .map(([, line]) => line);
  const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
  return [
    "// Generated by scripts/docs.mjs (`npm run docs`) from the provider folders of this folder: do not",
    "// edit; docs:check fails when it is stale. Each provider's implementation (its index.ts's",
    "// `export const <name>: ProviderImplementation`), keyed by its catalogue name: a Record over the",
    "// catalogue's names (../provider-names.ts), so a catalogue entry without an implementation does not",
    "// compile. ./index.ts makes PROVIDERS of it, in the catalogue's order.",
    'import type { ProviderName } from "../provider-names.js";',
    ...imports,
    "",
    "export const IMPLEMENTATIONS: { readonly [N in ProviderName]: ProviderImplementation } = {",
    ...implemented.map((p) => `  ${key(p.name)}: ${p.implementation},`),
    "};",
    "",
  ].join("\n");
}

/** Code-unit order (as biome sorts the imports of a generated file): locale rules would ignore `-`. */
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every case file of every suite's folder (src/cases/<suite>/*.ts, index.ts aside), compiled in one
 * bundle: suite name to its cases in run order (by rank, ties by id), each with its file and the
 * name it is exported under. A file must export exactly one case (an object with an id and a rank).
 */
export async function loadCaseFiles(casesDir = `${root}src/cases/`) {
  const suites = readdirSync(casesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort(byCodeUnit);
  const files = suites.flatMap((suite) =>
    readdirSync(`${casesDir}${suite}`)
      .filter((f) => f.endsWith(".ts") && f !== "index.ts")
      .sort(byCodeUnit)
      .map((f) => ({ suite, file: f })),
  );
  const entry = [
    ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(`${casesDir}${f.suite}/${f.file}`)};`),
    `export default [${files.map((_, i) => `m${i}`).join(", ")}];`,
  ].join("\n");
  const modules = (await loadTsSource(entry, casesDir)).default;
  const bySuite = Object.fromEntries(suites.map((s) => [s, []]));
  files.forEach((f, i) => {
    const where = `src/cases/${f.suite}/${f.file}`;
    const defs = Object.entries(modules[i]).filter(([, v]) => typeof v?.id === "string");
    if (defs.length !== 1)
      throw new Error(`${where}: a case file exports exactly one case (found ${defs.length})`);
    const [[name, def]] = defs;
    if (!Number.isFinite(def.rank))
      throw new Error(`${where}: case ${def.id} needs a rank (a number: where it runs in its suite)`);
    if (!def.id.startsWith(`${f.suite}.`))
      throw new Error(
        `${where}: case ${def.id} is in the folder of suite ${f.suite}: its id starts "${f.suite}."`,
      );
    bySuite[f.suite].push({ file: f.file.replace(/\.ts$/, ".js"), name, id: def.id, rank: def.rank });
  });
  for (const list of Object.values(bySuite)) list.sort((a, b) => a.rank - b.rank || byCodeUnit(a.id, b.id));
  return bySuite;
}

/** `const NAME = [a, b] as const;` on one line when it fits biome's 110 columns, else one entry a line. */
function constList(name, items) {
  const line = `const ${name} = [${items.join(", ")}] as const;`;
  return line.length <= 110
    ? line
    : `const ${name} = [\n${items.map((i) => `  ${i},`).join("\n")}\n] as const;`;
}

const CASES_START =
  "// cases:start (generated by `npm run docs` from this folder's case files, in the order of their rank: do not edit)";
const CASES_END = "// cases:end";

/**
 * A suite's index.ts (src/cases/<suite>/index.ts) with its generated part regenerated: between the
 * `// cases:start` and `// cases:end` lines, an import of each case file and CASES, the cases in
 * run order. The rest (the suite's name, title and purpose, `cases: CASES`) is written by hand.
 */
export function generateCaseIndex(indexText, cases, where = "index.ts") {
  const imports = [...cases]
    .sort((a, b) => byCodeUnit(a.file, b.file))
    .map((c) => `import { ${c.name} } from "./${c.file}";`);
  const body = [
    ...imports,
    "",
    constList(
      "CASES",
      cases.map((c) => c.name),
    ),
  ].join("\n");
  return replaceMarked(indexText, CASES_START, CASES_END, body, where);
}

/**
 * src/cases/ids.ts: each suite's case IDs in run order, for what must not load the definitions (the
 * inventory's rules, on the run's way to its first engine call). src/cases/index.ts holds it equal
 * to the catalogue.
 */
export function generateCaseIds(casesBySuite) {
  const lists = Object.entries(casesBySuite).map(([suite, cases]) => {
    const ids = cases.map((c) => JSON.stringify(c.id));
    const line = `  ${suite}: [${ids.join(", ")}],`;
    return line.length <= 110 ? line : `  ${suite}: [\n${ids.map((i) => `    ${i},`).join("\n")}\n  ],`;
  });
  return [
    "// Each suite's case IDs in run order: all the inventory's rules (src/inventory/rules.ts) need of the",
    "// catalogue, so a run vouches for its inventory without loading the case definitions. Generated by",
    "// `npm run docs` from the case files (do not edit); ./index.ts holds it equal to the catalogue.",
    "export const CASE_IDS = {",
    ...lists,
    "} as const;",
    "",
  ].join("\n");
}

/**
 * src/suites/containment/graders/index.ts: the grader of each containment case, keyed by its id, in
 * the catalogue's order. A case's grader is the file of this folder named as the case's file, and
 * exports one `const <name>: Grader`; a grader file with no case is an error, and a case with no
 * grader file is left out, so the Record over the catalogue's ids does not compile.
 */
export function generateGraderIndex(cases, dir = `${root}src/suites/containment/graders/`) {
  const byFile = new Map(cases.map((c) => [c.file.replace(/\.js$/, ".ts"), c]));
  const graders = new Map();
  for (const name of readdirSync(dir).sort(byCodeUnit)) {
    if (!name.endsWith(".ts") || name === "index.ts") continue;
    const where = `src/suites/containment/graders/${name}`;
    const c = byFile.get(name);
    if (!c) throw new Error(`${where} grades no case: there is no src/cases/containment/${name}`);
    const found = [...readFileSync(`${dir}${name}`, "utf8").matchAll(/^export const (\w+): Grader = /gm)];
    if (found.length !== 1)
      throw new Error(
        `${where}: a grader file exports exactly one \`export const <name>: Grader = \` (found ${found.length})`,
      );
    graders.set(c.id, { file: name.replace(/\.ts$/, ".js"), name: found[0][1] });
  }
  const imports = [...graders.values()]
    .sort((a, b) => byCodeUnit(a.file, b.file))
    .map((g) => `import { ${g.name} } from "./${g.file}";`);
  const entries = cases
    .filter((c) => graders.has(c.id))
    .map((c) => `  "${c.id}": ${graders.get(c.id).name},`);
  return [
    "// Generated by scripts/docs.mjs (`npm run docs`) from the files of this folder: do not edit;",
    "// docs:check fails when it is stale. Each containment case's grader (the file named as the case's",
    "// file in src/cases/containment/), keyed by the case's id, in the catalogue's order: a Record over",
    "// the catalogue's ids, so a case without a grader file does not compile. gradeContainment",
    "// (../grade.ts) runs them in the catalogue's order.",
    'import type { ContainmentCaseId } from "../../../cases/index.js";',
    'import type { Grader } from "../evidence.js";',
    ...imports,
    "",
    `export const GRADERS: Readonly<Record<ContainmentCaseId, Grader>> = {`,
    ...entries,
    "};",
    "",
  ].join("\n");
}

export function generateReadme(readme, actionYaml, options) {
  const tables = renderTables(actionYaml, options);
  return replaceBetween(replaceBetween(readme, "inputs", tables.inputs), "outputs", tables.outputs);
}

/** One table per registered suite: each case's ID, title, what it measures and, where given, the standards. */
export function renderCaseTables(registry) {
  return Object.fromEntries(
    registry.map((suite) => {
      const standards = suite.cases.some((c) => c.standards);
      const head = standards
        ? [
            "| Case | What it measures | Pod Security Standards | CIS Docker 1.6 |",
            "| --- | --- | --- | --- |",
          ]
        : ["| Case | What it measures |", "| --- | --- |"];
      const rows = suite.cases.map((c) => {
        const cells = [`\`${c.id}\``, `**${cell(c.title)}**: ${cell(c.measures)}`];
        if (standards) cells.push(cell(c.standards?.pss ?? "-"), cell(c.standards?.cis ?? "-"));
        return `| ${cells.join(" | ")} |`;
      });
      return [`cases-${suite.name}`, [...head, ...rows].join("\n")];
    }),
  );
}

/** The README with every suite's case table regenerated from the registry. */
export function generateCaseDocs(readme, registry) {
  let out = readme;
  for (const [name, table] of Object.entries(renderCaseTables(registry)))
    out = replaceBetween(out, name, table, "src/cases/index.ts");
  return out;
}

/** The README with the CLI's command table regenerated from the command and option tables. */
export function generateCommandDocs(readme, help) {
  return replaceBetween(readme, "cli-commands", help.commandsTable(), "src/cli/commands.ts");
}

/** The CLI's help texts (src/cli/help.ts), compiled from their TypeScript source. */
export async function loadCliHelp() {
  return loadTs("src/cli/help.ts");
}

/** The registry of suites, compiled from its TypeScript source in memory. */
export async function loadRegistry() {
  return (await loadTs("src/cases/index.ts")).SUITE_REGISTRY;
}

/** Every step output's name and description (action.yml's outputs), compiled from their TypeScript source. */
export async function loadStepOutputs() {
  return (await loadTs("src/action/step-outputs.ts")).STEP_OUTPUTS;
}

/** The request's options (each action input's CLI flag), compiled from their TypeScript source. */
export async function loadRequestOptions() {
  return (await loadTs("src/request/options.ts")).REQUEST_OPTIONS;
}

/** A module written here (importing by absolute path), compiled and loaded in memory. */
function loadTsSource(contents, resolveDir) {
  return loadBundled({ stdin: { contents, resolveDir, loader: "ts" } });
}

function loadTs(file, absolute = false) {
  return loadBundled({ entryPoints: [absolute ? file : `${root}${file}`] });
}

/** esbuild's bundle of `input` (an entry point or a source), loaded in memory as an ES module. */
async function loadBundled(input) {
  const { build } = await import("esbuild");
  const out = await build({
    ...input,
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`;
  return import(url);
}

const PUBLISHER_LIST = `${root}src/github/publishers/index.ts`;

const KIND_LIST = `${root}src/checks/kinds/index.ts`;

const PROVIDER_NAMES = `${root}src/engine/provider-names.ts`;

const IMPLEMENTATIONS = `${PROVIDERS_DIR}implementations.ts`;

const GRADER_INDEX = `${root}src/suites/containment/graders/index.ts`;

const ARCHITECTURE = `${root}docs/architecture.md`;

/**
 * Each generated file: its path, what it is now, what it should be. The lists first: the
 * catalogue (and so the README's case tables) imports the case lists, the options the publishers'.
 */
async function generated(check) {
  const files = [];
  const put = (file, next) => {
    files.push({ file, current: readFileSync(file, "utf8"), next });
    if (!check) writeFileSync(file, next);
  };
  const cases = await loadCaseFiles();
  for (const [suite, list] of Object.entries(cases)) {
    const index = `${root}src/cases/${suite}/index.ts`;
    put(index, generateCaseIndex(readFileSync(index, "utf8"), list, `src/cases/${suite}/index.ts`));
  }
  put(GRADER_INDEX, generateGraderIndex(cases.containment ?? []));
  put(`${root}src/cases/ids.ts`, generateCaseIds(cases));
  put(PUBLISHER_LIST, await generatePublisherList());
  put(KIND_LIST, await generateKindList(readFileSync(KIND_LIST, "utf8")));
  const providers = await loadProviderFolders();
  put(PROVIDER_NAMES, generateProviderCatalogue(readFileSync(PROVIDER_NAMES, "utf8"), providers));
  put(IMPLEMENTATIONS, generateProviderImplementations(providers));
  // What the rest is generated from, compiled in one bundle once the lists above are written: the
  // JSON Schemas (`docker-acceptance schema [--report]`) name every case ID, the options import the
  // publishers' list.
  const src = await loadTsSource(
    [
      ["REQUEST_OPTIONS", "src/request/options.ts"],
      ["STEP_OUTPUTS", "src/action/step-outputs.ts"],
      ["SUITE_REGISTRY", "src/cases/index.ts"],
      ["schemaText", "src/commands/schema.ts"],
      ["precheckPlanText", "src/inventory/precheck-plan.ts"],
      ["commandsTable", "src/cli/help.ts"],
    ]
      .map(([name, file]) => `export { ${name} } from ${JSON.stringify(`${root}${file}`)};`)
      .join("\n"),
    root,
  );
  for (const which of ["inventory", "report"])
    put(`${root}acceptance/${which}.schema.json`, src.schemaText(which));
  put(`${root}src/inventory/precheck-plan.json`, src.precheckPlanText());
  const options = src.REQUEST_OPTIONS;
  const actionNow = readFileSync(ACTION, "utf8");
  const action = generateActionYaml(actionNow, options, src.STEP_OUTPUTS);
  files.push({ file: ACTION, current: actionNow, next: action });
  const readmeNow = readFileSync(README, "utf8");
  const readme = generateCommandDocs(
    generateCaseDocs(generateReadme(readmeNow, action, options), src.SUITE_REGISTRY),
    src,
  );
  files.push({ file: README, current: readmeNow, next: readme });
  // Last, once the generated sources above are written: the imports folder by folder read them.
  const { docsWithStructure } = await import("./check-structure.mjs");
  put(ARCHITECTURE, docsWithStructure(readFileSync(ARCHITECTURE, "utf8"), root));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  let files;
  try {
    files = await generated(check);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  const stale = files.filter((f) => f.current !== f.next).map((f) => f.file.slice(root.length));
  const what =
    "src/cases/<suite>/index.ts and src/cases/ids.ts = the case files, src/suites/containment/graders/index.ts = the grader files, src/github/publishers/index.ts = the publisher modules, src/checks/kinds/index.ts = the check kinds' modules, src/engine/provider-names.ts and src/engine/providers/implementations.ts = the provider folders, acceptance/*.schema.json = the inventory and report schemas, src/inventory/precheck-plan.json = the inventory schema, action.yml inputs = the option table, action.yml outputs = the step outputs' declarations, README tables = action.yml, src/cases/index.ts and the CLI's commands, docs/architecture.md's layers and imports = LAYERS and src/'s imports";
  if (stale.length === 0) console.log(`generated files are in sync (${what})`);
  else if (check) {
    console.error(`out of date: ${stale.join(", ")} (${what}); run 'npm run docs' and commit`);
    process.exit(1);
  } else {
    for (const f of files) if (f.current !== f.next) writeFileSync(f.file, f.next);
    console.log(`regenerated: ${stale.join(", ")}`);
  }
}
