// Where the RFCs and CODEOWNERS are read from: the tree being judged. For a git range that is the
// head commit (so `--head other-branch` reads that branch, not the working tree); for the action it
// is the checked-out workspace.
import { readdir, readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import type { TreeReader } from "../git.js";

export type { TreeReader } from "../git.js";

export function fsTree(root: string): TreeReader {
  return {
    async list(dir) {
      const clean = posix.normalize(dir.replace(/\\/g, "/")).replace(/\/+$/, "");
      try {
        const entries = await readdir(join(root, clean), { recursive: true, withFileTypes: true });
        return entries
          .filter((e) => e.isFile())
          .map((e) =>
            posix.join(
              clean,
              posix.relative(join(root, clean), join(e.parentPath, e.name)).replace(/\\/g, "/"),
            ),
          )
          .sort();
      } catch {
        return [];
      }
    },
    async readMany(paths) {
      const out = new Map<string, string>();
      await Promise.all(
        paths.map(async (p) => {
          try {
            out.set(p, await readFile(join(root, p), "utf8"));
          } catch {
            // absent: omitted, as documented
          }
        }),
      );
      return out;
    },
  };
}
