// One bundler, three entry points. ES modules for node24; ssh2 (dockerode's optional SSH transport)
// is replaced by a stub: the action only talks to a local socket, and ssh2 would triple the bundle.
import { build } from "esbuild";

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
  splitting: false,
  minify: false,
  legalComments: "none",
  banner: { js: banner },
  alias: { ssh2: "./scripts/ssh2-stub.cjs", "cpu-features": "./scripts/ssh2-stub.cjs" },
  logLevel: "warning",
});
