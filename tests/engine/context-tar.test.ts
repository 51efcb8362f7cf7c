// The build context as the engine receives it (src/engine/context.ts contextTar): an uncompressed
// tar of exactly the listed files. Read back here by the system's own tar (GNU tar), the way any
// engine's archive reader would: names (long and non-ASCII ones through PAX headers), modes,
// contents, symlinks; nothing that .dockerignore left out.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { contextTar, readBuildContext } from "../../src/engine/context.js";

function tree(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "da-ctx-"));
  const put = (rel: string, body: string | Buffer, mode?: number) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
    if (mode !== undefined) chmodSync(path.join(root, rel), mode);
  };
  put("Dockerfile", "FROM scratch\nCOPY . /\n");
  put(".dockerignore", "secret.txt\nlogs/\n");
  put("secret.txt", "never sent");
  put("logs/a.log", "never sent");
  put("bin/run.sh", "#!/bin/sh\necho hi\n", 0o755);
  put("empty", "");
  put("exact-block", Buffer.alloc(512, 7));
  put("big.bin", Buffer.alloc(1_300_000, 3));
  put(`${"deep/".repeat(30)}file-with-a-long-path.txt`, "long");
  put("naïve café.txt", "unicode name");
  symlinkSync("bin/run.sh", path.join(root, "link"));
  return root;
}

describe("the build context's tar", () => {
  it("holds exactly the listed files, byte for byte, with their modes and links, readable by tar", async () => {
    const root = tree();
    const ctx = readBuildContext(root, "Dockerfile");
    const tar = await buffer(contextTar(ctx));
    expect(tar.length % 512).toBe(0);
    const out = mkdtempSync(path.join(os.tmpdir(), "da-ctx-out-"));
    writeFileSync(path.join(out, "..", `${path.basename(out)}.tar`), tar);
    execFileSync("tar", ["-xf", path.join(out, "..", `${path.basename(out)}.tar`), "-C", out]);
    const listed = execFileSync("tar", ["-tf", path.join(out, "..", `${path.basename(out)}.tar`)], {
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .sort();
    expect(listed).toEqual([...ctx.files].sort());
    expect(listed).not.toContain("secret.txt");
    expect(listed.some((f) => f.startsWith("logs/"))).toBe(false);
    for (const f of ctx.files) {
      const a = path.join(root, f);
      const b = path.join(out, f);
      if (f === "link") {
        expect(readlinkSync(b)).toBe("bin/run.sh");
        continue;
      }
      expect(readFileSync(b).equals(readFileSync(a)), f).toBe(true);
      expect(statSync(b).mode & 0o777, f).toBe(statSync(a).mode & 0o777);
    }
  });

  it("leaves out a listed file that has gone (the engine names a missing Dockerfile itself)", async () => {
    const root = tree();
    const ctx = readBuildContext(root, "Dockerfile.missing");
    expect(ctx.files).toContain("Dockerfile.missing");
    const tar = await buffer(contextTar(ctx));
    const file = path.join(root, "..", `${path.basename(root)}-missing.tar`);
    writeFileSync(file, tar);
    const listed = execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n");
    expect(listed).not.toContain("Dockerfile.missing");
    expect(listed).toContain("Dockerfile");
  });
});

describe("what is never sent", () => {
  it("withholds every .git (the checkout's credentials), whatever .dockerignore says", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "da-ctx-git-"));
    const put = (rel: string, body: string) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), body);
    };
    put("Dockerfile", "FROM scratch\nCOPY . /\n");
    put(".dockerignore", "!.git\n!.git/config\n");
    put(".git/config", "[http]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3M=\n");
    put("vendor/lib/.git", "gitdir: ../../.git/modules/lib\n");
    put("vendor/lib/a.c", "int a;\n");
    const ctx = readBuildContext(root, "Dockerfile");
    expect(ctx.withheld).toEqual([".git", "vendor/lib/.git"]);
    expect(ctx.files).toEqual([".dockerignore", "Dockerfile", "vendor/lib/a.c"]);
    const tar = path.join(root, "..", `${path.basename(root)}.tar`);
    writeFileSync(tar, await buffer(contextTar(ctx)));
    expect(execFileSync("tar", ["-tf", tar], { encoding: "utf8" })).not.toMatch(/\.git/);
  });
});
