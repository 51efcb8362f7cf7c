// `docker-acceptance verify BUNDLE_DIR [--inventory PATH]`: re-checks a report bundle and prints
// each check; exit 0 when it verifies, 1 with the reason otherwise, 2 for usage errors.

import { isSuiteName, SUITES } from "../cases/index.js";
import { type LoadedInventory, loadInventory } from "../inventory/load.js";
import { checkCompleteness } from "../inventory/verify.js";
import { type BundleVerification, type NamedCheck, record, verifyBundle } from "../report/bundle.js";
import type { Report } from "../report/model.js";
import type { RequestOf } from "../request/parse.js";

/** What `verify` takes besides the bundle: its flags, parsed into the one request. */
type VerifyRequest = RequestOf<"compareInventory" | "workspace">;

export async function verify(request: VerifyRequest, [bundle]: string[]): Promise<number> {
  const result = await verifyBundleAgainst(bundle!, {
    inventoryPath: request.compareInventory || undefined,
    workspace: request.workspace,
  });
  process.stdout.write(renderVerification(result));
  return result.ok ? 0 : 1;
}

/** verifyBundle, with the inventory check comparing against `inventoryPath` when one is given. */
export function verifyBundleAgainst(
  dir: string,
  opts: { inventoryPath?: string; workspace?: string },
): Promise<BundleVerification> {
  const { inventoryPath } = opts;
  return verifyBundle(dir, inventoryPath ? { inventory: inventoryCheck(inventoryPath, opts.workspace) } : {});
}

/**
 * inventory (against a file): the recorded digest equals the file's, and completeness recomputed
 * from the recorded cases against it equals what the report recorded (a mismatch is a
 * completeness failure and ends the list).
 */
export function inventoryCheck(inventoryPath: string, workspace?: string): NamedCheck {
  return {
    name: "inventory",
    async run(s) {
      const report = s.report!;
      const inv = report.inventory;
      if (!inv) {
        record(s, "inventory", "fail", "report.json records no inventory to compare with", "report.json");
        return "stop";
      }
      let loaded: LoadedInventory;
      try {
        loaded = await loadInventory(inventoryPath, { workspace });
      } catch (err) {
        record(s, "inventory", "fail", (err as Error).message);
        return "stop";
      }
      if (loaded.sha256 === inv.sha256)
        record(
          s,
          "inventory",
          "pass",
          `recorded sha256 equals ${inventoryPath} (${inv.sha256})`,
          "report.json",
        );
      else
        record(
          s,
          "inventory",
          "fail",
          `recorded sha256 ${inv.sha256} differs from ${inventoryPath} (${loaded.sha256}): the run used another inventory`,
          "report.json",
        );
      const complete = recomputedCompleteness(report, loaded);
      if (complete === inv.complete) return undefined;
      const detail = `report.json says complete=${inv.complete}, but its cases against ${inventoryPath} give complete=${complete}`;
      record(s, "completeness", "fail", detail, "report.json");
      return "stop";
    },
  };
}

function recomputedCompleteness(report: Report, loaded: LoadedInventory): boolean {
  const inv = report.inventory!;
  const selected = inv.selected ?? {
    subjects: report.subjects.map((s) => s.name),
    suites: SUITES.filter((s) => loaded.inventory.suites[s] || report.cases.some((c) => c.suite === s)),
  };
  return checkCompleteness(loaded.inventory, report.cases, {
    subjects: selected.subjects,
    suites: selected.suites.filter(isSuiteName),
    requireComplete: inv.requireComplete,
    path: inv.path,
    sha256: inv.sha256,
  }).complete;
}

const MARK = { pass: "ok  ", fail: "FAIL", warn: "warn", skip: "skip" } as const;

/** Bundle contents are untrusted: names and details are printed with control characters escaped. */
export function renderVerification(verification: BundleVerification): string {
  const lines = [`verify ${printable(verification.dir)}`];
  for (const c of verification.checks) {
    lines.push(
      `  ${MARK[c.status]} ${c.check.padEnd(12)} ${c.file ? `${printable(c.file)}: ` : ""}${printable(c.detail)}`,
    );
  }
  const failed = verification.checks.filter((c) => c.status === "fail");
  lines.push(
    failed.length === 0
      ? `bundle verified: ${verification.checks.filter((c) => c.status === "pass").length} checks passed`
      : `bundle does NOT verify: ${failed.map((c) => (c.file ? `${printable(c.file)}: ${printable(c.detail)}` : printable(c.detail))).join("; ")}`,
  );
  return `${lines.join("\n")}\n`;
}

export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
