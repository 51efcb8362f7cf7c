// `docker-acceptance verify` as a user runs it: what it prints and its exit code.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCommandLine } from "../../src/cli/main.js";
import { UsageError } from "../../src/errors.js";
import { writeBundle } from "../../src/report/bundle.js";
import { makeReport } from "../helpers/report.js";

let root: string;
let good: string;

async function run(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await runCommandLine("verify", argv), out };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "da-verify-"));
  good = path.join(root, "good");
  await writeBundle(good, makeReport(), { markdown: "# ok\n" });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("verify BUNDLE_DIR", () => {
  it("prints each check and exits 0 for an untouched bundle", async () => {
    const { code, out } = await run([good]);
    expect(code).toBe(0);
    expect(out.split("\n")).toEqual([
      `verify ${good}`,
      "  ok   sums         SHA256SUMS: SHA256SUMS lists 4 files, each once",
      "  ok   files        the directory holds exactly the listed files",
      "  ok   hash         cleanup.json: sha256 matches",
      "  ok   hash         junit.xml: sha256 matches",
      "  ok   hash         report.json: sha256 matches",
      "  ok   hash         report.md: sha256 matches",
      "  ok   schema       report.json: valid Report (schemaVersion 1, verdict pass)",
      "  ok   cleanup      cleanup.json: equals the cleanup evidence in report.json",
      "  skip inventory    report.json: the run used no inventory",
      "bundle verified: 8 checks passed",
      "",
    ]);
  });

  it("exits 1 with the reason and the file named when a byte changed", async () => {
    const dir = path.join(root, "tampered");
    await cp(good, dir, { recursive: true });
    const junit = await readFile(path.join(dir, "junit.xml"), "utf8");
    await writeFile(path.join(dir, "junit.xml"), junit.replace('failures="0"', 'failures="1"'));
    const { code, out } = await run([dir]);
    expect(code).toBe(1);
    expect(out).toMatch(
      /^ {2}FAIL hash {9}junit\.xml: sha256 is [0-9a-f]{64}, SHA256SUMS line 2 says [0-9a-f]{64}$/m,
    );
    expect(out.trimEnd().split("\n").at(-1)).toMatch(/^bundle does NOT verify: junit\.xml: sha256 is /);
  });

  it("escapes control characters from the bundle before printing them", async () => {
    const dir = path.join(root, "escape");
    await cp(good, dir, { recursive: true });
    await writeFile(path.join(dir, "\u001b[2Jevil"), "x");
    const { code, out } = await run([dir]);
    expect(code).toBe(1);
    expect(out).not.toContain("\u001b");
    expect(out).toContain("\\u001b[2Jevil is not listed in SHA256SUMS");
  });

  it("--inventory with a report that records none fails", async () => {
    const { code, out } = await run([good, "--inventory", "acceptance/inventory.json"]);
    expect(code).toBe(1);
    expect(out).toContain("FAIL inventory    report.json: report.json records no inventory to compare with");
  });

  it("is a usage error (exit 2) without exactly one directory or with an unknown flag", async () => {
    await expect(run([])).rejects.toThrow(UsageError);
    await expect(run([good, good])).rejects.toThrow("expected one BUNDLE_DIR");
    await expect(run([good, "--inventroy", "x"])).rejects.toMatchObject({ exitCode: 2 });
  });
});
