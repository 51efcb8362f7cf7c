// Every input the pull request controls is bounded: the inventory's size and nesting, the sizes
// and counts it asks for, its patterns (linear-time matching, what RE2 cannot run refused at load),
// and every path it names, checked at load with the file, line, field and fix, before any engine
// call. A mistyped key gets a "did you mean" as a mistyped case ID does, inside unions too.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileLinePattern, PATTERN_MAX_CHARS } from "../../src/checks/pattern.js";
import { ConfigError, exitCodeOf } from "../../src/errors.js";
import { INVENTORY_MAX_BYTES, loadInventory } from "../../src/inventory/load.js";
import { BOUNDS } from "../../src/inventory/rules.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { JSON_MAX_DEPTH } from "../../src/jsonpos.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { memoryEngine } from "../helpers/memory.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests patch in deliberately invalid shapes
type Loose = Record<string, any>;

function inventoryText(patch: (s: Loose, inv: Loose) => void = () => {}): string {
  const subject: Loose = { name: "web", image: "web:1" };
  const inv: Loose = { schemaVersion: 1, subjects: [subject] };
  patch(subject, inv);
  return JSON.stringify(inv, null, 2);
}

function problems(text: string, file = "inventory.json"): ConfigError {
  try {
    parseInventory(file, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

const shown = (e: ConfigError) => e.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`);

describe("the inventory file's size and nesting", () => {
  it("a 5,000-deep document is a configuration error naming the line, not a stack overflow", () => {
    const deep = `{"schemaVersion": 1,\n"subjects": ${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const err = problems(deep);
    expect(exitCodeOf(err)).toBe(2);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatchObject({ line: 2 });
    expect(err.message).toContain(`nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects`);
    expect(err.message).toContain("(fix: remove the extra nesting");
  });

  it("objects nest the same way: depth counts both", () => {
    const deep = `${'{"a":'.repeat(JSON_MAX_DEPTH + 1)}1${"}".repeat(JSON_MAX_DEPTH + 1)}`;
    expect(problems(deep).message).toContain("nested deeper than");
    // At the bound itself the reader still answers (here: with the schema's own complaints).
    const atBound = `${"[".repeat(JSON_MAX_DEPTH)}${"]".repeat(JSON_MAX_DEPTH)}`;
    expect(problems(atBound).message).not.toContain("nested deeper");
  });

  it("a file over the size bound is refused before it is parsed", () => {
    const padded = inventoryText((s) => {
      s.env = { PAD: "x".repeat(BOUNDS.valueChars) };
    });
    const huge = `${padded}${" ".repeat(INVENTORY_MAX_BYTES)}`;
    const err = problems(huge);
    expect(err.problems).toEqual([
      expect.objectContaining({
        path: "",
        message: `is ${Buffer.byteLength(huge)} bytes; at most ${INVENTORY_MAX_BYTES} (1 MiB) are read`,
      }),
    ]);
  });
});

describe("sizes and counts a pull request asks for", () => {
  it("limits past their bounds name the field and the bound", () => {
    const err = problems(
      inventoryText((s) => {
        s.limits = { memory: "64g", pids: 1_000_000, cpus: 1024 };
        s.startupTimeoutMs = 3_600_000;
        s.stopTimeoutMs = 600_000;
      }),
    );
    expect(shown(err)).toEqual([
      `subjects[0].limits.memory: asks for more than 8 GiB, the most a subject may have (fix: lower it (a service under test rarely needs more than "1g"))`,
      `subjects[0].limits.pids: expected a number at most ${BOUNDS.pids}, got 1000000 (fix: correct the value)`,
      `subjects[0].limits.cpus: expected a number at most ${BOUNDS.cpus}, got 1024 (fix: correct the value)`,
      `subjects[0].startupTimeoutMs: expected a number at most ${BOUNDS.startupTimeoutMs}, got 3600000 (fix: correct the value)`,
      `subjects[0].stopTimeoutMs: expected a number at most ${BOUNDS.stopTimeoutMs}, got 600000 (fix: correct the value)`,
    ]);
  });

  it("the bounds themselves are accepted", () => {
    const ok = inventoryText((s) => {
      s.limits = { memory: BOUNDS.memoryBytes, pids: BOUNDS.pids, cpus: BOUNDS.cpus };
      s.startupTimeoutMs = BOUNDS.startupTimeoutMs;
    });
    expect(parseInventory("inventory.json", ok).inventory.subjects[0]!.limits.pids).toBe(BOUNDS.pids);
    expect(() =>
      parseInventory(
        "i.json",
        inventoryText((s) => (s.limits = { memory: "8g" })),
      ),
    ).not.toThrow();
    expect(() =>
      parseInventory(
        "i.json",
        inventoryText((s) => (s.limits = { memory: "8.5g" })),
      ),
    ).toThrow(/more than 8 GiB/);
  });

  it("counts of subjects, probes, list items and map entries, and string lengths", () => {
    const err = problems(
      inventoryText((s, inv) => {
        s.probes = Array.from({ length: BOUNDS.probes + 1 }, () => ({ type: "tcp" }));
        s.writableRoots = Array.from({ length: BOUNDS.listItems + 1 }, (_, i) => `/w${i}`);
        s.env = Object.fromEntries(Array.from({ length: BOUNDS.mapEntries + 1 }, (_, i) => [`V${i}`, "x"]));
        s.command = ["sh", "x".repeat(BOUNDS.valueChars + 1)];
        s.image = "i".repeat(BOUNDS.textChars + 1);
      }),
    );
    expect(err.problems.map((p) => p.path)).toEqual([
      "subjects[0].image",
      "subjects[0].probes",
      "subjects[0].writableRoots",
      "subjects[0].env",
      "subjects[0].command[1]",
    ]);
    const many = problems(
      inventoryText((_s, inv) => {
        inv.subjects.push(
          ...Array.from({ length: BOUNDS.subjects }, (_, i) => ({ name: `s${i}`, image: "x" })),
        );
      }),
    );
    expect(shown(many)).toEqual([
      `subjects: expected at most ${BOUNDS.subjects} item(s), got ${BOUNDS.subjects + 1} item(s) (fix: correct the value)`,
    ]);
    expect(err.problems.find((p) => p.path === "subjects[0].env")?.message).toBe(
      `more than ${BOUNDS.mapEntries} entries`,
    );
  });
});

describe("patterns run in linear time", () => {
  it("the issue's pattern against a 50-character line answers, as does a far longer line", async () => {
    const re = await compileLinePattern("^(a|aa)+$");
    expect(re.test(`${"a".repeat(49)}b`)).toBe(false);
    expect(re.test("a".repeat(50))).toBe(true);
    // Nested quantifiers: the classic catastrophic case for a backtracking engine.
    expect((await compileLinePattern("(x+x+)+y")).test("x".repeat(100_000))).toBe(false);
    expect((await compileLinePattern("listening on (\\d+)")).test("http: listening on 8080")).toBe(true);
  });

  it("what a linear-time matcher cannot run is refused at load with the line and the fix", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "da-bounds-"));
    const file = path.join(dir, "inventory.json");
    const text = inventoryText((s) => {
      s.readiness = { type: "log", pattern: "(?=ready)ready" };
      s.probes = [
        { type: "log", pattern: "(a)\\1" },
        { type: "log", pattern: "fine" },
      ];
    });
    writeFileSync(file, text);
    const err = (await loadInventory(file, { workspace: dir }).catch((e: unknown) => e)) as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.problems.map((p) => [p.path, p.line])).toEqual([
      ["subjects[0].readiness.pattern", text.split("\n").findIndex((l) => l.includes("(?=ready)")) + 1],
      ["subjects[0].probes[0].pattern", text.split("\n").findIndex((l) => l.includes("\\\\1")) + 1],
    ]);
    for (const p of err.problems) {
      expect(p.message).toMatch(/uses a lookaround or a backreference/);
      expect(p.fix).toBe("match the line without it (a log pattern is tested against each line on its own)");
    }
  });

  it("a pattern over the length bound is refused by the schema", () => {
    const err = problems(
      inventoryText((s) => (s.readiness = { type: "log", pattern: "a".repeat(PATTERN_MAX_CHARS + 1) })),
    );
    expect(shown(err)).toEqual([
      `subjects[0].readiness.pattern: is ${PATTERN_MAX_CHARS + 1} characters long; at most ${PATTERN_MAX_CHARS} are accepted (fix: shorten the pattern)`,
    ]);
  });
});

describe("every path is checked at load, before any engine call", () => {
  function workspace(): string {
    const ws = mkdtempSync(path.join(tmpdir(), "da-paths-"));
    mkdirSync(path.join(ws, "app"));
    writeFileSync(path.join(ws, "app", "Dockerfile"), "FROM scratch\n");
    writeFileSync(path.join(ws, "app", "notes.txt"), "x\n");
    mkdirSync(path.join(ws, "app", ".dockerignore"));
    return ws;
  }

  async function runAt(ws: string, text: string) {
    const file = path.join(ws, "inventory.json");
    writeFileSync(file, text);
    const engine = memoryEngine();
    const err = await runPipeline({
      workspace: ws,
      inventoryPath: "inventory.json",
      log: silentLogger,
      signal: new AbortController().signal,
      engine,
    }).catch((e: unknown) => e);
    return { err: err as ConfigError, calls: engine.calls, text };
  }

  it("a missing context, a missing Dockerfile, a file as context, a directory as .dockerignore, a missing pin", async () => {
    const ws = workspace();
    const { err, calls, text } = await runAt(
      ws,
      JSON.stringify(
        {
          schemaVersion: 1,
          subjects: [
            { name: "gone", build: { context: "nope" } },
            { name: "typo", build: { context: "app", dockerfile: "Dockerfil" } },
            { name: "file", build: { context: "app/notes.txt" } },
            { name: "ignore", build: { context: "app" } },
          ],
          artifacts: [{ path: "app/Dockerfle", sha256: "a".repeat(64) }],
        },
        null,
        2,
      ),
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect(exitCodeOf(err)).toBe(2);
    expect(calls).toEqual([]); // the engine never heard of it
    const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    expect(err.problems.map((p) => [p.line, `${p.path}: ${p.message} (fix: ${p.fix})`])).toEqual([
      [
        lineOf('"nope"'),
        'subjects[0].build.context: the build context "nope" does not exist in the workspace (fix: create it, or correct the path (relative to the repository root))',
      ],
      [
        lineOf('"Dockerfil"') - 1,
        'subjects[1].build.context: the .dockerignore "app/.dockerignore" is a directory, not a file (fix: point it at the .dockerignore inside that directory)',
      ],
      [
        lineOf('"Dockerfil"'),
        'subjects[1].build.dockerfile: the Dockerfile "app/Dockerfil" does not exist in the workspace (fix: did you mean "app/Dockerfile"?)',
      ],
      [
        lineOf('"app/notes.txt"'),
        'subjects[2].build.context: the build context "app/notes.txt" is a file, not a directory (fix: point build.context at the directory that holds the Dockerfile)',
      ],
      [
        text.split("\n").length - [...text.split("\n")].reverse().findIndex((l) => l.includes('"app"')),
        'subjects[3].build.context: the .dockerignore "app/.dockerignore" is a directory, not a file (fix: point it at the .dockerignore inside that directory)',
      ],
      [
        lineOf('"app/Dockerfle"'),
        'artifacts[0].path: the pinned file "app/Dockerfle" does not exist in the workspace (fix: did you mean "app/Dockerfile"?)',
      ],
    ]);
  });
  it("a FIFO as Dockerfile, as .dockerignore or as a pinned file is refused, never opened (an open waits for a writer for ever)", async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "da-paths-fifo-"));
    for (const dir of ["a", "b"]) mkdirSync(path.join(ws, dir));
    writeFileSync(path.join(ws, "b", "Dockerfile"), "FROM scratch\n");
    for (const rel of ["a/Dockerfile", "b/.dockerignore", "pinned"])
      execFileSync("mkfifo", [path.join(ws, rel)]);
    const { err, calls } = await runAt(
      ws,
      JSON.stringify({
        schemaVersion: 1,
        subjects: [
          { name: "a", build: { context: "a" } },
          { name: "b", build: { context: "b" } },
        ],
        artifacts: [{ path: "pinned", sha256: "a".repeat(64) }],
      }),
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect(calls).toEqual([]);
    const special = "special file (a FIFO, socket or device)";
    expect(err.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`)).toEqual([
      `subjects[0].build.dockerfile: the Dockerfile "a/Dockerfile" is a ${special}, not a file (fix: replace it with a regular file, or point it at the Dockerfile)`,
      `subjects[1].build.context: the .dockerignore "b/.dockerignore" is a ${special}, not a file (fix: replace it with a regular file, or point it at the .dockerignore)`,
      `artifacts[0].path: the pinned file "pinned" is a ${special}, not a file (fix: replace it with a regular file, or point it at the pinned file)`,
    ]);
  });
});

describe("a mistyped key gets a did-you-mean, as a mistyped case ID does", () => {
  it("in a subject, in a readiness strategy and in a probe (unions select their option by type)", () => {
    const err = problems(
      inventoryText((s) => {
        s.prot = 8080;
        s.readiness = { type: "log", pattern: "x", patern: "y" };
        s.probes = [
          { type: "tcp", sned: "PING" },
          { path: "/", expectStauts: 200 },
        ];
      }),
    );
    expect(err.problems.map((p) => [p.path, p.fix])).toEqual([
      ["subjects[0].prot", 'did you mean "port"?'],
      ["subjects[0].readiness.patern", 'did you mean "pattern"?'],
      ["subjects[0].probes[0].sned", 'did you mean "send"?'],
      ["subjects[0].probes[1].expectStauts", 'did you mean "expectStatus"?'],
    ]);
    expect(err.problems[2]!.message).toBe('unknown key "sned"; expected one of type, name, send, expect');
  });
});

describe("a prebuilt image's reference", () => {
  const refs = (image: unknown) => inventoryText((s) => (s.image = image));

  it.each([
    "web:1",
    "busybox",
    "docker-acceptance/busybox:local",
    "ghcr.io/owner/app:v1.2.3",
    "localhost:5000/app",
    "[::1]:5000/a/b:c",
    `app@sha256:${"a".repeat(64)}`,
    `ghcr.io/o/app:1@sha256:${"b".repeat(64)}`,
    `sha256:${"c".repeat(64)}`,
    "a__b-c---d/e.f_g",
  ])("%s loads", (image) => {
    expect(parseInventory("inventory.json", refs(image)).inventory.subjects[0]!.image).toBe(image);
  });

  it.each([
    ["Web:1", 'has a path component "Web"'],
    ["web:-x", 'has a tag "-x"'],
    ["web:1 --privileged", 'has a tag "1 --privileged"'],
    ["-web", 'has a path component "-web"'],
    ["a//b", 'has a path component ""'],
    ["web@sha256:xyz", 'has a digest "sha256:xyz"'],
    ["bad_host.io:x/app", 'names a registry "bad_host.io:x"'],
    [":1", "has no repository name"],
    [`${"a".repeat(300)}:1`, "has a repository name over 255 characters"],
    ["a".repeat(10_000), "is 10000 characters; a reference has at most"],
  ])("%# is an error naming the field and the fix", (image, says) => {
    const err = problems(refs(image));
    expect(exitCodeOf(err)).toBe(2);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatchObject({ line: 6 });
    expect(shown(err)[0]).toContain(`subjects[0].image: the image reference ${says}`);
    expect(shown(err)[0]).toContain('(fix: write it as the engine names the image: "name:tag"');
  });

  it("a long, ambiguous reference is judged at once", () => {
    const started = performance.now();
    const err = problems(refs(`${"a-".repeat(120)}!:${"a.".repeat(60)}`));
    expect(shown(err)[0]).toContain("subjects[0].image: the image reference");
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
