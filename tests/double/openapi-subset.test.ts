// The committed OpenAPI subset must be exactly what the extraction script produces from the
// installed @octokit/openapi, and the double must refuse what GitHub would refuse.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FULL_TOKEN, GitHubDouble } from "./github-double.js";

describe("openapi-subset.json", () => {
  it("matches a fresh extraction from @octokit/openapi (no drift)", () => {
    const fresh = execFileSync(process.execPath, ["scripts/extract-openapi.mjs", "--stdout"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(readFileSync("tests/double/openapi-subset.json", "utf8")).toBe(fresh);
  });
});

describe("GitHubDouble validation", () => {
  let double: GitHubDouble;
  beforeAll(async () => {
    double = await new GitHubDouble().start();
    double.seedPull(7, { headSha: "b".repeat(40) });
  });
  afterAll(() => double.stop());

  const req = (method: string, path: string, body?: unknown) =>
    fetch(`${double.url}${path}`, {
      method,
      headers: { authorization: `token ${FULL_TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("answers 400 and records a problem for an unknown route", async () => {
    const res = await req("GET", "/repos/octo-org/app/no-such-thing");
    expect(res.status).toBe(400);
    expect(double.problems.splice(0)).toEqual([
      "GET /repos/octo-org/app/no-such-thing: no such operation in GitHub's OpenAPI description",
    ]);
  });

  it("answers 400 for a body that breaks the schema: wrong enum, missing field, unknown field, 51 annotations", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { name: "x", head_sha: "abc", status: "running" },
        /status must be equal to one of the allowed values/,
      ],
      [{ name: "x" }, /must have required property 'head_sha'/],
      [
        { name: "x", head_sha: "abc", heads_sha: "typo" },
        /fields the schema does not define: body\.heads_sha/,
      ],
      [
        {
          name: "x",
          head_sha: "abc",
          output: {
            title: "t",
            summary: "s",
            annotations: Array.from({ length: 51 }, () => ({
              path: "a",
              start_line: 1,
              end_line: 1,
              annotation_level: "warning",
              message: "m",
            })),
          },
        },
        /annotations must NOT have more than 50 items/,
      ],
      [
        { name: "x", head_sha: "abc", output: { title: "t", summary: "x".repeat(65_536) } },
        /summary must NOT have more than 65535 characters/,
      ],
    ];
    for (const [body, problem] of cases) {
      const res = await req("POST", "/repos/octo-org/app/check-runs", body);
      expect(res.status).toBe(400);
      expect(double.problems.splice(0).join("\n")).toMatch(problem);
    }
    expect(double.checkRuns).toHaveLength(0);
  });

  it("answers valid requests with bodies that validate against GitHub's response schemas", async () => {
    const created = await req("POST", "/repos/octo-org/app/issues/7/comments", { body: "hello" });
    expect(created.status).toBe(201);
    const comment = (await created.json()) as { id: number; user: { login: string } };
    expect(comment.user.login).toBe("github-actions[bot]");
    const listed = (await (
      await req("GET", "/repos/octo-org/app/issues/7/comments?per_page=100&page=1")
    ).json()) as unknown[];
    expect(listed).toHaveLength(1);
    const pr = (await (await req("GET", "/repos/octo-org/app/pulls/7")).json()) as { head: { sha: string } };
    expect(pr.head.sha).toBe("b".repeat(40));
    expect(double.problems).toEqual([]);
  });

  it("checks GraphQL against GitHub's GraphQL schema: an unknown field or a bad enum is a problem", async () => {
    const gql = (query: string, variables: unknown) => req("POST", "/graphql", { query, variables });
    const bad = await gql(
      "mutation($id: ID!) { minimizeComment(input: { subjectId: $id, classifier: HIDDEN }) { minimizedComment { isMinimized } } }",
      { id: "x" },
    );
    expect(bad.status).toBe(400);
    const typo = await gql(
      'mutation { minimiseComment(input: { subjectId: "x" }) { clientMutationId } }',
      {},
    );
    expect(typo.status).toBe(400);
    expect(double.problems.splice(0).join("\n")).toMatch(
      /HIDDEN.*ReportedContentClassifiers[\s\S]*minimiseComment/,
    );
  });

  it("refuses unknown tokens with 401", async () => {
    const res = await fetch(`${double.url}/repos/octo-org/app/pulls/7`, {
      headers: { authorization: "token nope" },
    });
    expect(res.status).toBe(401);
  });
});
