// The inventory's paths against the workspace: every one stays inside it once symbolic links are
// resolved, and, for a run that is about to build from them, every one is there and of the right
// kind. A path mistake is a configuration error naming the file, line and field (exit 2), found
// before any engine call, never a build failure with the engine's temporary path in it.
import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import type { ConfigProblem } from "../errors.js";
import { jsonPath, type Span } from "../jsonpos.js";
import { relPathProblem } from "./rules.js";
import type { Inventory } from "./schema.js";
import { closest } from "./suggest.js";

type At = (string | number)[];

interface PathCheck {
  at: At;
  /** Relative to the workspace. */
  rel: string;
  /** Where it must resolve: the workspace, or a subject's build context. */
  within: string;
  kind: "directory" | "file";
  /** A missing optional path is fine (.dockerignore); one that is there must still be a file. */
  optional?: boolean;
  /** What a person calls it, for the message. */
  what: string;
}

/**
 * Problems with the inventory's paths in `workspace`. Always: a path that resolves outside the
 * workspace (or a Dockerfile or .dockerignore outside its context). With `existing`: a build
 * context that is not a directory, a Dockerfile or artifact that is not a file, a .dockerignore
 * that is not a file.
 */
export function workspaceProblems(
  inv: Inventory,
  workspace: string,
  spans: Map<string, Span>,
  existing: boolean,
): ConfigProblem[] {
  const root = realOrSelf(path.resolve(workspace));
  const problems: ConfigProblem[] = [];
  // One problem per cause: nothing is said of the files in a context already refused.
  const refused = new Set<string>();
  for (const check of pathChecks(inv)) {
    if (refused.has(check.within)) continue;
    const real = realOrSelf(path.resolve(root, check.rel));
    const within = realOrSelf(path.resolve(root, check.within));
    const line = spans.get(jsonPath(check.at))?.line;
    if (!inside(root, real) || !inside(within, real)) {
      const where = inside(root, real) ? "its build context" : "the workspace";
      problems.push({
        path: jsonPath(check.at),
        line,
        message: `"${check.rel}" resolves outside ${where} (through a symbolic link, to ${real})`,
        fix: "point it at a real file or directory inside the repository",
      });
      refused.add(check.rel);
      continue;
    }
    const wrong = existing ? kindProblem(check, real) : undefined;
    if (wrong) problems.push({ path: jsonPath(check.at), line, ...wrong });
    if (wrong) refused.add(check.rel);
  }
  return problems;
}

function pathChecks(inv: Inventory): PathCheck[] {
  const checks: PathCheck[] = [];
  inv.subjects.forEach((s, i) => {
    if (!s.build) return;
    const at: At = ["subjects", i, "build"];
    const context = s.build.context;
    checks.push({
      at: [...at, "context"],
      rel: context,
      within: ".",
      kind: "directory",
      what: "build context",
    });
    // A Dockerfile or .dockerignore linked out of the context would be read from the host.
    if (relPathProblem(context)) return;
    const dockerfile = path.posix.join(context.replaceAll("\\", "/"), s.build.dockerfile);
    checks.push({
      at: [...at, "dockerfile"],
      rel: dockerfile,
      within: context,
      kind: "file",
      what: "Dockerfile",
    });
    const ignore = path.posix.join(context.replaceAll("\\", "/"), ".dockerignore");
    checks.push({
      at: [...at, "context"],
      rel: ignore,
      within: context,
      kind: "file",
      optional: true,
      what: ".dockerignore",
    });
  });
  inv.artifacts.forEach((a, i) => {
    checks.push({
      at: ["artifacts", i, "path"],
      rel: a.path,
      within: ".",
      kind: "file",
      what: "pinned file",
    });
  });
  return checks;
}

/** A path that is missing or of the wrong kind: what is wrong and the fix, with a near name. */
function kindProblem(check: PathCheck, real: string): { message: string; fix: string } | undefined {
  let kind: string;
  try {
    const st = statSync(real);
    // A FIFO, socket or device is no file to read: opening a FIFO waits for a writer for ever.
    kind = st.isDirectory() ? "directory" : st.isFile() ? "file" : "special file (a FIFO, socket or device)";
  } catch {
    if (check.optional) return undefined;
    const near = nearName(real);
    return {
      message: `the ${check.what} "${check.rel}" does not exist in the workspace`,
      fix: near
        ? `did you mean "${path.posix.join(path.posix.dirname(check.rel), near)}"?`
        : `create it, or correct the path (${check.what === "Dockerfile" ? "relative to the build context" : "relative to the repository root"})`,
    };
  }
  if (kind === check.kind) return undefined;
  return {
    message: `the ${check.what} "${check.rel}" is a ${kind}, not a ${check.kind}`,
    fix:
      check.kind === "directory"
        ? "point build.context at the directory that holds the Dockerfile"
        : kind === "directory"
          ? `point it at the ${check.what} inside that directory`
          : kind === "file"
            ? `point it at the ${check.what}`
            : `replace it with a regular file, or point it at the ${check.what}`,
  };
}

/** A sibling whose name is a likely typo of the missing one. */
function nearName(missing: string): string | undefined {
  try {
    return closest(path.basename(missing), readdirSync(path.dirname(missing)));
  } catch {
    return undefined;
  }
}

function inside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/** The real path, resolving links in the deepest existing ancestor when `target` itself is missing. */
export function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    // A missing file under a linked directory must still be seen to be outside.
    const parent = path.dirname(target);
    return parent === target ? target : path.join(realOrSelf(parent), path.basename(target));
  }
}

/** Re-checks a path before it is read: the lexical rule, then the resolved location. */
export function resolveInWorkspace(workspace: string, rel: string): string | undefined {
  if (relPathProblem(rel)) return undefined;
  const root = realOrSelf(path.resolve(workspace));
  const real = realOrSelf(path.resolve(root, rel));
  return inside(root, real) ? real : undefined;
}
