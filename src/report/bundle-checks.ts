// Bundle verification as a list of named checks. Each check reads what earlier ones established
// (the listed files, their verified bytes, the parsed report) from one BundleState, records its
// findings under its own name, and may stop the list when nothing after it could be trusted.
// `verify` prints them by name ("FAIL hash         cleanup.json"); bundle.ts runs the list.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { cleanupEvidenceSchema, type Report } from "./model.js";
import { describeDrift } from "./text.js";

export const SUMS_FILE = "SHA256SUMS";
/** What every bundle holds besides SHA256SUMS. */
export const BUNDLE_FILES = ["cleanup.json", "junit.xml", "report.json", "report.md"] as const;

export const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

type CheckStatus = "pass" | "fail" | "warn" | "skip";

export interface BundleCheck {
  /** Stable name: sums, files, hash, schema, cleanup, inventory, completeness. */
  check: string;
  status: CheckStatus;
  /** The bundle file the check is about, when there is one. */
  file?: string;
  detail: string;
}

interface SumsLine {
  digest: string;
  name: string;
  line: number;
}

/** What the checks have established so far about one bundle directory. */
export interface BundleState {
  dir: string;
  results: BundleCheck[];
  /** SHA256SUMS lines that are well formed, safe and unique. */
  listed: SumsLine[];
  /** Regular files present on disk (relative posix paths). */
  present: Set<string>;
  /** Bytes of each listed file whose hash matched. */
  verified: Map<string, Buffer>;
  /** report.json, once it passed its hash and the schema. */
  report?: Report;
}

/** A named check: "stop" ends the list (what follows could not be trusted or has nothing to read). */
export interface NamedCheck {
  readonly name: string;
  run(state: BundleState): Promise<"stop" | undefined> | "stop" | undefined;
}

export function record(
  state: BundleState,
  check: string,
  status: CheckStatus,
  detail: string,
  file?: string,
): void {
  state.results.push({ check, status, detail, ...(file ? { file } : {}) });
}

/** sums: SHA256SUMS present, well formed, names that stay inside the bundle, each once, every bundle file listed. */
export const sumsCheck: NamedCheck = {
  name: "sums",
  async run(state) {
    const text = await readSums(state.dir);
    if (typeof text !== "string") {
      record(state, "sums", "fail", `cannot read ${SUMS_FILE} (${text.code})`, SUMS_FILE);
      return "stop";
    }
    const before = state.results.length;
    state.listed = parseSums(text, (detail, file) => record(state, "sums", "fail", detail, file));
    const seen = new Set(state.listed.map((l) => l.name));
    for (const required of BUNDLE_FILES)
      if (!seen.has(required))
        record(
          state,
          "sums",
          "fail",
          `${SUMS_FILE} does not list ${required}, which every bundle holds`,
          required,
        );
    if (state.results.length === before)
      record(state, "sums", "pass", `${SUMS_FILE} lists ${state.listed.length} files, each once`, SUMS_FILE);
    return undefined;
  },
};

async function readSums(dir: string): Promise<string | { code: string }> {
  try {
    const st = await lstat(path.join(dir, SUMS_FILE));
    if (!st.isFile()) return { code: "not a regular file" };
    return await readFile(path.join(dir, SUMS_FILE), "utf8");
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code ?? "error" };
  }
}

/** The usable lines of SHA256SUMS; each bad one reported through `bad`. */
export function parseSums(text: string, bad: (detail: string, file: string) => void): SumsLine[] {
  const listed: SumsLine[] = [];
  const seen = new Map<string, number>();
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(raw);
    if (!m) {
      bad(`line ${line} is not "<64 hex digits>  <file>": ${JSON.stringify(raw.slice(0, 80))}`, SUMS_FILE);
      continue;
    }
    const name = m[2]!;
    const unsafe = unsafeName(name);
    const first = seen.get(name);
    if (unsafe) bad(`line ${line} names ${JSON.stringify(name)}: ${unsafe}`, name);
    else if (first !== undefined) bad(`line ${line} lists ${name} again (first on line ${first})`, name);
    else {
      seen.set(name, line);
      listed.push({ digest: m[1]!, name, line });
    }
  }
  return listed;
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

/** files: the directory holds exactly the listed files, and nothing but regular files and directories. */
export const filesCheck: NamedCheck = {
  name: "files",
  async run(state) {
    const onDisk = await listTree(state.dir);
    const listed = new Set(state.listed.map((l) => l.name));
    const before = state.results.length;
    for (const entry of onDisk) {
      if (entry.kind !== "file")
        record(
          state,
          "files",
          "fail",
          `${entry.name} is a ${entry.kind}; a bundle holds only regular files`,
          entry.name,
        );
      else if (entry.name !== SUMS_FILE && !listed.has(entry.name))
        record(state, "files", "fail", `${entry.name} is not listed in ${SUMS_FILE}`, entry.name);
    }
    state.present = new Set(onDisk.filter((e) => e.kind === "file").map((e) => e.name));
    for (const l of state.listed)
      if (!onDisk.some((e) => e.name === l.name))
        record(
          state,
          "files",
          "fail",
          `${l.name} is listed in ${SUMS_FILE} (line ${l.line}) but missing`,
          l.name,
        );
    if (state.results.length === before)
      record(state, "files", "pass", "the directory holds exactly the listed files");
    return undefined;
  },
};

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

/** hash: every listed file present hashes to its line; only those bytes are read further. */
export const hashCheck: NamedCheck = {
  name: "hash",
  async run(state) {
    for (const l of state.listed) {
      if (!state.present.has(l.name)) continue;
      const data = await readFile(path.join(state.dir, l.name));
      const actual = sha256(data);
      if (actual === l.digest) {
        state.verified.set(l.name, data);
        record(state, "hash", "pass", "sha256 matches", l.name);
      } else {
        record(
          state,
          "hash",
          "fail",
          `sha256 is ${actual}, ${SUMS_FILE} line ${l.line} says ${l.digest}`,
          l.name,
        );
      }
    }
    return undefined;
  },
};

/** schema: report.json (only once its hash matched) validates against the Report schema. */
export function schemaCheck(parse: (file: string, text: string) => Report): NamedCheck {
  return {
    name: "schema",
    run(s) {
      const bytes = s.verified.get("report.json");
      if (!bytes) {
        record(s, "schema", "skip", "not checked: report.json is missing or failed its hash", "report.json");
        return "stop";
      }
      try {
        s.report = parse(path.join(s.dir, "report.json"), bytes.toString("utf8"));
      } catch (err) {
        record(s, "schema", "fail", (err as Error).message, "report.json");
        return "stop";
      }
      const r = s.report;
      record(
        s,
        "schema",
        "pass",
        `valid Report (schemaVersion ${r.schemaVersion}, verdict ${r.verdict})`,
        "report.json",
      );
      return undefined;
    },
  };
}

/** cleanup: cleanup.json is the report's cleanup evidence, not something else. */
export const cleanupCheck: NamedCheck = {
  name: "cleanup",
  run(state) {
    const bytes = state.verified.get("cleanup.json");
    if (!bytes) return undefined;
    let same = false;
    try {
      const raw = JSON.parse(bytes.toString("utf8"));
      const parsed = raw === null ? null : cleanupEvidenceSchema.parse(raw);
      same = JSON.stringify(parsed) === JSON.stringify(state.report!.cleanup);
    } catch {}
    if (same) record(state, "cleanup", "pass", "equals the cleanup evidence in report.json", "cleanup.json");
    else record(state, "cleanup", "fail", "differs from the cleanup evidence in report.json", "cleanup.json");
    return undefined;
  },
};

/** inventory (without an inventory to compare with): what the report recorded, not compared. */
export const recordedInventoryCheck: NamedCheck = {
  name: "inventory",
  run(state) {
    const inv = state.report!.inventory;
    if (!inv) {
      record(state, "inventory", "skip", "the run used no inventory", "report.json");
      return "stop";
    }
    const detail = `not compared (pass --inventory PATH): recorded sha256 ${inv.sha256} of ${inv.path}`;
    record(state, "inventory", "skip", detail, "report.json");
    return undefined;
  },
};

/** completeness: every pinned case ran, as the report recorded it (warn when not required). */
export const completenessCheck: NamedCheck = {
  name: "completeness",
  run(state) {
    const inv = state.report!.inventory;
    if (!inv) return undefined;
    if (inv.complete) {
      record(
        state,
        "completeness",
        "pass",
        `every pinned case ran for ${describeSelection(inv)}`,
        "report.json",
      );
    } else {
      const status = inv.requireComplete ? "fail" : "warn";
      const detail = `incomplete: ${inv.drift.map(describeDrift).join(" | ")}`;
      record(state, "completeness", status, detail, "report.json");
    }
    return undefined;
  },
};

function describeSelection(inv: NonNullable<Report["inventory"]>): string {
  if (!inv.selected) return "the recorded run";
  return `subjects ${inv.selected.subjects.join(", ") || "(none)"} x suites ${inv.selected.suites.join(", ") || "(none)"}`;
}
