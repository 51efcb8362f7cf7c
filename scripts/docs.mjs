// Keeps generated documentation in sync with its sources: the README's inputs and outputs tables
// are generated from action.yml, and its case tables from the registry of suites
// (src/cases/index.ts), between marker comments. `npm run docs` rewrites them;
// `npm run docs:check` (CI) fails with exit 1 when the committed README differs.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

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

/** The request's options (each action input's CLI flag), compiled from their TypeScript source. */
export async function loadRequestOptions() {
  return (await loadTs("src/request/options.ts")).REQUEST_OPTIONS;
}

async function loadTs(file) {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [`${root}${file}`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  const url = `data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`;
  return import(url);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes("--check");
  const current = readFileSync(README, "utf8");
  let next;
  try {
    const readme = generateReadme(current, readFileSync(ACTION, "utf8"), await loadRequestOptions());
    next = generateCommandDocs(generateCaseDocs(readme, await loadRegistry()), await loadCliHelp());
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
  if (next === current) {
    console.log(
      "generated files are in sync (README inputs/outputs tables = action.yml, case tables = registry)",
    );
  } else if (check) {
    console.error(
      "out of date: README.md inputs/outputs tables differ from action.yml or its case tables from src/cases/index.ts; run 'npm run docs' and commit",
    );
    process.exit(1);
  } else {
    writeFileSync(README, next);
    console.log(
      "README.md: inputs/outputs tables regenerated from action.yml, case tables from the registry",
    );
  }
}
