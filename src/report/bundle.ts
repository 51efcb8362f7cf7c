// The report bundle written to --out: report.json, cleanup.json, junit.xml, report.md and
// SHA256SUMS over all of them. `verifyBundle` re-checks one from its bytes alone, so a bundle can
// travel (artifact upload, fork-safe publish, shard merge) and still be trusted where it lands.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError, readUserFile, UsageError } from "../errors.js";
import { jsonPath } from "../jsonpos.js";
import {
  BUNDLE_FILES,
  type BundleCheck,
  type BundleState,
  cleanupCheck,
  completenessCheck,
  filesCheck,
  hashCheck,
  type NamedCheck,
  recordedInventoryCheck,
  SUMS_FILE,
  schemaCheck,
  sha256,
  sumsCheck,
} from "./bundle-checks.js";
import { renderJunit } from "./junit.js";
import { type Report, reportSchema } from "./model.js";

export { type NamedCheck, record, SUMS_FILE } from "./bundle-checks.js";

/**
 * Writes the bundle into `dir` (created if needed) and returns the file names. Refuses a directory
 * holding anything else, because SHA256SUMS must cover exactly the directory's content.
 */
export async function writeBundle(
  dir: string,
  report: Report,
  { markdown }: { markdown: string },
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const allowed = new Set<string>([...BUNDLE_FILES, SUMS_FILE]);
  const strangers = (await readdir(dir)).filter((name) => !allowed.has(name));
  if (strangers.length > 0) {
    throw new UsageError(
      `the --out directory ${dir} already holds ${strangers.join(", ")}; give an empty or new directory (a bundle must contain only its own files)`,
    );
  }
  // Canonical form (the schema's key order and defaults), so report.json and cleanup.json agree
  // byte for byte with what `verify` re-derives, whatever order the caller built them in.
  const canonical = reportSchema.parse(report);
  const files: Record<(typeof BUNDLE_FILES)[number], string> = {
    "cleanup.json": `${JSON.stringify(canonical.cleanup, null, 2)}\n`,
    "junit.xml": renderJunit(canonical),
    "report.json": `${JSON.stringify(canonical, null, 2)}\n`,
    "report.md": markdown,
  };
  // report.json first: a cancelled run that the runner's SIGKILL (or our own hard exit) cuts short
  // while writing keeps its report before anything else (seen on a slow engine: cleanup.json alone).
  for (const name of ["report.json", ...BUNDLE_FILES.filter((n) => n !== "report.json")] as const)
    await writeFile(path.join(dir, name), files[name]);
  const sums = BUNDLE_FILES.map((name) => `${sha256(files[name])}  ${name}`);
  // Last, so a bundle whose writing was interrupted never verifies.
  await writeFile(path.join(dir, SUMS_FILE), `${sums.join("\n")}\n`);
  return [...BUNDLE_FILES, SUMS_FILE];
}

/** Reads and validates report.json; problems name the file and the JSON path. */
export async function readReport(dir: string): Promise<Report> {
  const file = path.join(dir, "report.json");
  const text = await readUserFile(
    file,
    "the report",
    "pass a bundle directory written by `docker-acceptance run --out DIR`",
  );
  return parseReport(file, text);
}

export function parseReport(file: string, text: string): Report {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError([{ path: "", message: `not valid JSON: ${(err as Error).message}` }], file);
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ path: jsonPath(i.path as PropertyKey[]), message: i.message })),
      file,
    );
  }
  return parsed.data;
}

export interface BundleVerification {
  dir: string;
  ok: boolean;
  checks: BundleCheck[];
  /** The validated report, when report.json passed its hash and schema checks. */
  report?: Report;
}

interface VerifyBundleOptions {
  /**
   * The inventory check to run instead of the recorded one: commands/verify.ts compares the
   * recorded digest and recomputes completeness against an inventory file.
   */
  inventory?: NamedCheck;
}

/**
 * Re-checks a bundle by running the named checks in order: SHA256SUMS is well formed; the
 * directory holds exactly the files it lists (no extras, no symlinks, no escaping or duplicate
 * names) and each hashes to its line; report.json validates and agrees with cleanup.json; the
 * inventory and completeness as recorded (or, given an inventory check, compared). Never throws
 * for a bad bundle.
 */
export async function verifyBundle(dir: string, opts: VerifyBundleOptions = {}): Promise<BundleVerification> {
  const s: BundleState = { dir, results: [], listed: [], present: new Set(), verified: new Map() };
  const checks = [
    sumsCheck,
    filesCheck,
    hashCheck,
    schemaCheck(parseReport),
    cleanupCheck,
    opts.inventory ?? recordedInventoryCheck,
    completenessCheck,
  ];
  for (const check of checks) if ((await check.run(s)) === "stop") break;
  return {
    dir,
    ok: !s.results.some((c) => c.status === "fail"),
    checks: s.results,
    ...(s.report ? { report: s.report } : {}),
  };
}
