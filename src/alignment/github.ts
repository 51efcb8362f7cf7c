// The action's diff source: the pull request's files from the GitHub API. GitHub lists at most
// 3,000 files per pull request and omits `patch` for binary or very large files; both are reported
// (a note naming what was not reviewed), never silently dropped.
import * as z from "zod";
import { type DiffFile, type FileStatus, parsePatch } from "./diff.js";

/** The slice of an Octokit instance this needs, so the shared client (any plugins) fits. */
interface GitHubRequester {
  request(
    route: string,
    params: Record<string, unknown>,
  ): Promise<{ data: unknown; headers: Record<string, string | number | undefined> }>;
}

const GITHUB_FILES_CAP = 3000;
const PER_PAGE = 100;
/** 3,000 files / 100 per page, with room to spare in case GitHub raises the cap. */
const MAX_PAGES = 100;

const STATUSES = ["added", "removed", "modified", "renamed", "copied", "changed", "unchanged"] as const;

const diffEntry = z.object({
  filename: z.string().min(1),
  status: z.string(),
  patch: z.string().optional(),
  previous_filename: z.string().optional(),
  changes: z.number().optional(),
});
const pullRequest = z.object({ changed_files: z.number().int().nonnegative() });

interface PullRequestFiles {
  files: DiffFile[];
  /** What GitHub says the PR changes; larger than files.length when the 3,000-file cap cut the list. */
  changedFiles: number;
  notes: string[];
}

function toDiffFile(entry: z.infer<typeof diffEntry>): DiffFile {
  const status = (STATUSES as readonly string[]).includes(entry.status)
    ? (entry.status as FileStatus)
    : "modified";
  const hasPatch = typeof entry.patch === "string";
  return {
    path: entry.filename,
    ...(entry.previous_filename ? { previousPath: entry.previous_filename } : {}),
    status,
    binary: false,
    // A removal or a pure rename has no added lines to scope; anything else without a patch
    // (binary, too large) is checked by path only and named in a note.
    diffScoped: hasPatch || status === "removed" || (status === "renamed" && entry.changes === 0),
    added: hasPatch ? parsePatch(entry.patch!) : [],
  };
}

export async function fetchPullRequestFiles(
  octokit: GitHubRequester,
  pull: { owner: string; repo: string; pullNumber: number; changedFiles?: number },
): Promise<PullRequestFiles> {
  const base = { owner: pull.owner, repo: pull.repo, pull_number: pull.pullNumber };
  // The event payload already carries changed_files; only a caller without it pays for the read.
  const changedFiles =
    pull.changedFiles ??
    pullRequest.parse((await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", base)).data)
      .changed_files;

  const files: DiffFile[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
      ...base,
      per_page: PER_PAGE,
      page,
    });
    const entries = z.array(diffEntry).parse(res.data);
    files.push(...entries.map(toDiffFile));
    const link = String(res.headers.link ?? "");
    if (entries.length < PER_PAGE || !/rel="next"/.test(link)) break;
  }

  const notes: string[] = [];
  const unscoped = files.filter((f) => !f.diffScoped);
  if (unscoped.length > 0) {
    const shown = unscoped.slice(0, 10).map((f) => f.path);
    notes.push(
      `${unscoped.length} file${unscoped.length === 1 ? " is" : "s are"} not diff-scoped (GitHub sent no patch: binary or too large), checked by path only: ${shown.join(", ")}${unscoped.length > shown.length ? ", …" : ""}`,
    );
  }
  if (changedFiles > files.length) {
    notes.push(
      `GitHub lists at most ${GITHUB_FILES_CAP.toLocaleString("en-US")} files of a pull request: this one changes ${changedFiles.toLocaleString("en-US")} and ${files.length.toLocaleString("en-US")} were reviewed; run \`docker-acceptance align --base <base branch>\` on a checkout to review them all`,
    );
  }
  return { files, changedFiles, notes };
}
