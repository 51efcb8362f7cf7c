// The CLI as the README installs it: the release tarball (scripts/pack.mjs, attached to each
// release by .github/workflows/release.yml) installed with npm, offline, into a fresh prefix,
// and the installed command run under Node 24. The tarball declares no dependencies (dist/
// bundles them), so the install reaches no registry; and the same commit packs to the same bytes,
// so the SHA-256 in a release's notes can be checked against a pack of its tag.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import { pack } from "../../scripts/pack.mjs";
import { REPO_ROOT } from "../helpers/inventory.js";
import { NODE24 } from "./runner.js";

const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "da-install-"));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const version = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version as string;

describe("the CLI's release tarball", () => {
  const tarball: string = pack(tempDir());

  it("is named for the version, packs to the same bytes twice, and holds dist/, the README, the CHANGELOG and a manifest without dependencies", () => {
    expect(path.basename(tarball)).toBe(`docker-acceptance-${version}.tgz`);
    expect(sha256(pack(tempDir()))).toBe(sha256(tarball));
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n");
    expect(new Set(files.map((f) => f.split("/").slice(0, 2).join("/")))).toEqual(
      new Set(["package/package.json", "package/README.md", "package/CHANGELOG.md", "package/dist"]),
    );
    expect(files).toEqual(
      expect.arrayContaining(["package/dist/cli.js", "package/dist/main.js", "package/dist/post.js"]),
    );
    const manifest = JSON.parse(
      execFileSync("tar", ["xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
    );
    expect(manifest).toMatchObject({
      name: "docker-acceptance",
      version,
      bin: { "docker-acceptance": "dist/cli.js" },
    });
    for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "scripts", "private"])
      expect(manifest[field], field).toBeUndefined();
  });

  it("installs offline with npm install -g into a fresh prefix, and the installed command runs under Node 24", () => {
    const prefix = tempDir();
    const cache = tempDir();
    execFileSync(
      "npm",
      ["install", "-g", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, tarball],
      {
        env: { ...process.env, npm_config_cache: cache },
        stdio: "pipe",
      },
    );
    // The bin's #!/usr/bin/env node finds Node 24 first, as on a runner with Node 24.
    const env = { ...process.env, PATH: `${path.dirname(NODE24)}:${process.env.PATH}` };
    const bin = path.join(prefix, "bin/docker-acceptance");
    expect(execFileSync(bin, ["--version"], { env, encoding: "utf8" }).trim()).toBe(version);
    expect(execFileSync(bin, ["--help"], { env, encoding: "utf8" })).toContain(
      "usage: docker-acceptance <command>",
    );
    const schema = JSON.parse(execFileSync(bin, ["schema"], { env, encoding: "utf8" }));
    expect(schema.$schema ?? schema.type).toBeDefined();
    // Nothing but the package itself was installed.
    expect(execFileSync("ls", [path.join(prefix, "lib/node_modules")], { encoding: "utf8" }).trim()).toBe(
      "docker-acceptance",
    );
    expect(() =>
      execFileSync("ls", [path.join(prefix, "lib/node_modules/docker-acceptance/node_modules")], {
        stdio: "pipe",
      }),
    ).toThrow();
  });
});
