// `docker-acceptance verify BUNDLE_DIR [--inventory PATH]`: re-checks a report bundle and prints
// each check; exit 0 when it verifies, 1 with the reason otherwise, 2 for usage errors.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "../errors.js";
import { type BundleVerification, verifyBundle } from "../report/bundle.js";

export const VERIFY_USAGE = "usage: docker-acceptance verify BUNDLE_DIR [--inventory PATH] [--workspace DIR]";

export async function verifyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, VERIFY_USAGE, {
    inventory: { type: "string" },
    workspace: { type: "string" },
  });
  if (positionals.length !== 1) throw new UsageError(`expected one BUNDLE_DIR\n${VERIFY_USAGE}`);
  const result = await verifyBundle(positionals[0]!, {
    inventoryPath: values.inventory,
    workspace: values.workspace,
  });
  process.stdout.write(renderVerification(result));
  return result.ok ? 0 : 1;
}

const MARK = { pass: "ok  ", fail: "FAIL", warn: "warn", skip: "skip" } as const;

/** Bundle contents are untrusted: names and details are printed with control characters escaped. */
export function renderVerification(r: BundleVerification): string {
  const lines = [`verify ${printable(r.dir)}`];
  for (const c of r.checks) {
    lines.push(
      `  ${MARK[c.status]} ${c.check.padEnd(12)} ${c.file ? `${printable(c.file)}: ` : ""}${printable(c.detail)}`,
    );
  }
  const failed = r.checks.filter((c) => c.status === "fail");
  lines.push(
    failed.length === 0
      ? `bundle verified: ${r.checks.filter((c) => c.status === "pass").length} checks passed`
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

/** parseArgs with its errors turned into usage errors (exit 2) that show the usage line. */
export function parseCommandArgs<const T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  usage: string,
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${usage}`);
  }
}
