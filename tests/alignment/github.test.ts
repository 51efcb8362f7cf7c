// The API source against a local HTTP double of GitHub's pull request endpoints. Every response
// it serves and every query it receives is validated against GitHub's OpenAPI description, so the
// double cannot drift into shapes GitHub never sends.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { Octokit } from "@octokit/rest";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fetchPullRequestFiles, RULES_FROM_CHANGE, runAlignment } from "../../src/alignment/index.js";
import {
  EXPECTED,
  EXPECTED_OPEN_RFCS,
  EXPECTED_SUMMARY,
  type FixtureRepo,
  git,
  makeFixtureRepo,
  rows,
} from "./fixture-repo.js";

const require = createRequire(import.meta.url);
const api = JSON.parse(
  readFileSync(require.resolve("@octokit/openapi/generated/api.github.com.deref.json"), "utf8"),
);
const filesOp = api.paths["/repos/{owner}/{repo}/pulls/{pull_number}/files"].get;
const pullOp = api.paths["/repos/{owner}/{repo}/pulls/{pull_number}"].get;
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const validateFiles = ajv.compile(filesOp.responses["200"].content["application/json"].schema);
const changedFilesSchema = ajv.compile(
  pullOp.responses["200"].content["application/json"].schema.properties.changed_files,
);
const queryParam = (name: string) =>
  ajv.compile(filesOp.parameters.find((p: { name: string }) => p.name === name).schema);
const validatePerPage = queryParam("per_page");
const validatePage = queryParam("page");

interface Entry {
  sha: string;
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  changes: number;
  blob_url: string;
  raw_url: string;
  contents_url: string;
  patch?: string;
  previous_filename?: string;
}

/** GitHub's view of the PR, built from the fixture repository's own diff (3 lines of context, like GitHub). */
function entriesFromGit(dir: string, withoutPatch: Set<string>): Entry[] {
  const out = git(dir, "-c", "core.quotePath=false", "diff", "--no-color", "-M", "main...feature");
  return out
    .split(/^diff --git /m)
    .slice(1)
    .map((chunk) => {
      const lines = chunk.split("\n");
      const hunkStart = lines.findIndex((l) => l.startsWith("@@"));
      const header = hunkStart < 0 ? lines : lines.slice(0, hunkStart);
      const name = (prefix: string) => header.find((l) => l.startsWith(prefix))?.slice(prefix.length);
      const deleted = header.some((l) => l.startsWith("deleted file"));
      const filename = deleted
        ? name("--- a/")!
        : (name("+++ b/") ?? name("rename to ") ?? lines[0]!.split(" b/")[1]!);
      const body = hunkStart >= 0 ? lines.slice(hunkStart).join("\n").replace(/\n$/, "") : undefined;
      const additions = body ? body.split("\n").filter((l) => l.startsWith("+")).length : 0;
      const deletions = body ? body.split("\n").filter((l) => l.startsWith("-")).length : 0;
      const status = deleted
        ? "removed"
        : header.some((l) => l.startsWith("new file"))
          ? "added"
          : header.some((l) => l.startsWith("rename from"))
            ? "renamed"
            : "modified";
      const url = `https://github.com/o/r/blob/abc/${filename}`;
      const entry: Entry = {
        sha: "0123456789abcdef0123456789abcdef01234567",
        filename,
        status,
        additions,
        deletions,
        changes: additions + deletions,
        blob_url: url,
        raw_url: url.replace("/blob/", "/raw/"),
        contents_url: `https://api.github.com/repos/o/r/contents/${filename}?ref=abc`,
      };
      if (body !== undefined && !withoutPatch.has(filename)) entry.patch = body;
      return entry;
    });
}

interface Double {
  server: Server;
  baseUrl: string;
  requests: string[];
  problems: string[];
  set(files: Entry[], changedFiles: number): void;
}

async function startDouble(): Promise<Double> {
  let files: Entry[] = [];
  let changedFiles = 0;
  const requests: string[] = [];
  const problems: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/repos/o/r/pulls/7") {
      if (!changedFilesSchema(changedFiles)) problems.push("changed_files does not match the OpenAPI schema");
      return send(200, { number: 7, state: "open", changed_files: changedFiles });
    }
    if (req.method === "GET" && url.pathname === "/repos/o/r/pulls/7/files") {
      const perPage = Number(url.searchParams.get("per_page") ?? 30);
      const page = Number(url.searchParams.get("page") ?? 1);
      if (!validatePerPage(perPage) || !validatePage(page) || perPage > 100)
        problems.push(`bad query ${url.search}`);
      // GitHub's cap: at most 3,000 files, whatever changed_files says.
      const listed = files.slice(0, 3000);
      const body = listed.slice((page - 1) * perPage, page * perPage);
      if (!validateFiles(body)) problems.push(ajv.errorsText(validateFiles.errors));
      const last = Math.max(1, Math.ceil(listed.length / perPage));
      const link = (p: number, rel: string) =>
        `<http://${req.headers.host}/repos/o/r/pulls/7/files?per_page=${perPage}&page=${p}>; rel="${rel}"`;
      const links = page < last ? [link(page + 1, "next"), link(last, "last")] : [link(1, "first")];
      return send(200, body, { link: links.join(", ") });
    }
    send(404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    problems,
    set(f, c) {
      files = f;
      changedFiles = c;
      requests.length = 0;
    },
  };
}

describe("alignment review through the GitHub API source", () => {
  let repo: FixtureRepo;
  let double: Double;
  let octokit: Octokit;
  let entries: Entry[];
  beforeAll(async () => {
    repo = await makeFixtureRepo();
    double = await startDouble();
    octokit = new Octokit({ baseUrl: double.baseUrl, request: { retries: 0 } });
    // The binary fixture gets no patch from GitHub; a large text file may not either.
    entries = entriesFromGit(repo.dir, new Set(["data/f000.txt"]));
  });
  afterAll(async () => {
    await new Promise((resolve) => double.server.close(resolve));
    await repo.cleanup();
  });

  test("pages through every file and reaches the same findings as the git source", async () => {
    expect(entries).toHaveLength(242);
    double.set(entries, entries.length);
    const pr = await fetchPullRequestFiles(octokit, { owner: "o", repo: "r", pullNumber: 7 });
    expect(double.requests).toEqual([
      "GET /repos/o/r/pulls/7",
      "GET /repos/o/r/pulls/7/files?per_page=100&page=1",
      "GET /repos/o/r/pulls/7/files?per_page=100&page=2",
      "GET /repos/o/r/pulls/7/files?per_page=100&page=3",
    ]);
    expect(double.problems).toEqual([]);
    expect(pr.files).toHaveLength(242);
    expect(pr.notes).toEqual([
      "2 files are not diff-scoped (GitHub sent no patch: binary or too large), checked by path only: acceptance/fixtures/hardened/logo.png, data/f000.txt",
    ]);

    const report = await runAlignment({
      workspace: repo.dir,
      source: { kind: "files", files: pr.files, notes: pr.notes, label: "pull request #7 files" },
    });
    expect(report.source).toBe("pull request #7 files (242 files)");
    expect(rows(report.findings)).toEqual(EXPECTED);
    expect(report.summary).toBe(EXPECTED_SUMMARY);
    expect(report.openRfcs).toEqual(EXPECTED_OPEN_RFCS);
    expect(report.notes).toEqual([
      ...pr.notes,
      RULES_FROM_CHANGE,
      "1 allow comment not counted: the base commit is not at hand to confirm it",
    ]);
  });

  test("the 3,000-file cap is detected from changed_files and reported, not hidden", async () => {
    double.set(entries, 3005);
    const pr = await fetchPullRequestFiles(octokit, { owner: "o", repo: "r", pullNumber: 7 });
    expect(pr.changedFiles).toBe(3005);
    expect(pr.notes[1]).toBe(
      "GitHub lists at most 3,000 files of a pull request: this one changes 3,005 and 242 were reviewed; run `docker-acceptance align --base <base branch>` on a checkout to review them all",
    );
  });

  test("a PR of more than 3,000 files: all 30 pages are read and the rest is named", async () => {
    const many: Entry[] = Array.from({ length: 3107 }, (_, i) => ({
      ...entries.find((e) => e.filename === "data/f001.txt")!,
      filename: `gen/${i}.ts`,
      patch: "@@ -0,0 +1 @@\n+export {};",
    }));
    double.set(many, many.length);
    const pr = await fetchPullRequestFiles(octokit, { owner: "o", repo: "r", pullNumber: 7 });
    expect(pr.files).toHaveLength(3000);
    expect(double.requests).toHaveLength(31);
    expect(double.problems).toEqual([]);
    expect(pr.notes).toEqual([
      "GitHub lists at most 3,000 files of a pull request: this one changes 3,107 and 3,000 were reviewed; run `docker-acceptance align --base <base branch>` on a checkout to review them all",
    ]);
  });
});
