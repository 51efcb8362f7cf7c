// Artifact pins: files whose bytes the inventory fixes by sha256. `verifyArtifacts` measures them;
// `pinArtifacts` rewrites the digests for a maintainer as a text-level edit, so the file keeps its
// layout, key order and comments-free formatting exactly (a re-serialisation would reflow it).
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { open, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { JsonSyntaxError, jsonPath, locateJson } from "../jsonpos.js";
import type { ArtifactResult } from "../report/model.js";
import { resolveInWorkspace } from "./load.js";
import { relPathProblem } from "./rules.js";
import type { Inventory } from "./schema.js";

/**
 * How many pinned files are read at once. The pins are the pull request's (when its base is not
 * available, or its inventory is new): a thousand of them, each a link to one 100 MB file, read
 * whole and all at once, held 100 GB.
 */
const HASHING_AT_ONCE = 4;

/**
 * The sha256 of a regular file, streamed (memory stays flat whatever its size), or null when it
 * is not one. Opened without blocking, so a FIFO is refused rather than waited on for ever (a
 * blocked open holds one of the few threads every file read and DNS lookup of the run shares).
 */
async function sha256File(file: string): Promise<string | null> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!(await fh.stat()).isFile()) return null;
    const hash = createHash("sha256");
    await pipeline(fh.createReadStream({ autoClose: false }), hash);
    return hash.digest("hex");
  } finally {
    await fh.close();
  }
}

/** The digest of a pinned path, or null when it is missing, not a file, or resolves outside the workspace. */
async function digestOf(workspace: string, rel: string): Promise<string | null> {
  const real = resolveInWorkspace(workspace, rel);
  if (!real) return null;
  return digestOfReal(real);
}

async function digestOfReal(real: string): Promise<string | null> {
  try {
    return await sha256File(real);
  } catch {
    return null; // missing, a directory, unreadable: all "not the pinned file"
  }
}

/**
 * The digest of each pinned path, each real file read once (links to one file are one read) and
 * at most HASHING_AT_ONCE at a time.
 */
async function digestsOf(workspace: string, rels: readonly string[]): Promise<(string | null)[]> {
  const reals = rels.map((rel) => resolveInWorkspace(workspace, rel));
  const unique = [...new Set(reals.filter((r) => r !== undefined))];
  const digests = new Map<string, string | null>();
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const real = unique[next++]!;
      digests.set(real, await digestOfReal(real));
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASHING_AT_ONCE, unique.length) }, worker));
  return reals.map((real) => (real === undefined ? null : digests.get(real)!));
}

/**
 * Every pinned artifact, measured. `line` (1-based, the pin's line in the inventory file) is set
 * when the inventory's text is given, so a mismatch can be annotated where it is pinned.
 */
export async function verifyArtifacts(
  workspace: string,
  inventory: Inventory,
  inventoryText?: string,
): Promise<ArtifactResult[]> {
  const spans = inventoryText === undefined ? undefined : locateJson(inventoryText).spans;
  const digests = await digestsOf(
    workspace,
    inventory.artifacts.map((a) => a.path),
  );
  return inventory.artifacts.map((a, i): ArtifactResult => {
    const actual = digests[i]!;
    const line = spans?.get(jsonPath(["artifacts", i, "sha256"]))?.line;
    return { path: a.path, expected: a.sha256, actual, ok: actual === a.sha256, ...(line ? { line } : {}) };
  });
}

interface PinChange {
  path: string;
  before: string;
  after: string;
  changed: boolean;
}

/**
 * Rewrites each `artifacts[i].sha256` value in the inventory file with the digest of the file in
 * the workspace, touching nothing else. A new pin may start as `"sha256": ""`. Refuses (ConfigError,
 * nothing written) when a pinned file is missing or the result would not be a valid inventory.
 */
export async function pinArtifacts(file: string, workspace: string): Promise<PinChange[]> {
  // zod, through the validation the pin ends with: loaded here, so a run that verifies artifacts
  // (verifyArtifacts) never builds the inventory's schema.
  const { parseInventory } = await import("./validate.js");
  const text = await readFile(file, "utf8");
  let located: ReturnType<typeof locateJson>;
  try {
    located = locateJson(text);
  } catch (err) {
    // parseInventory words the syntax error the same way everywhere.
    if (err instanceof JsonSyntaxError) parseInventory(file, text);
    throw err;
  }
  const artifacts = (located.value as { artifacts?: unknown }).artifacts;
  const list = Array.isArray(artifacts) ? (artifacts as { path?: unknown; sha256?: unknown }[]) : [];
  const edits: { start: number; end: number; digest: string }[] = [];
  const changes: PinChange[] = [];
  const problems: ConfigProblem[] = [];
  for (const [i, a] of list.entries()) {
    const at = ["artifacts", i];
    const span = located.spans.get(jsonPath([...at, "sha256"]));
    const pathLine = located.spans.get(jsonPath([...at, "path"]))?.line;
    if (typeof a?.path !== "string" || relPathProblem(a.path)) continue; // parseInventory reports it
    if (!span || typeof a.sha256 !== "string") {
      problems.push({
        path: jsonPath(at),
        line: located.spans.get(jsonPath(at))?.line,
        message: 'has no "sha256" string to rewrite',
        fix: 'add "sha256": "" and run pin again',
      });
      continue;
    }
    const digest = await digestOf(workspace, a.path);
    if (digest === null) {
      problems.push({
        path: jsonPath([...at, "path"]),
        line: pathLine,
        message: `"${a.path}" is not a readable file inside the workspace ${path.resolve(workspace)}`,
        fix: "restore the file, or remove its pin",
      });
      continue;
    }
    changes.push({ path: a.path, before: a.sha256, after: digest, changed: digest !== a.sha256 });
    if (digest !== a.sha256) edits.push({ start: span.start, end: span.end, digest });
  }
  if (problems.length > 0) throw new ConfigError(problems, file);
  let out = text;
  for (const e of edits.sort((x, y) => y.start - x.start)) {
    out = `${out.slice(0, e.start)}"${e.digest}"${out.slice(e.end)}`;
  }
  parseInventory(file, out, { workspace }); // never write an inventory that would not load
  if (out !== text) await writeFile(file, out);
  return changes;
}
