// The options of the one request both doors are parsed into (src/request/parse.ts): each once,
// with its action input, its CLI flag and the commands that take it, its values, its default and its
// help. Plain data: the CLI's `--help` and usage lines read it without loading the schema library.
import { SUITES } from "../cases/suites.js";
import { ENGINE_CHOICES, PROVIDER_CATALOGUE } from "../engine/provider-names.js";
import { PUBLISHER_OPTIONS } from "../github/publishers/gathered.js";
import { DEFAULT_INVENTORY_PATH } from "../inventory/path.js";
import type { Command, Kind, RequestOption } from "../option.js";

export { COMMANDS, type Command, type RequestOption } from "../option.js";

const MODES = ["run", "check", "publish", "merge", "command"] as const;
const FORMATS = ["text", "markdown", "json"] as const;
const RUN = ["run"] as const;
const CHECK = ["check"] as const;
const BOTH = ["run", "check"] as const;

/** The `engine` input's description, from the provider list: it can name no engine we lack. */
function engineDescription(): string {
  const each = PROVIDER_CATALOGUE.map((p) => `\`${p.name}\`${p.about ? ` (${p.about})` : ""}`);
  const envs = PROVIDER_CATALOGUE.map((p) => p.env).join(", then ");
  const names = PROVIDER_CATALOGUE.map((p) => p.name[0]!.toUpperCase() + p.name.slice(1));
  return (
    `The container engine: \`auto\` (${envs}, then the default ${names.join(" and ")} sockets), ` +
    `${each.slice(0, -1).join(", ")}, or ${each.at(-1)}.`
  );
}

/** Every option, keyed by its field in the parsed request. */
export const REQUEST_OPTIONS = {
  mode: {
    input: "mode",
    description:
      "What this step does. `run`: the suites against the inventory's subjects. `check`: the containment suite against a container you started (see `container`; never stopped or removed). `publish`: post the comment and check run from a report bundle downloaded into `report-dir` (the second phase of the fork recipe; published under its own check name as unverified, never as success). `merge`: one report from the shard bundles under `report-dir`. `command`: answer an `/acceptance` comment on a pull request (docs/commands.md): a maintainer's is accepted and its outputs (`run`, `decision`, `head-sha`, `pr`, `subjects`) drive the jobs that run the suites and publish.",
    kind: "enum",
    values: MODES,
    default: "run",
    help: "what the step does",
  },
  inventory: {
    arg: "PATH",
    input: "inventory",
    description:
      "Path (from the workspace) of the pinned acceptance inventory (JSON, see acceptance/inventory.schema.json).",
    flag: "inventory",
    commands: ["init", "run", "pin"],
    kind: "string",
    default: DEFAULT_INVENTORY_PATH,
    help: "the pinned acceptance inventory",
  },
  subjects: {
    arg: "NAME",
    input: "subject",
    description:
      "Subject names to run, comma- or newline-separated. Empty runs every subject in the inventory.",
    flag: "subject",
    commands: RUN,
    kind: "list",
    help: "a subject to run (repeatable; default all)",
  },
  suites: {
    input: "suite",
    description:
      "Suites to run, `lifecycle` and/or `containment`, comma- or newline-separated. Empty runs both.",
    flag: "suite",
    commands: RUN,
    kind: "enum-list",
    values: SUITES,
    help: "a suite to run (repeatable; default both)",
  },
  shard: {
    arg: "I/N",
    input: "shard",
    description:
      "Run only shard `I/N` of the subjects (1-based), for matrix jobs; combine the shards with `mode: merge`.",
    flag: "shard",
    commands: RUN,
    kind: "shard",
    help: "run only shard I/N of the subjects",
  },
  containers: {
    arg: "ID|NAME",
    input: "container",
    description:
      "`mode: check` only: ID or name of the running container(s) to grade, comma- or newline-separated.",
    flag: "container",
    commands: CHECK,
    kind: "list",
    help: "a running container to grade (repeatable)",
  },
  containerFilters: {
    arg: "KEY=VALUE",
    input: "container-filter",
    description:
      "`mode: check` only: grade every running container matching these filters (comma- or newline-separated; each `label=KEY`, `label=KEY=VALUE`, `name=TEXT` (a part of the name) or `id=PREFIX`; every label must hold, any one name or ID; e.g. `label=com.docker.compose.project=shop` for a whole compose stack), in addition to `container`. Labels the container was started with (`org.docker-acceptance.writable-roots`, `.allowed-capabilities`, `.network`, `.host-paths`; not those it inherited from its image) override the allowance inputs below for that container.",
    flag: "filter",
    commands: CHECK,
    kind: "list",
    help: "grade every running container matching label=KEY[=VALUE], name=TEXT or id=PREFIX (repeatable)",
  },
  writableRoots: {
    arg: "PATH",
    input: "writable-roots",
    description:
      "`mode: check` only: the paths the graded containers may write (comma- or newline-separated).",
    flag: "writable-root",
    commands: CHECK,
    kind: "path-list",
    default: "/tmp,/dev/shm",
    help: "a path the containers may write (repeatable)",
  },
  allowedCapabilities: {
    arg: "NAME",
    input: "allowed-capabilities",
    description:
      "`mode: check` only: capabilities the graded containers may keep, e.g. NET_BIND_SERVICE (comma- or newline-separated).",
    flag: "allow-cap",
    commands: CHECK,
    kind: "capability-list",
    help: "a capability the containers may keep, e.g. NET_BIND_SERVICE (repeatable)",
  },
  allowedHostPaths: {
    arg: "PATH[:ro|rw]",
    input: "allowed-host-paths",
    description:
      "`mode: check` only: host paths the graded containers may bind, `PATH`, `PATH:ro` or `PATH:rw` (read-only unless `:rw`; comma- or newline-separated). Every other host bind fails containment.mounts; sensitive host paths (/, /proc, /sys, /etc, /run, /var/run, /var/lib/docker, /boot, /dev, /root, /home, engine sockets) never count as allowed.",
    flag: "allow-host-path",
    commands: CHECK,
    kind: "list",
    help: "a host path the containers may bind, PATH[:ro|rw] (repeatable)",
  },
  network: {
    input: "network",
    description:
      "`mode: check` only: the network mode the containers must have: `any`, `none` (loopback only) or `bridge` (ports on 127.0.0.1 only).",
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
    description:
      "The trusted probe image, pinned by digest. Empty uses the built-in busybox:1.37.0 pinned by digest. Never taken from the inventory (a file the pull request can change: its `probeImage` is ignored and the report says so). It never runs the subject's image.",
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
    values: ENGINE_CHOICES,
    default: "auto",
    description: engineDescription(),
    help: `the container engine (auto: ${PROVIDER_CATALOGUE.map((p) => p.env).join(", ")}, the default sockets)`,
  },
  parallelism: {
    arg: "N",
    input: "parallelism",
    description: "Subjects tested at once. Empty uses the number of CPU cores.",
    flag: "parallelism",
    commands: RUN,
    kind: "int",
    min: 1,
    help: "subjects tested at once (default: the CPU cores)",
  },
  cleanupImages: {
    input: "cleanup-images",
    description:
      "Remove the images this run built (by their owned tag; shared tags and build cache survive).",
    kind: "boolean",
    default: "true",
    help: "remove the images this run built",
  },
  requireComplete: {
    input: "require-complete",
    description: "Fail when a case pinned in the inventory did not run (missing, unexpected or skipped).",
    kind: "boolean",
    default: "true",
    help: "fail when a pinned case did not run",
  },
  failOn: {
    input: "fail-on",
    description:
      "When the step fails: `fail` on a fail or error verdict, `warn` also on a warn verdict, `never` (report only).",
    kind: "enum",
    values: ["fail", "warn", "never"],
    default: "fail",
    help: "which verdicts fail the step",
  },
  // The publishers' own (each declared in its module, src/github/publishers/), in their order.
  ...PUBLISHER_OPTIONS,
  checkName: {
    arg: "NAME",
    input: "check-name",
    description:
      "Name of the check run (and the comment's headline). Give each matrix job or workflow its own.",
    flag: "check-name",
    commands: ["publish"],
    kind: "string",
    default: "docker-acceptance",
    help: "the check run's name",
  },
  commentAuthor: {
    arg: "LOGIN",
    input: "comment-author",
    description:
      "Login whose comments this action updates. The comment is found again only among that author's comments, so a pasted marker cannot hijack it. Set it to your user or `<app-slug>[bot]` when `github-token` is a PAT or an app token.",
    flag: "comment-author",
    commands: ["publish"],
    kind: "string",
    default: "github-actions[bot]",
    help: "whose comments are ours",
  },
  allowOutsideWorkflowRun: {
    input: "allow-outside-workflow-run",
    description:
      "`mode: publish` of a fork bundle only: publish although the event is not `workflow_run`. Without a triggering run nothing vouches for event.json's head commit, so the step refuses unless this is `true`. The publication is labelled unverified either way.",
    flag: "allow-outside-workflow-run",
    commands: ["publish"],
    kind: "boolean",
    default: "false",
    help: "publish a fork bundle outside workflow_run",
  },
  alignmentConfig: {
    arg: "PATH",
    input: "alignment-config",
    description:
      "Path of the alignment configuration (RFC registry and principle rules, see docs/alignment.md). Missing file means no alignment review.",
    flag: "alignment-config",
    commands: RUN,
    kind: "string",
    default: "acceptance/alignment.yml",
    help: "the alignment configuration",
  },
  junit: {
    input: "junit",
    description:
      "Extra JUnit XML files (globs, comma- or newline-separated) from other test steps, summarized in the same report.",
    flag: "junit",
    commands: ["align"],
    arg: "GLOB",
    kind: "list",
    help: "extra JUnit XML files (globs)",
  },
  sarif: {
    input: "sarif",
    description:
      "Extra SARIF files (globs, comma- or newline-separated) whose findings are summarized in the same report.",
    flag: "sarif",
    commands: ["align"],
    arg: "GLOB",
    kind: "list",
    help: "extra SARIF files (globs)",
  },
  reportDir: {
    input: "report-dir",
    description:
      "Where the report bundle is written (report.json, report.md, junit.xml, cleanup.json, SHA256SUMS). Empty: $RUNNER_TEMP/docker-acceptance/<run id>. For `publish` and `merge`, where the bundle(s) are read from.",
    kind: "string",
    help: "where the report bundle goes (publish, merge: is read)",
  },
  command: {
    input: "command",
    description:
      "The accepted `/acceptance` command, the accept step's `decision` output passed unchanged (docs/commands.md). With `mode: run` the suites run only if the workspace is at its pinned commit; with `mode: publish` the report is published for that commit and the command answered.",
    kind: "string",
    help: "the accepted /acceptance command (JSON)",
  },
  githubToken: {
    input: "github-token",
    description:
      "Token for the PR comment, check run and tracking issue only; never printed, never passed to a container. Needs `pull-requests: write` and `checks: write` (and `issues: write` with `issue-on-failure`).",
    kind: "string",
    actionDefault: ["$", "{{ github.token }}"].join(""),
    help: "token for the comment, check run and issue",
  },
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
