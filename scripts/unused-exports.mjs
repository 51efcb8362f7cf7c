// The exports of src/ that nothing imports (#28): part of the structure check
// (scripts/check-structure.mjs). An export is used when a file of src/ or tests/ imports it by
// name, or reaches its module without naming what it takes (a namespace import, an `import()`, a
// path handed to vi.mock) and names it somewhere in its text, or when a script of scripts/ (the
// docs generator, the benchmarks) names its file and it. A re-export is used when what it exports
// is; it then uses what it re-exports, so an export reached only through an unused barrel entry is
// reported too. Generous by design: a name that merely appears in a file that reaches the module
// counts, so the check never calls a used export dead, and what it reports is certain.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Every file under root/dir whose name matches ext, relative to root with forward slashes, sorted. */
function filesUnder(root, dir, ext) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const child = `${rel}/${name}`;
      const stat = statSync(path.join(root, child));
      if (stat.isDirectory()) {
        if (name !== "node_modules" && name !== "corpus") walk(child);
      } else if (ext.test(name)) out.push(child);
    }
  };
  if (existsSync(path.join(root, dir))) walk(dir);
  return out;
}

/** The src/ file a specifier names from `from` (".js" written for ".ts"), or undefined. */
function resolveSrc(root, from, spec) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const stem = base.replace(/\.(m|c)?js$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}/index.ts`];
  return candidates.find(
    (c) =>
      c.startsWith("src/") &&
      /\.ts$/.test(c) &&
      existsSync(path.join(root, c)) &&
      statSync(path.join(root, c)).isFile(),
  );
}

const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
const hasExport = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

/** The identifiers a binding name declares (`a`, `{ a, b: c }`, `[d, ...e]`). */
function boundNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : boundNames(el.name)));
}

/**
 * What a src/ file exports: each name with its line, and where a re-export takes it from
 * (`from`, `as`); `stars` are the modules an `export *` forwards.
 */
function exportsOf(root, file, sf) {
  const names = new Map();
  const stars = [];
  const add = (name, node, via) => names.set(name, { name, line: lineOf(sf, node), ...via });
  for (const node of sf.statements) {
    if (ts.isExportDeclaration(node)) {
      const target = node.moduleSpecifier && resolveSrc(root, file, node.moduleSpecifier.text);
      if (!node.exportClause) {
        if (target) stars.push(target);
      } else if (ts.isNamespaceExport(node.exportClause)) {
        add(node.exportClause.name.text, node, { from: target, as: "*" });
      } else {
        for (const el of node.exportClause.elements) {
          const inner = (el.propertyName ?? el.name).text;
          add(el.name.text, el, node.moduleSpecifier ? { from: target, as: inner } : {});
        }
      }
    } else if (ts.isExportAssignment(node)) add("default", node, {});
    else if (hasExport(node)) {
      if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations) for (const n of boundNames(d.name)) add(n, d, {});
      } else if (isDefault(node)) add("default", node, {});
      else if (node.name) add(node.name.text, node, {});
    }
  }
  return { names, stars };
}

/** Every identifier and identifier-like string of a text: the names a file could reach a module by. */
function wordsOf(text) {
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * How one file of src/ or tests/ uses src/: `named` (target, name) pairs it imports, and `reached`,
 * the modules it reaches without naming what it takes (a namespace import, `import()`, a path in a
 * string such as vi.mock's), whose exports count as used where the file's text names them.
 */
function usesOf(root, file, sf) {
  const named = [];
  const reached = new Set();
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveSrc(root, file, node.moduleSpecifier.text);
      const clause = node.importClause;
      if (target && clause) {
        if (clause.name) named.push([target, "default"]);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) reached.add(target);
        else if (bindings)
          for (const el of bindings.elements) named.push([target, (el.propertyName ?? el.name).text]);
      }
      return;
    }
    if (ts.isExportDeclaration(node)) return; // a re-export is an export of its own (exportsOf)
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const target = resolveSrc(root, file, node.argument.literal.text);
      if (target && node.qualifier) named.push([target, node.qualifier.getText(sf).split(".")[0]]);
      else if (target) reached.add(target);
    } else if (ts.isStringLiteralLike(node)) {
      // A path: relative to the file ("../../src/x.js", as vi.mock takes it) or to the root ("src/x.ts").
      const target = node.text.startsWith(".")
        ? resolveSrc(root, file, node.text)
        : node.text.startsWith("src/")
          ? resolveSrc(root, "./", node.text)
          : undefined;
      if (target) reached.add(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { named, reached };
}

/** The src/ files a script names (by a path from the root or from the script), and its words. */
function scriptUses(root, file) {
  const text = readFileSync(path.join(root, file), "utf8");
  const reached = new Set();
  for (const [spec] of text.matchAll(/(?:\.{1,2}\/)*src\/[\w./-]+\.(?:ts|js)\b/g)) {
    const target = resolveSrc(root, "./", spec.replace(/^(\.{1,2}\/)+/, "")) ?? resolveSrc(root, file, spec);
    if (target) reached.add(target);
  }
  return { named: [], reached, words: wordsOf(text) };
}

const parse = (root, file) =>
  ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true);

/**
 * The structure check's own files: they name exports to judge them (its baseline, its allow-list),
 * which is no use of them.
 */
const JUDGES = new Set(["scripts/check-structure.mjs", "scripts/unused-exports.mjs"]);

/**
 * The exports of root/src that nothing imports, each `{ file, line, name, reexport }` (reexport:
 * it forwards another module's export), sorted by file and line.
 */
export function findUnusedExports(root) {
  const table = new Map();
  const users = [];
  for (const file of filesUnder(root, "src", /\.ts$/)) {
    const sf = parse(root, file);
    table.set(file, exportsOf(root, file, sf));
    users.push({ ...usesOf(root, file, sf), words: wordsOf(sf.text) });
  }
  for (const file of filesUnder(root, "tests", /\.(ts|mts|mjs)$/)) {
    const sf = parse(root, file);
    users.push({ ...usesOf(root, file, sf), words: wordsOf(sf.text) });
  }
  for (const file of filesUnder(root, "scripts", /\.(mjs|cjs|js|ts)$/)) {
    if (!JUDGES.has(file)) users.push(scriptUses(root, file));
  }

  const used = new Set();
  const use = (file, name, seen = new Set()) => {
    const key = `${file} ${name}`;
    const exports = table.get(file);
    if (!exports || seen.has(key)) return;
    seen.add(key);
    const entry = exports.names.get(name);
    if (!entry) {
      for (const star of exports.stars) use(star, name, seen);
      return;
    }
    used.add(key);
    if (entry.as === "*") useAll(entry.from, () => true, seen);
    else if (entry.from) use(entry.from, entry.as, seen);
  };
  const useAll = (file, wanted, seen = new Set()) => {
    const exports = table.get(file);
    if (!exports) return;
    for (const name of exports.names.keys()) if (wanted(name)) use(file, name, seen);
    for (const star of exports.stars) useAll(star, wanted, seen);
  };
  for (const user of users) {
    for (const [file, name] of user.named) use(file, name);
    for (const file of user.reached) useAll(file, (name) => user.words.has(name) || name === "default");
  }

  const unused = [];
  for (const [file, { names }] of table) {
    for (const entry of names.values()) {
      if (!used.has(`${file} ${entry.name}`))
        unused.push({ file, line: entry.line, name: entry.name, reexport: Boolean(entry.from) });
    }
  }
  return unused.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
