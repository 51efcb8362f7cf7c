// Rules on the pull request itself: base branch, stacked PRs, title and body conventions, labels,
// size. The metadata comes from the event payload in the action and from flags in the CLI; a rule
// whose input is unknown is not judged, and a note says which input was missing.
import { readFileSync } from "node:fs";
import picomatch from "picomatch";
import { compilePattern, type PullRules } from "./config.js";
import type { FindingHead } from "./findings.js";

export interface PullRequestMeta {
  number?: number;
  title?: string;
  body?: string;
  labels?: string[];
  /** The branch the PR merges into. */
  base?: string;
  /** The repository's default branch: a base other than it means a stacked PR. */
  defaultBranch?: string;
}

interface Size {
  files: number;
  addedLines: number;
}

interface PullCheck {
  id: string;
  title: string;
}

interface PullResult {
  findings: { key: string; head: FindingHead }[];
  clean: PullCheck[];
  notes: string[];
}

/** The checks configured, by id, for the "checked and clean" list. */
const TITLES: Record<keyof PullRules, string> = {
  base: "base branch",
  stacked: "stacked pull request",
  title: "title convention",
  body: "body convention",
  labels: "labels",
  size: "size limits",
};

/** What one rule made of the pull request: its input was unknown, it held, or it was broken. */
type Judgement = { missing: string } | { ok: true } | { ok: false; title: string; concern: string };
type Judge<K extends keyof PullRules> = (
  rule: NonNullable<PullRules[K]>,
  meta: PullRequestMeta | undefined,
  size: Size,
) => Judgement;

const judgeBase: Judge<"base"> = (r, meta) => {
  if (meta?.base === undefined) return { missing: "base branch" };
  if (picomatch(r.allow)(meta.base)) return { ok: true };
  return {
    ok: false,
    title: `Targets base branch ${meta.base}`,
    concern: `Pull requests here merge into ${r.allow.join(", ")}; retarget it or explain why.`,
  };
};

const judgeStacked: Judge<"stacked"> = (_r, meta) => {
  if (meta?.base === undefined || meta.defaultBranch === undefined)
    return { missing: "base or default branch" };
  if (meta.base === meta.defaultBranch) return { ok: true };
  return {
    ok: false,
    title: `Stacked on ${meta.base}`,
    concern: `The base is ${meta.base}, not ${meta.defaultBranch}: this diff is relative to another change, which merges first.`,
  };
};

const judgeTitle: Judge<"title"> = (r, meta) => {
  if (meta?.title === undefined) return { missing: "title" };
  if (compilePattern(r.pattern).test(meta.title)) return { ok: true };
  return {
    ok: false,
    title: "Title does not follow the convention",
    concern: `The title must match ${r.pattern}.`,
  };
};

const judgeBody: Judge<"body"> = (r, meta) => {
  if (meta?.body === undefined) return { missing: "body" };
  const body = meta.body;
  const absent = r.require.filter((p) => !compilePattern(p).test(body));
  const short = body.trim().length < r.minLength;
  if (absent.length === 0 && !short) return { ok: true };
  const why = [
    ...(short ? [`is shorter than ${r.minLength} characters`] : []),
    ...(absent.length ? [`lacks ${absent.join(", ")}`] : []),
  ].join(" and ");
  return { ok: false, title: "Description does not follow the template", concern: `The description ${why}.` };
};

const judgeLabels: Judge<"labels"> = (r, meta) => {
  if (meta?.labels === undefined) return { missing: "labels" };
  const labels = meta.labels;
  if (r.anyOf.length > 0 && !r.anyOf.some((l) => labels.includes(l))) {
    return {
      ok: false,
      title: "Missing a required label",
      concern: `Add one of the labels ${r.anyOf.join(", ")}.`,
    };
  }
  const forbidden = r.forbid.filter((l) => labels.includes(l));
  if (forbidden.length === 0) return { ok: true };
  return {
    ok: false,
    title: `Carries label ${forbidden.join(", ")}`,
    concern: `A pull request labelled ${forbidden.join(", ")} is not ready to merge.`,
  };
};

const judgeSize: Judge<"size"> = (r, _meta, size) => {
  const over = [
    ...(r.maxFiles !== undefined && size.files > r.maxFiles
      ? [`${size.files} files (limit ${r.maxFiles})`]
      : []),
    ...(r.maxAddedLines !== undefined && size.addedLines > r.maxAddedLines
      ? [`${size.addedLines} added lines (limit ${r.maxAddedLines})`]
      : []),
  ];
  if (over.length === 0) return { ok: true };
  return {
    ok: false,
    title: `Large change: ${over.join(", ")}`,
    concern: "Split it so each part can be reviewed.",
  };
};

/** The rules in the order their findings are listed. */
const JUDGES: { [K in keyof PullRules]-?: Judge<K> } = {
  base: judgeBase,
  stacked: judgeStacked,
  title: judgeTitle,
  body: judgeBody,
  labels: judgeLabels,
  size: judgeSize,
};

export function checkPullRequest(
  rules: PullRules,
  meta: PullRequestMeta | undefined,
  size: Size,
): PullResult {
  const out: PullResult = { findings: [], clean: [], notes: [] };
  const missing: string[] = [];
  for (const id of Object.keys(JUDGES) as (keyof PullRules)[]) {
    const rule = rules[id];
    if (!rule) continue;
    const judgement = (JUDGES[id] as Judge<typeof id>)(rule as never, meta, size);
    if ("missing" in judgement) missing.push(judgement.missing);
    else if (judgement.ok) out.clean.push({ id: `pull.${id}`, title: TITLES[id] });
    else {
      const { title, concern } = judgement;
      out.findings.push({
        key: `pull:${id}`,
        head: {
          level: rule.level,
          kind: `pull-${id}`,
          title,
          concern: rule.message ?? concern,
          reviewers: [],
          rule: `pull.${id}`,
        },
      });
    }
  }
  if (missing.length > 0) {
    out.notes.push(
      `pull request rules not judged, their input is unknown: ${missing.join(", ")} (the action reads them from the event; the CLI takes --pr-title, --pr-body-file, --pr-label, --pr-base and --default-branch)`,
    );
  }
  return out;
}

/** The pull request's metadata from the Actions event payload (GITHUB_EVENT_PATH). */
export function pullRequestMetaFromEvent(eventPath: string | undefined): PullRequestMeta | undefined {
  if (!eventPath) return undefined;
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(readFileSync(eventPath, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const pr = event.pull_request as Record<string, unknown> | undefined;
  if (!pr || typeof pr !== "object") return undefined;
  const base = pr.base as { ref?: unknown; repo?: { default_branch?: unknown } } | undefined;
  const repo = event.repository as { default_branch?: unknown } | undefined;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const defaultBranch = str(base?.repo?.default_branch) ?? str(repo?.default_branch);
  return {
    ...(typeof pr.number === "number" ? { number: pr.number } : {}),
    ...(str(pr.title) !== undefined ? { title: str(pr.title) } : {}),
    // GitHub sends null for an empty description.
    body: str(pr.body) ?? "",
    ...(Array.isArray(pr.labels)
      ? {
          labels: pr.labels
            .map((l) => str((l as { name?: unknown })?.name))
            .filter((l): l is string => l !== undefined),
        }
      : {}),
    ...(str(base?.ref) !== undefined ? { base: str(base?.ref) } : {}),
    ...(defaultBranch !== undefined ? { defaultBranch } : {}),
  };
}
