// Action inputs, read once and validated: the same meaning as the CLI flags (one request schema).
import * as core from "@actions/core";
import { parseRequest, REQUEST_OPTIONS, type RequestKey } from "../commands/request.js";
import type { Shard } from "../plan.js";
import type { SuiteName } from "../suites/ids.js";

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

/** Every input through the one request schema (src/commands/request.ts), which names the input at fault. */
export function readInputs(): ActionInputs {
  const keys = (Object.keys(REQUEST_OPTIONS) as RequestKey[]).filter((k) => "input" in REQUEST_OPTIONS[k]);
  const raw = Object.fromEntries(
    keys.map((k) => [k, core.getInput((REQUEST_OPTIONS[k] as { input: string }).input)]),
  );
  const r = parseRequest(raw, keys, "input") as unknown as ActionInputs;
  return { ...r, probeImage: r.probeImage || undefined };
}
