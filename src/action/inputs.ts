// Action inputs, read once and validated: the same meaning as the CLI flags.
import * as core from "@actions/core";
import { UsageError } from "../errors.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import { parseShard, type Shard } from "../plan.js";
import { SUITES, type SuiteName } from "../suites/ids.js";

export type Mode = "run" | "check" | "publish" | "merge" | "command";

export interface ActionInputs {
  mode: Mode;
  inventory: string;
  subjects: string[];
  suites: SuiteName[];
  shard?: Shard;
  containers: string[];
  /** `mode: check`: Docker filters (KEY=VALUE), the allotted writable roots, capabilities, network. */
  containerFilters: string[];
  writableRoots: string[];
  allowedCapabilities: string[];
  /** `PATH[:ro|rw]` host paths the graded containers may bind. */
  allowedHostPaths: string[];
  network: "any" | "none" | "bridge";
  probeImage?: string;
  /** Which engine: auto (DOCKER_HOST, CONTAINER_HOST, then the default sockets), docker or podman. */
  engine: "auto" | "docker" | "podman";
  cleanupImages: boolean;
  requireComplete: boolean;
  failOn: "fail" | "warn" | "never";
  comment: "always" | "on-failure" | "never";
  commentUpdate: "always" | "on-change";
  commentOnPass: "update" | "keep" | "hide" | "delete";
  /** Most check run annotations to send (GitHub keeps at most 1,000). */
  maxAnnotations: number;
  /** Write the report to the job summary. */
  jobSummary: boolean;
  checkName: string;
  /** Login whose comments are ours (GITHUB_TOKEN: github-actions[bot]; a PAT or app: its login). */
  commentAuthor: string;
  issueOnFailure: boolean;
  alignmentConfig: string;
  junit: string[];
  sarif: string[];
  reportDir: string;
  parallelism?: number;
  githubToken: string;
  /** The accepted `/acceptance` command (the accept step's `decision` output), as JSON; "" when none. */
  command: string;
  /** `mode: publish` without `command`: publish although the event is not workflow_run. */
  allowOutsideWorkflowRun: boolean;
}

const list = (name: string) =>
  core
    .getInput(name)
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const value = (core.getInput(name) || fallback) as T;
  if (!allowed.includes(value))
    throw new UsageError(`input ${name}: ${JSON.stringify(value)} is not one of ${allowed.join(", ")}`);
  return value;
}

function bool(name: string, fallback: boolean): boolean {
  const v = core.getInput(name).trim().toLowerCase();
  if (v === "") return fallback;
  if (["true", "yes", "1"].includes(v)) return true;
  if (["false", "no", "0"].includes(v)) return false;
  throw new UsageError(`input ${name}: ${JSON.stringify(v)} is not a boolean (true or false)`);
}

function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = core.getInput(name).trim();
  if (raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`input ${name}: ${JSON.stringify(raw)} is not a whole number from ${min} to ${max}`);
  return n;
}

export function readInputs(): ActionInputs {
  const suites = list("suite").map((s) => {
    if (!(SUITES as readonly string[]).includes(s))
      throw new UsageError(`input suite: ${JSON.stringify(s)} is not ${SUITES.join(" or ")}`);
    return s as SuiteName;
  });
  const p = core.getInput("parallelism");
  const parallelism = p ? Number(p) : undefined;
  if (parallelism !== undefined && !(Number.isInteger(parallelism) && parallelism >= 1)) {
    throw new UsageError(`input parallelism: ${JSON.stringify(p)} is not a whole number >= 1`);
  }
  const shard = core.getInput("shard");
  return {
    mode: oneOf("mode", ["run", "check", "publish", "merge", "command"] as const, "run"),
    inventory: core.getInput("inventory") || DEFAULT_INVENTORY_PATH,
    subjects: list("subject"),
    suites,
    shard: shard ? parseShard(shard) : undefined,
    containers: list("container"),
    containerFilters: list("container-filter"),
    writableRoots: core.getInput("writable-roots") ? list("writable-roots") : ["/tmp", "/dev/shm"],
    allowedCapabilities: list("allowed-capabilities"),
    allowedHostPaths: list("allowed-host-paths"),
    network: oneOf("network", ["any", "none", "bridge"] as const, "any"),
    probeImage: core.getInput("probe-image") || undefined,
    engine: oneOf("engine", ["auto", "docker", "podman"] as const, "auto"),
    cleanupImages: bool("cleanup-images", true),
    requireComplete: bool("require-complete", true),
    failOn: oneOf("fail-on", ["fail", "warn", "never"] as const, "fail"),
    comment: oneOf("comment", ["always", "on-failure", "never"] as const, "always"),
    commentUpdate: oneOf("comment-update", ["always", "on-change"] as const, "always"),
    commentOnPass: oneOf("comment-on-pass", ["update", "keep", "hide", "delete"] as const, "update"),
    maxAnnotations: wholeNumber("max-annotations", 1000, 0, 1000),
    jobSummary: bool("job-summary", true),
    checkName: core.getInput("check-name") || "docker-acceptance",
    commentAuthor: core.getInput("comment-author") || "github-actions[bot]",
    issueOnFailure: bool("issue-on-failure", false),
    alignmentConfig: core.getInput("alignment-config") || "acceptance/alignment.yml",
    junit: list("junit"),
    sarif: list("sarif"),
    reportDir: core.getInput("report-dir") || "",
    parallelism,
    githubToken: core.getInput("github-token"),
    command: core.getInput("command"),
    allowOutsideWorkflowRun: bool("allow-outside-workflow-run", false),
  };
}
