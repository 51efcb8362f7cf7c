// A git repository in a test's temporary directory, as a workspace's checkout is one: the base
// commit a pull request's judging parts are read from.
import { execFileSync } from "node:child_process";

/** git in `dir`, as a committer the tests name, its output trimmed. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
}
