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
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { contextTar, readBuildContext } from "../../src/engine/context.js";
import { MatchBudget } from "../../src/engine/ignore-pattern.js";

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

describe("a Dockerfile sent apart (as `docker build -f -` sends one)", () => {
  const extract = async (root: string, apart: { name: string; text: string }) => {
    const tar = await buffer(contextTar(readBuildContext(root, "Dockerfile"), apart));
    const out = mkdtempSync(path.join(os.tmpdir(), "da-ctx-apart-"));
    writeFileSync(`${out}.tar`, tar);
    execFileSync("tar", ["-xf", `${out}.tar`, "-C", out]);
    return out;
  };
  const apart = { name: ".dockerfile.0123456789abcdef0123", text: "FROM scratch\nLABEL a=b\n" };

  it("travels beside the context's own files, named in its .dockerignore so the engine drops it", async () => {
    const root = tree();
    const out = await extract(root, apart);
    expect(readFileSync(path.join(out, apart.name), "utf8")).toBe(apart.text);
    expect(readFileSync(path.join(out, "Dockerfile"), "utf8")).toBe("FROM scratch\nCOPY . /\n");
    expect(readFileSync(path.join(out, ".dockerignore"), "utf8")).toBe(
      `secret.txt\nlogs/\n\n${apart.name}\n`,
    );
    expect(readFileSync(path.join(out, "bin/run.sh"), "utf8")).toBe("#!/bin/sh\necho hi\n");
  });

  it("brings a .dockerignore naming itself and it where the context has none, as Docker's CLI does", async () => {
    const root = tree();
    rmSync(path.join(root, ".dockerignore"));
    const out = await extract(root, apart);
    expect(readFileSync(path.join(out, ".dockerignore"), "utf8")).toBe(`.dockerignore\n${apart.name}\n`);
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

describe(".dockerignore, read as Docker reads it", () => {
  const context = (ignore: string | Buffer, names: string[]) => {
    const root = mkdtempSync(path.join(os.tmpdir(), "da-ctx-ignore-"));
    for (const rel of ["Dockerfile", ...names]) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), "x");
    }
    writeFileSync(path.join(root, ".dockerignore"), ignore);
    return root;
  };
  const sent = (ignore: string, names: string[]) =>
    readBuildContext(context(ignore, names), "Dockerfile").files.filter((f) => names.includes(f));

  it("matches the patterns as moby/patternmatcher does: no braces or extglobs, ** for directories", () => {
    const names = [
      "a.env",
      "sub/b.env",
      "x.log",
      "deep/er/y.log",
      "{a,b}",
      "a",
      "abc",
      "b1",
      "star*",
      "keep/me",
    ];
    expect(sent("*.env", names)).not.toContain("a.env");
    expect(sent("*.env", names)).toContain("sub/b.env"); // `*` never crosses a "/"
    expect(sent("**/*.log", names)).toEqual(expect.not.arrayContaining(["x.log", "deep/er/y.log"]));
    expect(sent("{a,b}", names)).not.toContain("{a,b}"); // a brace is itself
    expect(sent("{a,b}", names)).toContain("a");
    expect(sent("a?c\n[b-c][0-9]", names)).toEqual(expect.not.arrayContaining(["abc", "b1"]));
    expect(sent("star\\*", names)).not.toContain("star*");
    expect(sent("keep\n!keep/me", names)).toContain("keep/me");
    expect(sent("deep/**", names)).not.toContain("deep/er/y.log");
  });

  it("matches in linear time: a pattern that backtracks for minutes in a RegExp takes milliseconds", () => {
    const long = "a".repeat(200);
    const started = Date.now();
    const ctx = readBuildContext(
      context("*a*a*a*a*b\n**/*a*a*a*a*a*a*a*a*b\n", [long, `d/${long}`]),
      "Dockerfile",
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ctx.files).toContain(long);
  });

  it("bounds what all its tests cost together: past the budget the build is refused, naming the file", () => {
    const names = Array.from({ length: 50 }, (_, i) => `${"a".repeat(200)}${i}`);
    const root = context(`${"**/*a*a*a*a*a*a*a*a*b\n".repeat(50)}`, names);
    expect(() => readBuildContext(root, "Dockerfile", "app", new MatchBudget(1_000_000))).toThrow(
      /^app\/\.dockerignore: its patterns cost too much to apply to the build context \(stopped after \d+ files\); nothing was sent to the engine \(fix: use fewer patterns/,
    );
  });

  it("refuses a pattern Docker refuses, with its line", () => {
    expect(() => readBuildContext(context("# ok\nlogs\n[a-\n", []), "Dockerfile", "app")).toThrow(
      /^app\/\.dockerignore:3: the pattern "\[a-" has an unfinished character class/,
    );
  });

  it("reads no .dockerignore that is not a regular file or is past 1 MiB: a FIFO is refused, never waited on", () => {
    const root = context("", []);
    rmSync(path.join(root, ".dockerignore"));
    execFileSync("mkfifo", [path.join(root, ".dockerignore")]);
    expect(() => readBuildContext(root, "Dockerfile", "app")).toThrow(
      "app/.dockerignore: is not a regular file (fix: make .dockerignore a plain text file)",
    );
    const big = context(Buffer.alloc(1024 * 1024 + 1, "#"), []);
    expect(() => readBuildContext(big, "Dockerfile", "app")).toThrow(
      "app/.dockerignore: is 1048577 bytes; at most 1048576 (1 MiB) are read",
    );
  });
});
