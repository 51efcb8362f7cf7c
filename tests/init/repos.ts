// Copies of the init fixture repositories (acceptance/fixtures/init/), as a user's checkout,
// in temporary directories removed when the test file ends.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { REPO_ROOT } from "../helpers/inventory.js";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

export function repoCopy(name: string): string {
  const dir = tempDir(name);
  cpSync(path.join(REPO_ROOT, "acceptance/fixtures/init", name), dir, { recursive: true });
  return dir;
}

export function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `da-init-${name}-`));
  temps.push(dir);
  return dir;
}
