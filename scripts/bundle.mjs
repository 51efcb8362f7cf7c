// One bundler, three entry points, ES modules for node24. Code the tool never runs (dockerode's
// ssh2 transport and its own BuildKit session and decoder, which load .proto files from disk,
// @actions/core's OIDC client) is replaced by scripts/unused-stub.cjs: it would double each bundle
// and its start-up time. Our BuildKit session (src/engine/providers/docker/buildkit.ts) uses @grpc/grpc-js from a
// chunk of its own, loaded only when a build runs. Minified: size and cold start are budgets.
import { rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** zod's locale index (every language) becomes English only: see scripts/zod-locales-en.mjs. */
const englishOnlyZod = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.resolve("scripts/zod-locales-en.mjs") }
        : undefined,
    );
  },
};

const STUB = path.resolve("scripts/unused-stub.cjs");
const STUBBED = [
  "ssh2",
  "cpu-features",
  "@grpc/proto-loader",
  "protobufjs",
  "@actions/http-client",
  "@actions/http-client/lib/auth",
];

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
      { filter: /^(ssh2|cpu-features|@grpc\/proto-loader|protobufjs|@actions\/http-client)(\/.*)?$/ },
      (args) => (STUBBED.includes(args.path) ? { path: STUB } : undefined),
    );
  },
};

// Chunk names carry content hashes: start clean so no stale chunk lingers in the commit.
rmSync("dist", { recursive: true, force: true });

const banner = [
  "import { createRequire as __daCreateRequire } from 'node:module';",
  "const require = __daCreateRequire(import.meta.url);",
].join("\n");

await build({
  entryPoints: { main: "src/main.ts", post: "src/post.ts", cli: "src/cli.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Shared code in chunks: each entry point stays small and loads only what it imports
  // (commands and publishing are dynamic imports, loaded when used).
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  keepNames: true,
  legalComments: "none",
  banner: { js: banner },
  plugins: [englishOnlyZod, stubUnused],
  logLevel: "warning",
});
