// The report bundle: written once, then re-verified from its bytes. Any changed byte, added or
// deleted file, escaping or duplicate SHA256SUMS line fails `verifyBundle` with the file named.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBundleAgainst } from "../../src/commands/verify.js";
import { ConfigError, UsageError } from "../../src/errors.js";
import { loadInventory } from "../../src/inventory/load.js";
import { checkCompleteness } from "../../src/inventory/verify.js";
import { type BundleVerification, readReport, verifyBundle, writeBundle } from "../../src/report/bundle.js";
import type { Report } from "../../src/report/model.js";
import { allCases, makeReport } from "../helpers/report.js";

const repo = path.resolve(import.meta.dirname, "../..");
const INVENTORY = path.join(repo, "acceptance/inventory.json");
const FILES = ["SHA256SUMS", "cleanup.json", "junit.xml", "report.json", "report.md"];
const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");

let root: string;
let good: string;
let n = 0;

/** A report of a run of this repository's inventory (the hardened fixture, both suites). */
async function hardenedReport(over: { drop?: string; requireComplete?: boolean } = {}): Promise<Report> {
  const loaded = await loadInventory(INVENTORY, { workspace: repo });
  const cases = allCases("hardened").filter((c) => c.id !== over.drop);
  const inventory = checkCompleteness(loaded.inventory, cases, {
    suites: ["lifecycle", "containment"],
    subjects: ["hardened"],
    requireComplete: over.requireComplete ?? true,
    path: "acceptance/inventory.json",
    sha256: loaded.sha256,
  });
  return makeReport({ subjects: [{ name: "hardened", phases: [] }], cases, inventory });
}

/** A fresh copy of the good bundle to damage. */
async function copy(): Promise<string> {
  const dir = path.join(root, `copy-${n++}`);
  await cp(good, dir, { recursive: true });
  return dir;
}

/** What an attacker does after editing: recompute SHA256SUMS over the files, as writeBundle would. */
async function resum(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((f) => f !== "SHA256SUMS").sort();
  const lines = await Promise.all(names.map(async (f) => `${sha(await readFile(path.join(dir, f)))}  ${f}`));
  await writeFile(path.join(dir, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

const failures = (v: BundleVerification) => v.checks.filter((c) => c.status === "fail");
const failText = (v: BundleVerification) => failures(v).map((c) => `${c.check} ${c.file ?? ""}: ${c.detail}`);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "da-bundle-"));
  good = path.join(root, "good");
  await writeBundle(good, await hardenedReport(), { markdown: "# docker-acceptance\n\n**pass**\n" });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("writeBundle", () => {
  it("writes the four files and SHA256SUMS over them, sorted, in sha256sum's format", async () => {
    expect((await readdir(good)).sort()).toEqual(FILES);
    const sums = await readFile(path.join(good, "SHA256SUMS"), "utf8");
    const names = sums
      .trimEnd()
      .split("\n")
      .map((l) => l.slice(66));
    expect(names).toEqual(["cleanup.json", "junit.xml", "report.json", "report.md"]);
    if (spawnSync("sha256sum", ["--version"]).status === 0) {
      expect(execFileSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: good }).toString()).toBe(
        "cleanup.json: OK\njunit.xml: OK\nreport.json: OK\nreport.md: OK\n",
      );
    }
  });

  it("records the inventory digest and the tool version; readReport returns what was written", async () => {
    const report = await readReport(good);
    expect(report).toEqual(await hardenedReport());
    expect(report.inventory!.sha256).toBe(sha(await readFile(INVENTORY)));
    expect(report.tool).toEqual({ name: "docker-acceptance", version: "0.1.0" });
    expect(JSON.parse(await readFile(path.join(good, "cleanup.json"), "utf8"))).toEqual(report.cleanup);
  });

  it("refuses a directory holding other files, and rewrites an earlier bundle in place", async () => {
    const dir = await copy();
    await writeBundle(dir, await hardenedReport({ drop: "lifecycle.stop" }), { markdown: "again\n" });
    expect((await verifyBundle(dir)).ok).toBe(false); // incomplete now, but consistent:
    expect(failText(await verifyBundle(dir))).toEqual([
      "completeness report.json: incomplete: hardened / lifecycle: missing lifecycle.stop",
    ]);
    await writeFile(path.join(dir, "notes.txt"), "x");
    await expect(writeBundle(dir, await hardenedReport(), { markdown: "" })).rejects.toThrow(UsageError);
    await expect(writeBundle(dir, await hardenedReport(), { markdown: "" })).rejects.toThrow(
      /already holds notes\.txt/,
    );
  });

  it("readReport names the file and field of a bad report", async () => {
    const dir = await copy();
    await writeFile(
      path.join(dir, "report.json"),
      JSON.stringify({ ...(await hardenedReport()), verdict: "maybe" }),
    );
    const err = await readReport(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/report\.json: verdict: Invalid option/);
  });
});

describe("verifyBundle", () => {
  it("an untouched bundle verifies, against this repository's inventory too", async () => {
    const v = await verifyBundleAgainst(good, { inventoryPath: INVENTORY, workspace: repo });
    expect(failText(v)).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.checks.map((c) => `${c.status} ${c.check} ${c.file ?? ""}`)).toEqual([
      "pass sums SHA256SUMS",
      "pass files ",
      "pass hash cleanup.json",
      "pass hash junit.xml",
      "pass hash report.json",
      "pass hash report.md",
      "pass schema report.json",
      "pass cleanup cleanup.json",
      "pass inventory report.json",
      "pass completeness report.json",
    ]);
    expect(v.report?.verdict).toBe("pass");
  });

  it("without --inventory the digest comparison is reported as skipped, not passed", async () => {
    const v = await verifyBundle(good);
    expect(v.ok).toBe(true);
    expect(v.checks.find((c) => c.check === "inventory")).toMatchObject({ status: "skip" });
  });

  describe("tampering with any byte of any file fails, naming the file", () => {
    // First, middle and last byte of every file, plus a few seeded positions in between.
    for (const file of FILES) {
      it(file, async () => {
        const size = (await readFile(path.join(good, file))).length;
        let seed = file.length * 7919;
        const random = () => {
          seed = (seed * 48271) % 2147483647; // Lehmer: reproducible positions
          return seed % size;
        };
        const positions = [...new Set([0, size >> 1, size - 1, random(), random(), random()])];
        for (const at of positions) {
          const dir = await copy();
          const bytes = await readFile(path.join(dir, file));
          bytes[at] = bytes[at]! ^ 0x01;
          await writeFile(path.join(dir, file), bytes);
          const v = await verifyBundle(dir);
          expect(v.ok, `${file} byte ${at}`).toBe(false);
          // The failing check names the file (a changed SHA256SUMS is named in the detail of the
          // check about the line it broke).
          expect(
            failures(v).some((c) => c.file === file || c.detail.includes(file)),
            `${file} byte ${at}: ${failText(v).join(" | ")}`,
          ).toBe(true);
        }
      });
    }
  });

  it("a changed byte reports both digests", async () => {
    const dir = await copy();
    await writeFile(path.join(dir, "report.md"), "# docker-acceptance\n\n**PASS**\n");
    const [f] = failures(await verifyBundle(dir));
    const listed = (await readFile(path.join(good, "SHA256SUMS"), "utf8")).split("\n")[3]!.slice(0, 64);
    expect(f).toEqual({
      check: "hash",
      status: "fail",
      file: "report.md",
      detail: `sha256 is ${sha("# docker-acceptance\n\n**PASS**\n")}, SHA256SUMS line 4 says ${listed}`,
    });
  });

  it("an added file, also in a subdirectory, or a symbolic link fails, naming it", async () => {
    const dir = await copy();
    await writeFile(path.join(dir, "extra.txt"), "hello");
    await mkdir(path.join(dir, "sub"));
    await writeFile(path.join(dir, "sub/x.json"), "{}");
    await symlink("report.json", path.join(dir, "link.json"));
    expect(failText(await verifyBundle(dir))).toEqual([
      "files extra.txt: extra.txt is not listed in SHA256SUMS",
      "files link.json: link.json is a symlink; a bundle holds only regular files",
      "files sub/x.json: sub/x.json is not listed in SHA256SUMS",
    ]);
  });

  it("a deleted file fails, naming it", async () => {
    for (const file of FILES) {
      const dir = await copy();
      await unlink(path.join(dir, file));
      const text = failText(await verifyBundle(dir));
      expect(text[0], file).toBe(
        file === "SHA256SUMS"
          ? "sums SHA256SUMS: cannot read SHA256SUMS (ENOENT)"
          : `files ${file}: ${file} is listed in SHA256SUMS (line ${FILES.indexOf(file)}) but missing`,
      );
    }
  });

  it("SHA256SUMS lines that escape, repeat, list SHA256SUMS itself or are malformed fail", async () => {
    const dir = await copy();
    const sums = await readFile(path.join(dir, "SHA256SUMS"), "utf8");
    const d = "0".repeat(64);
    await writeFile(
      path.join(dir, "SHA256SUMS"),
      `${sums}${d}  ../outside\n${d}  /etc/passwd\n${sums.split("\n")[0]}\n${d}  SHA256SUMS\n${d} report.md\n`,
    );
    expect(failText(await verifyBundle(dir))).toEqual([
      'sums ../outside: line 5 names "../outside": has an empty, "." or ".." segment',
      'sums /etc/passwd: line 6 names "/etc/passwd": is an absolute path',
      "sums cleanup.json: line 7 lists cleanup.json again (first on line 1)",
      'sums SHA256SUMS: line 8 names "SHA256SUMS": SHA256SUMS cannot list itself',
      `sums SHA256SUMS: line 9 is not "<64 hex digits>  <file>": "${d} report.md"`,
    ]);
  });

  it("a re-hashed report.json that breaks the schema fails the schema check", async () => {
    const dir = await copy();
    const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"));
    report.cases[0].status = "maybe";
    await writeFile(path.join(dir, "report.json"), JSON.stringify(report));
    await resum(dir);
    const [f] = failures(await verifyBundle(dir));
    expect(f).toMatchObject({ check: "schema", file: "report.json" });
    expect(f!.detail).toContain("cases[0].status");
  });

  it("a re-hashed cleanup.json that disagrees with report.json fails", async () => {
    const dir = await copy();
    await writeFile(path.join(dir, "cleanup.json"), "null\n");
    await resum(dir);
    expect(failText(await verifyBundle(dir))).toEqual([
      "cleanup cleanup.json: differs from the cleanup evidence in report.json",
    ]);
  });

  it("a forged complete=true is caught by recomputing completeness against the inventory", async () => {
    const dir = await copy();
    const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"));
    report.cases = report.cases.filter((c: { id: string }) => c.id !== "containment.seccomp");
    await writeFile(path.join(dir, "report.json"), JSON.stringify(report));
    await writeFile(path.join(dir, "junit.xml"), "<testsuites/>\n");
    await resum(dir);
    expect(failText(await verifyBundleAgainst(dir, { inventoryPath: INVENTORY, workspace: repo }))).toEqual([
      "completeness report.json: report.json says complete=true, but its cases against " +
        `${INVENTORY} give complete=false`,
    ]);
  });

  it("an inventory other than the one the run used fails the digest check", async () => {
    const other = path.join(root, "other-inventory.json");
    await writeFile(other, `${await readFile(INVENTORY, "utf8")}\n`);
    const [f] = failures(await verifyBundleAgainst(good, { inventoryPath: other, workspace: repo }));
    expect(f).toMatchObject({ check: "inventory", file: "report.json" });
    expect(f!.detail).toBe(
      `recorded sha256 ${sha(await readFile(INVENTORY))} differs from ${other} (${sha(await readFile(other))}): the run used another inventory`,
    );
  });

  it("an incomplete run fails completeness when required, and only warns when not", async () => {
    const strict = path.join(root, "strict");
    const lenient = path.join(root, "lenient");
    await writeBundle(strict, await hardenedReport({ drop: "containment.devices" }), { markdown: "" });
    await writeBundle(
      lenient,
      await hardenedReport({ drop: "containment.devices", requireComplete: false }),
      {
        markdown: "",
      },
    );
    const s = await verifyBundleAgainst(strict, { inventoryPath: INVENTORY, workspace: repo });
    expect(s.ok).toBe(false);
    expect(failText(s)).toEqual([
      "completeness report.json: incomplete: hardened / containment: missing containment.devices",
    ]);
    const l = await verifyBundleAgainst(lenient, { inventoryPath: INVENTORY, workspace: repo });
    expect(l.ok).toBe(true);
    expect(l.checks.at(-1)).toMatchObject({ check: "completeness", status: "warn" });
  });
});
