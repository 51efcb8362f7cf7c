// Artifact pins: files whose bytes the inventory fixes by sha256. `verifyArtifacts` measures them;
// `pinArtifacts` rewrites the digests for a maintainer as a text-level edit, so the file keeps its
// layout, key order and comments-free formatting exactly (a re-serialisation would reflow it).
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { JsonSyntaxError, jsonPath, locateJson } from "../jsonpos.js";
import type { ArtifactResult } from "../report/model.js";
import { parseInventory, resolveInWorkspace } from "./load.js";
import { type Inventory, relPathProblem } from "./schema.js";

export async function sha256File(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

/** The digest of a pinned path, or null when it is missing, not a file, or resolves outside the workspace. */
async function digestOf(workspace: string, rel: string): Promise<string | null> {
  const real = resolveInWorkspace(workspace, rel);
  if (!real) return null;
  try {
    return await sha256File(real);
  } catch {
    return null; // missing, a directory, unreadable: all "not the pinned file"
  }
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
  return Promise.all(
    inventory.artifacts.map(async (a, i): Promise<ArtifactResult> => {
      const actual = await digestOf(workspace, a.path);
      const line = spans?.get(jsonPath(["artifacts", i, "sha256"]))?.line;
      return { path: a.path, expected: a.sha256, actual, ok: actual === a.sha256, ...(line ? { line } : {}) };
    }),
  );
}

export interface PinChange {
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
