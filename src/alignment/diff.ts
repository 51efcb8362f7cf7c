// The one unified-diff parser. `git diff` output (with `diff --git` headers) and GitHub's
// per-file `patch` (hunks only) both go through parseHunks, so "which lines did the PR add" has
// one answer. Hunks are consumed by their declared line counts, never by guessing from a line's
// first characters: an added line reading "++ x" shows as "+++ x" and must not end the file.

export type FileStatus = "added" | "modified" | "removed" | "renamed" | "copied" | "changed" | "unchanged";

export interface AddedLine {
  /** 1-based line number in the new file. */
  line: number;
  text: string;
}

export interface DiffFile {
  /** Path in the new tree (the old path for a removed file), relative to the repository root. */
  path: string;
  previousPath?: string;
  status: FileStatus;
  binary: boolean;
  /** False when the source gave no patch (GitHub omits it for binary or very large files): path-level checks only. */
  diffScoped: boolean;
  added: AddedLine[];
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Added lines of one file's hunks, starting at `lines[start]`. Returns the index after the last
 * hunk line consumed, so a multi-file parser can continue from there.
 */
function parseHunks(lines: string[], start: number, added: AddedLine[]): number {
  let i = start;
  while (i < lines.length) {
    const m = HUNK.exec(lines[i]!);
    if (!m) return i;
    let oldLeft = m[1] === undefined ? 1 : Number(m[1]);
    let newLeft = m[3] === undefined ? 1 : Number(m[3]);
    let lineNo = Number(m[2]);
    i++;
    while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
      const l = lines[i]!;
      const c = l.charCodeAt(0);
      if (c === 43 /* + */) {
        added.push({ line: lineNo++, text: l.slice(1) });
        newLeft--;
      } else if (c === 45 /* - */) {
        oldLeft--;
      } else if (c === 32 /* space */ || l === "") {
        // Context (an empty line is context whose leading space an editor or transport stripped).
        lineNo++;
        oldLeft--;
        newLeft--;
      } else if (c !== 92 /* \ No newline at end of file */) {
        break; // malformed: stop this hunk rather than misnumber the rest
      }
      i++;
    }
    // A trailing "\ No newline at end of file" after the counts ran out.
    while (i < lines.length && lines[i]!.charCodeAt(0) === 92) i++;
  }
  return i;
}

/** Added lines of a GitHub `patch` (hunks only, no file headers). */
export function parsePatch(patch: string): AddedLine[] {
  const added: AddedLine[] = [];
  const lines = patch.split("\n");
  let i = 0;
  while (i < lines.length) {
    const next = parseHunks(lines, i, added);
    i = next === i ? i + 1 : next;
  }
  return added;
}

/** Files of a `git diff` (any --unified, with or without renames detected). */
export function parseUnifiedDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const header = lines[i]!;
    if (!header.startsWith("diff --git ")) {
      i++;
      continue;
    }
    const file: DiffFile = { path: "", status: "modified", binary: false, diffScoped: true, added: [] };
    const fromHeader = splitGitHeader(header.slice("diff --git ".length));
    let oldPath = fromHeader?.[0];
    let newPath = fromHeader?.[1];
    i++;
    for (; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.startsWith("diff --git ") || l.startsWith("@@ ")) break;
      if (l.startsWith("new file mode")) file.status = "added";
      else if (l.startsWith("deleted file mode")) file.status = "removed";
      else if (l.startsWith("rename from ")) {
        file.status = "renamed";
        oldPath = unquote(l.slice(12));
      } else if (l.startsWith("rename to ")) newPath = unquote(l.slice(10));
      else if (l.startsWith("copy from ")) {
        file.status = "copied";
        oldPath = unquote(l.slice(10));
      } else if (l.startsWith("copy to ")) newPath = unquote(l.slice(8));
      else if (l.startsWith("--- ")) {
        const p = stripPrefix(unquote(l.slice(4)), "a/");
        if (p !== null) oldPath = p;
      } else if (l.startsWith("+++ ")) {
        const p = stripPrefix(unquote(l.slice(4)), "b/");
        if (p !== null) newPath = p;
      } else if (l.startsWith("Binary files ") || l === "GIT binary patch") file.binary = true;
    }
    i = parseHunks(lines, i, file.added);
    file.path = (file.status === "removed" ? oldPath : newPath) ?? oldPath ?? "";
    if ((file.status === "renamed" || file.status === "copied") && oldPath) file.previousPath = oldPath;
    if (file.path) files.push(file);
  }
  return files;
}

/** "--- /dev/null" -> null; "a/src/x.ts" -> "src/x.ts". */
function stripPrefix(p: string, prefix: string): string | null {
  if (p === "/dev/null") return null;
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

/**
 * `a/x b/x` -> [x, x]. Ambiguous when paths contain " b/", so the `---`/`+++`/rename lines that
 * follow take precedence; this only names files that have none (mode changes, empty files).
 */
function splitGitHeader(rest: string): [string, string] | null {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*")\s+(.*)$/.exec(rest);
    if (!m) return null;
    return [stripPrefix(unquote(m[1]!), "a/") ?? "", stripPrefix(unquote(m[2]!), "b/") ?? ""];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const [a, b] = [rest.slice(0, half), rest.slice(half + 1)];
    if (a.slice(2) === b.slice(2)) return [a.slice(2), b.slice(2)];
  }
  const at = rest.indexOf(" b/");
  if (at < 0) return null;
  return [stripPrefix(rest.slice(0, at), "a/") ?? "", stripPrefix(unquote(rest.slice(at + 1)), "b/") ?? ""];
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  '"': '"',
  "\\": "\\",
  a: "\x07",
  b: "\b",
  f: "\f",
  r: "\r",
  v: "\v",
};

/** Git's C-style quoting ("caf\303\251.txt" -> "café.txt"); unquoted text passes through. */
export function unquote(quoted: string): string {
  // Git appends a tab after names containing spaces in ---/+++ lines.
  const s = quoted.endsWith("\t") ? quoted.slice(0, -1) : quoted;
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(...Buffer.from(ESCAPES[next] ?? next, "utf8"));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
