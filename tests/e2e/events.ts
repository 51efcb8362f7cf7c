import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../helpers/inventory.js";

// Event payloads shaped like the ones GitHub delivers (the fields our code and the runner read,
// with the neighbours a real payload has), for GITHUB_EVENT_PATH.
const repo = (fullName: string, id: number) => {
  const [owner, name] = fullName.split("/");
  return {
    id,
    node_id: `R_${id}`,
    name,
    full_name: fullName,
    private: false,
    owner: { login: owner, id: id + 1, type: "Organization" },
    html_url: `https://github.com/${fullName}`,
    fork: fullName !== "octo-org/app",
    default_branch: "main",
  };
};

const user = (login: string) => ({ login, id: 583231, type: "User", site_admin: false });

/**
 * The base commit a PR payload names. The workspace's own HEAD: a checkout with history holds it,
 * so the action reads the PR's diff locally (an empty one here) instead of through the API.
 */
export const WORKSPACE_HEAD = execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO_ROOT })
  .toString()
  .trim();

export function pullRequestEvent(o: {
  number: number;
  headSha: string;
  action?: "opened" | "synchronize" | "reopened";
  headRepo?: string;
  baseSha?: string;
}) {
  const base = repo("octo-org/app", 1296269);
  const head = repo(o.headRepo ?? "octo-org/app", o.headRepo ? 7777 : 1296269);
  return {
    action: o.action ?? "opened",
    number: o.number,
    pull_request: {
      url: `https://api.github.com/repos/octo-org/app/pulls/${o.number}`,
      id: 1_000_000 + o.number,
      number: o.number,
      state: "open",
      title: "Harden the web image",
      user: user("contributor"),
      body: "Please review <script>alert(1)</script>",
      draft: false,
      merged: false,
      head: {
        label: `${head.owner.login}:feature`,
        ref: "feature",
        sha: o.headSha,
        user: user(String(head.owner.login)),
        repo: head,
      },
      base: {
        label: "octo-org:main",
        ref: "main",
        sha: o.baseSha ?? WORKSPACE_HEAD,
        user: user("octo-org"),
        repo: base,
      },
      changed_files: 3,
      author_association: o.headRepo ? "FIRST_TIME_CONTRIBUTOR" : "MEMBER",
    },
    repository: base,
    organization: { login: "octo-org", id: 1296270 },
    sender: user("contributor"),
  };
}

export function scheduleEvent() {
  return {
    schedule: "17 3 * * *",
    repository: repo("octo-org/app", 1296269),
    workflow: ".github/workflows/nightly.yml",
  };
}

export function workflowRunEvent(o: { headSha: string; headRepo?: string; pullRequests?: number[] }) {
  const base = repo("octo-org/app", 1296269);
  const head = repo(o.headRepo ?? "octo-org/app", o.headRepo ? 7777 : 1296269);
  return {
    action: "completed",
    workflow_run: {
      id: 30433642,
      name: "docker-acceptance test",
      event: "pull_request",
      status: "completed",
      conclusion: "success",
      head_branch: "feature",
      head_sha: o.headSha,
      run_number: 562,
      run_attempt: 1,
      // Empty for pull requests from forks: GitHub only lists PRs of the base repository here.
      pull_requests: (o.pullRequests ?? []).map((n) => ({
        id: 1_000_000 + n,
        number: n,
        head: { ref: "feature", sha: o.headSha, repo: { id: head.id, name: head.name } },
        base: { ref: "main", sha: "0".repeat(40), repo: { id: base.id, name: base.name } },
      })),
      head_repository: head,
      repository: base,
    },
    workflow: { id: 161335, name: "docker-acceptance test", path: ".github/workflows/fork-safe-test.yml" },
    repository: base,
    organization: { login: "octo-org", id: 1296270 },
    sender: user("contributor"),
  };
}
