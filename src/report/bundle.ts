// The report bundle written to --out: report.json and cleanup.json (junit.xml, report.md and
// SHA256SUMS are added by the inventory/report work).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Report } from "./model.js";

export async function writeBundle(dir: string, report: Report): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    "report.json": `${JSON.stringify(report, null, 2)}\n`,
    "cleanup.json": `${JSON.stringify(report.cleanup, null, 2)}\n`,
  };
  for (const [name, body] of Object.entries(files)) await writeFile(path.join(dir, name), body);
  return Object.keys(files).sort();
}
