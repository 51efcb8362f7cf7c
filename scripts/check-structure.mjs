// The structure check (#18 item 5, run by `npm run lint` and so by .ci/run): src/ imports only
// downward through the layers below, folders in one layer import each other without a cycle, the
// files of one folder import each other without a cycle (#28), no function in src/ has a body over
// MAX_FUNCTION_LINES lines, and src/ exports nothing that nothing imports (#28; EXPORTS_ALLOWED
// names the exceptions, scripts/unused-exports.mjs finds them). It parses each file with the
// TypeScript compiler's parser alone (no type checking), so it takes a few seconds.
//
// The layers follow folders: a unit of LAYERS is a folder or one file directly in src/, never a
// glob or a group, and an import back up a layer always fails (#28 item 6).
//
// Long functions that existed when the check was introduced, and the exports nothing imported when
// that rule began in folders then reworked elsewhere, are listed in
// scripts/structure-baseline.json. That list may only get shorter: an offender not in it fails, a
// function in it that grew fails, and an entry that is no longer an offender fails too (remove it,
// or run with --prune). It excuses no import.
//
//   node scripts/check-structure.mjs           check src/ against the baseline (exit 1 on a finding)
//   node scripts/check-structure.mjs --all     list every offender, baseline or not
//   node scripts/check-structure.mjs --report  print the imports folder by folder (no check)
//   node scripts/check-structure.mjs --prune   drop the baseline entries that are fixed (never adds)
//   node scripts/check-structure.mjs --write-docs  rewrite the layer table and the imports folder by
//                                              folder in docs/architecture.md (npm run docs does too)
//   --root DIR  check DIR/src against DIR/scripts/structure-baseline.json (the tests use this)
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { findUnusedExports } from "./unused-exports.mjs";

/**
 * The longest a function's body may be, in lines as written. Lowered from 80 (#28) once every
 * function over 60 lines was split into named steps: the longest are 60 lines now, so the limit
 * is a ceiling with room under it, not the length functions grow to.
 */
export const MAX_FUNCTION_LINES = 70;

/**
 * The layers of src/, top (the doors) to bottom (the primitives). A file may import files of its
 * own unit as long as no circle of files forms, of a lower layer, and of another unit of its own
 * layer as long as no cycle forms between units ("independent" layers forbid even that). A unit is
 * a folder (an entry ending in "/", its sub-folders included unless listed themselves: the longer
 * folder wins) or one file directly in src/ (a door, a flow, a primitive); no globs and no groups
 * of files, so where a file sits says which unit it is in, and a new file needs no entry. Every .ts
 * file in src/ must fall under an entry: a new folder is placed here, with its reason, on purpose.
 * docs/architecture.md's table is rendered from this list (--write-docs).
 */
export const LAYERS = [
  {
    name: "doors",
    why: "the action's steps and the CLI: read inputs or flags, call one use case, set outputs and exit code",
    units: ["src/main.ts", "src/post.ts", "src/cli.ts", "src/cli/", "src/action/"],
  },
  {
    name: "use cases",
    why: "what the doors share (run, check, merge, verify, publish, sweep, align, the /acceptance bot)",
    units: ["src/commands/", "src/bot/"],
  },
  {
    name: "request",
    why: "the one request both doors parse their inputs and flags into (the option table and its schema), which the use cases take typed",
    units: ["src/request/"],
  },
  {
    name: "flows",
    why: "the pipeline itself, its build pre-flight (whether an engine's API answers where a build's RUN steps run: it asks what containment.network asks and gates lifecycle.build), the plan of which subjects and suites run where, and the merge of shard bundles",
    units: ["src/pipeline.ts", "src/pipeline-run.ts", "src/preflight/", "src/plan.ts", "src/merge.ts"],
  },
  {
    name: "publishers",
    why: "transport of a finished report to GitHub; they render nothing the report layer cannot",
    units: ["src/github/"],
  },
  {
    name: "suites",
    why: "each suite measures on its own; what two suites share goes down a layer",
    independent: true,
    units: ["src/suites/lifecycle/", "src/suites/containment/"],
  },
  {
    name: "suite seam",
    why: "how a suite runs (the lifecycle drives a subject, the others observe it while it runs): the interface the suites implement and the pipeline holds one entry of per suite, the one file of src/suites/ outside the suites' own folders",
    units: ["src/suites/"],
  },
  {
    name: "review",
    why: "the alignment review of the PR's diff, a step of its own after the suites",
    units: ["src/alignment/"],
  },
  {
    name: "inventory",
    why: "the pinned inventory: schema, loading, hashes, judging it at the PR's base",
    units: ["src/inventory/"],
  },
  {
    name: "checks",
    why: "the check kinds (HTTP, TCP, HEALTHCHECK, log line, delay), one module each: the inventory's readiness and probe schemas, their checks from the host and from inside the subject's network namespace; lifecycle.ready and lifecycle.probes run them",
    units: ["src/checks/"],
  },
  {
    name: "engine",
    why: "the container engine behind the provider seam; it knows nothing of suites, inventories or reviews",
    units: ["src/engine/"],
  },
  {
    name: "report",
    why: "the one Report model and its pure renderings; everything above produces or publishes it",
    units: ["src/report/"],
  },
  {
    name: "option shape",
    why: "the shape of one entry of the option table (input, flag, kind, help, what it parses to) and of one step output (its description and its value): the publishers declare their own options and outputs in it, the request gathers the options and the action the outputs",
    units: ["src/option.ts"],
  },
  {
    name: "cases",
    why: "the case catalogue: what each case is (id, title, what it measures, standards, its fix in each form), one file per case in src/cases/<suite>/, plain data; the inventory's schema, the report's order and groups, check mode's fixes and the docs read it, and each suite's runners and graders sit above it",
    units: ["src/cases/"],
  },
  {
    name: "primitives",
    why: "typed errors, logging, the tool's name and version, git plumbing, a JSON reader that keeps positions, node:crypto loaded on first use: imported by all, importing only each other",
    units: ["src/errors.ts", "src/log.ts", "src/version.ts", "src/git.ts", "src/jsonpos.ts", "src/crypto.ts"],
  },
];

/**
 * Packages that belong to one seam: only the files listed may import them (types included), so
 * the rest of src/ stays free of the engine's client, GitHub's client and the Actions toolkit.
 */
export const PACKAGES = [
  {
    name: "dockerode",
    only: ["src/engine/providers/"],
    why: "the Docker API client belongs to the providers that speak it; everything else sees src/engine/provider.ts",
  },
  {
    name: "docker-modem",
    only: ["src/engine/providers/"],
    why: "dockerode's transport, which the Docker API provider makes apart so that its first call leaves before the engine is loaded: the providers' alone, as dockerode",
  },
  {
    name: "@octokit",
    only: ["src/github/"],
    why: "GitHub's client is the publishers' transport",
  },
  {
    name: "@actions/core",
    only: ["src/main.ts", "src/post.ts", "src/action/", "src/github/"],
    why: "the Actions toolkit belongs to the action's doors (and the job summary publisher); the CLI never loads it",
  },
];

/**
 * Exports of src/ that nothing imports, on purpose: a file (every export of it) or "file name",
 * each with its reason. Every other export that nothing in src/, tests/ or scripts/ imports fails
 * the check (scripts/unused-exports.mjs says how an import is found); an entry naming an export
 * that something imports after all fails too, so the list stays short and true.
 */
export const EXPORTS_ALLOWED = {
  "src/main.ts":
    "the action's main step, an entry point of the bundle (scripts/bundle.mjs): it runs when loaded, and nothing imports it",
  "src/post.ts":
    "the action's post step, an entry point of the bundle (scripts/bundle.mjs): it runs when loaded, and nothing imports it",
  "src/cli.ts":
    "the CLI, an entry point of the bundle (scripts/bundle.mjs, package.json's bin): it runs when loaded, and nothing imports it",
  "src/github/publishers/types.ts Publisher":
    "the publishers' seam (docs/architecture.md): a publisher is typed by it through definePublisher, which is what its module imports",
};

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** Every .ts file under dir, as paths relative to root with forward slashes, sorted. */
function sourceFiles(root, dir) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(root, child)).isDirectory()) walk(child);
      else if (/\.(ts|mts|tsx)$/.test(name)) out.push(child);
    }
  };
  if (existsSync(path.join(root, dir))) walk(dir);
  return out;
}

const FOLDER = /^src\/([\w.-]+\/)+$/;
const TOP_FILE = /^src\/[\w.-]+\.(ts|mts|tsx)$/;

/**
 * The LAYERS entries that are neither a folder nor a file directly in src/, or are listed twice,
 * each as a sentence saying what to write instead.
 */
export function badUnits(layers = LAYERS) {
  const bad = [];
  const seen = new Set();
  for (const layer of layers) {
    for (const unit of layer.units) {
      if (typeof unit !== "string" || !(FOLDER.test(unit) || TOP_FILE.test(unit))) {
        bad.push(
          `LAYERS (scripts/check-structure.mjs), layer "${layer.name}": ${JSON.stringify(unit)} is not a unit: name a folder ("src/<folder>/") or a file directly in src/ ("src/<file>.ts"); globs and groups of files are gone, so move the files into a folder of their own`,
        );
      } else if (seen.has(unit)) {
        bad.push(
          `LAYERS (scripts/check-structure.mjs), layer "${layer.name}": "${unit}" is listed twice: keep one`,
        );
      }
      seen.add(unit);
    }
  }
  return bad;
}

/** The unit a file belongs to, with its layer: its own entry, else the deepest folder holding it. */
function placeOf(file, layers) {
  let best;
  layers.forEach((layer, rank) => {
    for (const unit of layer.units) {
      const holds = unit.endsWith("/") ? file.startsWith(unit) : file === unit;
      // A file's own entry over any folder, a deeper folder over a shallower one.
      const score = (unit.endsWith("/") ? 0 : 10_000) + unit.length;
      if (holds && (!best || score > best.score)) best = { unit, rank, layer, score };
    }
  });
  return best;
}

const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

/** The module specifiers of a file (static, re-export, dynamic and type imports) with lines. */
function importsOf(sf) {
  const found = [];
  const add = (lit) => {
    if (lit && ts.isStringLiteralLike(lit))
      found.push({ spec: lit.text, line: lineOf(sf, lit.getStart(sf)) });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The source file an import names (".js" written for ".ts", as NodeNext wants), or undefined. */
function resolve(root, from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(m|c)?js$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, `${stem}/index.ts`];
  return candidates.find(
    (c) => c.startsWith("src/") && existsSync(path.join(root, c)) && statSync(path.join(root, c)).isFile(),
  );
}

/** A readable name for a function node: its own name, or what it is assigned to, qualified by its class. */
function nameOf(node, sf) {
  const text = (n) =>
    n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) ? n.text : n?.getText(sf);
  const owner = (n) => {
    const holder = n.parent;
    if (holder && (ts.isClassDeclaration(holder) || ts.isClassExpression(holder)))
      return `${holder.name?.text ?? "class"}.`;
    if (holder && ts.isObjectLiteralExpression(holder)) {
      const named = holder.parent;
      if (named && (ts.isVariableDeclaration(named) || ts.isPropertyAssignment(named)))
        return `${text(named.name)}.`;
    }
    return "";
  };
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? "default";
  if (ts.isConstructorDeclaration(node)) return `${owner(node)}constructor`;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    return `${owner(node)}${text(node.name)}`;
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent)) return text(parent.name);
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return `${owner(parent)}${text(parent.name)}`;
  if (ts.isBinaryExpression(parent) && parent.right === node) return parent.left.getText(sf);
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  return "(anonymous)";
}

/** Functions whose body spans more than maxLines lines, named by the chain of functions holding them. */
function longFunctions(sf, file, maxLines) {
  const found = [];
  const seen = new Map();
  const visit = (node, outer) => {
    let chain = outer;
    if (ts.isFunctionLike(node) && node.body) {
      chain = outer ? `${outer} > ${nameOf(node, sf)}` : nameOf(node, sf);
      const start = lineOf(sf, node.body.getStart(sf));
      const lines = lineOf(sf, node.body.getEnd()) - start + 1;
      if (lines > maxLines) {
        const count = (seen.get(chain) ?? 0) + 1;
        seen.set(chain, count);
        const name = count > 1 ? `${chain} #${count}` : chain;
        found.push({
          kind: "function",
          key: `${file} ${name}`,
          file,
          name,
          line: lineOf(sf, node.getStart(sf)),
          lines,
        });
      }
    }
    ts.forEachChild(node, (child) => visit(child, chain));
  };
  visit(sf, "");
  return found;
}

/** The cycles (strongly connected sets of more than one node) of from -> to edges, by Tarjan's algorithm. */
function cyclesOf(edges) {
  const graph = new Map();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, new Set());
    graph.get(e.from).add(e.to);
  }
  let index = 0;
  const stack = [];
  const info = new Map();
  const sccs = [];
  const strong = (v) => {
    info.set(v, { index, low: index, on: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        strong(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) sccs.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!info.has(v)) strong(v);
  return sccs;
}

/**
 * Every .ts file of root/src, parsed, with its place in the layers (undefined: no layer holds it)
 * and its imports: a package's by name, a file's resolved to that file and its place.
 */
function readSources(root, layers) {
  return sourceFiles(root, "src").map((file) => {
    const sf = ts.createSourceFile(
      file,
      readFileSync(path.join(root, file), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const imports = importsOf(sf).map(({ spec, line }) => {
      if (!spec.startsWith(".")) return { spec, line, package: true };
      const target = resolve(root, file, spec);
      return { spec, line, target, to: target && placeOf(target, layers) };
    });
    return { file, sf, from: placeOf(file, layers), imports };
  });
}

/** A file's import of a package its seam keeps to itself, as an offender (undefined: allowed). */
function packageOffender(file, { spec, line }) {
  const rule = PACKAGES.find((r) => r.name === spec || spec.startsWith(`${r.name}/`));
  if (!rule || rule.only.some((u) => file === u || (u.endsWith("/") && file.startsWith(u)))) return undefined;
  return { kind: "package", key: `${file} -> ${rule.name}`, file, line, spec, rule };
}

/**
 * Every structural offender under root/src: files no layer holds, upward imports, imports between
 * independent folders, folder cycles within a layer, file cycles within a folder (a unit of
 * LAYERS), and functions over maxLines.
 */
export function findOffenders(root, { layers = LAYERS, maxLines = MAX_FUNCTION_LINES } = {}) {
  return analyse(root, layers, maxLines).offenders;
}

/** One reading of root/src: its offenders (findOffenders) and its imports folder by folder (unitImports). */
function analyse(root, layers = LAYERS, maxLines = MAX_FUNCTION_LINES) {
  const bad = badUnits(layers);
  if (bad.length > 0) throw new Error(bad.join("\n"));
  const sources = readSources(root, layers);
  const offenders = [];
  const sameLayerEdges = [];
  const sameUnitEdges = [];
  for (const { file, sf, from, imports } of sources) {
    offenders.push(...longFunctions(sf, file, maxLines));
    if (!from) {
      offenders.push({ kind: "unplaced", key: `unplaced ${file}`, file, line: 1 });
      continue;
    }
    const reported = new Set();
    for (const imp of imports) {
      if (imp.package) {
        const o = packageOffender(file, imp);
        if (o) offenders.push(o);
        continue;
      }
      const { spec, line, target, to } = imp;
      if (!to || target === file || reported.has(target)) continue;
      if (to.unit === from.unit) {
        sameUnitEdges.push({ file, line, spec, target, from: file, to: target });
        reported.add(target);
        continue;
      }
      const edge = { file, line, spec, target, from, to };
      if (to.rank < from.rank) offenders.push({ kind: "upward", key: `${file} -> ${target}`, ...edge });
      else if (to.rank === from.rank && from.layer.independent) {
        offenders.push({ kind: "sibling", key: `${file} -> ${target}`, ...edge });
      } else if (to.rank === from.rank) {
        sameLayerEdges.push({ ...edge, from: from.unit, to: to.unit });
        continue;
      } else continue;
      reported.add(target);
    }
  }
  offenders.push(...cycleOffenders(sameLayerEdges, sameUnitEdges));
  return { offenders, arrows: arrowsOf(sources, layers) };
}

/** The folder cycles within a layer and the circles of files within a unit, as offenders. */
function cycleOffenders(sameLayerEdges, sameUnitEdges) {
  const offenders = [];
  for (const units of cyclesOf(sameLayerEdges)) {
    const inside = sameLayerEdges.filter((e) => units.includes(e.from) && units.includes(e.to));
    offenders.push({
      kind: "cycle",
      key: `cycle ${units.join(" ")}`,
      units,
      edges: inside,
      file: inside[0].file,
      line: inside[0].line,
    });
  }
  for (const files of cyclesOf(sameUnitEdges)) {
    const inside = sameUnitEdges.filter((e) => files.includes(e.from) && files.includes(e.to));
    offenders.push({
      kind: "file-cycle",
      key: `file cycle ${files.join(" ")}`,
      files,
      edges: inside,
      file: inside[0].file,
      line: inside[0].line,
    });
  }
  return offenders;
}

/**
 * The imports folder by folder: for each unit of LAYERS that imports another, the units it
 * imports (each once, whatever the number of files and imports behind the arrow), in the order of
 * LAYERS. Packages and a unit's imports of itself are left out.
 */
export function unitImports(root, layers = LAYERS) {
  return analyse(root, layers).arrows;
}

function arrowsOf(sources, layers) {
  const arrows = new Map();
  for (const { from, imports } of sources) {
    if (!from) continue;
    for (const { to } of imports) {
      if (!to || to.unit === from.unit) continue;
      if (!arrows.has(from.unit)) arrows.set(from.unit, { from, to: new Map() });
      arrows.get(from.unit).to.set(to.unit, to);
    }
  }
  const order = layers.flatMap((l) => l.units);
  const byOrder = (a, b) => order.indexOf(a) - order.indexOf(b);
  return [...arrows.values()]
    .sort((a, b) => byOrder(a.from.unit, b.from.unit))
    .map(({ from, to }) => ({ from, to: [...to.values()].sort((a, b) => byOrder(a.unit, b.unit)) }));
}

const WRAP = 100;

/**
 * The imports folder by folder as text, layer by layer from the top: each unit, then an arrow to
 * each unit it imports, that unit's layer number before it. An arrow points down when its number
 * is larger than its layer's, across when equal (allowed between the folders of one layer that is
 * not independent, as long as no cycle forms); the last lines say what the check found against
 * them (`offenders`: findOffenders' list).
 */
export function renderImports(arrows, offenders, layers = LAYERS) {
  const lines = [];
  layers.forEach((layer, rank) => {
    const own = arrows.filter((a) => a.from.rank === rank);
    if (own.length === 0) return;
    lines.push(`${String(rank + 1).padStart(2)} ${layer.name}`);
    const width = Math.max(...own.map((a) => a.from.unit.length));
    for (const { from, to } of own) {
      const head = `   ${from.unit.padEnd(width)} ->`;
      let line = head;
      for (const [i, t] of to.entries()) {
        const word = ` ${t.rank + 1} ${t.unit}${i < to.length - 1 ? "," : ""}`;
        if (line.length + word.length > WRAP && line !== head) {
          lines.push(line);
          line = " ".repeat(head.length);
        }
        line += word;
      }
      lines.push(line);
    }
  });
  const count = (...kinds) => offenders.filter((o) => kinds.includes(o.kind)).length;
  const said = (n, what) => `${what}: ${n === 0 ? "none" : n}`;
  lines.push(
    "",
    `${said(count("upward"), "Arrows back up")}. ${said(count("sibling"), "Suites importing each other")}.`,
    `${said(count("cycle"), "Cycles between the folders of one layer")}. ${said(count("file-cycle"), "Circles of files inside a unit")}.`,
  );
  return lines.join("\n");
}

/**
 * The exports of root/src that nothing imports, as offenders (key "file export name"), less those
 * `allowed` excuses; `staleAllowed` are the "file name" entries that excuse nothing.
 */
export function exportOffenders(root, allowed = EXPORTS_ALLOWED) {
  const excusing = new Set();
  const offenders = [];
  for (const u of findUnusedExports(root)) {
    const by = [`${u.file} ${u.name}`, u.file].find((k) => k in allowed);
    if (by) excusing.add(by);
    else offenders.push({ kind: "export", key: `${u.file} export ${u.name}`, ...u });
  }
  const staleAllowed = Object.keys(allowed).filter((k) => k.includes(" ") && !excusing.has(k));
  return { offenders, staleAllowed };
}

const DO = {
  unplaced:
    "add its folder to LAYERS in scripts/check-structure.mjs, in the layer it belongs to, and say why",
  upward: "move what both need down to the lower layer (or lower), or pass it in as a parameter",
  sibling:
    "suites are independent: move the shared code below the suites (e.g. into src/engine/), where both can import it",
  cycle:
    "break the cycle: move the part both folders need down a layer, so only one of them imports the other",
  "file-cycle":
    "break the circle: move what the files share (a type, a helper) into a file of its own that imports none of them, so the imports run one way",
  function:
    "split it into named steps, each a function of its own (the limit counts the body's lines as written)",
  package: "reach it through its seam's interface instead, or move this code into the seam",
  export:
    "stop exporting it (what only its own file uses needs no export), delete it if nothing uses it at all, or, if it is public on purpose, list it in EXPORTS_ALLOWED (scripts/check-structure.mjs) with the reason",
};

/** One offender as lines a person can act on: where, what, the limit, and what to do. */
export function describe(o, maxLines = MAX_FUNCTION_LINES) {
  switch (o.kind) {
    case "function":
      return `${o.file}:${o.line}: function ${o.name} has a ${o.lines}-line body (limit ${maxLines}): ${DO.function}`;
    case "export":
      return `${o.file}:${o.line}: exports ${o.name}${o.reexport ? " (a re-export)" : ""}, which nothing in src/, tests/ or scripts/ imports: ${DO.export}`;
    case "package":
      return `${o.file}:${o.line}: imports "${o.spec}", which only ${o.rule.only.join(", ")} may import (${o.rule.why}): ${DO.package}`;
    case "unplaced":
      return `${o.file}: no layer holds this file: ${DO.unplaced}`;
    case "upward":
      return `${o.file}:${o.line}: imports "${o.spec}" (${o.target}): layer "${o.from.layer.name}" (${o.from.unit}) may not import layer "${o.to.layer.name}" (${o.to.unit}), which sits above it: ${DO.upward}`;
    case "sibling":
      return `${o.file}:${o.line}: imports "${o.spec}" (${o.target}): ${o.from.unit} and ${o.to.unit} are both in the independent layer "${o.from.layer.name}": ${DO.sibling}`;
    case "cycle":
      return [
        `folder cycle between ${o.units.join(", ")}: ${DO.cycle}. The imports that close it:`,
        ...o.edges.map((e) => `  ${e.file}:${e.line}: imports "${e.spec}" (${e.target})`),
      ].join("\n");
    case "file-cycle":
      return [
        `file cycle between ${o.files.join(", ")}: ${DO["file-cycle"]}. The imports that close it:`,
        ...o.edges.map((e) => `  ${e.file}:${e.line}: imports "${e.spec}" (${e.target})`),
      ].join("\n");
    default:
      return o.key;
  }
}

const DOCS = "docs/architecture.md";

/** The layer table for docs/architecture.md, top to bottom, rendered from the one LAYERS. */
export function renderLayers(layers = LAYERS) {
  const code = (p) => `\`${p}\``;
  const rows = layers.map((layer, rank) => {
    const units = layer.units.map(code).join(", ");
    const note = layer.independent ? " Its folders may not import each other." : "";
    return `| ${rank + 1} | ${layer.name} | ${units} | ${layer.why}.${note} |`;
  });
  return ["| # | Layer | Holds | Why here |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The text between `<!-- name:start ... -->` and `<!-- name:end -->` replaced (undefined: no markers). */
function between(text, name, body) {
  const start = text.indexOf(`<!-- ${name}:start`);
  const open = text.indexOf("-->", start);
  const end = text.indexOf(`<!-- ${name}:end -->`, open);
  if (start < 0 || open < 0 || end < 0) return undefined;
  return `${text.slice(0, open + 3)}\n${body}\n${text.slice(end)}`;
}

/**
 * docs/architecture.md with its generated parts current: the layer table (from LAYERS) and the
 * imports folder by folder (what --report prints for root's src/), each between its markers. A
 * part whose markers are missing is left as it is.
 */
export function docsWithStructure(text, root, layers = LAYERS, analysis = analyse(root, layers)) {
  const withLayers = between(text, "layers", renderLayers(layers)) ?? text;
  const report = `\`\`\`\n${renderImports(analysis.arrows, analysis.offenders, layers)}\n\`\`\``;
  return between(withLayers, "imports", report) ?? withLayers;
}

/**
 * The offenders the day the check began (commit 9b8fb8e). The baseline may hold only these, each
 * at most this long: adding an entry, or raising a count, to let a new offender through fails.
 */
const FIRST_BASELINE = {
  functions: {
    "src/alignment/pull.ts checkPullRequest": 136,
    "src/alignment/rfcs.ts parseRfc": 95,
    "src/commands/check.ts checkContainers": 91,
    "src/commands/publish.ts publishBundle": 121,
    "src/github/publish.ts publishReport": 160,
    "src/inventory/jsonpos.ts locateJson": 119,
    "src/inventory/load.ts toProblems": 87,
    "src/main.ts runAction": 236,
    "src/pipeline.ts runPipeline": 163,
    "src/report/bundle.ts verifyBundle": 201,
    "src/report/merge.ts mergeBundles": 98,
    "src/suites/lifecycle/run.ts runSubject": 175,
  },
  // Every upward import of that day is gone (#28), and none may come back: an arrow back up, a
  // sibling suite's import or a cycle is never excused by the baseline.
  imports: [],
  // The exports nothing imported the day that check began (#28), in the folders then being
  // reworked elsewhere (start-up: the inventory, the request, the CLI, the pipeline, crypto.ts);
  // every other one was unexported or deleted that day.
  exports: [
    "src/cli/commands.ts export CliCommand",
    "src/cli/parse.ts export CommandLine",
    "src/cli/use-cases.ts export UseCase",
    "src/crypto.ts export lazyCrypto",
    "src/inventory/base.ts export TRUST_BEARING_SUBJECT_FIELDS",
    "src/inventory/drift-fixes.ts export FixContext",
    "src/inventory/drift-fixes.ts export initUpdateCommand",
    "src/inventory/environment.ts export EnvValue",
    "src/inventory/hashes.ts export PinChange",
    "src/inventory/hashes.ts export sha256File",
    "src/inventory/json-layout.ts export compactJson",
    "src/inventory/json-layout.ts export indentUnit",
    "src/inventory/load.ts export LoadOptions",
    "src/inventory/load.ts export jsonPath",
    "src/inventory/pins.ts export pinListPath",
    "src/inventory/reading.ts export severityOf",
    "src/inventory/rules.ts export RESERVED_ENV",
    "src/inventory/schema.ts export CONTAINMENT_CASES",
    "src/inventory/schema.ts export LIFECYCLE_CASES",
    "src/inventory/schema.ts export Probe",
    "src/inventory/schema.ts export RELAXABLE",
    "src/inventory/text.ts export LocatedInventory",
    "src/inventory/verify.ts export CompletenessOptions",
    "src/inventory/verify.ts export Drift",
    "src/inventory/verify.ts export InventoryReport",
    "src/pipeline-run.ts export Prepared",
    "src/pipeline.ts export RunOptions",
    "src/request/options.ts export Kind",
  ],
};

/** Baseline entries the first baseline did not hold (or held shorter): the baseline only shrinks. */
export function grownBaseline(baseline, first = FIRST_BASELINE) {
  const grown = [];
  for (const [key, lines] of Object.entries(baseline.functions)) {
    const was = first.functions[key];
    if (was === undefined || lines > was)
      grown.push(was === undefined ? key : `${key} (${was} -> ${lines} lines)`);
  }
  for (const key of baseline.imports) if (!first.imports.includes(key)) grown.push(key);
  for (const key of baseline.exports ?? []) if (!(first.exports ?? []).includes(key)) grown.push(key);
  return grown;
}

/** The baseline as read from disk: function keys with their line counts, import/cycle keys, export keys. */
export function readBaseline(file) {
  if (!existsSync(file)) return { functions: {}, imports: [], exports: [] };
  const raw = JSON.parse(readFileSync(file, "utf8"));
  return { ...raw, functions: raw.functions ?? {}, imports: raw.imports ?? [], exports: raw.exports ?? [] };
}

/**
 * Offenders against the baseline: `fresh` (not in it, or a listed function that grew, or any
 * import the layers forbid, which no baseline excuses) fail the check; `stale` entries (listed
 * but fixed) fail too, so the list only ever gets shorter.
 */
export function compare(offenders, baseline) {
  const fresh = [];
  const current = new Set();
  const exports = baseline.exports ?? [];
  for (const o of offenders) {
    current.add(o.key);
    if (o.kind === "function") {
      const allowed = baseline.functions[o.key];
      if (allowed === undefined) fresh.push(o);
      else if (o.lines > allowed) fresh.push({ ...o, grew: allowed });
    } else if (o.kind !== "export" || !exports.includes(o.key)) fresh.push(o);
  }
  const stale = [...Object.keys(baseline.functions), ...baseline.imports, ...exports].filter(
    (k) => !current.has(k),
  );
  return { fresh, stale };
}

/** Whether docs/architecture.md's generated parts are current; with write, makes them so. */
function docsCurrent(root, write, analysis) {
  const file = path.join(root, DOCS);
  if (!existsSync(file)) return true;
  const docs = readFileSync(file, "utf8");
  const wanted = docsWithStructure(docs, root, LAYERS, analysis);
  if (wanted === docs) return true;
  if (!write) return false;
  writeFileSync(file, wanted);
  console.log(`structure: rewrote the layer table and the imports in ${DOCS}`);
  return true;
}

/** Drops the fixed entries from the baseline file (it never adds one). */
function prune(file, baseline, stale) {
  for (const k of stale) delete baseline.functions[k];
  baseline.imports = baseline.imports.filter((k) => !stale.includes(k));
  baseline.exports = baseline.exports.filter((k) => !stale.includes(k));
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log(`structure: removed ${stale.length} fixed entries from scripts/structure-baseline.json`);
}

function main(argv) {
  const at = argv.indexOf("--root");
  const root = path.resolve(at >= 0 ? argv[at + 1] : path.join(HERE, ".."));
  const baselineFile = path.join(root, "scripts", "structure-baseline.json");
  const started = Date.now();
  const analysis = analyse(root);
  if (argv.includes("--report")) {
    console.log(renderImports(analysis.arrows, analysis.offenders));
    return 0;
  }
  const exported = exportOffenders(root);
  const offenders = [...analysis.offenders, ...exported.offenders];
  if (argv.includes("--all")) {
    for (const o of offenders) console.log(describe(o));
    console.log(`${offenders.length} offenders`);
    return 0;
  }
  const baseline = readBaseline(baselineFile);
  const { fresh, stale } = compare(offenders, baseline);
  if (argv.includes("--prune") && stale.length > 0) {
    prune(baselineFile, baseline, stale);
    stale.length = 0;
  }
  const docsOk = docsCurrent(root, argv.includes("--write-docs"), analysis);
  // A tree checked with --root (the tests') is held to its own baseline and files, not this repository's.
  const grown = argv.includes("--root") ? [] : grownBaseline(baseline);
  const staleAllowed = argv.includes("--root") ? [] : exported.staleAllowed;
  for (const k of grown) {
    console.error(
      `scripts/structure-baseline.json: "${k}" was not in the first baseline: the baseline only shrinks; fix the offender instead (split the function, move the shared code down, stop exporting what nothing imports)`,
    );
  }
  for (const o of fresh) {
    const line = describe(o);
    console.error(
      o.grew ? `${line} (the baseline allows this known offender ${o.grew} lines; it may not grow)` : line,
    );
  }
  for (const k of stale) {
    console.error(
      `scripts/structure-baseline.json: "${k}" is no longer an offender: remove it from the baseline (or run node scripts/check-structure.mjs --prune)`,
    );
  }
  for (const k of staleAllowed) {
    console.error(
      `scripts/check-structure.mjs: EXPORTS_ALLOWED "${k}" excuses nothing (something imports it, or it is gone): remove the entry`,
    );
  }
  if (!docsOk) {
    console.error(
      `${DOCS}: its layer table or its imports folder by folder (between the layers: and imports: markers) differ from LAYERS and src/: run node scripts/check-structure.mjs --write-docs (or npm run docs)`,
    );
  }
  const known = offenders.length - fresh.filter((o) => !o.grew).length;
  const summary = `structure: ${offenders.length} offenders, ${known} of them known in the baseline, ${fresh.length} new or grown, ${stale.length} fixed but still listed (${Date.now() - started} ms)`;
  const ok =
    fresh.length === 0 && stale.length === 0 && docsOk && grown.length === 0 && staleAllowed.length === 0;
  (ok ? console.log : console.error)(summary);
  return ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
