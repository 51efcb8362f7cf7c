// CODEOWNERS, read the way GitHub reads it: the first of .github/, the root, docs/ wins; patterns
// follow gitignore rules; the LAST matching pattern decides (a later line with no owners clears).
import picomatch from "picomatch";

export const CODEOWNERS_LOCATIONS = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"];

interface CodeOwnersRule {
  pattern: string;
  owners: string[];
  line: number;
}

export interface CodeOwners {
  /** Where the rules came from, or null when the repository has none. */
  file: string | null;
  rules: CodeOwnersRule[];
  ownersOf(path: string): string[];
}

export function parseCodeOwners(text: string, file: string | null = "CODEOWNERS"): CodeOwners {
  const rules: CodeOwnersRule[] = [];
  text.split(/\r?\n/).forEach((raw, idx) => {
    // "#" starts a comment at the line start or after whitespace; "\#" is a literal hash.
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) return;
    const tokens = line.split(/\s+/);
    const pattern = tokens[0]!.replace(/\\#/g, "#");
    const owners = tokens.slice(1).filter((t) => t.startsWith("@") || t.includes("@"));
    rules.push({ pattern, owners, line: idx + 1 });
  });
  const compiled = rules.map((r) => ({ rule: r, test: compileCodeOwnersPattern(r.pattern) }));
  const cache = new Map<string, string[]>();
  return {
    file,
    rules,
    ownersOf(path) {
      const hit = cache.get(path);
      if (hit) return hit;
      let owners: string[] = [];
      for (const c of compiled) if (c.test(path)) owners = c.rule.owners;
      cache.set(path, owners);
      return owners;
    },
  };
}

export const NO_CODEOWNERS: CodeOwners = { file: null, rules: [], ownersOf: () => [] };

/**
 * gitignore semantics as GitHub applies them: a pattern with no slash but a trailing one matches
 * at any depth; a leading or middle slash anchors it at the root; a match on a directory covers
 * everything below it; `docs/*` matches files directly in docs/ only.
 */
function compileCodeOwnersPattern(pattern: string): (path: string) => boolean {
  if (pattern === "*" || pattern === "/*" || pattern === "**" || pattern === "/**") return () => true;
  let p = pattern;
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  const base = anchored ? p : `**/${p}`;
  // Matching "base" itself names a file, or a directory whose contents match "base/**"; but a
  // wildcard last segment (`docs/*`) matches direct children only, as GitHub documents.
  const last = p.slice(p.lastIndexOf("/") + 1);
  const globs = dirOnly ? [`${base}/**`] : last.includes("*") ? [base] : [base, `${base}/**`];
  const isMatch = picomatch(globs, { dot: true });
  return (path) => isMatch(path);
}
