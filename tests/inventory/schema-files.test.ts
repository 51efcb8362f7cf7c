// The committed JSON Schemas are what `docker-acceptance schema` prints (CI catches drift), and
// an editor validating with them accepts this repository's inventory and flags mistakes.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Ajv } from "ajv";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCommandLine } from "../../src/cli/main.js";
import { schemaText } from "../../src/commands/schema.js";
import { UsageError } from "../../src/errors.js";
import { makeReport } from "../helpers/report.js";

const repo = path.resolve(import.meta.dirname, "../..");
const committed = (name: string) => readFile(path.join(repo, "acceptance", name), "utf8");
const REGENERATE = "regenerate with `docker-acceptance schema [--report] > acceptance/<name>.schema.json`";

async function printed(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await runCommandLine("schema", argv), out };
  } finally {
    spy.mockRestore();
  }
}

describe("committed schemas", () => {
  afterEach(() => vi.restoreAllMocks());

  it("acceptance/inventory.schema.json equals `schema` output", async () => {
    const { code, out } = await printed([]);
    expect(code).toBe(0);
    expect(out, REGENERATE).toBe(await committed("inventory.schema.json"));
  });

  it("acceptance/report.schema.json equals `schema --report` output", async () => {
    const { out } = await printed(["--report"]);
    expect(out, REGENERATE).toBe(await committed("report.schema.json"));
    expect(out).toBe(schemaText("report"));
  });

  it("rejects unknown flags as a usage error", async () => {
    await expect(runCommandLine("schema", ["--repotr"])).rejects.toBeInstanceOf(UsageError);
  });
});

describe("validating with the committed schemas (what an editor does)", () => {
  const ajv = new Ajv({ allErrors: true, strict: false });

  it("accepts this repository's inventory and flags an unknown key, a bad case ID and a bad digest", async () => {
    const validate = ajv.compile(JSON.parse(await committed("inventory.schema.json")));
    const inv = JSON.parse(await committed("inventory.json"));
    expect(validate(inv), JSON.stringify(validate.errors)).toBe(true);

    inv.subjects[0].prot = 1;
    inv.suites.lifecycle.required.push("lifecycle.boot");
    inv.artifacts[0].sha256 = "ABC";
    inv.severity = { "lifecycle.nope": "warn" };
    expect(validate(inv)).toBe(false);
    const where = validate.errors!.map((e) => `${e.instancePath} ${e.keyword}`);
    expect(where).toEqual(
      expect.arrayContaining([
        "/subjects/0 additionalProperties",
        "/suites/lifecycle/required/7 enum",
        "/artifacts/0/sha256 pattern",
        "/severity propertyNames",
      ]),
    );
  });

  it("accepts a report the pipeline writes", async () => {
    const validate = ajv.compile(JSON.parse(await committed("report.schema.json")));
    expect(validate(JSON.parse(JSON.stringify(makeReport()))), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...makeReport(), verdict: "maybe" })).toBe(false);
  });
});
