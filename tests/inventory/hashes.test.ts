// Artifact pins: measured from the workspace; one changed byte fails with both digests; `pin`
// rewrites only the digests, keeping the file's layout byte for byte.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { pinArtifacts, verifyArtifacts } from "../../src/inventory/hashes.js";
import { loadInventory } from "../../src/inventory/load.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { computeVerdict } from "../../src/report/model.js";
import { makeReport } from "../helpers/report.js";

const repo = path.resolve(import.meta.dirname, "../..");
const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");

describe("verifyArtifacts on this repository", () => {
  it("every pin in acceptance/inventory.json holds, each with its line", async () => {
    const loaded = await loadInventory(path.join(repo, "acceptance/inventory.json"), { workspace: repo });
    const results = await verifyArtifacts(repo, loaded.inventory, loaded.text);
    expect(results).toHaveLength(3);
    const lines = loaded.text.split("\n");
    for (const r of results) {
      expect(r.ok).toBe(true);
      expect(r.actual).toBe(sha(await readFile(path.join(repo, r.path))));
      expect(lines[r.line! - 1]).toContain(`"sha256": "${r.expected}"`);
    }
  });
});

describe("in a scratch workspace", () => {
  let ws: string;
  let file: string;
  const original = "FROM scratch\nCOPY www /www\n";
  // Deliberately unusual layout: tabs, odd spacing, keys in a non-schema order, CRLF line ends.
  const layout = (dockerfileDigest: string, indexDigest: string) =>
    [
      "{",
      '\t"schemaVersion" : 1,',
      '\t"artifacts": [',
      `\t\t{ "sha256":"${dockerfileDigest}",   "path": "app/Dockerfile" },`,
      "\t\t{",
      '\t\t  "path": "app/www/index.html",',
      `\t\t  "sha256": "${indexDigest}"`,
      "\t\t}",
      "\t],",
      '\t"subjects": [ { "name": "app", "build": { "context": "app" } } ]',
      "}",
      "",
    ].join("\r\n");

  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), "da-pins-"));
    await mkdir(path.join(ws, "app/www"), { recursive: true });
    await writeFile(path.join(ws, "app/Dockerfile"), original);
    await writeFile(path.join(ws, "app/www/index.html"), "<h1>hi</h1>\n");
    file = path.join(ws, "inventory.json");
  });
  afterEach(() => rm(ws, { recursive: true, force: true }));

  it("changing one byte of a pinned file fails that artifact, with both digests and the pin's line", async () => {
    const pinned = sha(original);
    const text = layout(pinned, sha("<h1>hi</h1>\n"));
    const { inventory } = parseInventory(file, text);
    await writeFile(path.join(ws, "app/Dockerfile"), original.replace("FROM", "FRUM"));
    const [dockerfile, index] = await verifyArtifacts(ws, inventory, text);
    expect(dockerfile).toEqual({
      path: "app/Dockerfile",
      expected: pinned,
      actual: sha("FRUM scratch\nCOPY www /www\n"),
      ok: false,
      line: 4,
    });
    expect(dockerfile!.actual).not.toBe(pinned);
    expect(index).toMatchObject({ ok: true, line: 7 });
    // The run fails on it even when every case passed.
    expect(computeVerdict(makeReport({ artifacts: [dockerfile!, index!] }))).toBe("fail");
    expect(computeVerdict(makeReport({ artifacts: [index!] }))).toBe("pass");
  });

  it("a missing file, a directory, or a link out of the workspace has no digest", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "da-outside-"));
    try {
      await writeFile(path.join(outside, "secret"), "s3cret");
      await symlink(path.join(outside, "secret"), path.join(ws, "app/link"));
      const text = JSON.stringify({
        schemaVersion: 1,
        subjects: [{ name: "app", image: "x" }],
        artifacts: [
          { path: "app/gone", sha256: "a".repeat(64) },
          { path: "app/www", sha256: "b".repeat(64) },
          { path: "app/link", sha256: sha("s3cret") },
        ],
      });
      const { inventory } = parseInventory(file, text); // lexical rules only: no workspace given
      const results = await verifyArtifacts(ws, inventory);
      expect(results.map((r) => [r.path, r.actual, r.ok])).toEqual([
        ["app/gone", null, false],
        ["app/www", null, false],
        ["app/link", null, false],
      ]);
      expect(results[0]).not.toHaveProperty("line");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("pin rewrites only the digests, preserving layout, key order and line ends", async () => {
    const before = layout("", "0".repeat(64));
    await writeFile(file, before);
    const changes = await pinArtifacts(file, ws);
    const after = await readFile(file, "utf8");
    expect(after).toBe(layout(sha(original), sha("<h1>hi</h1>\n")));
    expect(changes).toEqual([
      { path: "app/Dockerfile", before: "", after: sha(original), changed: true },
      { path: "app/www/index.html", before: "0".repeat(64), after: sha("<h1>hi</h1>\n"), changed: true },
    ]);
    // Pinned now: the run's check passes, and pinning again changes nothing.
    const loaded = await loadInventory(file, { workspace: ws });
    expect((await verifyArtifacts(ws, loaded.inventory)).every((r) => r.ok)).toBe(true);
    expect((await pinArtifacts(file, ws)).some((c) => c.changed)).toBe(false);
    expect(await readFile(file, "utf8")).toBe(after);
  });

  it("pin refuses a missing file and writes nothing", async () => {
    const before = layout("", "");
    await writeFile(file, before);
    await rm(path.join(ws, "app/www/index.html"));
    const err = await pinArtifacts(file, ws).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe(
      `${file}:6: artifacts[1].path: "app/www/index.html" is not a readable file inside the workspace ${ws} (fix: restore the file, or remove its pin)`,
    );
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("pin refuses to write an inventory that would not load", async () => {
    const before = layout("", "").replace('"schemaVersion" : 1', '"schemaVersion" : 1, "colour": 1');
    await writeFile(file, before);
    await expect(pinArtifacts(file, ws)).rejects.toThrow('colour: unknown key "colour"');
    expect(await readFile(file, "utf8")).toBe(before);
  });
});

describe("the pull request's pins cost the runner little", () => {
  let ws: string;
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), "da-pins-cost-"));
  });
  afterEach(() => rm(ws, { recursive: true, force: true }));

  it("200 pins linking to one 50 MB file: each read once, streamed, in flat memory (whole and at once, they held 10 GB)", async () => {
    const big = randomBytes(50 * 1024 * 1024);
    await writeFile(path.join(ws, "big"), big);
    const digest = sha(big);
    const artifacts = [];
    for (let i = 0; i < 200; i++) {
      await symlink("big", path.join(ws, `link${i}`));
      artifacts.push({ path: `link${i}`, sha256: digest });
    }
    const { inventory } = parseInventory(
      "inventory.json",
      JSON.stringify({ schemaVersion: 1, subjects: [{ name: "app", image: "x" }], artifacts }),
    );
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    const results = await verifyArtifacts(ws, inventory).finally(() => clearInterval(sample));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak - before).toBeLessThan(500 * 1024 * 1024);
  });

  it("a pin that is a FIFO has no digest, and is not waited on", async () => {
    execFileSync("mkfifo", [path.join(ws, "fifo")]);
    const { inventory } = parseInventory(
      "inventory.json",
      JSON.stringify({
        schemaVersion: 1,
        subjects: [{ name: "app", image: "x" }],
        artifacts: [{ path: "fifo", sha256: "a".repeat(64) }],
      }),
    );
    expect(await verifyArtifacts(ws, inventory)).toEqual([
      { path: "fifo", expected: "a".repeat(64), actual: null, ok: false },
    ]);
  }, 5_000);
});
