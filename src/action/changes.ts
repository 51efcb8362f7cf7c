// The pull request's diff, for the alignment review and for scoping SARIF findings to added lines.
// The local checkout answers when it holds the base commit (no API request); otherwise the API.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type DiffFile, fetchPullRequestFiles, gitDiffFiles } from "../alignment/index.js";
import type { GitHubClient } from "../github/client.js";
import type { EventContext } from "../github/context.js";

export interface Changes {
  files: DiffFile[];
  notes: string[];
  label: string;
  /** The base commit, when the checkout holds it: the alignment rules are read as of there. */
  rulesFrom?: string;
}

export async function pullRequestChanges(
  context: EventContext | undefined,
  workspace: string,
  client: GitHubClient | undefined,
): Promise<Changes | undefined> {
  const pr = context?.pr;
  if (!context || !pr) return undefined;
  if (pr.baseSha && (await hasCommit(workspace, pr.baseSha))) {
    return {
      files: await gitDiffFiles(workspace, pr.baseSha, "HEAD"),
      notes: [],
      label: `git diff ${pr.baseSha.slice(0, 12)}...HEAD (PR #${pr.number})`,
      rulesFrom: pr.baseSha,
    };
  }
  if (!client) return undefined;
  const fetched = await fetchPullRequestFiles(client.octokit, {
    owner: context.owner,
    repo: context.repo,
    pullNumber: pr.number,
    changedFiles: pr.changedFiles,
  });
  return {
    files: fetched.files,
    notes: fetched.notes,
    label: `PR #${pr.number} files from the GitHub API`,
    // The rules are the base's, which this checkout lacks: the review says so and runs none (the
    // checkout's copy is the pull request's own).
    ...(pr.baseSha ? { rulesFrom: pr.baseSha } : {}),
  };
}

async function hasCommit(workspace: string, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(sha)) return false;
  try {
    await promisify(execFile)("git", ["cat-file", "-e", `${sha}^{commit}`], { cwd: workspace });
    return true;
  } catch {
    return false;
  }
}
