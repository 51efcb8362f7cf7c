// Bad inventory input: every class of mistake gets the file, line, JSON path, what was expected
// and the fix, all at once, exit code 2, before anything touches the engine.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES, LIFECYCLE_CASES } from "../../src/cases/index.js";
import { ConfigError } from "../../src/errors.js";
import { INVENTORY_MAX_BYTES, loadInventory } from "../../src/inventory/load.js";
import { parseInventory } from "../../src/inventory/validate.js";

const repo = path.resolve(import.meta.dirname, "../..");
const FILE = "acceptance/inventory.json";

// biome-ignore lint/suspicious/noExplicitAny: the tests patch in deliberately invalid shapes
type Loose = Record<string, any>;

/** A valid inventory; `patch` edits the object before it is written with two-space indentation. */
function text(patch: (inv: Loose) => void = () => {}): string {
  const inv: Loose = {
    schemaVersion: 1,
    subjects: [{ name: "web", build: { context: "app" }, port: 8080 }],
    suites: { lifecycle: { required: [...LIFECYCLE_CASES] } },
    artifacts: [{ path: "app/Dockerfile", sha256: "a".repeat(64) }],
    severity: {},
  };
  patch(inv);
  return JSON.stringify(inv, null, 2);
}

/** 1-based line of the first occurrence of `needle` (after `from`, when given). */
function lineOf(t: string, needle: string, from?: string): number {
  const start = from ? t.indexOf(from) : 0;
  const at = t.indexOf(needle, start);
  if (at < 0) throw new Error(`not found: ${needle}`);
  return t.slice(0, at).split("\n").length;
}

function problemsOf(t: string, workspace?: string): ConfigError {
  try {
    parseInventory(FILE, t, workspace ? { workspace } : {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("loadInventory", () => {
  it("loads this repository's own inventory and records the sha256 of its bytes", async () => {
    const loaded = await loadInventory(path.join(repo, FILE), { workspace: repo });
    expect(loaded.inventory.subjects.map((s) => s.name)).toEqual(["hardened"]);
    expect(loaded.inventory.suites.lifecycle?.required).toHaveLength(LIFECYCLE_CASES.length);
    expect(loaded.inventory.suites.containment?.required).toHaveLength(CONTAINMENT_CASES.length);
    expect(loaded.inventory.artifacts.map((a) => a.path)).toEqual([
      "acceptance/fixtures/hardened/Dockerfile",
      "acceptance/fixtures/hardened/www/health",
      "acceptance/fixtures/hardened/www/index.html",
    ]);
    const { createHash } = await import("node:crypto");
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(path.join(repo, FILE));
    expect(loaded.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("keeps the one-argument form and names a missing file with the fix", async () => {
    await expect(loadInventory("nope/inventory.json")).rejects.toThrow(
      "nope/inventory.json: cannot read the inventory (ENOENT) (fix: `docker-acceptance init` writes one from the repository's Dockerfiles, or pass --inventory PATH)",
    );
  });

  it("fills safe defaults for everything a subject leaves out", () => {
    const { inventory } = parseInventory(FILE, text());
    const s = inventory.subjects[0]!;
    expect(s.user).toBeUndefined(); // the image's own USER applies
    expect(s.readiness).toBeUndefined(); // GET /health, see readinessOf
    expect(s).toMatchObject({
      init: false,
      relax: [],
      writableRoots: ["/tmp", "/dev/shm"],
      network: "bridge",
      limits: { memory: "256m", pids: 128, cpus: 1 },
      capabilities: [],
      startupTimeoutMs: 30_000,
      stopTimeoutMs: 10_000,
      build: { context: "app", dockerfile: "Dockerfile", args: {} },
    });
  });
});

describe("bad input: each class has its exact message", () => {
  it("unknown keys, with the known keys and a rename when it is a typo", () => {
    const t = text((inv) => {
      inv.subjects[0].prot = 8080;
      inv.colour = "blue";
    });
    const err = problemsOf(t);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(
      [
        `acceptance/inventory.json:${lineOf(t, '"prot"')}: subjects[0].prot: unknown key "prot"; expected one of name, description, build, image, imageId, port, healthPath, readiness, probes, user, init, relax, writableRoots, network, limits, capabilities, allowedHostPaths, env, command, startupTimeoutMs, stopTimeoutMs, weight (fix: did you mean "port"?)`,
        `acceptance/inventory.json:${lineOf(t, '"colour"')}: colour: unknown key "colour"; expected one of $schema, description, schemaVersion, subjects, suites, artifacts, severity, probeImage (fix: remove it; no other keys are accepted here)`,
      ].join("\n"),
    );
  });

  it("wrong types, saying what was expected and what was found", () => {
    const err = problemsOf(
      text((inv) => {
        inv.subjects[0].port = "8080";
        inv.subjects[0].probes = { path: "/" };
      }),
    );
    expect(err.problems).toEqual([
      {
        path: "subjects[0].port",
        line: 9,
        message: 'expected a number, got a string ("8080")',
        fix: "write 8080 without quotes",
      },
      {
        path: "subjects[0].probes",
        line: 10,
        message: 'expected an array, got an object ({"path":"/"})',
        fix: "use an array",
      },
    ]);
  });

  it("a missing required key and a wrong literal", () => {
    const err = problemsOf(
      text((inv) => {
        inv.schemaVersion = 2;
        delete inv.subjects;
      }),
    );
    expect(err.message).toBe(
      [
        'acceptance/inventory.json:1: subjects: missing required key "subjects"; expected an array (fix: add "subjects")',
        "acceptance/inventory.json:2: schemaVersion: expected 1, got 2 (fix: set it to 1)",
      ].join("\n"),
    );
  });

  it("duplicate subject names", () => {
    const t = text((inv) => inv.subjects.push({ name: "web", image: "busybox" }));
    expect(problemsOf(t).message).toBe(
      `acceptance/inventory.json:${t.slice(0, t.lastIndexOf('"name": "web"')).split("\n").length}: subjects[1].name: duplicate subject name "web" (also subjects[0].name) (fix: give each subject a unique name)`,
    );
  });

  it("unknown case IDs: in a required list, from the other suite, in an override, in severity", () => {
    const err = problemsOf(
      text((inv) => {
        inv.suites.lifecycle.required[0] = "lifecycle.biuld";
        inv.suites.lifecycle.required.push("containment.user");
        inv.suites.lifecycle.subjects = { web: ["lifecycle.boot"] };
        inv.severity = { "containment.seccmop": "warn" };
      }),
    );
    expect(err.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`)).toEqual([
      'suites.lifecycle.required[0]: unknown lifecycle case ID "lifecycle.biuld"; expected one of lifecycle.build, lifecycle.create, lifecycle.ready, lifecycle.probes, lifecycle.limits, lifecycle.stop, lifecycle.cleanup (fix: did you mean "lifecycle.build"?)',
      'suites.lifecycle.required[7]: "containment.user" is a containment case, not a lifecycle case (fix: move it to suites.containment)',
      'suites.lifecycle.subjects.web[0]: unknown lifecycle case ID "lifecycle.boot"; expected one of lifecycle.build, lifecycle.create, lifecycle.ready, lifecycle.probes, lifecycle.limits, lifecycle.stop, lifecycle.cleanup (fix: use one of the listed IDs)',
      'severity["containment.seccmop"]: unknown case ID "containment.seccmop"; expected a lifecycle.* or containment.* case ID (fix: did you mean "containment.seccomp"?)',
    ]);
  });

  it("a case ID listed twice", () => {
    const t = text((inv) => inv.suites.lifecycle.required.push("lifecycle.build"));
    expect(problemsOf(t).problems).toEqual([
      {
        path: "suites.lifecycle.required[7]",
        line: lineOf(t, '"lifecycle.build"', '"lifecycle.cleanup"'),
        message: '"lifecycle.build" is listed twice',
        fix: "list each case ID once",
      },
    ]);
  });

  it("a per-subject override naming an undeclared subject", () => {
    const t = text((inv) => (inv.suites.lifecycle.subjects = { wbe: ["lifecycle.build"] }));
    expect(problemsOf(t).message).toBe(
      `acceptance/inventory.json:${lineOf(t, '"wbe"')}: suites.lifecycle.subjects.wbe: names subject "wbe", which is not declared in subjects (fix: did you mean "web"?)`,
    );
  });

  it("paths escaping the workspace: '..', absolute, a Dockerfile outside the context", () => {
    const err = problemsOf(
      text((inv) => {
        inv.subjects[0].build = { context: "app/../../elsewhere", dockerfile: "Dockerfile" };
        inv.subjects.push({ name: "api", build: { context: "api", dockerfile: "../../Dockerfile" } });
        inv.artifacts = [
          { path: "/etc/passwd", sha256: "a".repeat(64) },
          { path: "..\\secrets.txt", sha256: "b".repeat(64) },
        ];
      }),
    );
    expect(err.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`)).toEqual([
      'subjects[0].build.context: "app/../../elsewhere" escapes the workspace; expected a path inside it (fix: remove the ".." segments so the path stays inside the repository)',
      'subjects[1].build.dockerfile: "../../Dockerfile" leaves the workspace; expected a Dockerfile path inside the build context (fix: move the Dockerfile into the build context and name it relative to the context)',
      'artifacts[0].path: "/etc/passwd" is an absolute path; expected a path relative to the workspace (fix: write it relative to the repository root, without a leading "/")',
      'artifacts[1].path: "..\\\\secrets.txt" escapes the workspace; expected a path inside it (fix: remove the ".." segments so the path stays inside the repository)',
    ]);
  });

  describe("paths escaping the workspace through a symbolic link", () => {
    let ws: string;
    beforeAll(async () => {
      ws = await mkdtemp(path.join(tmpdir(), "da-ws-"));
      await symlink("/etc", path.join(ws, "app"));
    });
    afterAll(() => rm(ws, { recursive: true, force: true }));

    it("are refused when the workspace is known", () => {
      const err = problemsOf(text(), ws);
      expect(err.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
        'subjects[0].build.context: "app" resolves outside the workspace (through a symbolic link, to /etc)',
        'artifacts[0].path: "app/Dockerfile" resolves outside the workspace (through a symbolic link, to /etc/Dockerfile)',
      ]);
      expect(err.problems[0]!.fix).toBe("point it at a real file or directory inside the repository");
    });

    it("the inventory file itself, linked out (to a JSON file of the runner, through a linked directory, to /dev/zero), is never read", async () => {
      const outside = await mkdtemp(path.join(tmpdir(), "da-outside-"));
      const runnerFile = path.join(outside, "config.json");
      await writeFile(runnerFile, JSON.stringify({ schemaVersion: "ghp_runner_secret_value", subjects: [] }));
      await symlink(runnerFile, path.join(ws, "inventory.json"));
      await symlink(outside, path.join(ws, "acceptance"));
      await symlink("/dev/zero", path.join(ws, "zero.json"));
      const load = (rel: string) =>
        loadInventory(path.join(ws, rel), { workspace: ws }).catch((e: unknown) => e);
      for (const [rel, real] of [
        ["inventory.json", runnerFile],
        ["acceptance/config.json", runnerFile],
        ["zero.json", "/dev/zero"],
      ]) {
        const err = (await load(rel!)) as ConfigError;
        expect(err).toBeInstanceOf(ConfigError);
        expect(err.message).toBe(
          `${path.join(ws, rel!)}: resolves outside the workspace (through a symbolic link, to ${real}) (fix: commit the inventory itself, not a link to a file outside the repository)`,
        );
        expect(err.message).not.toContain("ghp_runner_secret_value");
      }
      // Given outside the workspace (a CLI user's own file), it is read as before.
      await writeFile(
        path.join(outside, "own.json"),
        JSON.stringify({ schemaVersion: 1, subjects: [{ name: "app", image: "x" }] }),
      );
      await expect(loadInventory(path.join(outside, "own.json"), { workspace: ws })).resolves.toBeDefined();
      await rm(outside, { recursive: true, force: true });
    });

    it("a FIFO or a file past the bound is refused before it is read", async () => {
      execFileSync("mkfifo", [path.join(ws, "fifo.json")]);
      await writeFile(path.join(ws, "big.json"), " ".repeat(INVENTORY_MAX_BYTES + 1));
      await expect(loadInventory(path.join(ws, "fifo.json"), { workspace: ws })).rejects.toThrow(
        `${path.join(ws, "fifo.json")}: is not a regular file (fix: make the inventory a plain JSON file)`,
      );
      await expect(loadInventory(path.join(ws, "big.json"), { workspace: ws })).rejects.toThrow(
        `is ${INVENTORY_MAX_BYTES + 1} bytes; at most ${INVENTORY_MAX_BYTES} (1 MiB) are read`,
      );
    }, 5_000);
  });

  it("malformed hashes: too short, uppercase, not hex", () => {
    const err = problemsOf(
      text((inv) => {
        inv.artifacts = [
          { path: "a", sha256: "abc" },
          { path: "b", sha256: "A".repeat(64) },
          { path: "c", sha256: "z".repeat(64) },
        ];
      }),
    );
    expect(err.problems.map((p) => `${p.path}: ${p.message} (fix: ${p.fix})`)).toEqual([
      'artifacts[0].sha256: expected 64 lowercase hex digits (a sha256 digest), got "abc" (3 characters) (fix: run `docker-acceptance pin` to write the digest of the file in the workspace)',
      'artifacts[1].sha256: expected 64 lowercase hex digits (a sha256 digest), got "AAAAAAAAAAAAAAAA…" (64 characters) (fix: write the digest in lowercase)',
      'artifacts[2].sha256: expected 64 lowercase hex digits (a sha256 digest), got "zzzzzzzzzzzzzzzz…" (64 characters) (fix: run `docker-acceptance pin` to write the digest of the file in the workspace)',
    ]);
  });

  it("the same file pinned twice", () => {
    const err = problemsOf(
      text((inv) => inv.artifacts.push({ path: "./app/Dockerfile", sha256: "b".repeat(64) })),
    );
    expect(err.problems.map((p) => p.message)).toEqual([
      '"./app/Dockerfile" is pinned twice (also artifacts[0].path)',
    ]);
  });

  it("invalid JSON, with line and column", () => {
    const err = problemsOf('{\n  "schemaVersion": 1,\n  "subjects": [,]\n}');
    expect(err.message).toBe(
      'acceptance/inventory.json:3: not valid JSON: expected a value, found "," at line 3, column 16 (fix: fix the JSON syntax)',
    );
  });

  it("a document that is not an object (null was a TypeError from the cross-field rules)", async () => {
    for (const [doc, got] of [
      ["null", "null (null)"],
      ["[]", "an array ([])"],
      ["1", "a number (1)"],
    ] as const) {
      const expected = `acceptance/inventory.json:1: expected an object, got ${got} (fix: use an object)`;
      expect(problemsOf(doc).message).toBe(expected);
      const file = path.join(await mkdtemp(path.join(tmpdir(), "da-doc-")), "inventory.json");
      await writeFile(file, doc);
      await expect(loadInventory(file)).rejects.toThrow(expected.replace(FILE, file));
      await rm(path.dirname(file), { recursive: true });
    }
  });

  it("a duplicate JSON key, which JSON.parse would silently drop", () => {
    const t = text().replace('"port": 8080', '"port": 8080,\n      "port": 9090');
    const err = problemsOf(t);
    expect(err.message).toBe(
      'acceptance/inventory.json:10: subjects[0].port: duplicate key "port" (also on line 9); JSON keeps only the last (fix: remove one of them)',
    );
  });

  it("reports every problem at once, in file order", () => {
    const t = text((inv) => {
      inv.subjects[0].port = 0;
      inv.subjects[0].network = "host";
      inv.artifacts[0].sha256 = "x";
    });
    const err = problemsOf(t);
    expect(err.problems.map((p) => [p.line, p.path])).toEqual([
      [lineOf(t, '"port"'), "subjects[0].port"],
      [lineOf(t, '"network"'), "subjects[0].network"],
      [lineOf(t, '"sha256"'), "artifacts[0].sha256"],
    ]);
    expect(err.problems[1]!.message).toBe('expected one of "bridge", "none", got "host"');
  });

  it("a subject with both build and image", () => {
    const t = text((inv) => (inv.subjects[0].image = "busybox"));
    expect(problemsOf(t).problems).toEqual([
      {
        path: "subjects[0]",
        line: lineOf(t, "{", '"subjects"'),
        message: "declares both `build` and `image`; expected exactly one",
        fix: "keep `build` (context + Dockerfile) or `image` (a prebuilt reference), not both",
      },
    ]);
  });

  it("writes nothing and needs no engine: a file on disk is only read", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "da-inv-"));
    try {
      const file = path.join(dir, "inventory.json");
      await writeFile(
        file,
        text((inv) => (inv.subjects[0].port = "x")),
      );
      await expect(loadInventory(file, { workspace: dir })).rejects.toMatchObject({
        exitCode: 2,
        file,
        problems: [{ path: "subjects[0].port", line: 9 }],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
