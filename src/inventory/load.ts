// Reads and validates the inventory. Every problem names the file, the line, the JSON path, what
// was expected and the fix; all problems are reported at once; nothing here touches the engine.
// A valid inventory is vouched for by the precompiled check (./precheck.ts) without loading zod:
// start-up time is a budget, and the run's first engine call waits for this. Whatever it cannot
// vouch for is validated by zod (./validate.ts, loaded then), which words every problem.
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import { patternProblem } from "../checks/pattern.js";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { jsonPath, locateJson, valueAt } from "../jsonpos.js";
import { realOrSelf } from "./paths.js";
import { precheckInventory } from "./precheck.js";
import {
  duplicateProblems,
  INVENTORY_MAX_BYTES,
  type LoadedInventory,
  type LoadOptions,
  loadedInventory,
  locateInventory,
  tooLargeProblem,
} from "./text.js";

export { resolveInWorkspace } from "./paths.js";
export { INVENTORY_MAX_BYTES, type LoadedInventory };

export async function loadInventory(file: string, opts: LoadOptions = {}): Promise<LoadedInventory> {
  const workspace = opts.workspace ?? process.cwd();
  const text = await readInventoryFile(file, workspace);
  const loaded = await parseInventoryText(file, text, { ...opts, workspace });
  await checkPatterns(loaded);
  return loaded;
}

/**
 * The inventory's text. The path is the workflow's, but the file at it is the pull request's: a
 * symbolic link it commits is followed only within the workspace (a link to a JSON file of the
 * runner would have its values quoted in the problems, one to /dev/zero read until memory runs
 * out), and only a regular file within INVENTORY_MAX_BYTES is read, opened without blocking (a
 * FIFO would be waited on for ever). An inventory given outside the workspace is nobody's link.
 */
async function readInventoryFile(file: string, workspace: string): Promise<string> {
  const root = realOrSelf(path.resolve(workspace));
  const given = path.resolve(file);
  const real = realOrSelf(given);
  const refuse = (message: string, fix: string) => new ConfigError([{ path: "", message, fix }], file);
  // Named inside the workspace (as written, before any link is followed): it must stay inside.
  const named = isWithin(path.resolve(workspace), given) || isWithin(root, given);
  if (named && !isWithin(root, real)) {
    throw refuse(
      `resolves outside the workspace (through a symbolic link, to ${real})`,
      "commit the inventory itself, not a link to a file outside the repository",
    );
  }
  let fh: FileHandle;
  try {
    fh = await open(given, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    throw refuse(`cannot read the inventory (${code})`, INVENTORY_MISSING_FIX);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw refuse("is not a regular file", "make the inventory a plain JSON file");
    if (st.size > INVENTORY_MAX_BYTES) throw tooLargeProblem(file, st.size);
    return await fh.readFile("utf8");
  } finally {
    await fh.close();
  }
}

const INVENTORY_MISSING_FIX =
  "`docker-acceptance init` writes one from the repository's Dockerfiles, or pass --inventory PATH";

const isWithin = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * Every log pattern compiles for the linear-time matcher (../checks/pattern.ts), checked here rather
 * than in the schema so that the matcher loads only for an inventory that declares a pattern.
 */
async function checkPatterns(loaded: LoadedInventory): Promise<void> {
  const at: (string | number)[][] = [];
  loaded.inventory.subjects.forEach((s, i) => {
    if (s.readiness?.type === "log") at.push(["subjects", i, "readiness", "pattern"]);
    s.probes.forEach((p, j) => {
      if (p.type === "log") at.push(["subjects", i, "probes", j, "pattern"]);
    });
  });
  if (at.length === 0) return;
  const spans = locateJson(loaded.text).spans;
  const problems: ConfigProblem[] = [];
  for (const p of at) {
    const source = valueAt(loaded.inventory, p) as string;
    const message = await patternProblem(source);
    if (message === undefined) continue;
    problems.push({
      path: jsonPath(p),
      line: spans.get(jsonPath(p))?.line,
      message,
      fix: /lookaround|backreference/.test(message)
        ? "match the line without it (a log pattern is tested against each line on its own)"
        : "escape special characters such as ( [ . with a backslash",
    });
  }
  if (problems.length > 0) throw new ConfigError(problems, loaded.path);
}

/**
 * Validates inventory text, as ./validate.ts `parseInventory` does (the same LoadedInventory, the
 * same ConfigError): the precompiled check vouches for a valid inventory, zod decides the rest.
 */
export async function parseInventoryText(
  file: string,
  text: string,
  opts: LoadOptions = {},
): Promise<LoadedInventory> {
  const located = locateInventory(file, text);
  const vouched = precheckInventory(located.value);
  if (vouched) return loadedInventory(file, text, located, duplicateProblems(located), vouched, opts);
  return (await import("./validate.js")).parseInventory(file, text, opts);
}
