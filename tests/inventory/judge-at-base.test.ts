// A pull request is judged by its base's inventory (issue #20): a PR that deletes required
// cases, lowers severities, re-pins artifacts or grants itself capabilities is judged by the
// base's, and each such change is a Tier 1 item; without the base the report says so.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTAINMENT_CASES, LIFECYCLE_CASES } from "../../src/cases/index.js";
import { judgeAtBase } from "../../src/inventory/base.js";
import { parseInventory } from "../../src/inventory/validate.js";
import { silentLogger } from "../../src/log.js";
import { mergeBundles } from "../../src/merge.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Shard } from "../../src/plan.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import { gitIn } from "../helpers/git.js";
import { MEMORY_BASE, memoryEngine } from "../helpers/memory.js";
import { writeShardSet } from "../merge/shards.js";
import { makeReport } from "../report/fixtures.js";

const subject = (over: Record<string, unknown> = {}) => ({ name: "web", image: "web:1", ...over });
const BASE = {
  schemaVersion: 1,
  subjects: [subject()],
  suites: {
    lifecycle: { required: [...LIFECYCLE_CASES] },
    containment: { required: [...CONTAINMENT_CASES] },
  },
  severity: {},
  artifacts: [{ path: "Dockerfile", sha256: "a".repeat(64) }],
};
/** What a malicious PR would like to be judged by. */
const WEAKENED = {
  ...BASE,
  subjects: [
    subject({ capabilities: ["SYS_ADMIN"], allowedHostPaths: [{ path: "/srv/data", readOnly: false }] }),
    subject({ name: "new", capabilities: ["NET_RAW"] }),
  ],
  suites: { lifecycle: { required: ["lifecycle.build"] } },
  severity: { "containment.user": "warn" },
  artifacts: [{ path: "Dockerfile", sha256: "b".repeat(64) }],
  probeImage: "evil.example/probe:latest",
};

function repo(): { dir: string; base: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "da-judge-"));
  const git = gitIn(dir);
  git("init", "-q", "-b", "main");
  mkdirSync(path.join(dir, "acceptance"));
  writeFileSync(path.join(dir, "acceptance/inventory.json"), JSON.stringify(BASE, null, 2));
  git("add", "-A");
  git("commit", "-qm", "base");
  const base = git("rev-parse", "HEAD");
  writeFileSync(path.join(dir, "acceptance/inventory.json"), JSON.stringify(WEAKENED, null, 2));
  git("commit", "-qam", "weaken");
  return { dir, base };
}

const loaded = (dir: string) => {
  const file = path.join(dir, "acceptance/inventory.json");
  return parseInventory(file, JSON.stringify(WEAKENED, null, 2));
};

describe("judgeAtBase", () => {
  it("judges a weakening PR by the base's required cases, severities, pins and allowances", async () => {
    const { dir, base } = repo();
    const judged = await judgeAtBase(dir, loaded(dir), { base });
    const inv = judged.inventory;
    expect(inv.suites.lifecycle?.required).toEqual([...LIFECYCLE_CASES]);
    expect(inv.suites.containment?.required).toEqual([...CONTAINMENT_CASES]);
    expect(inv.severity).toEqual({});
    expect(inv.artifacts).toEqual(BASE.artifacts);
    expect(inv.probeImage).toBeUndefined();
    // The PR still describes its subjects; a new one is allowed nothing the base did not declare.
    expect(inv.subjects.map((s) => [s.name, s.capabilities, s.allowedHostPaths])).toEqual([
      ["web", [], []],
      ["new", [], []],
    ]);
    expect(judged.trust.inventoryFrom).toBe(base);
    expect(judged.trust.notes).toEqual([]);
    expect(judged.trust.findings.map((f) => [f.tier, f.title])).toEqual([
      [1, "This change edits what judges it: the required cases"],
      [1, "This change edits what judges it: the severities"],
      [1, "This change edits what judges it: the artifact pins"],
      [1, "This change edits what judges it: the probe image field"],
      [1, "This change edits what judges it: subject web's capabilities"],
      [1, "This change edits what judges it: subject web's allowedHostPaths"],
      [1, "This change edits what judges it: subject new's capabilities"],
    ]);
    const comment = renderMarkdown(makeReport({ trust: { ...judged.trust, notes: [] } }), {
      target: "comment",
    });
    expect(comment).toMatch(
      /### Tier 1: Fixes Required\n\n1\. ❌ \*\*This change edits what judges it: the required cases\*\*/,
    );
  });

  it("an unchanged inventory gives no finding", async () => {
    const { dir } = repo();
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
    const judged = await judgeAtBase(dir, loaded(dir), { base: head });
    expect(judged.trust.findings).toEqual([]);
    expect(judged.inventory.suites.lifecycle?.required).toEqual(["lifecycle.build"]);
  });

  it("without the base commit (a shallow checkout) the PR's own copy is used and the report says so visibly", async () => {
    const { dir } = repo();
    const judged = await judgeAtBase(dir, loaded(dir), { base: "c".repeat(40) });
    expect(judged.inventory.suites.lifecycle?.required).toEqual(["lifecycle.build"]);
    expect(judged.trust.notes).toEqual([
      expect.stringMatching(
        /^The pull request's base is not available \(the checkout does not hold c{40}\).*fetch-depth: 0/,
      ),
    ]);
    const comment = renderMarkdown(makeReport({ trust: { ...judged.trust } }), { target: "comment" });
    expect(comment).toMatch(/> \[!WARNING\]\n> The pull request's base is not available/);
  });

  it("an inventory outside the repository is not the pull request's file: used as is", async () => {
    const { dir, base } = repo();
    const outside = path.join(mkdtempSync(path.join(tmpdir(), "da-judge-out-")), "inventory.json");
    const judged = await judgeAtBase(dir, parseInventory(outside, JSON.stringify(WEAKENED)), { base });
    expect(judged.trust).toEqual({ notes: [], findings: [] });
  });

  it("outside a pull request (no base asked for) the checkout's inventory is the maintainer's own", async () => {
    const { dir } = repo();
    const judged = await judgeAtBase(dir, loaded(dir), undefined);
    expect(judged.trust).toEqual({ notes: [], findings: [] });
  });
});

describe("mode: merge of a pull request's shards", () => {
  it("judges completeness by the base's required cases, not the weakened ones the shards ran against", async () => {
    const { dir, base } = repo();
    const inventoryPath = path.join(dir, "acceptance/inventory.json");
    const set = await writeShardSet(inventoryPath, 2, {
      edit: (r) => ({ ...r, cases: r.cases.filter((c) => c.id === "lifecycle.build") }),
    });
    const weak = await mergeBundles(set.dirs, { inventoryPath, workspace: dir });
    expect(weak.verdict).toBe("pass");
    const judged = await mergeBundles(set.dirs, { inventoryPath, workspace: dir, judgeAt: { base } });
    expect(judged.inventory?.complete).toBe(false);
    expect(judged.verdict).toBe("fail");
  });
});

describe("judgeAtBase: build secrets and image pins", () => {
  it("takes a subject's build secrets and imageId pin from the base, and flags the change", async () => {
    const pin = `sha256:${"c".repeat(64)}`;
    const base = {
      ...BASE,
      subjects: [
        subject({ imageId: pin }),
        { name: "app", build: { context: ".", secrets: { npm_token: "NPM_TOKEN" } } },
      ],
    };
    const change = {
      ...base,
      subjects: [
        subject(),
        {
          name: "app",
          build: { context: ".", target: "t", secrets: { npm_token: "AWS_SECRET_ACCESS_KEY" } },
        },
        { name: "extra", build: { context: ".", secrets: { x: "DEPLOY_KEY" } } },
      ],
    };
    const dir = mkdtempSync(path.join(tmpdir(), "da-judge-build-"));
    const git = gitIn(dir);
    git("init", "-q", "-b", "main");
    mkdirSync(path.join(dir, "acceptance"));
    const file = path.join(dir, "acceptance/inventory.json");
    writeFileSync(file, JSON.stringify(base, null, 2));
    git("add", "-A");
    git("commit", "-qm", "base");
    const baseRef = git("rev-parse", "HEAD");
    writeFileSync(file, JSON.stringify(change, null, 2));
    git("commit", "-q", "--allow-empty", "-am", "change");
    const judged = await judgeAtBase(dir, parseInventory(file, JSON.stringify(change, null, 2)), {
      base: baseRef,
    });
    const [web, app, extra] = judged.inventory.subjects;
    expect(web?.imageId).toBe(pin);
    // The change still says how to build (its target); which variables are secrets is the base's.
    expect(app?.build?.target).toBe("t");
    expect(app?.build?.secrets).toEqual({ npm_token: "NPM_TOKEN" });
    expect(extra?.build?.secrets).toEqual({});
    expect(judged.trust.findings.map((f) => f.title)).toEqual([
      "This change edits what judges it: subject web's imageId pin",
      "This change edits what judges it: subject app's build secrets",
      "This change edits what judges it: subject extra's build secrets",
    ]);
  });
});

describe("a pull request that deletes a failing subject from the inventory", () => {
  // The attacker's goal: the base declares `worker`, whose build fails; the PR drops it from the
  // inventory (the Dockerfile untouched) so that only the passing `web` is judged: a green run.
  const service = (name: string) => ({
    name,
    image: MEMORY_BASE,
    command: ["sh", "-c", "echo listening; sleep 300"],
    network: "none",
    readiness: { type: "log", pattern: "listening" },
    startupTimeoutMs: 3000,
    stopTimeoutMs: 1000,
    init: true,
  });
  const worker = { name: "worker", build: { context: "ctx", args: { BASE_IMAGE: MEMORY_BASE } } };
  const inventory = (subjects: unknown[]) =>
    JSON.stringify(
      { schemaVersion: 1, subjects, suites: { lifecycle: { required: [...LIFECYCLE_CASES] } } },
      null,
      2,
    );

  function change(baseSubjects: unknown[], headSubjects: unknown[]): { dir: string; base: string } {
    const dir = mkdtempSync(path.join(tmpdir(), "da-judge-removed-"));
    const git = gitIn(dir);
    git("init", "-q", "-b", "main");
    mkdirSync(path.join(dir, "ctx"));
    writeFileSync(path.join(dir, "ctx/Dockerfile"), "ARG BASE_IMAGE\nFROM $BASE_IMAGE\nRUN exit 3\n");
    writeFileSync(path.join(dir, "inventory.json"), inventory(baseSubjects));
    git("add", "-A");
    git("commit", "-qm", "base");
    const base = git("rev-parse", "HEAD");
    writeFileSync(path.join(dir, "inventory.json"), inventory(headSubjects));
    git("commit", "-q", "--allow-empty", "-am", "change");
    return { dir, base };
  }

  const run = (dir: string, base: string, extra: { subjects?: string[]; shard?: Shard } = {}) =>
    runPipeline({
      workspace: dir,
      inventoryPath: "inventory.json",
      suites: ["lifecycle"],
      probeImage: MEMORY_BASE,
      log: silentLogger,
      signal: new AbortController().signal,
      engine: memoryEngine(),
      judgeAt: { base },
      ...extra,
    });

  it("is judged by the base's subject list: the removed subject's cases are missing, the run fails, and a Tier 1 item says why", async () => {
    // Control: where the base never had `worker`, `web` alone passes on this engine.
    const control = change([service("web")], [service("web")]);
    expect((await run(control.dir, control.base)).verdict).toBe("pass");

    const { dir, base } = change([service("web"), worker], [service("web")]);
    const report = await run(dir, base);
    expect(report.verdict).toBe("fail");
    expect(report.inventory?.complete).toBe(false);
    expect(report.inventory?.drift).toEqual([
      { subject: "worker", suite: "lifecycle", missing: [...LIFECYCLE_CASES], unexpected: [], skipped: [] },
    ]);
    expect(report.trust?.findings.map((f) => [f.tier, f.title])).toEqual([
      [1, "This change edits what judges it: subject worker"],
    ]);
    const comment = renderMarkdown(report, { target: "comment" });
    expect(comment).toContain(
      "❌ inventory **worker**: is declared in the base's inventory but not in this change's",
    );
    expect(comment).toContain("restore subject &quot;worker&quot;");
    expect(comment).toContain("is removed (declared at the base");
  });

  it("a subject filter or a later shard owes only what it was asked for", async () => {
    const { dir, base } = change([service("web"), worker], [service("web")]);
    const filtered = await run(dir, base, { subjects: ["web"] });
    expect(filtered.verdict).toBe("pass");
    expect((await run(dir, base, { shard: { index: 2, total: 2 } })).inventory?.drift).toEqual([]);
    expect((await run(dir, base, { shard: { index: 1, total: 2 } })).inventory?.complete).toBe(false);
  });
});
