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

export interface Size {
  files: number;
  addedLines: number;
}

export interface PullCheck {
  id: string;
  title: string;
}

export interface PullResult {
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

export function checkPullRequest(
  rules: PullRules,
  meta: PullRequestMeta | undefined,
  size: Size,
): PullResult {
  const out: PullResult = { findings: [], clean: [], notes: [] };
  const missing: string[] = [];
  const flag = (id: keyof PullRules, level: FindingHead["level"], title: string, concern: string) =>
    out.findings.push({
      key: `pull:${id}`,
      head: { level, kind: `pull-${id}`, title, concern, reviewers: [], rule: `pull.${id}` },
    });
  const judged = (id: keyof PullRules, ok: boolean) => {
    if (ok) out.clean.push({ id: `pull.${id}`, title: TITLES[id] });
  };

  if (rules.base) {
    const r = rules.base;
    if (meta?.base === undefined) missing.push("base branch");
    else {
      const ok = picomatch(r.allow)(meta.base);
      if (!ok) {
        flag(
          "base",
          r.level,
          `Targets base branch ${meta.base}`,
          r.message ?? `Pull requests here merge into ${r.allow.join(", ")}; retarget it or explain why.`,
        );
      }
      judged("base", ok);
    }
  }
  if (rules.stacked) {
    const r = rules.stacked;
    if (meta?.base === undefined || meta.defaultBranch === undefined) missing.push("base or default branch");
    else {
      const ok = meta.base === meta.defaultBranch;
      if (!ok) {
        flag(
          "stacked",
          r.level,
          `Stacked on ${meta.base}`,
          r.message ??
            `The base is ${meta.base}, not ${meta.defaultBranch}: this diff is relative to another change, which merges first.`,
        );
      }
      judged("stacked", ok);
    }
  }
  if (rules.title) {
    const r = rules.title;
    if (meta?.title === undefined) missing.push("title");
    else {
      const ok = compilePattern(r.pattern).test(meta.title);
      if (!ok) {
        flag(
          "title",
          r.level,
          "Title does not follow the convention",
          r.message ?? `The title must match ${r.pattern}.`,
        );
      }
      judged("title", ok);
    }
  }
  if (rules.body) {
    const r = rules.body;
    if (meta?.body === undefined) missing.push("body");
    else {
      const body = meta.body;
      const absent = r.require.filter((p) => !compilePattern(p).test(body));
      const short = body.trim().length < r.minLength;
      const ok = absent.length === 0 && !short;
      if (!ok) {
        const why = [
          ...(short ? [`is shorter than ${r.minLength} characters`] : []),
          ...(absent.length ? [`lacks ${absent.join(", ")}`] : []),
        ].join(" and ");
        flag(
          "body",
          r.level,
          "Description does not follow the template",
          r.message ?? `The description ${why}.`,
        );
      }
      judged("body", ok);
    }
  }
  if (rules.labels) {
    const r = rules.labels;
    if (meta?.labels === undefined) missing.push("labels");
    else {
      const labels = meta.labels;
      const none = r.anyOf.length > 0 && !r.anyOf.some((l) => labels.includes(l));
      const forbidden = r.forbid.filter((l) => labels.includes(l));
      if (none) {
        flag(
          "labels",
          r.level,
          "Missing a required label",
          r.message ?? `Add one of the labels ${r.anyOf.join(", ")}.`,
        );
      } else if (forbidden.length > 0) {
        flag(
          "labels",
          r.level,
          `Carries label ${forbidden.join(", ")}`,
          r.message ?? `A pull request labelled ${forbidden.join(", ")} is not ready to merge.`,
        );
      }
      judged("labels", !none && forbidden.length === 0);
    }
  }
  if (rules.size) {
    const r = rules.size;
    const over = [
      ...(r.maxFiles !== undefined && size.files > r.maxFiles
        ? [`${size.files} files (limit ${r.maxFiles})`]
        : []),
      ...(r.maxAddedLines !== undefined && size.addedLines > r.maxAddedLines
        ? [`${size.addedLines} added lines (limit ${r.maxAddedLines})`]
        : []),
    ];
    if (over.length > 0) {
      flag(
        "size",
        r.level,
        `Large change: ${over.join(", ")}`,
        r.message ?? "Split it so each part can be reviewed.",
      );
    }
    judged("size", over.length === 0);
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
