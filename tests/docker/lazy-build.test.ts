// What a run loads before its first build request, through dist/ under Node 24 on the real engine
// (issue #29): the check kinds with their schemas (zod), the containment suite and the report's
// schema are loaded only once the engine has the build in hand (its first step), so that none of
// it delays the request; the run then passes as before, every one of them loaded.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportSchema } from "../../src/report/model.js";
import { NODE24 } from "../e2e/runner.js";
import { CLI } from "../helpers/cli.js";
import { hasEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";

/**
 * Records the dist files loaded, when the process first writes a /build request to the engine
 * and when it exits (NODE_OPTIONS --require).
 */
const RECORDER = `
const m = require("node:module");
const net = require("node:net");
const fs = require("node:fs");
const files = new Set();
m.registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (r.url.startsWith("file:")) files.add(r.url); return r; } });
const seen = (at) => fs.appendFileSync(process.env.DA_LOADED, JSON.stringify({ at, files: [...files] }) + "\\n");
const write = net.Socket.prototype.write;
let first = true;
net.Socket.prototype.write = function (chunk, ...rest) {
  if (first && /^POST \\S*\\/build\\?/.test(String(chunk).slice(0, 200))) { first = false; seen("build request"); }
  return write.call(this, chunk, ...rest);
};
process.on("exit", () => seen("exit"));
`;

/** Strings the bundle keeps as written: zod's core, a containment grader, a check kind. */
const ZOD = '"$ZodType"';
const CONTAINMENT_GRADER = "the trusted probe could not observe";
const CHECK_KIND = "a TCP connection to the subject's port succeeds";

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!hasEngine)("what a run loads before its first build request (dist/, Node 24)", () => {
  it("neither zod, nor the containment suite, nor the check kinds: they load while the engine builds, and the run passes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "da-lazy-build-"));
    temps.push(dir);
    const hook = path.join(dir, "recorder.cjs");
    writeFileSync(hook, RECORDER);
    const loadedFile = path.join(dir, "loaded.jsonl");
    writeFileSync(loadedFile, "");
    const out = path.join(dir, "out");
    const inventory = writeInventory([fixtureSubject("hardened", { name: `lazy-${process.pid}` })]);
    const child = spawn(
      NODE24,
      [CLI, "run", "--inventory", inventory, "--probe-image", PROBE_IMAGE, "--out", out],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_OPTIONS: `--require ${hook}`, DA_LOADED: loadedFile },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, log).toBe(0);
    const report = reportSchema.parse(JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")));
    expect(report.verdict, log).toBe("pass");
    expect(report.cases.filter((c) => c.id.startsWith("containment.")).length).toBeGreaterThan(10);

    const loaded = readFileSync(loadedFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { at: string; files: string[] });
    const holds = (at: string, marker: string) =>
      loaded
        .find((l) => l.at === at)!
        .files.some((u) => u.includes("/dist/") && readFileSync(new URL(u), "utf8").includes(marker));
    expect(
      loaded.map((l) => l.at),
      log,
    ).toEqual(["build request", "exit"]);
    for (const marker of [ZOD, CONTAINMENT_GRADER, CHECK_KIND]) {
      expect(holds("build request", marker), marker).toBe(false);
      expect(holds("exit", marker), marker).toBe(true);
    }
  });
});
