// A build secret whose variable is unset fails at load (issue #25), as a missing path does
// (bounds.test.ts): exit 2 with the file, line, field and fix, before any engine call, never a
// lifecycle.build ERROR once the engine is contacted. The variables checked are those the judged
// inventory grants (the base's in a pull request); where no maintainer declared them nothing is
// looked up, and a value is never shown.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, exitCodeOf } from "../../src/errors.js";
import type { JudgeAt } from "../../src/inventory/base.js";
import { judgeAtBase } from "../../src/inventory/base.js";
import { loadInventory } from "../../src/inventory/load.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import { gitIn } from "../helpers/git.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";

const UNSET = "DA_TEST_SECRET_UNSET";
const SET = "DA_TEST_SECRET_SET";
const FAKE = "FAKEsecret0123456789abcdefFAKE";

const READY = { type: "delay", ms: 10 };
const inventory = (secrets: Record<string, string>) => ({
  schemaVersion: 1,
  subjects: [
    { name: "prebuilt", image: MEMORY_BASE, readiness: READY, stopTimeoutMs: 100 },
    { name: "app", build: { context: "app", secrets }, readiness: READY, stopTimeoutMs: 100 },
  ],
});

/** A workspace whose inventory is `head`; with `base`, a git repository whose first commit holds it. */
function workspace(head: unknown, base?: unknown): { ws: string; text: string; commit?: string } {
  const ws = mkdtempSync(path.join(tmpdir(), "da-secrets-"));
  mkdirSync(path.join(ws, "app"));
  writeFileSync(path.join(ws, "app", "Dockerfile"), `FROM ${MEMORY_BASE}\n`);
  const file = path.join(ws, "inventory.json");
  let commit: string | undefined;
  if (base) {
    const git = gitIn(ws);
    git("init", "-q", "-b", "main");
    writeFileSync(file, JSON.stringify(base, null, 2));
    git("add", "-A");
    git("commit", "-qm", "base");
    commit = git("rev-parse", "HEAD");
  }
  const text = JSON.stringify(head, null, 2);
  writeFileSync(file, text);
  return { ws, text, commit };
}

async function runAt(ws: string, judgeAt?: JudgeAt, subjects?: string[]) {
  const engine = memoryEngine();
  const outcome = await runPipeline({
    workspace: ws,
    inventoryPath: "inventory.json",
    suites: ["lifecycle"],
    ...(subjects ? { subjects } : {}),
    log: silentLogger,
    signal: new AbortController().signal,
    engine,
    ...(judgeAt ? { judgeAt } : {}),
  }).catch((e: unknown) => e);
  return { outcome, calls: engine.calls };
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("a build secret's variable is checked at load, before any engine call", () => {
  afterEach(() => {
    delete process.env[UNSET];
    delete process.env[SET];
  });

  it("unset: exit 2 naming file:line, the field and the fix; a set one beside it is not quoted", async () => {
    process.env[SET] = FAKE;
    const { ws, text } = workspace(inventory({ token: SET, "npm.rc": UNSET }));
    const { outcome, calls } = await runAt(ws);
    const err = outcome as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(exitCodeOf(err)).toBe(2);
    expect(calls).toEqual([]); // the engine never heard of it
    const line = lineOf(text, `"${UNSET}"`);
    expect(err.problems.map((p) => [p.line, `${p.path}: ${p.message} (fix: ${p.fix})`])).toEqual([
      [
        line,
        `subjects[1].build.secrets["npm.rc"]: build secret "npm.rc" is read from $${UNSET}, which is not set in this run's environment (fix: set ${UNSET} in the environment of the step that runs docker-acceptance (env: in the workflow, or export it before the CLI), or remove "npm.rc" from build.secrets)`,
      ],
    ]);
    expect(err.message).toContain(
      `${path.join(ws, "inventory.json")}:${line}: subjects[1].build.secrets["npm.rc"]:`,
    );
    expect(err.message).not.toContain(FAKE);
  });

  it("set (an empty value too, as the build takes it): the run goes on and the build reads it", async () => {
    process.env[SET] = FAKE;
    process.env[UNSET] = "";
    const { ws } = workspace(inventory({ token: SET, empty: UNSET }));
    const { outcome, calls } = await runAt(ws);
    expect(outcome).not.toBeInstanceOf(Error);
    expect(calls.length).toBeGreaterThan(0);
    const report = outcome as Awaited<ReturnType<typeof runPipeline>>;
    const build = report.cases.find((c) => c.id === "lifecycle.build" && c.subject === "app");
    // Past the load and past the build's own reading: the in-memory engine's legacy builder is
    // all that stops it (the real engine's BuildKit build: tests/docker/build.test.ts).
    expect(build?.message).toMatch(/^build\.secrets need BuildKit, but the legacy builder runs/);
    expect(JSON.stringify(report)).not.toContain(FAKE);
  });

  it("in a pull request, the base's variable is checked, not the one the change names", async () => {
    process.env[SET] = FAKE; // what the change would like its build to read
    const base = inventory({ token: UNSET });
    const { ws, text, commit } = workspace(inventory({ token: SET }), base);
    const { outcome, calls } = await runAt(ws, { base: commit! });
    const err = outcome as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(calls).toEqual([]);
    expect(err.problems).toEqual([
      {
        path: "subjects[1].build.secrets.token",
        line: lineOf(text, `"token"`),
        message: `build secret "token" is read from $${UNSET}, which is not set in this run's environment (declared at the base ${commit!.slice(0, 12)}, which judges this pull request)`,
        fix: `set ${UNSET} in the environment of the step that runs docker-acceptance (env: in the workflow, or export it before the CLI), or remove "token" from build.secrets at the base (a change to it takes effect once merged)`,
      },
    ]);
    expect(err.message).not.toContain(FAKE);
  });

  it("where no maintainer declared the names, nothing is looked up: the build says why it reads none", async () => {
    const seen = new Set<PropertyKey>();
    const real = process.env;
    // Every way of asking the environment about a name is recorded.
    const record =
      <A extends unknown[], R>(fn: (t: object, k: PropertyKey, ...a: A) => R) =>
      (t: object, k: PropertyKey, ...a: A): R => {
        seen.add(k);
        return fn(t, k, ...a);
      };
    process.env = new Proxy<NodeJS.ProcessEnv>(
      { ...real },
      {
        get: record(Reflect.get),
        has: record(Reflect.has),
        getOwnPropertyDescriptor: record(Reflect.getOwnPropertyDescriptor),
      },
    );
    let result: Awaited<ReturnType<typeof runAt>>;
    try {
      expect(process.env.DA_TEST_PROXY_CONTROL).toBeUndefined();
      expect(seen.has("DA_TEST_PROXY_CONTROL")).toBe(true); // the recording works
      const { ws } = workspace(inventory({ token: UNSET }));
      result = await runAt(ws, { unavailable: "a shallow checkout" });
    } finally {
      process.env = real;
    }
    expect(result.outcome).not.toBeInstanceOf(Error);
    expect(seen.has(UNSET)).toBe(false);
    const report = result.outcome as Awaited<ReturnType<typeof runPipeline>>;
    const build = report.cases.find((c) => c.id === "lifecycle.build" && c.subject === "app");
    expect(build).toMatchObject({ status: "error" });
    expect(build?.message).toContain(`build secret(s) token (from $${UNSET}) are not read`);
  });

  it("only the subjects this run builds are held to it: another shard's secret is that shard's", async () => {
    const { ws } = workspace(inventory({ token: UNSET }));
    const { outcome, calls } = await runAt(ws, undefined, ["prebuilt"]);
    expect(outcome).not.toBeInstanceOf(Error);
    expect(calls.length).toBeGreaterThan(0);
    expect((outcome as Awaited<ReturnType<typeof runPipeline>>).cases.some((c) => c.subject === "app")).toBe(
      false,
    );
    expect(await runAt(ws, undefined, ["app"]).then((r) => exitCodeOf(r.outcome))).toBe(2);
  });

  it("only a run about to build checks them: merge and verify load the same inventory without", async () => {
    const { ws } = workspace(inventory({ token: UNSET }));
    const loaded = await loadInventory(path.join(ws, "inventory.json"), { workspace: ws });
    await expect(judgeAtBase(ws, loaded, undefined)).resolves.toMatchObject({ environment: { read: true } });
  });

  it("the runner's and the action's own variables are still refused by the schema, never looked up", async () => {
    const { ws, text } = workspace(inventory({ token: "GITHUB_TOKEN" }));
    const { outcome, calls } = await runAt(ws);
    const err = outcome as ConfigError;
    expect(calls).toEqual([]);
    expect(err.problems).toEqual([
      {
        path: "subjects[1].build.secrets.token",
        line: lineOf(text, '"GITHUB_TOKEN"'),
        message: "names a variable the runner or the action itself holds; it is never handed to a build",
      },
    ]);
  });
});
