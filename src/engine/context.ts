// The build context, decided before any engine call: which files are sent (honouring
// .dockerignore the way the Docker CLI does) and whether any symlink escapes the context.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { ConfigError } from "../errors.js";

export interface BuildContext {
  root: string;
  dockerfile: string;
  /** Paths relative to root, posix separators, sorted. Always includes the Dockerfile. */
  files: string[];
}

interface IgnoreRule {
  negate: boolean;
  match: (p: string) => boolean;
}

export function parseDockerignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1).trim();
    line = path.posix.normalize(line.replace(/^\/+/, ""));
    if (line === "." || line === "") continue;
    rules.push({ negate, match: picomatch(line, { dot: true }) });
  }
  return rules;
}

/** Last matching rule wins; a pattern that matches a parent directory matches what is inside it. */
export function isIgnored(rules: readonly IgnoreRule[], rel: string): boolean {
  let ignored = false;
  const parts = rel.split("/");
  for (const rule of rules) {
    for (let i = parts.length; i >= 1; i--) {
      if (rule.match(parts.slice(0, i).join("/"))) {
        ignored = !rule.negate;
        break;
      }
    }
  }
  return ignored;
}

/**
 * Lists the context. Throws ConfigError naming the link when a symlink points outside `root`
 * (an absolute target, or a relative one that climbs out), before anything reaches the engine.
 */
export function readBuildContext(root: string, dockerfile: string, contextLabel = root): BuildContext {
  const absRoot = path.resolve(root);
  let ignoreText = "";
  try {
    ignoreText = readFileSync(path.join(absRoot, ".dockerignore"), "utf8");
  } catch {
    // no .dockerignore: everything is sent
  }
  const rules = parseDockerignore(ignoreText);
  const hasNegation = rules.some((r) => r.negate);
  const files: string[] = [];
  const escapes: string[] = [];

  const walk = (dirRel: string) => {
    const dirAbs = path.join(absRoot, dirRel);
    for (const entry of readdirSync(dirAbs, { withFileTypes: true })) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      const ignored = isIgnored(rules, rel);
      if (entry.isDirectory()) {
        if (!ignored || hasNegation) walk(rel);
        continue;
      }
      if (ignored) continue;
      if (entry.isSymbolicLink()) checkLink(rel);
      files.push(rel);
    }
  };
  const checkLink = (rel: string) => {
    const target = readlinkSync(path.join(absRoot, rel));
    const resolved = path.resolve(path.dirname(path.join(absRoot, rel)), target);
    if (path.isAbsolute(target) || !isInside(absRoot, resolved)) escapes.push(`${rel} -> ${target}`);
  };
  walk("");
  // Read whatever .dockerignore says: an ignored Dockerfile (or .dockerignore) that links out
  // would still be read, and a parse error would quote the host file's first line.
  for (const rel of [path.posix.normalize(dockerfile), ".dockerignore"]) {
    const real = files.includes(rel) ? undefined : realpathOrUndefined(path.join(absRoot, rel));
    if (real && !isInside(realpathOrUndefined(absRoot) ?? absRoot, real)) escapes.push(`${rel} -> ${real}`);
  }

  if (escapes.length > 0) {
    throw new ConfigError(
      escapes.map((e) => ({
        path: "build.context",
        message: `symlink escapes the build context: ${e}`,
        fix: "replace the link with a copy of the file, or point it inside the context",
      })),
      contextLabel,
    );
  }
  const df = path.posix.normalize(dockerfile);
  if (!files.includes(df)) files.push(df);
  if (!files.includes(".dockerignore") && ignoreText) files.push(".dockerignore");
  files.sort();
  return { root: absRoot, dockerfile: df, files };
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
