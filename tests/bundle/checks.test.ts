// Each named bundle check on its own: what it records under its name, what it hands on to the
// checks after it, and when it stops the list. verifyBundle runs them in order (bundle.test.ts).
import { mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inventoryCheck } from "../../src/commands/verify.js";
import { parseReport, writeBundle } from "../../src/report/bundle.js";
import {
  type BundleState,
  cleanupCheck,
  completenessCheck,
  filesCheck,
  hashCheck,
  parseSums,
  recordedInventoryCheck,
  SUMS_FILE,
  schemaCheck,
  sha256,
  sumsCheck,
} from "../../src/report/bundle-checks.js";
import type { Report } from "../../src/report/model.js";
import { makeReport } from "../helpers/report.js";

let n = 0;
const tmp = () => mkdtemp(path.join(tmpdir(), `da-checks-${n++}-`));
const state = (dir: string, over: Partial<BundleState> = {}): BundleState => ({
  dir,
  results: [],
  listed: [],
  present: new Set(),
  verified: new Map(),
  ...over,
});
const seen = (s: BundleState) => s.results.map((r) => `${r.status} ${r.check} ${r.file ?? ""}`.trim());

let good: string;
beforeAll(async () => {
  good = await tmp();
  await writeBundle(good, makeReport(), { markdown: "# report\n" });
});

/** The state the given checks leave on a bundle directory. */
async function through(dir: string, checks: { run: (s: BundleState) => unknown }[]): Promise<BundleState> {
  const s = state(dir);
  for (const c of checks) await c.run(s);
  return s;
}

describe("sums", () => {
  it("passes a bundle's SHA256SUMS and hands on its lines", async () => {
    const s = state(good);
    expect(await sumsCheck.run(s)).toBeUndefined();
    expect(seen(s)).toEqual([`pass sums ${SUMS_FILE}`]);
    expect(s.listed.map((l) => l.name)).toEqual(["cleanup.json", "junit.xml", "report.json", "report.md"]);
  });

  it("stops the list when SHA256SUMS cannot be read", async () => {
    const s = state(await tmp());
    expect(await sumsCheck.run(s)).toBe("stop");
    expect(s.results).toEqual([expect.objectContaining({ check: "sums", status: "fail", file: SUMS_FILE })]);
  });

  it("names each bad line: malformed, escaping, listing itself, twice; and a bundle file left out", () => {
    const h = "a".repeat(64);
    const bad: string[] = [];
    const lines = parseSums(
      `nonsense\n${h}  ../etc/passwd\n${h}  ${SUMS_FILE}\n${h}  report.json\n${h}  report.json\n`,
      (detail) => bad.push(detail),
    );
    expect(lines.map((l) => l.name)).toEqual(["report.json"]);
    expect(bad).toEqual([
      'line 1 is not "<64 hex digits>  <file>": "nonsense"',
      'line 2 names "../etc/passwd": has an empty, "." or ".." segment',
      `line 3 names "${SUMS_FILE}": ${SUMS_FILE} cannot list itself`,
      "line 5 lists report.json again (first on line 4)",
    ]);
  });
});

describe("files", () => {
  it("passes exactly the listed files and hands on what is present", async () => {
    const s = await through(good, [sumsCheck, filesCheck]);
    expect(seen(s)).toEqual([`pass sums ${SUMS_FILE}`, "pass files"]);
    expect([...s.present].sort()).toEqual([
      SUMS_FILE,
      "cleanup.json",
      "junit.xml",
      "report.json",
      "report.md",
    ]);
  });

  it("fails an unlisted file, a symlink and a listed file that is missing", async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, "extra.txt"), "x");
    await symlink("/etc/passwd", path.join(dir, "link"));
    const s = state(dir, { listed: [{ digest: "a".repeat(64), name: "report.json", line: 1 }] });
    await filesCheck.run(s);
    expect(seen(s)).toEqual(["fail files extra.txt", "fail files link", "fail files report.json"]);
  });
});

describe("hash", () => {
  it("keeps the bytes of files that match and fails the one that does not, by name", async () => {
    const s = await through(good, [sumsCheck, filesCheck]);
    s.listed = s.listed.map((l) => (l.name === "cleanup.json" ? { ...l, digest: sha256("other") } : l));
    await hashCheck.run(s);
    expect(seen(s).slice(2)).toEqual([
      "fail hash cleanup.json",
      "pass hash junit.xml",
      "pass hash report.json",
      "pass hash report.md",
    ]);
    expect([...s.verified.keys()]).toEqual(["junit.xml", "report.json", "report.md"]);
  });
});

describe("schema", () => {
  const schema = schemaCheck(parseReport);
  it("parses report.json only once its hash matched, and stops without it", async () => {
    const s = state(good);
    expect(await schema.run(s)).toBe("stop");
    expect(seen(s)).toEqual(["skip schema report.json"]);
  });

  it("fails and stops on a report.json the schema rejects", async () => {
    const s = state(good, { verified: new Map([["report.json", Buffer.from('{"schemaVersion": 1}')]]) });
    expect(await schema.run(s)).toBe("stop");
    expect(seen(s)).toEqual(["fail schema report.json"]);
  });

  it("hands on the validated report", async () => {
    const s = await through(good, [sumsCheck, filesCheck, hashCheck, schema]);
    expect(s.report?.verdict).toBe("pass");
    expect(seen(s).at(-1)).toBe("pass schema report.json");
  });
});

describe("cleanup", () => {
  it("fails a cleanup.json that is not the report's cleanup evidence", async () => {
    const s = await through(good, [sumsCheck, filesCheck, hashCheck, schemaCheck(parseReport)]);
    await cleanupCheck.run(s);
    expect(seen(s).at(-1)).toBe("pass cleanup cleanup.json");
    s.verified.set("cleanup.json", Buffer.from("null\n"));
    await cleanupCheck.run(s);
    expect(seen(s).at(-1)).toBe("fail cleanup cleanup.json");
  });
});

const withInventory = (over: Partial<NonNullable<Report["inventory"]>> = {}): Report =>
  makeReport({
    inventory: {
      path: "acceptance/inventory.json",
      sha256: "b".repeat(64),
      complete: true,
      requireComplete: true,
      drift: [],
      ...over,
    },
  });

describe("inventory and completeness as recorded", () => {
  it("skips and stops when the run used no inventory", () => {
    const s = state(good, { report: makeReport() });
    expect(recordedInventoryCheck.run(s)).toBe("stop");
    expect(seen(s)).toEqual(["skip inventory report.json"]);
  });

  it("says the recorded digest was not compared, then judges completeness as recorded", () => {
    const s = state(good, { report: withInventory() });
    recordedInventoryCheck.run(s);
    completenessCheck.run(s);
    expect(seen(s)).toEqual(["skip inventory report.json", "pass completeness report.json"]);
    expect(s.results[0]!.detail).toContain("b".repeat(64));
  });

  it("fails incompleteness when completeness is required, warns when it is not", () => {
    const drift = [
      { subject: "web", suite: "containment", missing: ["containment.user"], unexpected: [], skipped: [] },
    ];
    const strict = state(good, { report: withInventory({ complete: false, drift }) });
    completenessCheck.run(strict);
    expect(strict.results[0]).toMatchObject({
      status: "fail",
      detail: "incomplete: web / containment: missing containment.user",
    });
    const lenient = state(good, {
      report: withInventory({ complete: false, requireComplete: false, drift }),
    });
    completenessCheck.run(lenient);
    expect(lenient.results[0]!.status).toBe("warn");
  });
});

describe("inventory against a file (verify --inventory)", () => {
  it("fails a digest that is not the file's, naming both", async () => {
    const file = path.join(await tmp(), "inventory.json");
    await writeFile(
      file,
      await readFile(path.resolve(import.meta.dirname, "../../acceptance/inventory.json")),
    );
    const s = state(good, { report: withInventory() });
    await inventoryCheck(file).run(s);
    expect(s.results[0]).toMatchObject({ check: "inventory", status: "fail" });
    expect(s.results[0]!.detail).toMatch(
      /recorded sha256 b{64} differs from .*inventory\.json \([0-9a-f]{64}\)/,
    );
  });

  it("fails and stops when the report recorded no inventory to compare with", async () => {
    const s = state(good, { report: makeReport() });
    expect(await inventoryCheck("acceptance/inventory.json").run(s)).toBe("stop");
    expect(seen(s)).toEqual(["fail inventory report.json"]);
  });
});
