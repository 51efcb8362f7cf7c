// Where a repository declares its containers: Dockerfiles (Dockerfile, Containerfile,
// Dockerfile.<x>, <x>.Dockerfile) anywhere shallow enough, and a compose file at its root. Bounded:
// a few directory levels, a capped number of entries and files; links are never followed; the
// directories that hold other people's code (dependencies, vendored trees, test data) are skipped.
import { type Dirent, lstatSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

const MAX_DEPTH = 4;
const MAX_ENTRIES = 20_000;
export const MAX_DOCKERFILES = 32;

/** Compose's own precedence when several are present. */
const COMPOSE_FILES = ["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];

const SKIPPED_DIRS = new Set(["node_modules", "vendor", "third_party", "testdata", "bower_components"]);
// `Dockerfile`, `Dockerfile.prod`, `api.Dockerfile`; not `dockerfile.ts` nor `Dockerfile.md`, the
// code and notes that share the name.
const DOCKERFILE = /^(?:(?:Dockerfile|Containerfile)(?:\.[\w.-]+)?|[\w.-]+\.(?:dockerfile|containerfile))$/i;
const NOT_A_DOCKERFILE =
  /^[a-z]|\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|md|txt|json|ya?ml|toml|sh|bak|orig|swp|tmpl|template|j2|in)$/;

interface Scan {
  /** Workspace-relative paths (with "/"), shallowest first, then by name. */
  dockerfiles: string[];
  compose?: string;
  /** What the bounds left out, said to the user. */
  notes: string[];
}

export async function scanWorkspace(workspace: string): Promise<Scan> {
  const dockerfiles: string[] = [];
  const notes: string[] = [];
  let entries = 0;
  let level = [""];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let list: Dirent[];
      try {
        list = await readdir(path.join(workspace, dir), { withFileTypes: true });
      } catch {
        continue; // unreadable: nothing declared there that we could build either
      }
      entries += list.length;
      for (const e of list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory() && !e.name.startsWith(".") && !SKIPPED_DIRS.has(e.name)) next.push(rel);
        else if (e.isFile() && isDockerfileName(e.name)) dockerfiles.push(rel);
      }
      if (entries > MAX_ENTRIES) {
        notes.push(`stopped looking for Dockerfiles after ${MAX_ENTRIES} directory entries`);
        return finish(workspace, dockerfiles, notes);
      }
    }
    level = next;
  }
  return finish(workspace, dockerfiles, notes);
}

function finish(workspace: string, found: string[], notes: string[]): Scan {
  if (found.length > MAX_DOCKERFILES) {
    notes.push(`found ${found.length} Dockerfiles; the first ${MAX_DOCKERFILES} (the shallowest) are listed`);
  }
  const compose = COMPOSE_FILES.find((f) => isPlainFile(path.join(workspace, f)));
  return { dockerfiles: found.slice(0, MAX_DOCKERFILES), ...(compose ? { compose } : {}), notes };
}

/** A regular file, not a link to one. */
function isPlainFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function isDockerfileName(name: string): boolean {
  if (!DOCKERFILE.test(name)) return false;
  if (/^(?:dockerfile|containerfile)$/i.test(name)) return true;
  // The `Dockerfile.<variant>` form is capitalised; a lower-case or extension-named file is something else.
  return /\.(?:dockerfile|containerfile)$/i.test(name) || !NOT_A_DOCKERFILE.test(name);
}
