// The options of the one request both doors are parsed into (src/request/parse.ts): each once,
// with its action input, its CLI flag and the commands that take it, its values, its default and its
// help. Plain data: the CLI's `--help` and usage lines read it without loading the schema library.

import { SUITES } from "../cases/suites.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";

export type Kind =
  | { kind: "string" }
  | { kind: "list" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "enum-list"; values: readonly string[] }
  | { kind: "boolean" }
  /** A CLI flag without a value (`--stale`): true when given. */
  | { kind: "switch" }
  /** An age such as 30m, 6h or 2d, in milliseconds. */
  | { kind: "duration" }
  | { kind: "int"; min: number; max?: number }
  | { kind: "shard" }
  | { kind: "path-list" }
  | { kind: "capability-list" };

export type RequestOption = Kind & {
  /** The action input (action.yml); absent: a CLI flag only. */
  input?: string;
  /** The CLI flag and the commands that take it; absent: an action input only. */
  flag?: string;
  /** The flag's one-letter form (`-q`). */
  short?: string;
  commands?: readonly Command[];
  /** What the flag's value is, in usage lines (`--out DIR`); enums show their values instead. */
  arg?: string;
  /** Commands that cannot run without the flag (shown without brackets in the usage line). */
  requiredBy?: readonly Command[];
  /** The value when the input is empty or the flag absent (the action's declared default). */
  default?: string;
  help: string;
  /** How a wrong value is described when the generic wording reads worse. */
  problem?: string;
};

/** The CLI's commands (src/cli/commands.ts says what each does and which positionals it takes). */
export const COMMANDS = [
  "init",
  "run",
  "check",
  "verify",
  "merge",
  "sweep",
  "publish",
  "align",
  "pin",
  "schema",
] as const;
export type Command = (typeof COMMANDS)[number];

const MODES = ["run", "check", "publish", "merge", "command"] as const;
const ENGINES = ["auto", "docker", "podman"] as const;
const FORMATS = ["text", "markdown", "json"] as const;
const RUN = ["run"] as const;
const CHECK = ["check"] as const;
const BOTH = ["run", "check"] as const;

/** Every option, keyed by its field in the parsed request. */
export const REQUEST_OPTIONS = {
  mode: { input: "mode", kind: "enum", values: MODES, default: "run", help: "what the step does" },
  inventory: {
    arg: "PATH",
    input: "inventory",
    flag: "inventory",
    commands: ["init", "run", "pin"],
    kind: "string",
    default: DEFAULT_INVENTORY_PATH,
    help: "the pinned acceptance inventory",
  },
  subjects: {
    arg: "NAME",
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
    arg: "I/N",
    input: "shard",
    flag: "shard",
    commands: RUN,
    kind: "shard",
    help: "run only shard I/N of the subjects",
  },
  containers: {
    arg: "ID|NAME",
    input: "container",
    flag: "container",
    commands: CHECK,
    kind: "list",
    help: "a running container to grade (repeatable)",
  },
  containerFilters: {
    arg: "KEY=VALUE",
    input: "container-filter",
    flag: "filter",
    commands: CHECK,
    kind: "list",
    help: "grade every running container matching KEY=VALUE (repeatable)",
  },
  writableRoots: {
    arg: "PATH",
    input: "writable-roots",
    flag: "writable-root",
    commands: CHECK,
    kind: "path-list",
    default: "/tmp,/dev/shm",
    help: "a path the containers may write (repeatable)",
  },
  allowedCapabilities: {
    arg: "NAME",
    input: "allowed-capabilities",
    flag: "allow-cap",
    commands: CHECK,
    kind: "capability-list",
    help: "a capability the containers may keep, e.g. NET_BIND_SERVICE (repeatable)",
  },
  allowedHostPaths: {
    arg: "PATH[:ro|rw]",
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
    arg: "REF",
    input: "probe-image",
    flag: "probe-image",
    commands: BOTH,
    kind: "string",
    help: "the trusted probe image, pinned by digest",
  },
  engine: {
    input: "engine",
    flag: "engine",
    commands: ["run", "check", "sweep"],
    kind: "enum",
    values: ENGINES,
    default: "auto",
    help: "the container engine (auto: DOCKER_HOST, CONTAINER_HOST, the default sockets)",
  },
  parallelism: {
    arg: "N",
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
    flag: "comment",
    commands: ["publish"],
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
    arg: "NAME",
    input: "check-name",
    flag: "check-name",
    commands: ["publish"],
    kind: "string",
    default: "docker-acceptance",
    help: "the check run's name",
  },
  commentAuthor: {
    arg: "LOGIN",
    input: "comment-author",
    flag: "comment-author",
    commands: ["publish"],
    kind: "string",
    default: "github-actions[bot]",
    help: "whose comments are ours",
  },
  allowOutsideWorkflowRun: {
    input: "allow-outside-workflow-run",
    flag: "allow-outside-workflow-run",
    commands: ["publish"],
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
    arg: "PATH",
    input: "alignment-config",
    flag: "alignment-config",
    commands: RUN,
    kind: "string",
    default: "acceptance/alignment.yml",
    help: "the alignment configuration",
  },
  junit: {
    input: "junit",
    flag: "junit",
    commands: ["align"],
    arg: "GLOB",
    kind: "list",
    help: "extra JUnit XML files (globs)",
  },
  sarif: {
    input: "sarif",
    flag: "sarif",
    commands: ["align"],
    arg: "GLOB",
    kind: "list",
    help: "extra SARIF files (globs)",
  },
  reportDir: {
    input: "report-dir",
    kind: "string",
    help: "where the report bundle goes (publish, merge: is read)",
  },
  command: { input: "command", kind: "string", help: "the accepted /acceptance command (JSON)" },
  githubToken: { input: "github-token", kind: "string", help: "token for the comment, check run and issue" },
  format: {
    flag: "format",
    commands: ["run", "check", "merge", "align"],
    kind: "enum",
    values: FORMATS,
    default: "text",
    help: "how the report is printed",
  },
  // The CLI's own flags: no action input has them.
  out: {
    flag: "out",
    commands: ["run", "check", "merge"],
    requiredBy: ["merge"],
    arg: "DIR",
    kind: "string",
    help: "write the report bundle there (merge: the merged bundle)",
  },
  workspace: {
    flag: "workspace",
    commands: ["init", "run", "verify", "merge", "pin", "align"],
    arg: "DIR",
    kind: "string",
    default: ".",
    help: "the repository's checkout (paths in the inventory are relative to it)",
  },
  base: {
    flag: "base",
    commands: ["run", "align"],
    arg: "REF",
    kind: "string",
    help: "where the change forked from: the inventory's trust-bearing parts and the alignment rules are read there (align's default: origin/HEAD, origin/main, main, origin/master or master)",
  },
  head: {
    flag: "head",
    commands: ["run", "align"],
    arg: "REF",
    kind: "string",
    help: "the change (default HEAD)",
  },
  keepImages: { flag: "keep-images", commands: RUN, kind: "switch", help: "keep the images this run built" },
  noRequireComplete: {
    flag: "no-require-complete",
    commands: RUN,
    kind: "switch",
    help: "do not fail when a pinned case did not run",
  },
  quiet: {
    flag: "quiet",
    short: "q",
    commands: BOTH,
    kind: "switch",
    help: "no progress lines on stderr",
  },
  compareInventory: {
    flag: "inventory",
    commands: ["verify", "merge"],
    arg: "PATH",
    kind: "string",
    help: "also check the bundle against this inventory (its digest and completeness)",
  },
  owners: {
    flag: "owner",
    commands: ["sweep"],
    arg: "RUN_ID",
    kind: "list",
    help: "remove what this run owns (repeatable)",
  },
  stale: {
    flag: "stale",
    commands: ["sweep"],
    kind: "switch",
    help: "remove what runs that are gone own",
  },
  olderThan: {
    flag: "older-than",
    commands: ["sweep"],
    kind: "duration",
    default: "6h",
    help: "with --stale: a run on another host counts as gone after this age",
  },
  sweepFormat: {
    flag: "format",
    commands: ["sweep"],
    kind: "enum",
    values: ["text", "json"],
    default: "text",
    help: "how the evidence is printed",
  },
  alignConfig: {
    flag: "config",
    commands: ["align"],
    arg: "PATH",
    kind: "string",
    help: "alignment config (default acceptance/alignment.yml in the repository)",
  },
  prTitle: {
    flag: "pr-title",
    commands: ["align"],
    arg: "TEXT",
    kind: "string",
    help: "the pull request's title, for `pull:` rules",
  },
  prBodyFile: {
    flag: "pr-body-file",
    commands: ["align"],
    arg: "PATH",
    kind: "string",
    help: "a file holding the pull request's body, for `pull:` rules",
  },
  prLabels: {
    flag: "pr-label",
    commands: ["align"],
    arg: "NAME",
    kind: "list",
    help: "a label of the pull request, for `pull:` rules (repeatable)",
  },
  prBase: {
    flag: "pr-base",
    commands: ["align"],
    arg: "BRANCH",
    kind: "string",
    help: "the pull request's base branch, for `pull:` rules",
  },
  defaultBranch: {
    flag: "default-branch",
    commands: ["align"],
    arg: "BRANCH",
    kind: "string",
    help: "the repository's default branch, for `pull:` rules",
  },
  update: {
    flag: "update",
    commands: ["init"],
    kind: "switch",
    help: "add what the existing inventory lacks (current case pins, subjects found since), removing nothing",
  },
  force: {
    flag: "force",
    commands: ["init"],
    kind: "switch",
    help: "replace an existing inventory (and its schema file)",
  },
  reportSchema: {
    flag: "report",
    commands: ["schema"],
    kind: "switch",
    help: "the report's schema instead of the inventory's",
  },
} as const satisfies Record<string, RequestOption>;

export type RequestKey = keyof typeof REQUEST_OPTIONS;
/** The keys of a CLI command's options, in the table's order. */
export function commandKeys(command: Command): RequestKey[] {
  return (Object.keys(REQUEST_OPTIONS) as RequestKey[]).filter((k) => {
    const o: RequestOption = REQUEST_OPTIONS[k];
    return o.flag !== undefined && o.commands?.includes(command);
  });
}

/** How a flag is written in a usage line: `--out DIR`, `--format text|markdown|json`, `--stale`. */
export function flagSyntax(option: RequestOption): string {
  const value =
    option.kind === "enum" || option.kind === "enum-list"
      ? ` ${option.values.join("|")}`
      : isSwitch(option)
        ? ""
        : ` ${option.arg ?? (option.kind === "duration" ? "AGE" : option.kind === "int" ? "N" : "VALUE")}`;
  return `--${option.flag}${value}`;
}

/** A flag without a value: a switch, or a boolean input's flag (given means true). */
export const isSwitch = (option: RequestOption) => option.kind === "switch" || option.kind === "boolean";

const REPEATABLE = new Set<Kind["kind"]>(["list", "enum-list", "path-list", "capability-list"]);
export const repeatable = (option: RequestOption) => REPEATABLE.has(option.kind);

/** A command's usage line after its name and positionals: required flags bare, the rest in brackets. */
export function usageFlags(command: Command): string {
  return commandKeys(command)
    .map((k) => {
      const o: RequestOption = REQUEST_OPTIONS[k];
      const text = flagSyntax(o);
      const many = repeatable(o) ? "..." : "";
      return o.requiredBy?.includes(command) ? `${text}${many}` : `[${text}]${many}`;
    })
    .join(" ");
}

/** The options of a CLI command, one line each, for its `--help`. */
export function flagHelp(command: Command): string {
  const rows = commandKeys(command).map((k) => {
    const o: RequestOption = REQUEST_OPTIONS[k];
    const dflt = o.default ? ` (default ${o.default})` : "";
    const many = repeatable(o) && !o.help.includes("repeatable") ? " (repeatable)" : "";
    return [`  ${flagSyntax(o)}${o.short ? ` (-${o.short})` : ""}`, `${o.help}${many}${dflt}`] as const;
  });
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  return rows.map(([f, h]) => f.padEnd(width) + h).join("\n");
}
