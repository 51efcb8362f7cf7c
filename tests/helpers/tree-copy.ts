// A copy of the tree for the recipe tests (tests/cases/case-recipe.test.ts, tests/checks/registry.test.ts,
// tests/github/publisher-recipe.test.ts, tests/engine/provider-recipe.test.ts): what `npm run docs`
// reads and writes, the repository's node_modules linked in, so a throwaway module can be added
// and the generators run there.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./inventory.js";

/**
 * The generators' inputs and outputs, the tests (the structure check reads what they import), and
 * `extra` (e.g. tsconfig.json), copied to a new temp dir.
 */
export function copyTree(prefix: string, extra: string[] = []): string {
  const copy = mkdtempSync(path.join(tmpdir(), prefix));
  for (const p of ["src", "scripts", "docs", "tests", "action.yml", "README.md", "package.json", ...extra])
    cpSync(path.join(REPO_ROOT, p), path.join(copy, p), { recursive: true });
  // npm run docs writes the JSON Schemas too.
  mkdirSync(path.join(copy, "acceptance"));
  for (const f of ["inventory.schema.json", "report.schema.json"])
    cpSync(path.join(REPO_ROOT, "acceptance", f), path.join(copy, "acceptance", f));
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(copy, "node_modules"));
  return copy;
}

/** Runs a Node script in the copy; its stdout. */
export function runIn(copy: string, args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: copy, encoding: "utf8", stdio: "pipe" });
}

/**
 * `source` (TypeScript importing the copy's modules by relative path) bundled in the copy and run
 * there. `externalPackages`: the packages are loaded from the copy's node_modules rather than
 * bundled (an engine's client carries native add-ons esbuild cannot bundle).
 */
export async function bundleAndRun(
  copy: string,
  source: string,
  args: string[] = [],
  { externalPackages = false } = {},
): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    stdin: { contents: source, resolveDir: copy, loader: "ts" },
    ...(externalPackages ? { packages: "external" as const } : {}),
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: path.join(copy, "probe.mjs"),
    logLevel: "silent",
  });
  return runIn(copy, ["probe.mjs", ...args]);
}
