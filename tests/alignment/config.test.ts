import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_PROTECTED, loadAlignmentConfig, parseAlignmentConfig } from "../../src/alignment/config.js";
import { ConfigError } from "../../src/errors.js";

function problems(text: string): string {
  try {
    parseAlignmentConfig("acceptance/alignment.yml", text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("parseAlignmentConfig", () => {
  test("an empty file means every default", () => {
    const c = parseAlignmentConfig("a.yml", "");
    expect(c.rfcs).toEqual({ dir: "rfcs/", open: ["Draft", "In Review"], map: {}, level: "discussion" });
    expect(c.protected).toEqual(DEFAULT_PROTECTED);
    expect(c.debug).toEqual({ enabled: true, ignore: [], marker: "alignment: allow", level: "blocking" });
    expect(c.principles).toEqual([]);
    expect(c.cochange).toEqual([]);
    expect(c.allow).toEqual([]);
  });

  test("debug: false turns the built-in checks off", () => {
    expect(parseAlignmentConfig("a.yml", "debug: false\n").debug.enabled).toBe(false);
  });

  test("errors name the file, the field and the fix", () => {
    expect(
      problems("principles:\n  - id: x\n    title: X\n    forbid: ['print(']\n    message: m\n    tier: 3\n"),
    ).toBe(
      'acceptance/alignment.yml: principles[0].forbid[0]: not a valid regular expression (Invalid regular expression: /print(/: Unterminated group); write a JavaScript regex source such as "print\\\\(" or "/todo/i" (fix: escape regex metacharacters, for example "print\\\\(" in YAML double quotes)\n' +
        "acceptance/alignment.yml: principles[0].tier: 1 (fix required) or 2 (alignment discussion) (fix: write level: blocking, discussion or advisory (tier: 1 or 2 still works))",
    );
    expect(problems("rfc:\n  dir: docs/rfcs\n")).toMatch(
      /^acceptance\/alignment\.yml: Unrecognized key: "rfc" \(fix: remove the key or check its spelling/,
    );
    expect(problems("rfcs:\n  map:\n    three: [src/**]\n")).toBe(
      'acceptance/alignment.yml: rfcs.map.three: not an RFC number (fix: key rfcs.map by RFC number, such as "0003": [src/shard/**])',
    );
    expect(
      problems(
        "principles: [{ id: a, title: A, forbid: [x], message: m, tier: 1 }, { id: a, title: B, forbid: [y], message: m, tier: 2 }]",
      ),
    ).toBe('acceptance/alignment.yml: principles[1].id: duplicate id "a"');
    expect(problems("rfcs: [oops\n")).toMatch(
      /^acceptance\/alignment\.yml: not valid YAML: .*\(fix: fix the YAML syntax/,
    );
    expect(
      problems("principles:\n  - id: g\n    title: G\n    forbid: ['/x/g']\n    message: m\n    tier: 1\n"),
    ).toMatch(/flags g and y are not allowed/);
  });
});

describe("loadAlignmentConfig", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "da-align-config-"));
    await writeFile(join(dir, "alignment.yml"), "protected: [action.yml]\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("an absent file is 'not configured' unless it was named explicitly", async () => {
    expect(await loadAlignmentConfig(join(dir, "missing.yml"))).toEqual({
      configured: false,
      path: join(dir, "missing.yml"),
    });
    await expect(loadAlignmentConfig(join(dir, "missing.yml"), true)).rejects.toThrow(
      /missing\.yml: cannot read the alignment config \(ENOENT\) \(fix: create it/,
    );
    const loaded = await loadAlignmentConfig(join(dir, "alignment.yml"));
    expect(loaded.configured && loaded.config.protected).toEqual(["action.yml"]);
  });
});
