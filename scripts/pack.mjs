// The CLI's release tarball, attached to each GitHub release (.github/workflows/release.yml):
// dist/ as committed, the README and the CHANGELOG, and a package.json that declares no
// dependencies, since dist/ bundles every one of them. `npm install -g ./docker-acceptance-X.Y.Z.tgz`
// then installs one package, offline. There is no npm package: the name is not ours on the
// registry, and an `npx docker-acceptance` would run whatever someone else publishes under it.
// npm pack fixes every file's time and mode, so the same commit packs to the same bytes.
//
//   node scripts/pack.mjs [OUT_DIR]   prints the tarball's path (default OUT_DIR: out/pack)
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The fields of package.json a user's install reads; scripts and dependencies stay home. */
const KEPT = [
  "name",
  "version",
  "description",
  "license",
  "type",
  "engines",
  "bin",
  "repository",
  "homepage",
  "bugs",
];

/** Packs the checkout at `root` into `outDir`; returns the tarball's absolute path. */
export function pack(outDir, root = ROOT) {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const stage = mkdtempSync(path.join(tmpdir(), "da-pack-"));
  try {
    const manifest = Object.fromEntries(KEPT.filter((k) => k in pkg).map((k) => [k, pkg[k]]));
    writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const f of ["dist", "README.md", "CHANGELOG.md"])
      cpSync(path.join(root, f), path.join(stage, f), { recursive: true });
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", path.resolve(outDir)],
      {
        cwd: stage,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    return path.resolve(outDir, JSON.parse(out)[0].filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(pack(process.argv[2] ?? path.join(ROOT, "out/pack")));
}
