// The inventory's text, as both ways of validating it read it (./load.ts: the precompiled check,
// then zod in ./validate.ts when it cannot vouch): JSON with positions, refused when too large,
// too deep or not JSON; and a valid inventory made a LoadedInventory, or its problems a ConfigError.
import { sha256Hex } from "../crypto.js";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { JSON_MAX_DEPTH, JsonDepthError, JsonSyntaxError, jsonPath, locateJson } from "../jsonpos.js";
import { workspaceProblems } from "./paths.js";
import type { Inventory } from "./schema.js";

/**
 * Largest inventory file read (bytes). This repository's is 2 KB; a thousand subjects fit in
 * 1 MiB. Past it the file is refused before it is parsed, so a pull request cannot make the
 * run spend its memory and time on the file that describes it.
 */
export const INVENTORY_MAX_BYTES = 1024 * 1024;

export interface LoadedInventory {
  path: string;
  /** sha256 of the file's exact bytes: what the report records and `verify` compares. */
  sha256: string;
  text: string;
  inventory: Inventory;
}

export interface LoadOptions {
  /** The repository root that pinned paths are relative to (default: the current directory). */
  workspace?: string;
  /**
   * Every path must also be there, of the right kind (a run about to build from them): a
   * missing context, Dockerfile or pinned file is a configuration error, not a build failure.
   */
  existing?: boolean;
}

type LocatedInventory = ReturnType<typeof locateJson>;

export function tooLargeProblem(file: string, bytes: number): ConfigError {
  return new ConfigError(
    [
      {
        path: "",
        message: `is ${bytes} bytes; at most ${INVENTORY_MAX_BYTES} (1 MiB) are read`,
        fix: "describe fewer subjects per inventory (one inventory per service group), or remove what the schema does not need",
      },
    ],
    file,
  );
}

/** The JSON with its positions, or a ConfigError: too large, too deep, or not JSON. */
export function locateInventory(file: string, text: string): LocatedInventory {
  const bytes = Buffer.byteLength(text);
  if (bytes > INVENTORY_MAX_BYTES) throw tooLargeProblem(file, bytes);
  try {
    return locateJson(text, JSON_MAX_DEPTH);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const deep = err instanceof JsonDepthError;
    const problem = {
      path: "",
      line: err.line,
      message: deep ? `${err.message}; an inventory needs at most 7` : `not valid JSON: ${err.message}`,
      fix: deep
        ? "remove the extra nesting: see inventory.schema.json for each field's shape"
        : "fix the JSON syntax",
    };
    throw new ConfigError([problem], file);
  }
}

/** Duplicate keys: JSON keeps the last, so the file does not say what its author may think. */
export function duplicateProblems(located: LocatedInventory): ConfigProblem[] {
  return located.duplicates.map((d) => ({
    path: jsonPath(d.path),
    line: d.line,
    message: `duplicate key "${String(d.path.at(-1))}" (also on line ${d.firstLine}); JSON keeps only the last`,
    fix: "remove one of them",
  }));
}

/**
 * The loaded inventory, once validated (`inventory`: the schema's output, undefined when it
 * failed and `problems` say why): with a workspace, pinned paths that exist must also resolve
 * inside it (no symlink escapes). Every problem at once, by line, or none.
 */
export function loadedInventory(
  file: string,
  text: string,
  located: LocatedInventory,
  problems: ConfigProblem[],
  inventory: Inventory | undefined,
  opts: LoadOptions,
): LoadedInventory {
  if (inventory && opts.workspace)
    problems.push(...workspaceProblems(inventory, opts.workspace, located.spans, opts.existing === true));
  if (problems.length > 0 || !inventory) {
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    throw new ConfigError(problems, file);
  }
  // The digest is taken when first read (the report records it, after the run's first engine call).
  let sha256: string | undefined;
  return {
    path: file,
    get sha256() {
      sha256 ??= sha256Hex(text);
      return sha256;
    },
    text,
    inventory,
  };
}
