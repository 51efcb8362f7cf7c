// The build context, decided before any engine call: which files are sent (honouring
// .dockerignore the way the Docker CLI does) and whether any symlink escapes the context.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { lstat, open, readFile, readlink } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { compileIgnorePattern, type IgnoreMatcher, MatchBudget, MatchBudgetSpent } from "./ignore-pattern.js";

/**
 * What one build context may hold once .dockerignore is applied: the context is the pull
 * request's, and all of it is read and sent to the engine. 100,000 files and 2 GiB cover a large
 * monorepo's service; past either the build is refused with the fix, before anything is sent.
 */
const CONTEXT_MAX_FILES = 100_000;
const CONTEXT_MAX_BYTES = 2 * 1024 ** 3;
/** Largest .dockerignore read (bytes): a real one is a few hundred. */
const DOCKERIGNORE_MAX_BYTES = 1024 * 1024;

export interface BuildContext {
  root: string;
  dockerfile: string;
  /** Paths relative to root, posix separators, sorted. Always includes the Dockerfile. */
  files: string[];
  /** What is never sent, whatever .dockerignore says (WITHHELD), as found in this context. */
  withheld?: string[];
}

/**
 * Never sent to the engine, whatever `.dockerignore` says: a `.git` directory (or a worktree's
 * `.git` file) holds the checkout's credentials (actions/checkout writes the job's token into
 * `.git/config` as an `http.extraheader`), which a `COPY . /src` and a `RUN cat` would put in the
 * build log, the report and the pull request's comment. An image that needs the commit gets it as
 * a build argument.
 */
const WITHHELD = new Set([".git"]);

interface IgnoreRule {
  negate: boolean;
  match: IgnoreMatcher;
}

/** The rules of a .dockerignore; a pattern Docker would refuse is a ConfigError naming its line. */
function parseDockerignore(text: string, file = ".dockerignore"): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  const problems: ConfigProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    let line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1).trim();
    // Cleaned as Docker cleans a pattern (filepath.Clean): "logs/" is "logs", a directory and all in it.
    line = path.posix.normalize(line.replace(/^\/+/, "")).replace(/\/+$/, "");
    if (line === "." || line === "") return;
    try {
      rules.push({ negate, match: compileIgnorePattern(line) });
    } catch (err) {
      problems.push({
        path: "",
        line: i + 1,
        message: `the pattern ${JSON.stringify(raw.trim().slice(0, 80))} ${(err as Error).message}`,
        fix: "write it as Docker reads it: * and ? within a name, ** for any directories, [a-z] closed, \\ before a literal special character",
      });
    }
  });
  if (problems.length > 0) throw new ConfigError(problems, file);
  return rules;
}

/**
 * Which rules match `rel` or a directory above it, given `above`, the same for its directory: a
 * pattern that matches a directory matches what is inside it, and each directory is tested once.
 */
function matchedRules(rules: readonly IgnoreRule[], rel: string, above: boolean[], budget: MatchBudget) {
  return rules.map((rule, i) => above[i] || rule.match(rel, budget));
}

/** The last matching rule wins. */
function ignoredBy(rules: readonly IgnoreRule[], matched: boolean[]): boolean {
  for (let i = rules.length - 1; i >= 0; i--) if (matched[i]) return !rules[i]!.negate;
  return false;
}

/**
 * Lists the context. Throws ConfigError naming the link when a symlink points outside `root`
 * (an absolute target, or a relative one that climbs out), before anything reaches the engine;
 * `budget` bounds what applying the .dockerignore may cost (a ConfigError past it).
 */
export function readBuildContext(
  root: string,
  dockerfile: string,
  contextLabel = root,
  budget = new MatchBudget(),
): BuildContext {
  const absRoot = path.resolve(root);
  const ignoreLabel = path.posix.join(contextLabel, ".dockerignore");
  const ignoreText = readDockerignore(path.join(absRoot, ".dockerignore"), ignoreLabel);
  const rules = parseDockerignore(ignoreText, ignoreLabel);
  const { files, withheld, escapes } = listContext(absRoot, rules, { contextLabel, ignoreLabel, budget });
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
  return { root: absRoot, dockerfile: df, files, ...(withheld.length ? { withheld } : {}) };
}

/**
 * The context's files as .dockerignore leaves them (each directory's rules tested once), what is
 * withheld whatever it says, and the symlinks that point out of the context; a ConfigError when
 * the context grows past its bounds or applying the patterns past their budget.
 */
function listContext(
  absRoot: string,
  rules: readonly IgnoreRule[],
  at: { contextLabel: string; ignoreLabel: string; budget: MatchBudget },
): { files: string[]; withheld: string[]; escapes: string[] } {
  const hasNegation = rules.some((r) => r.negate);
  const files: string[] = [];
  const withheld: string[] = [];
  const escapes: string[] = [];
  let bytes = 0;
  const walk = (dirRel: string, above: boolean[]) => {
    const dirAbs = path.join(absRoot, dirRel);
    for (const entry of readdirSync(dirAbs, { withFileTypes: true })) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (WITHHELD.has(entry.name)) {
        withheld.push(rel);
        continue;
      }
      const matched = matchedRules(rules, rel, above, at.budget);
      const ignored = ignoredBy(rules, matched);
      if (entry.isDirectory()) {
        if (!ignored || hasNegation) walk(rel, matched);
        continue;
      }
      if (ignored) continue;
      if (entry.isSymbolicLink()) checkLink(rel);
      else if (entry.isFile()) bytes += lstatSync(path.join(dirAbs, entry.name)).size;
      files.push(rel);
      if (files.length > CONTEXT_MAX_FILES || bytes > CONTEXT_MAX_BYTES)
        throw tooLarge(at.contextLabel, files.length, bytes);
    }
  };
  const checkLink = (rel: string) => {
    const target = readlinkSync(path.join(absRoot, rel));
    const resolved = path.resolve(path.dirname(path.join(absRoot, rel)), target);
    if (path.isAbsolute(target) || !isInside(absRoot, resolved)) escapes.push(`${rel} -> ${target}`);
  };
  try {
    walk(
      "",
      rules.map(() => false),
    );
  } catch (err) {
    if (err instanceof MatchBudgetSpent) throw tooCostly(at.ignoreLabel, files.length);
    throw err;
  }
  return { files, withheld, escapes };
}

/**
 * The context's .dockerignore, or "" when there is none. Opened without blocking and read only
 * when it is a regular file within the bound: a FIFO would hold the one thread for ever, a huge
 * file the run's memory.
 */
function readDockerignore(file: string, label: string): string {
  const refuse = (message: string, fix: string) => new ConfigError([{ path: "", message, fix }], label);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return ""; // no .dockerignore: everything is sent
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return ""; // refused at load; nothing to read here
    if (!st.isFile()) throw refuse("is not a regular file", "make .dockerignore a plain text file");
    if (st.size > DOCKERIGNORE_MAX_BYTES) {
      throw refuse(
        `is ${st.size} bytes; at most ${DOCKERIGNORE_MAX_BYTES} (1 MiB) are read`,
        "list directories rather than each file (a pattern such as build/ or **/*.log covers many)",
      );
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function tooCostly(label: string, listed: number): ConfigError {
  return new ConfigError(
    [
      {
        path: "",
        message: `its patterns cost too much to apply to the build context (stopped after ${listed} files); nothing was sent to the engine`,
        fix: "use fewer patterns, and fewer * in each: exclude whole directories (build/, **/node_modules) rather than many files one by one",
      },
    ],
    label,
  );
}

function tooLarge(contextLabel: string, count: number, bytes: number): ConfigError {
  const over =
    count > CONTEXT_MAX_FILES
      ? `more than ${CONTEXT_MAX_FILES} files`
      : `more than ${CONTEXT_MAX_BYTES / 1024 ** 3} GiB (${count} files so far)`;
  return new ConfigError(
    [
      {
        path: "build.context",
        message: `the build context holds ${over} after .dockerignore; nothing was sent to the engine`,
        fix: "list what the image does not need (node_modules, .git, build output, data) in the context's .dockerignore, or point build.context at a smaller directory",
      },
    ],
    contextLabel,
  );
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

const BLOCK = 512;

/**
 * The context as an uncompressed tar stream, as `docker build` sends it: the listed files only
 * (`.dockerignore` was applied when they were listed), regular files and symlinks, in order.
 * Written here rather than by dockerode's packing, which applies `.dockerignore` a second time by
 * its own rules, gzips the tar (CPU for nothing over a local socket) and loads four packages to
 * do it. A listed file that has gone is left out (the engine names a missing Dockerfile itself).
 */
export function contextTar(ctx: BuildContext, dockerfile?: SentApart): Readable {
  return Readable.from(tarEntries(ctx, dockerfile));
}

/** A Dockerfile sent beside the context's own, as `docker build -f -` sends one (see SentApart). */
export interface SentApart {
  /** A file name at the context's root that no file of the context has. */
  name: string;
  text: string;
}

async function* tarEntries(ctx: BuildContext, apart?: SentApart): AsyncGenerator<Buffer> {
  for (const rel of ctx.files) {
    const abs = path.join(ctx.root, rel);
    let st: Stats;
    try {
      st = await lstat(abs);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) {
      yield* tarHeader(rel, st, "2", 0, await readlink(abs));
    } else if (apart && rel === ".dockerignore" && st.isFile()) {
      const own = (await readFile(abs)).subarray(0, DOCKERIGNORE_MAX_BYTES);
      yield* textEntry(rel, st, Buffer.concat([own, Buffer.from(`\n${apart.name}\n`)]));
    } else if (st.isFile()) {
      yield* tarHeader(rel, st, "0", st.size);
      yield* fileBody(abs, st.size);
    }
  }
  if (apart) {
    // The engine drops from the context what .dockerignore names, the Dockerfile apart with it
    // (and .dockerignore itself where it names itself, as the CLI's own does when there is none).
    const made = { mode: 0o600, uid: 0, gid: 0, mtimeMs: 0 };
    if (!ctx.files.includes(".dockerignore"))
      yield* textEntry(".dockerignore", made, Buffer.from(`.dockerignore\n${apart.name}\n`));
    yield* textEntry(apart.name, made, Buffer.from(apart.text));
  }
  yield Buffer.alloc(2 * BLOCK);
}

function* textEntry(name: string, st: HeaderStats, body: Buffer): Generator<Buffer> {
  yield* tarHeader(name, st, "0", body.length);
  yield body;
  if (body.length % BLOCK) yield Buffer.alloc(BLOCK - (body.length % BLOCK));
}

/** Exactly `size` bytes of the file (zeros if it shrank meanwhile), padded to the block size. */
async function* fileBody(abs: string, size: number): AsyncGenerator<Buffer> {
  const fh = await open(abs, "r");
  try {
    let left = size;
    while (left > 0) {
      const buf = Buffer.alloc(Math.min(left, 1 << 20));
      const { bytesRead } = await fh.read(buf, 0, buf.length, size - left);
      if (bytesRead === 0) {
        yield Buffer.alloc(left);
        break;
      }
      yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      left -= bytesRead;
    }
  } finally {
    await fh.close();
  }
  if (size % BLOCK) yield Buffer.alloc(BLOCK - (size % BLOCK));
}

/** A ustar header, preceded by a PAX header when a name does not fit (long or not ASCII). */
type HeaderStats = Pick<Stats, "mode" | "uid" | "gid" | "mtimeMs">;

function* tarHeader(
  name: string,
  st: HeaderStats,
  type: "0" | "2",
  size: number,
  link = "",
): Generator<Buffer> {
  const fits = (s: string, n: number) => Buffer.byteLength(s) <= n && /^[\x20-\x7e]*$/.test(s);
  const pax: string[] = [];
  if (!fits(name, 100)) pax.push(paxRecord("path", name));
  if (!fits(link, 100)) pax.push(paxRecord("linkpath", link));
  if (size > 0o77777777777) pax.push(paxRecord("size", String(size)));
  if (pax.length > 0) {
    const body = Buffer.from(pax.join(""), "utf8");
    yield ustar(`PaxHeaders/${ascii(name).slice(-80)}`, 0o644, 0, 0, body.length, 0, "x", "");
    yield body;
    if (body.length % BLOCK) yield Buffer.alloc(BLOCK - (body.length % BLOCK));
  }
  const mtime = Math.floor(st.mtimeMs / 1000);
  yield ustar(
    ascii(name).slice(-100),
    st.mode & 0o7777,
    st.uid,
    st.gid,
    size,
    mtime,
    type,
    ascii(link).slice(-100),
  );
}

function ascii(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, "_");
}

/** "<length> key=value\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(rest);
  while (String(len).length + Buffer.byteLength(rest) !== len)
    len = String(len).length + Buffer.byteLength(rest);
  return `${len}${rest}`;
}

function ustar(
  name: string,
  mode: number,
  uid: number,
  gid: number,
  size: number,
  mtime: number,
  type: string,
  link: string,
): Buffer {
  const h = Buffer.alloc(BLOCK);
  const octal = (value: number, at: number, width: number) =>
    h.write(
      `${Math.min(value, 8 ** (width - 1) - 1)
        .toString(8)
        .padStart(width - 1, "0")}\0`,
      at,
      width,
      "ascii",
    );
  h.write(name, 0, 100, "ascii");
  octal(mode, 100, 8);
  octal(uid, 108, 8);
  octal(gid, 116, 8);
  octal(size, 124, 12);
  octal(mtime, 136, 12);
  h.write(type, 156, 1, "ascii");
  h.write(link, 157, 100, "ascii");
  h.write("ustar\x0000", 257, 8, "ascii");
  h.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}
