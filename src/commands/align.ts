// `docker-acceptance align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json]`:
// the alignment review of a local diff alone. Exit 1 when it has blocking (Tier 1) findings, 2 on a usage or
// configuration error, 0 otherwise (Tier 2 points are for people, not for the exit code).
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  defaultBase,
  gitDiffFiles,
  gitTopLevel,
  type PullRequestMeta,
  runAlignment,
} from "../alignment/index.js";
import { renderAlignmentMarkdown, renderAlignmentText } from "../alignment/render.js";
import { UsageError } from "../errors.js";
import { addedLinesFrom, readExternalResults } from "../report/external.js";
import { levelOf } from "../report/model.js";
import { parseFormat } from "./common.js";
import { parseCommandArgs } from "./verify.js";

export const ALIGN_USAGE =
  "usage: docker-acceptance align [--base REF] [--head REF] [--config PATH] [--format text|markdown|json] [--workspace DIR]\n" +
  "       [--pr-title TEXT] [--pr-body-file PATH] [--pr-label NAME]... [--pr-base BRANCH] [--default-branch BRANCH]\n" +
  "       [--junit GLOB]... [--sarif GLOB]...\n" +
  "  --base       where the change forked from (default: origin/HEAD, origin/main, main, origin/master or master)\n" +
  "  --head       the change (default HEAD); RFCs and CODEOWNERS are read as they are at --head\n" +
  "  --config     alignment config (default acceptance/alignment.yml in the repository)\n" +
  "  --workspace  a directory inside the repository (default the current directory)\n" +
  "  pull request rules (`pull:` in the config) judge what these give; each one left out is noted:\n" +
  "  --pr-title TEXT  --pr-body-file PATH  --pr-label NAME (repeatable)  --pr-base BRANCH  --default-branch BRANCH\n" +
  "  the PR's own results for Automated Checks: --junit GLOB, --sarif GLOB (repeatable, relative to the repository)";

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
    "pr-title": { type: "string" },
    "pr-body-file": { type: "string" },
    "pr-label": { type: "string", multiple: true },
    "pr-base": { type: "string" },
    "default-branch": { type: "string" },
    junit: { type: "string", multiple: true },
    sarif: { type: "string", multiple: true },
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
    pull: await pullFromFlags(values),
  });
  const junit = values.junit ?? [];
  const sarif = values.sarif ?? [];
  const external =
    junit.length + sarif.length > 0
      ? await readExternalResults(
          { junit, sarif },
          {
            workspace,
            // SARIF results on lines this change adds are counted apart ("K on added lines").
            ...(sarif.length > 0
              ? { addedLines: addedLinesFrom(await gitDiffFiles(workspace, base, values.head ?? "HEAD")) }
              : {}),
          },
        )
      : {};
  out.write(
    format === "json"
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === "markdown"
        ? renderAlignmentMarkdown(report, external)
        : renderAlignmentText(report),
  );
  return report.findings.some((f) => levelOf(f) === "blocking") ? 1 : 0;
}

/** The `pull` rules' input from flags; what is not given stays unknown (and is noted, not guessed). */
async function pullFromFlags(v: {
  "pr-title"?: string;
  "pr-body-file"?: string;
  "pr-label"?: string[];
  "pr-base"?: string;
  "default-branch"?: string;
}): Promise<PullRequestMeta> {
  let body: string | undefined;
  if (v["pr-body-file"] !== undefined) {
    try {
      body = await readFile(v["pr-body-file"], "utf8");
    } catch (err) {
      throw new UsageError(
        `--pr-body-file ${v["pr-body-file"]}: cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"}) (fix: pass a file holding the PR description)`,
      );
    }
  }
  return {
    ...(v["pr-title"] !== undefined ? { title: v["pr-title"] } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(v["pr-label"] !== undefined ? { labels: v["pr-label"] } : {}),
    ...(v["pr-base"] !== undefined ? { base: v["pr-base"] } : {}),
    ...(v["default-branch"] !== undefined ? { defaultBranch: v["default-branch"] } : {}),
  };
}
