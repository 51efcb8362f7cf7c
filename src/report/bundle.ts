// The report bundle written to --out: report.json, cleanup.json, junit.xml, report.md and
// SHA256SUMS over all of them. `verifyBundle` re-checks one from its bytes alone, so a bundle can
// travel (artifact upload, fork-safe publish, shard merge) and still be trusted where it lands.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError, readUserFile, UsageError } from "../errors.js";
import { jsonPath } from "../inventory/jsonpos.js";
import { loadInventory } from "../inventory/load.js";
import { checkCompleteness, describeDrift } from "../inventory/verify.js";
import { SUITES, type SuiteName } from "../suites/ids.js";
import { renderJunit } from "./junit.js";
import { cleanupEvidenceSchema, type Report, reportSchema } from "./model.js";

export const SUMS_FILE = "SHA256SUMS";
/** What every bundle holds besides SHA256SUMS. */
export const BUNDLE_FILES = ["cleanup.json", "junit.xml", "report.json", "report.md"] as const;

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

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
  const sums: string[] = [];
  for (const name of BUNDLE_FILES) {
    await writeFile(path.join(dir, name), files[name]);
    sums.push(`${sha256(files[name])}  ${name}`);
  }
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

function parseReport(file: string, text: string): Report {
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

export type CheckStatus = "pass" | "fail" | "warn" | "skip";

export interface BundleCheck {
  /** Stable name: sums, files, hash, schema, cleanup, inventory, completeness. */
  check: string;
  status: CheckStatus;
  /** The bundle file the check is about, when there is one. */
  file?: string;
  detail: string;
}

export interface BundleVerification {
  dir: string;
  ok: boolean;
  checks: BundleCheck[];
  /** The validated report, when report.json passed its hash and schema checks. */
  report?: Report;
}

export interface VerifyBundleOptions {
  /** Compare the recorded inventory digest with this file and recompute completeness against it. */
  inventoryPath?: string;
  /** Workspace for loading the inventory (default: the current directory). */
  workspace?: string;
}

interface SumsLine {
  digest: string;
  name: string;
  line: number;
}

/**
 * Re-checks a bundle: SHA256SUMS is well formed; the directory holds exactly the files it lists
 * (no extras, no symlinks, no escaping or duplicate names) and each hashes to its line; report.json
 * validates and agrees with cleanup.json; with an inventory, the recorded digest equals the file's
 * and completeness, recomputed from the recorded cases, holds. Never throws for a bad bundle.
 */
export async function verifyBundle(dir: string, opts: VerifyBundleOptions = {}): Promise<BundleVerification> {
  const checks: BundleCheck[] = [];
  const add = (check: string, status: CheckStatus, detail: string, file?: string) =>
    checks.push({ check, status, detail, ...(file ? { file } : {}) });
  const done = (report?: Report): BundleVerification => ({
    dir,
    ok: !checks.some((c) => c.status === "fail"),
    checks,
    ...(report ? { report } : {}),
  });

  // 1. SHA256SUMS: present, well formed, names that stay inside the bundle, each once.
  let sumsText: string;
  try {
    const st = await lstat(path.join(dir, SUMS_FILE));
    if (!st.isFile()) throw Object.assign(new Error("not a regular file"), { code: "not a regular file" });
    sumsText = await readFile(path.join(dir, SUMS_FILE), "utf8");
  } catch (err) {
    add(
      "sums",
      "fail",
      `cannot read ${SUMS_FILE} (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      SUMS_FILE,
    );
    return done();
  }
  const listed: SumsLine[] = [];
  let sumsOk = true;
  const seen = new Map<string, number>();
  const lines = sumsText.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((text, i) => {
    const line = i + 1;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(text);
    if (!m) {
      sumsOk = false;
      add(
        "sums",
        "fail",
        `line ${line} is not "<64 hex digits>  <file>": ${JSON.stringify(text.slice(0, 80))}`,
        SUMS_FILE,
      );
      return;
    }
    const name = m[2]!;
    const bad = unsafeName(name);
    if (bad) {
      sumsOk = false;
      add("sums", "fail", `line ${line} names ${JSON.stringify(name)}: ${bad}`, name);
      return;
    }
    const first = seen.get(name);
    if (first !== undefined) {
      sumsOk = false;
      add("sums", "fail", `line ${line} lists ${name} again (first on line ${first})`, name);
      return;
    }
    seen.set(name, line);
    listed.push({ digest: m[1]!, name, line });
  });
  for (const required of BUNDLE_FILES) {
    if (!seen.has(required)) {
      sumsOk = false;
      add("sums", "fail", `${SUMS_FILE} does not list ${required}, which every bundle holds`, required);
    }
  }
  if (sumsOk) add("sums", "pass", `${SUMS_FILE} lists ${listed.length} files, each once`, SUMS_FILE);

  // 2. The file set on disk equals the listed set; nothing but regular files and directories.
  const onDisk = await listTree(dir);
  let filesOk = true;
  for (const entry of onDisk) {
    if (entry.kind !== "file") {
      filesOk = false;
      add("files", "fail", `${entry.name} is a ${entry.kind}; a bundle holds only regular files`, entry.name);
    } else if (entry.name !== SUMS_FILE && !seen.has(entry.name)) {
      filesOk = false;
      add("files", "fail", `${entry.name} is not listed in ${SUMS_FILE}`, entry.name);
    }
  }
  const present = new Set(onDisk.filter((e) => e.kind === "file").map((e) => e.name));
  for (const l of listed) {
    if (!present.has(l.name) && !onDisk.some((e) => e.name === l.name)) {
      filesOk = false;
      add("files", "fail", `${l.name} is listed in ${SUMS_FILE} (line ${l.line}) but missing`, l.name);
    }
  }
  if (filesOk) add("files", "pass", `the directory holds exactly the listed files`);

  // 3. Every listed file hashes to its line.
  const contents = new Map<string, Buffer>();
  for (const l of listed) {
    if (!present.has(l.name)) continue;
    const data = await readFile(path.join(dir, l.name));
    const actual = sha256(data);
    if (actual === l.digest) {
      contents.set(l.name, data);
      add("hash", "pass", `sha256 matches`, l.name);
    } else {
      add("hash", "fail", `sha256 is ${actual}, ${SUMS_FILE} line ${l.line} says ${l.digest}`, l.name);
    }
  }

  // 4. report.json validates against the Report schema (only trusted once its hash matched).
  const reportBytes = contents.get("report.json");
  if (!reportBytes) {
    add("schema", "skip", "not checked: report.json is missing or failed its hash", "report.json");
    return done();
  }
  let report: Report;
  try {
    report = parseReport(path.join(dir, "report.json"), reportBytes.toString("utf8"));
    add(
      "schema",
      "pass",
      `valid Report (schemaVersion ${report.schemaVersion}, verdict ${report.verdict})`,
      "report.json",
    );
  } catch (err) {
    add("schema", "fail", (err as Error).message, "report.json");
    return done();
  }

  // 5. cleanup.json is the report's cleanup evidence, not something else.
  const cleanupBytes = contents.get("cleanup.json");
  if (cleanupBytes) {
    let same = false;
    try {
      const raw = JSON.parse(cleanupBytes.toString("utf8"));
      const parsed = raw === null ? null : cleanupEvidenceSchema.parse(raw);
      same = JSON.stringify(parsed) === JSON.stringify(report.cleanup);
    } catch {}
    if (same) add("cleanup", "pass", "equals the cleanup evidence in report.json", "cleanup.json");
    else add("cleanup", "fail", "differs from the cleanup evidence in report.json", "cleanup.json");
  }

  // 6. The recorded inventory digest, and completeness recomputed from the recorded cases.
  const inv = report.inventory;
  if (!inv) {
    add(
      "inventory",
      opts.inventoryPath ? "fail" : "skip",
      opts.inventoryPath ? "report.json records no inventory to compare with" : "the run used no inventory",
      "report.json",
    );
    return done(report);
  }
  if (!opts.inventoryPath) {
    add(
      "inventory",
      "skip",
      `not compared (pass --inventory PATH): recorded sha256 ${inv.sha256} of ${inv.path}`,
      "report.json",
    );
  } else {
    let loaded: Awaited<ReturnType<typeof loadInventory>>;
    try {
      loaded = await loadInventory(opts.inventoryPath, { workspace: opts.workspace });
    } catch (err) {
      add("inventory", "fail", (err as Error).message);
      return done(report);
    }
    if (loaded.sha256 === inv.sha256) {
      add("inventory", "pass", `recorded sha256 equals ${opts.inventoryPath} (${inv.sha256})`, "report.json");
    } else {
      add(
        "inventory",
        "fail",
        `recorded sha256 ${inv.sha256} differs from ${opts.inventoryPath} (${loaded.sha256}): the run used another inventory`,
        "report.json",
      );
    }
    const selected = inv.selected ?? {
      subjects: report.subjects.map((s) => s.name),
      suites: SUITES.filter((s) => loaded.inventory.suites[s] || report.cases.some((c) => c.suite === s)),
    };
    const recomputed = checkCompleteness(loaded.inventory, report.cases, {
      subjects: selected.subjects,
      suites: selected.suites.filter((s): s is SuiteName => (SUITES as readonly string[]).includes(s)),
      requireComplete: inv.requireComplete,
      path: inv.path,
      sha256: inv.sha256,
    });
    if (recomputed.complete !== inv.complete) {
      add(
        "completeness",
        "fail",
        `report.json says complete=${inv.complete}, but its cases against ${opts.inventoryPath} give complete=${recomputed.complete}`,
        "report.json",
      );
      return done(report);
    }
  }
  if (inv.complete) {
    add("completeness", "pass", `every pinned case ran for ${describeSelection(inv)}`, "report.json");
  } else {
    const status = inv.requireComplete ? "fail" : "warn";
    add("completeness", status, `incomplete: ${inv.drift.map(describeDrift).join(" | ")}`, "report.json");
  }
  return done(report);
}

function describeSelection(inv: NonNullable<Report["inventory"]>): string {
  if (!inv.selected) return "the recorded run";
  return `subjects ${inv.selected.subjects.join(", ") || "(none)"} x suites ${inv.selected.suites.join(", ") || "(none)"}`;
}

/** Why a SHA256SUMS name could point outside the bundle or at itself, or undefined when it is safe. */
function unsafeName(name: string): string | undefined {
  if (name.includes("\0") || name.includes("\\")) return "contains a backslash or NUL";
  if (path.posix.isAbsolute(name)) return "is an absolute path";
  if (name.split("/").some((seg) => seg === ".." || seg === "." || seg === "")) {
    return 'has an empty, "." or ".." segment';
  }
  if (name === SUMS_FILE) return `${SUMS_FILE} cannot list itself`;
  return undefined;
}

interface TreeEntry {
  name: string;
  kind: "file" | "symlink" | "other";
}

/** Every entry below dir as a relative posix path; directories are walked, not listed. */
async function listTree(dir: string, prefix = ""): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  for (const d of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const name = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...(await listTree(dir, name)));
    else out.push({ name, kind: d.isFile() ? "file" : d.isSymbolicLink() ? "symlink" : "other" });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}
