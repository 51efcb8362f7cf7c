// Git plumbing for reading the repository being judged: one pinned way to run git (execFile, no
// shell, no external diff drivers or textconv, prefixes and quoting pinned so user config cannot
// change the format), revision checks, and a reader for the files at a commit. A primitive: the
// inventory reads its pinned parts at the PR's base with it, the alignment review reads the diff.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { UsageError } from "./errors.js";

/** A tree of files being judged: a commit (gitTree) or a directory on disk. */
export interface TreeReader {
  /** Files under `dir` (recursively), as repository-relative POSIX paths. */
  list(dir: string): Promise<string[]>;
  /** File contents by repository-relative path; absent files are omitted. */
  readMany(paths: string[]): Promise<Map<string, string>>;
}

const run = promisify(execFile);

/** execFile as a promise, for a caller that runs git without the pinned options (a plain probe). */
export { run as execFileAsync };

const PINNED = ["-c", "core.quotePath=false", "-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false"];
const MAX_BUFFER = 1024 * 1024 * 1024;

export function checkRef(ref: string, flag: string): void {
  if (ref === "" || ref.startsWith("-") || /[\0\n]/.test(ref)) {
    throw new UsageError(
      `${flag} "${ref}" is not a git revision (fix: pass a branch, tag or commit such as origin/main)`,
    );
  }
}

export async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run("git", [...PINNED, ...args], {
      cwd,
      maxBuffer: MAX_BUFFER,
      encoding: "utf8",
    });
    return stdout;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === "ENOENT") throw new UsageError("git is not installed or not on PATH (fix: install git)");
    const reason = (e.stderr ?? e.message).trim().split("\n")[0];
    throw new UsageError(
      `git ${args.filter((a) => !a.startsWith("--")).join(" ")} failed in ${cwd}: ${reason}`,
    );
  }
}

export async function verifyRef(workspace: string, ref: string, flag: string): Promise<void> {
  try {
    await run("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], {
      cwd: workspace,
    });
  } catch {
    throw new UsageError(
      `${flag} ${ref} is not a commit in ${workspace} (fix: fetch it, e.g. \`git fetch origin ${ref.replace(/^origin\//, "")}\`, or a shallow clone may need \`fetch-depth: 0\`)`,
    );
  }
}

/** The repository root of `dir`, so paths from git and from the config agree. */
export async function gitTopLevel(dir: string): Promise<string> {
  return (await git(dir, ["rev-parse", "--show-toplevel"])).trim();
}

/** The first of origin/HEAD, origin/main, main, origin/master, master that exists. */
export async function defaultBase(workspace: string): Promise<string> {
  for (const ref of ["origin/HEAD", "origin/main", "main", "origin/master", "master"]) {
    try {
      await run("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: workspace });
      return ref;
    } catch {
      // try the next
    }
  }
  throw new UsageError("no default base branch found (fix: pass --base REF, e.g. --base origin/main)");
}

/** Files as they are at `ref`, read through one `git cat-file --batch` process. */
export function gitTree(workspace: string, ref: string): TreeReader {
  return {
    async list(dir) {
      const args = ["ls-tree", "-r", "-z", "--name-only", "--full-tree", "--end-of-options", ref];
      const out = await git(workspace, dir ? [...args, "--", dir] : args);
      return out.split("\0").filter((p) => p.length > 0);
    },
    async readMany(paths) {
      if (paths.length === 0) return new Map();
      return catFileBatch(workspace, ref, paths);
    },
  };
}

function catFileBatch(cwd: string, ref: string, all: string[]): Promise<Map<string, string>> {
  // Paths with newlines cannot be named on this protocol; they are skipped, never misread.
  const paths = all.filter((p) => !p.includes("\n"));
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new UsageError(`git cat-file exited with ${code} in ${cwd}`));
      const buf = Buffer.concat(chunks);
      const out = new Map<string, string>();
      let at = 0;
      for (const path of paths) {
        const nl = buf.indexOf(10, at);
        if (nl < 0) break;
        const header = buf.toString("utf8", at, nl);
        at = nl + 1;
        const m = /^\S+ (\S+) (\d+)$/.exec(header);
        if (!m) continue; // "<name> missing"
        const size = Number(m[2]);
        if (m[1] === "blob") out.set(path, buf.toString("utf8", at, at + size));
        at += size + 1;
      }
      resolve(out);
    });
    child.stdin.end(paths.map((p) => `${ref}:${p}\n`).join(""));
  });
}
