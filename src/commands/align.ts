// `docker-acceptance align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json]`:
// the alignment review of a local diff alone. Exit 1 when it has Tier 1 findings, 2 on a usage or
// configuration error, 0 otherwise (Tier 2 points are for people, not for the exit code).
import { resolve } from "node:path";
import { defaultBase, gitTopLevel, runAlignment } from "../alignment/index.js";
import { renderAlignmentMarkdown, renderAlignmentText } from "../alignment/render.js";
import { UsageError } from "../errors.js";
import { parseFormat } from "./common.js";
import { parseCommandArgs } from "./verify.js";

export const ALIGN_USAGE =
  "usage: docker-acceptance align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json] [--workspace DIR]\n" +
  "  --base       where the change forked from (default: origin/HEAD, origin/main, main, origin/master or master)\n" +
  "  --head       the change (default HEAD); RFCs and CODEOWNERS are read as they are at --head\n" +
  "  --config     alignment config (default acceptance/alignment.yml in the repository)\n" +
  "  --workspace  a directory inside the repository (default the current directory)";

export async function alignCommand(
  argv: string[],
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, ALIGN_USAGE, {
    base: { type: "string" },
    head: { type: "string" },
    config: { type: "string" },
    format: { type: "string" },
    workspace: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    out.write(`${ALIGN_USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}\n${ALIGN_USAGE}`);
  }
  const format = parseFormat(values.format);
  const workspace = await gitTopLevel(resolve(values.workspace ?? "."));
  const base = values.base ?? (await defaultBase(workspace));
  const report = await runAlignment({
    workspace,
    // A --config the user typed is relative to where they typed it; an absent one is a typo.
    ...(values.config ? { configPath: resolve(values.config), requireConfig: true } : {}),
    source: { kind: "git", base, ...(values.head ? { head: values.head } : {}) },
  });
  out.write(
    format === "json"
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === "markdown"
        ? renderAlignmentMarkdown(report)
        : renderAlignmentText(report),
  );
  return report.findings.some((f) => f.tier === 1) ? 1 : 0;
}
