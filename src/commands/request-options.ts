// The options of the one request both doors are parsed into (src/commands/request.ts): each once,
// with its action input, its CLI flag, its values, its default and its help. Plain data: the CLI's
// `--help` reads it without loading the schema library.
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import { SUITES } from "../suites/names.js";

export type Kind =
  | { kind: "string" }
  | { kind: "list" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "enum-list"; values: readonly string[] }
  | { kind: "boolean" }
  | { kind: "int"; min: number; max?: number }
  | { kind: "shard" }
  | { kind: "path-list" }
  | { kind: "capability-list" };

export type RequestOption = Kind & {
  /** The action input (action.yml); absent: a CLI flag only. */
  input?: string;
  /** The CLI flag and the commands that take it; absent: an action input only. */
  flag?: string;
  commands?: readonly ("run" | "check")[];
  /** The value when the input is empty or the flag absent (the action's declared default). */
  default?: string;
  help: string;
  /** How a wrong value is described when the generic wording reads worse. */
  problem?: string;
};

const MODES = ["run", "check", "publish", "merge", "command"] as const;
const ENGINES = ["auto", "docker", "podman"] as const;
const RUN = ["run"] as const;
const CHECK = ["check"] as const;
const BOTH = ["run", "check"] as const;

/** Every option, keyed by its field in the parsed request. */
export const REQUEST_OPTIONS = {
  mode: { input: "mode", kind: "enum", values: MODES, default: "run", help: "what the step does" },
  inventory: {
    input: "inventory",
    flag: "inventory",
    commands: RUN,
    kind: "string",
    default: DEFAULT_INVENTORY_PATH,
    help: "the pinned acceptance inventory",
  },
  subjects: {
    input: "subject",
    flag: "subject",
    commands: RUN,
    kind: "list",
    help: "a subject to run (repeatable; default all)",
  },
  suites: {
    input: "suite",
    flag: "suite",
    commands: RUN,
    kind: "enum-list",
    values: SUITES,
    help: "a suite to run (repeatable; default both)",
  },
  shard: {
    input: "shard",
    flag: "shard",
    commands: RUN,
    kind: "shard",
    help: "run only shard I/N of the subjects",
  },
  containers: {
    input: "container",
    flag: "container",
    commands: CHECK,
    kind: "list",
    help: "a running container to grade (repeatable)",
  },
  containerFilters: {
    input: "container-filter",
    flag: "filter",
    commands: CHECK,
    kind: "list",
    help: "grade every running container matching KEY=VALUE (repeatable)",
  },
  writableRoots: {
    input: "writable-roots",
    flag: "writable-root",
    commands: CHECK,
    kind: "path-list",
    default: "/tmp,/dev/shm",
    help: "a path the containers may write (repeatable)",
  },
  allowedCapabilities: {
    input: "allowed-capabilities",
    flag: "allow-cap",
    commands: CHECK,
    kind: "capability-list",
    help: "a capability the containers may keep, e.g. NET_BIND_SERVICE (repeatable)",
  },
  allowedHostPaths: {
    input: "allowed-host-paths",
    flag: "allow-host-path",
    commands: CHECK,
    kind: "list",
    help: "a host path the containers may bind, PATH[:ro|rw] (repeatable)",
  },
  network: {
    input: "network",
    flag: "network",
    commands: CHECK,
    kind: "enum",
    values: ["any", "none", "bridge"],
    problem: "is not one of none, bridge or any",
    default: "any",
    help: "the network the containers must have",
  },
  probeImage: {
    input: "probe-image",
    flag: "probe-image",
    commands: BOTH,
    kind: "string",
    help: "the trusted probe image, pinned by digest",
  },
  engine: {
    input: "engine",
    flag: "engine",
    commands: BOTH,
    kind: "enum",
    values: ENGINES,
    default: "auto",
    help: "the container engine (auto: DOCKER_HOST, CONTAINER_HOST, the default sockets)",
  },
  parallelism: {
    input: "parallelism",
    flag: "parallelism",
    commands: RUN,
    kind: "int",
    min: 1,
    help: "subjects tested at once (default: the CPU cores)",
  },
  cleanupImages: {
    input: "cleanup-images",
    kind: "boolean",
    default: "true",
    help: "remove the images this run built",
  },
  requireComplete: {
    input: "require-complete",
    kind: "boolean",
    default: "true",
    help: "fail when a pinned case did not run",
  },
  failOn: {
    input: "fail-on",
    kind: "enum",
    values: ["fail", "warn", "never"],
    default: "fail",
    help: "which verdicts fail the step",
  },
  comment: {
    input: "comment",
    kind: "enum",
    values: ["always", "on-failure", "never"],
    default: "always",
    help: "when to comment on the PR",
  },
  commentUpdate: {
    input: "comment-update",
    kind: "enum",
    values: ["always", "on-change"],
    default: "always",
    help: "when to rewrite the comment",
  },
  commentOnPass: {
    input: "comment-on-pass",
    kind: "enum",
    values: ["update", "keep", "hide", "delete"],
    default: "update",
    help: "what a pass does to a failing comment",
  },
  maxAnnotations: {
    input: "max-annotations",
    kind: "int",
    min: 0,
    max: 1000,
    default: "1000",
    help: "most check run annotations to send",
  },
  jobSummary: {
    input: "job-summary",
    kind: "boolean",
    default: "true",
    help: "write the report to the job summary",
  },
  checkName: {
    input: "check-name",
    kind: "string",
    default: "docker-acceptance",
    help: "the check run's name",
  },
  commentAuthor: {
    input: "comment-author",
    kind: "string",
    default: "github-actions[bot]",
    help: "whose comments are ours",
  },
  allowOutsideWorkflowRun: {
    input: "allow-outside-workflow-run",
    kind: "boolean",
    default: "false",
    help: "publish a fork bundle outside workflow_run",
  },
  issueOnFailure: {
    input: "issue-on-failure",
    kind: "boolean",
    default: "false",
    help: "a tracking issue for failing runs outside PRs",
  },
  alignmentConfig: {
    input: "alignment-config",
    flag: "alignment-config",
    commands: RUN,
    kind: "string",
    default: "acceptance/alignment.yml",
    help: "the alignment configuration",
  },
  junit: { input: "junit", kind: "list", help: "extra JUnit XML files (globs)" },
  sarif: { input: "sarif", kind: "list", help: "extra SARIF files (globs)" },
  reportDir: {
    input: "report-dir",
    kind: "string",
    help: "where the report bundle goes (publish, merge: is read)",
  },
  command: { input: "command", kind: "string", help: "the accepted /acceptance command (JSON)" },
  githubToken: { input: "github-token", kind: "string", help: "token for the comment, check run and issue" },
  format: {
    flag: "format",
    commands: BOTH,
    kind: "enum",
    values: ["text", "markdown", "json"],
    default: "text",
    help: "how the report is printed",
  },
} as const satisfies Record<string, RequestOption>;

export type RequestKey = keyof typeof REQUEST_OPTIONS;
/** The options of a CLI command, one line each, for its `--help`. */
export function flagHelp(command: "run" | "check"): string {
  const rows = Object.values(REQUEST_OPTIONS as Record<string, RequestOption>)
    .filter((o) => o.flag && o.commands?.includes(command))
    .map((o) => {
      const values = o.kind === "enum" || o.kind === "enum-list" ? ` ${o.values.join("|")}` : "";
      const dflt = o.default ? ` (default ${o.default})` : "";
      return [`  --${o.flag}${values}`, `${o.help}${dflt}`] as const;
    });
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  return rows.map(([f, h]) => f.padEnd(width) + h).join("\n");
}
