// Section (j) of `npm run bench`: scale (issue #29 item 3). One engine, 16 realistic subjects:
//
//   parallel  one `dist/cli.js run` of all 16 with --parallelism 4
//   serial    the same 16 as 16 runs one after another (`run --subject NAME`), the wall of all
//   floor 4   the engine floor of each of the 16, four at a time: the concurrency the tool is
//             given, so the parallel run is compared with the same engine work at the same width
//   floor 16  the same with all 16 at once: whether more width would buy anything on this engine
//
// The four are interleaved, their order rotated from one repetition to the next, so drift in the
// shared machine's speed and any effect of going first (a cold cache) hit each side alike. The
// floor's per-subject work is bench.mjs's subjectFloor (the same as (a) and (g)), handed in.
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { median, round, stats } from "./bench-stats.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const MATRIX = "acceptance/fixtures/realistic/realistic.json";

/**
 * The realistic cases the 16 subjects are made of: every case of realistic.json that passes every
 * case (no `fails`, no `skips`) and is ready over HTTP on a published port, eight in all, each
 * twice under a distinct name. redis-volume-allotted passes too but is TCP-only: left out, the
 * floor's readiness and probes are HTTP. Listed, not derived, so a new fixture does not silently
 * change what the figure measures.
 */
export const SCALE_CASES = [
  "nginx",
  "flask",
  "scratch-static",
  "scratch-static-no-tmp",
  "stopsignal-sigint",
  "sigterm-ignore-init",
  "healthcheck-works",
  "image-config",
];
const COPIES = 2;
export const SCALE_PARALLELISM = 4;

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * The 16 inventory subjects, interleaved by case (nginx-1, flask-1, ..., nginx-2, ...) so each
 * lane of four gets a mix. Each is built from its fixture folder (and stage) on the Debian base,
 * with the matrix test's defaults and the case's own fields (port, probes, init, stop timeout,
 * writable roots) over them.
 */
export function scaleSubjects(base) {
  const matrix = JSON.parse(readFileSync(path.join(ROOT, MATRIX), "utf8"));
  const cases = SCALE_CASES.map((name) => {
    const c = matrix.cases.find((x) => x.name === name);
    if (!c || c.fails.length > 0 || c.skips?.length || c.pending)
      throw new Error(`${MATRIX}: case ${name} no longer passes every case; choose another for (j)`);
    return c;
  });
  const subjects = [];
  for (let k = 1; k <= COPIES; k++) {
    for (const c of cases) {
      const image = matrix.images[c.image];
      subjects.push({
        name: `${c.name}-${k}`,
        build: {
          context: `acceptance/fixtures/realistic/${image.context}`,
          ...(image.target ? { target: image.target } : {}),
          args: { BASE: base },
        },
        limits: { memory: "128m", pids: 64, cpus: 0.5 },
        startupTimeoutMs: 30_000,
        ...c.subject,
      });
    }
  }
  return subjects;
}

/**
 * (j). `ctx` carries what bench.mjs owns: `cliJson(args)` (one CLI run: wall ms, exit, report,
 * peak RSS), `floor` ({ start, subject, proveGone }: the floor's run-wide start, one subject's
 * work, the closing proof), `subjectPhases(subjectReport)`, the bench's engine and lib, `say`.
 */
export async function benchScale(ctx, n) {
  const { say, engine, lib } = ctx;
  const base = process.env.DA_DEBIAN_IMAGE ?? "docker-acceptance/debian:bookworm";
  try {
    await engine.docker.getImage(base).inspect();
  } catch {
    say(`(j) skipped: ${base} is missing (bash scripts/engine.sh makes it)`);
    return null;
  }
  const file = path.join(ctx.tmp, "scale-inventory.json");
  const inventory = JSON.parse(readFileSync(ctx.inventoryPath, "utf8"));
  writeFileSync(file, JSON.stringify({ ...inventory, subjects: scaleSubjects(base), artifacts: [] }));
  const subjects = (await lib.loadInventory(file, { workspace: ROOT })).inventory.subjects;
  const run = ["run", "--inventory", file, "--probe-image", ctx.probeImage];
  const sides = {
    parallel: () => parallelRun(ctx, run),
    serial: () => serialRuns(ctx, run, subjects),
    floor4: () => floorBatch(ctx, subjects, SCALE_PARALLELISM),
    floor16: () => floorBatch(ctx, subjects, subjects.length),
  };
  say(
    `(j) ${subjects.length} realistic subjects: one run at parallelism ${SCALE_PARALLELISM}, ${subjects.length} serial runs, the floor ${SCALE_PARALLELISM} and ${subjects.length} at a time; ${n} repetitions interleaved`,
  );
  // Warm-up, not counted: every image's layers into the build cache, so that each counted build,
  // on every side, is the cached build a pull request's second push makes.
  await sides.parallel();
  await sides.floor4();
  const reps = [];
  const names = Object.keys(sides);
  for (let r = 0; r < n; r++) {
    const rep = { loadAverage: round(os.loadavg()[0], 1) };
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      rep[name] = await sides[name]();
      say(`(j) repetition ${r + 1}: ${name} ${Math.round(rep[name].ms)} ms (load ${rep.loadAverage})`);
    }
    reps.push(rep);
  }
  return summarize(reps, subjects.length);
}

/** One CLI run of every subject at the tool's parallelism. */
async function parallelRun(ctx, run) {
  const r = await ctx.cliJson([...run, "--parallelism", String(SCALE_PARALLELISM)]);
  verdictOf(ctx, r, "parallel");
  return {
    ms: r.ms,
    verdict: r.report.verdict,
    notPassing: notPassing(r.report),
    peakRssMb: r.peakRssMb,
    cpuMs: r.cpuMs,
    pipelineMs: r.report.durationMs,
    subjects: r.report.subjects.map((s) => ctx.subjectPhases(s)),
    lanes: lanes(r.report, SCALE_PARALLELISM),
  };
}

/** Each subject in a run of its own, one after another: the wall of all of them. */
async function serialRuns(ctx, run, subjects) {
  const t0 = performance.now();
  const runs = [];
  for (const s of subjects) {
    const r = await ctx.cliJson([...run, "--subject", s.name]);
    verdictOf(ctx, r, `serial ${s.name}`);
    runs.push(r);
  }
  return {
    ms: performance.now() - t0,
    verdicts: runs.map((r) => r.report.verdict),
    notPassing: runs.flatMap((r) => notPassing(r.report)),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb ?? 0)),
    cpuMs: sum(runs.map((r) => r.cpuMs ?? 0)),
    pipelineMs: sum(runs.map((r) => r.report.durationMs)),
    subjects: runs.map((r) => ctx.subjectPhases(r.report.subjects[0])),
  };
}

/**
 * The floor of every subject, `width` at a time, in the order the tool takes them (a pool of
 * lanes, each taking the next subject when its last one is done): one run-wide start (ping, the
 * probe image, the host probe every subject shares), each subject's own work and proof, then the
 * host probe's removal and one proof for the whole run.
 */
async function floorBatch(ctx, subjects, width) {
  // The floor's client is this process: its CPU time over the batch is the floor's side of what
  // the CLI process's own CPU time is on the tool's.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const start = await ctx.floor.start();
  const done = await pool(subjects, width, async (s) => {
    const from = performance.now() - t0;
    const { steps } = await ctx.floor.subject(s, start.host);
    return { steps, startMs: from, endMs: performance.now() - t0 };
  });
  await (await start.host).removed;
  await ctx.floor.proveGone();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    subjects: done.map((d) => d.steps),
    lanes: laneFigures(done, width, start.ms, ms),
  };
}

/** `fn` over `items`, at most `width` at once, each lane taking the next item in order. */
async function pool(items, width, fn) {
  const out = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

/** The tool's subjects as the report places them in time (phases are relative to its start). */
function lanes(report, width) {
  const spans = report.subjects.map((s) => ({
    startMs: Math.min(...s.phases.map((p) => p.startMs)),
    endMs: Math.max(...s.phases.map((p) => p.startMs + p.durationMs)),
  }));
  return laneFigures(spans, width, Math.min(...spans.map((s) => s.startMs)), report.durationMs);
}

/**
 * How a run of many used its lanes: time before the first subject began (the run's own start:
 * inventory, ping, probe image), time after the last one ended (the run-wide sweep, the report),
 * each subject's span, and how full the lanes were between (the sum of the spans over width x the
 * time between first start and last end; 1 is a lane never idle).
 */
function laneFigures(spans, width, firstStartMs, totalMs) {
  const first = Math.min(...spans.map((s) => s.startMs));
  const last = Math.max(...spans.map((s) => s.endMs));
  const busy = sum(spans.map((s) => s.endMs - s.startMs));
  return {
    beforeFirstMs: round(firstStartMs),
    afterLastMs: round(totalMs - last),
    subjectSpanMs: round(median(spans.map((s) => s.endMs - s.startMs))),
    occupancy: round(busy / (Math.min(width, spans.length) * (last - first)), 2),
  };
}

function verdictOf(ctx, r, what) {
  if (r.report.verdict !== "pass")
    ctx.say(`(j) warning: ${what} verdict ${r.report.verdict}: ${JSON.stringify(notPassing(r.report))}`);
}

/** Every case that did not pass, with its message: why a verdict was not pass. */
function notPassing(report) {
  return report.cases
    .filter((c) => c.status !== "pass")
    .map((c) => ({ subject: c.subject, id: c.id, status: c.status, message: c.message }));
}

/** Medians (min-max) per side, the ratios, and per phase where the parallel run is above its floor. */
function summarize(reps, count) {
  const side = (k) => stats(reps.map((r) => r[k].ms));
  const wall = {
    parallel: side("parallel"),
    serial: side("serial"),
    floor4: side("floor4"),
    floor16: side("floor16"),
  };
  const ratio = (a, b) => round(wall[a].median / wall[b].median, 2);
  const paired = (a, b) => reps.map((r) => round(r[a].ms / r[b].ms, 2));
  // Per phase, the median over every subject of every repetition (16 x reps values per side).
  const phaseMedians = (k) => {
    const rows = reps.flatMap((r) => r[k].subjects);
    const keys = Object.keys(rows[0]);
    const out = Object.fromEntries(keys.map((p) => [p, round(median(rows.map((x) => x[p] ?? 0)))]));
    return { ...out, "subject total": round(median(rows.map((x) => sum(keys.map((p) => x[p] ?? 0))))) };
  };
  const phases = {
    serial: phaseMedians("serial"),
    parallel: phaseMedians("parallel"),
    floor4: phaseMedians("floor4"),
    floor16: phaseMedians("floor16"),
  };
  const aboveFloor = Object.fromEntries(
    Object.keys(phases.parallel).map((p) => [p, round(phases.parallel[p] - (phases.floor4[p] ?? 0))]),
  );
  const laneMedians = (k) =>
    Object.fromEntries(
      Object.keys(reps[0][k].lanes).map((f) => [f, round(median(reps.map((r) => r[k].lanes[f])), 2)]),
    );
  return {
    subjects: count,
    parallelism: SCALE_PARALLELISM,
    cases: SCALE_CASES,
    wall,
    parallelToSerial: ratio("parallel", "serial"),
    parallelToFloor4: ratio("parallel", "floor4"),
    parallelToFloor16: ratio("parallel", "floor16"),
    floor4ToFloor16: ratio("floor4", "floor16"),
    paired: {
      parallelToSerial: paired("parallel", "serial"),
      parallelToFloor4: paired("parallel", "floor4"),
      parallelToFloor16: paired("parallel", "floor16"),
    },
    pipeline: {
      parallel: stats(reps.map((r) => r.parallel.pipelineMs)),
      serialSum: stats(reps.map((r) => r.serial.pipelineMs)),
    },
    // The client's own CPU time: the CLI process (summed over the serial runs) or, for the floor,
    // this bench process over the batch. The engine, the subjects and other tenants are not in it.
    clientCpuMs: {
      parallel: stats(reps.map((r) => r.parallel.cpuMs)),
      serialSum: stats(reps.map((r) => r.serial.cpuMs)),
      floor4: stats(reps.map((r) => r.floor4.cpuMs)),
      floor16: stats(reps.map((r) => r.floor16.cpuMs)),
    },
    peakRssMb: {
      parallel: stats(reps.map((r) => r.parallel.peakRssMb)),
      serialMax: stats(reps.map((r) => r.serial.peakRssMb)),
    },
    phases,
    aboveFloor,
    lanes: {
      parallel: laneMedians("parallel"),
      floor4: laneMedians("floor4"),
      floor16: laneMedians("floor16"),
    },
    verdicts: {
      parallel: reps.map((r) => r.parallel.verdict),
      serial: reps.map((r) => r.serial.verdicts.filter((v) => v === "pass").length),
      notPassing: reps.flatMap((r) => [...r.parallel.notPassing, ...r.serial.notPassing]),
    },
    perRep: reps.map((r) => ({
      loadAverage: r.loadAverage,
      parallel: round(r.parallel.ms),
      serial: round(r.serial.ms),
      floor4: round(r.floor4.ms),
      floor16: round(r.floor16.ms),
      peakRssMb: round(r.parallel.peakRssMb),
      cpuMs: {
        parallel: round(r.parallel.cpuMs),
        serial: round(r.serial.cpuMs),
        floor4: round(r.floor4.cpuMs),
      },
    })),
  };
}

/** (j) for the bench's text output. */
export function scaleText(j) {
  const spread = (st) => `${st.median} (${st.min}-${st.max})`;
  const row = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
  return [
    `(j) ${j.subjects} realistic subjects (${j.cases.join(", ")}; each twice): wall ms, median (min-max)`,
    `    one run, parallelism ${j.parallelism}  ${spread(j.wall.parallel)}; its pipeline ${spread(j.pipeline.parallel)}`,
    `    ${j.subjects} serial runs          ${spread(j.wall.serial)}; their pipelines summed ${spread(j.pipeline.serialSum)}`,
    `    floor, ${j.parallelism} at a time      ${spread(j.wall.floor4)}`,
    `    floor, ${j.subjects} at once        ${spread(j.wall.floor16)}`,
    `    ratios                  parallel/serial ${j.parallelToSerial} (paired ${j.paired.parallelToSerial.join(" ")}); parallel/floor-${j.parallelism} ${j.parallelToFloor4} (paired ${j.paired.parallelToFloor4.join(" ")}); parallel/floor-${j.subjects} ${j.parallelToFloor16}`,
    `    per repetition          ${j.perRep.map((r) => `load ${r.loadAverage}: ${r.parallel} / ${r.serial} / ${r.floor4} / ${r.floor16}`).join("; ")}`,
    `    phases, serial runs     ${row(j.phases.serial)}`,
    `    phases, parallel run    ${row(j.phases.parallel)}`,
    `    floor, ${j.parallelism} at a time      ${row(j.phases.floor4)}`,
    `    floor, ${j.subjects} at once        ${row(j.phases.floor16)}`,
    `    parallel above floor-${j.parallelism} ${row(j.aboveFloor)}`,
    `    lanes                   parallel ${row(j.lanes.parallel)}; floor-${j.parallelism} ${row(j.lanes.floor4)}`,
    `    client CPU ms           parallel CLI ${spread(j.clientCpuMs.parallel)}; serial CLIs summed ${spread(j.clientCpuMs.serialSum)}; floor client ${spread(j.clientCpuMs.floor4)} (${j.parallelism} at a time), ${spread(j.clientCpuMs.floor16)} (${j.subjects})`,
    `    peak memory             parallel CLI ${j.peakRssMb.parallel.median} MB resident (${j.peakRssMb.parallel.min}-${j.peakRssMb.parallel.max}); one serial run at most ${j.peakRssMb.serialMax.median} MB`,
    `    verdicts                parallel ${j.verdicts.parallel.join(" ")}; serial runs passing per repetition ${j.verdicts.serial.join(" ")}${j.verdicts.notPassing.length ? `; not passing: ${JSON.stringify(j.verdicts.notPassing).slice(0, 600)}` : ""}`,
  ];
}
