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
import type { RequestOf } from "../request/parse.js";

/** What `align` takes: its flags, parsed into the one request. */
type AlignRequest = RequestOf<
  | "base"
  | "head"
  | "alignConfig"
  | "format"
  | "workspace"
  | "prTitle"
  | "prBodyFile"
  | "prLabels"
  | "prBase"
  | "defaultBranch"
  | "junit"
  | "sarif"
>;

export async function align(
  request: AlignRequest,
  _positionals: string[] = [],
  out: { write(text: string): unknown } = process.stdout,
): Promise<number> {
  const workspace = await gitTopLevel(resolve(request.workspace));
  const head = request.head || undefined;
  const base = request.base || (await defaultBase(workspace));
  const report = await runAlignment({
    workspace,
    // A --config the user typed is relative to where they typed it; an absent one is a typo.
    ...(request.alignConfig ? { configPath: resolve(request.alignConfig), requireConfig: true } : {}),
    source: { kind: "git", base, ...(head ? { head } : {}) },
    pull: await pullFromFlags(request),
  });
  const { junit, sarif } = request;
  const external =
    junit.length + sarif.length > 0
      ? await readExternalResults(
          { junit, sarif },
          {
            workspace,
            // SARIF results on lines this change adds are counted apart ("K on added lines").
            ...(sarif.length > 0
              ? { addedLines: addedLinesFrom(await gitDiffFiles(workspace, base, head ?? "HEAD")) }
              : {}),
          },
        )
      : {};
  out.write(
    request.format === "json"
      ? `${JSON.stringify(report, null, 2)}\n`
      : request.format === "markdown"
        ? renderAlignmentMarkdown(report, external)
        : renderAlignmentText(report),
  );
  return report.findings.some((f) => levelOf(f) === "blocking") ? 1 : 0;
}

/** The `pull` rules' input from flags; what is not given stays unknown (and is noted, not guessed). */
async function pullFromFlags(r: AlignRequest): Promise<PullRequestMeta> {
  let body: string | undefined;
  if (r.prBodyFile) {
    try {
      body = await readFile(r.prBodyFile, "utf8");
    } catch (err) {
      throw new UsageError(
        `--pr-body-file ${r.prBodyFile}: cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"}) (fix: pass a file holding the PR description)`,
      );
    }
  }
  return {
    ...(r.prTitle ? { title: r.prTitle } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(r.prLabels.length > 0 ? { labels: r.prLabels } : {}),
    ...(r.prBase ? { base: r.prBase } : {}),
    ...(r.defaultBranch ? { defaultBranch: r.defaultBranch } : {}),
  };
}
