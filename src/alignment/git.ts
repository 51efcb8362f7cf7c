// The local diff source: `git diff base...head` of a checkout (what the PR would merge), through
// the pinned git plumbing of src/git.ts.
import { checkRef, git, verifyRef } from "../git.js";
import { type DiffFile, parseUnifiedDiff } from "./diff.js";

export { defaultBase, gitTopLevel, gitTree } from "../git.js";

/** Files and added lines of `git diff base...head` (changes on head since it forked from base). */
export async function gitDiffFiles(workspace: string, base: string, head = "HEAD"): Promise<DiffFile[]> {
  checkRef(base, "--base");
  checkRef(head, "--head");
  await verifyRef(workspace, base, "--base");
  await verifyRef(workspace, head, "--head");
  const out = await git(workspace, [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--unified=0",
    "--find-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--end-of-options",
    `${base}...${head}`,
    "--",
  ]);
  return parseUnifiedDiff(out);
}
