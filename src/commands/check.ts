// `docker-acceptance check`: the containment suite against containers someone else started. It
// reads them (inspect + trusted probes) and never stops, restarts or changes them: each is paused
// only while its probe reads it and thawed on every path (a signal included). The only objects it
// creates are its own labelled probes, removed as soon as read and swept at the end.
import { setMaxListeners } from "node:events";
import path from "node:path";
import { cleanupOwned } from "../engine/cleanup.js";
import { newRunId, OWNER_LABEL } from "../engine/ownership.js";
import type { ContainerQuery } from "../engine/provider.js";
import { createEngine, type Engine } from "../engine/select.js";
import { EngineError, errorEvidence, UsageError } from "../errors.js";
import { writeBundle } from "../report/bundle.js";
import { assembleReport, type Report } from "../report/model.js";
import type { RequestOf } from "../request/parse.js";
import {
  type ContainmentEvidence,
  collectEvidence,
  DEFAULT_PROBE_IMAGE,
  gradeContainment,
  type HostPathAllowance,
  listOtherContainers,
  measureHostNamespaces,
  parseHostPathAllowance,
  takeCensus,
  withPeerNamespaces,
} from "../suites/containment/index.js";
import { type Allowances, allowancesFor, checkModeCases, launchLabels } from "./check-stack.js";
import { abortOnSignals, exitCodeFor, renderReport, signalExitCode } from "./common.js";

interface CheckSelection {
  containers: string[];
  /** Which running containers the filters select (absent: no filter given). */
  query?: ContainerQuery;
  /** The filters as given, for messages. */
  filters?: readonly string[];
}

/** The filter forms check takes, as its messages list them. */
const FILTER_FORMS = "label=KEY, label=KEY=VALUE, name=TEXT (a part of the name) or id=PREFIX";

/**
 * The filters as the owned-objects query the engine lists by: `label=KEY` or `label=KEY=VALUE`
 * (the key ends at the first '='; every label must hold), `name=TEXT` (a part of the name) and
 * `id=PREFIX` (any one of several names or IDs). Nothing else is an engine's to read: another key
 * is refused, naming the forms that work. Undefined when no filter is given.
 */
export function parseFilters(values: readonly string[], source = "--filter"): ContainerQuery | undefined {
  if (values.length === 0) return undefined;
  const query: Required<Pick<ContainerQuery, "labels" | "names" | "ids">> = {
    labels: [],
    names: [],
    ids: [],
  };
  for (const v of values) {
    const i = v.indexOf("=");
    if (i <= 0 || i === v.length - 1) {
      throw new UsageError(
        `${source} ${JSON.stringify(v)}: expected KEY=VALUE, e.g. label=com.docker.compose.project=shop`,
      );
    }
    const [key, value] = [v.slice(0, i), v.slice(i + 1)];
    if (key === "label") {
      const j = value.indexOf("=");
      query.labels.push(j < 0 ? { key: value } : { key: value.slice(0, j), value: value.slice(j + 1) });
    } else if (key === "name") query.names.push(value);
    else if (key === "id") query.ids.push(value);
    else
      throw new UsageError(
        `${source} ${JSON.stringify(v)}: check selects running containers by ${FILTER_FORMS}; label the containers and select them by label, or name each with --container (input container)`,
      );
  }
  return Object.fromEntries(Object.entries(query).filter(([, list]) => list.length > 0)) as ContainerQuery;
}

/** What check grades: the containers named, and those the filters select. */
export function selectionOf(
  containers: string[],
  filters: readonly string[],
  source: string,
): CheckSelection {
  const query = parseFilters(filters, source);
  return { containers, ...(query ? { query, filters } : {}) };
}

/** Parses `PATH[:ro|rw]` allowances; a bad one is a usage error naming where it came from. */
export function hostPathAllowances(values: readonly string[], source: string): HostPathAllowance[] {
  return values.map((v) => {
    try {
      return parseHostPathAllowance(v);
    } catch (err) {
      throw new UsageError(`${source} ${(err as Error).message}`);
    }
  });
}

interface Resolved {
  id: string;
  name: string;
  image: string;
  labels: Record<string, string>;
}

/** Named containers by inspect (a missing one is a usage error naming it), filters by listing. */
async function resolveContainers(engine: Engine, sel: CheckSelection, owner: string): Promise<Resolved[]> {
  const found = new Map<string, Resolved>();
  for (const ref of sel.containers) {
    try {
      const doc = await engine.inspect(ref);
      found.set(doc.id, { id: doc.id, name: doc.name, image: doc.image, labels: doc.labels });
    } catch (err) {
      if (err instanceof EngineError && err.statusCode === 404) {
        throw new UsageError(
          `--container ${JSON.stringify(ref)}: no such container on this engine (see \`${(await engine.facts()).cli} ps\`)`,
        );
      }
      throw err;
    }
  }
  if (sel.query) {
    const listed = await engine.listContainers({ ...sel.query, status: ["running"] });
    // Our own probes never count as subjects, whatever the filter says.
    for (const c of listed.filter((x) => x.labels[OWNER_LABEL] !== owner)) {
      found.set(c.id, { id: c.id, name: c.names[0] ?? c.id.slice(0, 12), image: c.image, labels: c.labels });
    }
    if (listed.length === 0 && sel.containers.length === 0) {
      throw new UsageError(`--filter ${(sel.filters ?? []).join(" ")}: no running container matches`);
    }
  }
  return [...found.values()];
}

interface CheckOptions {
  selection: CheckSelection;
  writableRoots: string[];
  allowedCapabilities: string[];
  allowedHostPaths?: HostPathAllowance[];
  network: "none" | "bridge" | "any";
  probeImage: string;
  signal: AbortSignal;
  engine?: Engine;
  /** Defaults to a fresh run id; the action passes the owner it saved for its post step. */
  owner?: string;
}

type CollectTarget = Parameters<typeof collectEvidence>[0];
type Collected<T> = { t: T; ev: ContainmentEvidence; ms: number };

/** Every target's evidence, collected at once; a target that could not be measured is an error of the run. */
async function collectAll<T extends CollectTarget>(
  targets: readonly T[],
  ctx: Parameters<typeof collectEvidence>[1],
  errors: Report["errors"],
): Promise<Collected<T>[]> {
  const collected = await Promise.all(
    targets.map(async (t) => {
      const started = performance.now();
      try {
        const ev = await collectEvidence(t, ctx);
        // Frozen while it was read, and the engine would not thaw it: said, never left silent.
        if (ev.thawError)
          errors.push({
            kind: "containment",
            message: `${t.subject}: ${ev.thawError}; it may still be paused (unpause it with \`${(await ctx.engine.facts()).cli} unpause ${t.containerId.slice(0, 12)}\`)`,
          });
        return { t, ev, ms: performance.now() - started };
      } catch (err) {
        errors.push({ kind: "containment", message: `${t.subject}: ${errorEvidence(err).message}` });
        return undefined;
      }
    }),
  );
  return collected.filter((c): c is Collected<T> => !!c);
}

/** The containment suite against running containers, as one Report (the CLI and the action door). */
export async function checkContainers(opts: CheckOptions): Promise<Report> {
  const engine = opts.engine ?? createEngine();
  await engine.ping();
  const owner = opts.owner ?? newRunId();
  const started = Date.now();
  const subjects = await resolveContainers(engine, opts.selection, owner);
  // Labels on a container override the command line's allowances for that container only.
  const defaults: Allowances = {
    writableRoots: opts.writableRoots,
    allowedCapabilities: opts.allowedCapabilities,
    network: opts.network,
    allowedHostPaths: opts.allowedHostPaths ?? [],
  };
  const allowances = await allowancesOf(engine, subjects, defaults, opts.signal);
  await engine.ensureImage(opts.probeImage, undefined, opts.signal);
  const shared = await measureOnce(engine, owner, opts, subjects);
  const errors: Report["errors"] = [];
  const targets = subjects.map((s) => ({
    containerId: s.id,
    subject: s.name,
    ...allowances.get(s.id)!.allowances,
  }));
  const ok = await collectAll(
    targets,
    { engine, owner, probeImage: opts.probeImage, ...shared, signal: opts.signal },
    errors,
  );
  // Graded together: namespaces shared between two of the graded containers are measured.
  const evidence = withPeerNamespaces(ok.map((c) => c.ev));
  const perSubject = ok.map((c, i) => {
    const s = subjects.find((x) => x.id === c.t.containerId)!;
    const { fromLabels, ofTheImage } = allowances.get(s.id)!;
    return checkModeCases(gradeContainment(evidence[i]!, c.t, c.ms), s.labels, fromLabels, ofTheImage);
  });
  await engine.settle();
  const cleanup = await cleanupOwned(engine, { owner }, { trigger: "check" });
  const cases = perSubject.flat();
  errors.push(...notMeasured(cases));
  return assembleReport({
    runId: owner,
    startedMs: started,
    subjects: subjects.map((s) => ({ name: s.name, containerId: s.id, image: s.image })),
    cases,
    cleanup,
    inventory: null,
    errors,
  });
}

/**
 * What is measured once for every subject: the engine's other containers, the host's namespaces,
 * and (on first asking) one census of every subject's processes. Each is judged per subject, so
 * a failure is never left unhandled here.
 */
async function measureOnce(engine: Engine, owner: string, opts: CheckOptions, subjects: readonly Resolved[]) {
  const subjectIds = subjects.map((s) => s.id);
  // One listing of the engine's containers for every subject's shared-namespace question, taken
  // before any probe starts: Podman's listing waits on each container's lock, and 35 probes being
  // created beside the subjects held it past the call's timeout.
  const others = listOtherContainers(engine, owner, opts.signal);
  await others.catch(() => undefined); // judged per subject (ERROR with the reason), never unhandled
  const host = measureHostNamespaces(engine, owner, opts.probeImage, opts.signal);
  host.catch(() => undefined); // judged per subject (SKIP with the reason), never unhandled
  // One census of every subject's processes instead of one "ids" probe each, taken when the first
  // subject whose launch settings leave its credentials open asks for it (none may).
  const census = once(() => takeCensus(engine, owner, opts.probeImage, subjectIds, opts.signal));
  return { host, census, others };
}

/**
 * No inventory excuses a case here: one that could not be measured makes the verdict an error,
 * never a green warning (a check that measured nothing must not pass).
 */
function notMeasured(cases: Report["cases"]): Report["errors"] {
  const unmeasured = cases.filter((c) => c.status === "skip");
  if (unmeasured.length === 0) return [];
  return [
    {
      kind: "not-measured",
      message: `${unmeasured.length} case(s) could not be measured: ${[...new Set(unmeasured.map((c) => `${c.subject} ${c.id}`))].slice(0, 10).join(", ")}`,
    },
  ];
}

/**
 * Each container's allowances: its labels over the command line's, only those its own launch set
 * (an allowance label it merely inherited from its image is the image allowing itself: launchLabels).
 */
async function allowancesOf(
  engine: Engine,
  subjects: readonly Resolved[],
  defaults: Allowances,
  signal?: AbortSignal,
) {
  // A stack's containers mostly share images: each image's labels are read once.
  const images = new Map<string, Promise<Record<string, string> | undefined>>();
  const each = subjects.map(async (s) => {
    const own = launchLabels(s.labels, await imageLabels(engine, s.id, images, signal));
    return [s.id, { ...allowancesFor(s.name, own.labels, defaults), ofTheImage: own.ofTheImage }] as const;
  });
  return new Map(await Promise.all(each));
}

/** The labels of the image a container runs, read by the image's ID; undefined when they cannot be read. */
async function imageLabels(
  engine: Engine,
  containerId: string,
  images: Map<string, Promise<Record<string, string> | undefined>>,
  signal?: AbortSignal,
): Promise<Record<string, string> | undefined> {
  const imageId = await engine.inspect(containerId, signal).then(
    (v) => v.imageId,
    () => undefined,
  );
  if (!imageId) return undefined;
  let labels = images.get(imageId);
  if (!labels) {
    labels = engine.inspectImage(imageId).then(
      (i) => i.labels,
      () => undefined,
    );
    images.set(imageId, labels);
  }
  return labels;
}

/** A promise made on the first call only, then shared. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** What `check` takes: its flags, parsed into the one request. */
type CheckRequest = RequestOf<
  | "containers"
  | "containerFilters"
  | "writableRoots"
  | "allowedCapabilities"
  | "allowedHostPaths"
  | "network"
  | "probeImage"
  | "engine"
  | "format"
  | "out"
  | "quiet"
>;

export async function check(request: CheckRequest): Promise<number> {
  if (request.containers.length === 0 && request.containerFilters.length === 0)
    throw new UsageError("give at least one --container ID|NAME or --filter KEY=VALUE");
  const allowedHostPaths = hostPathAllowances(request.allowedHostPaths, "--allow-host-path");
  const selection = selectionOf(request.containers, request.containerFilters, "--filter");
  const signals = abortOnSignals();
  // Every concurrent engine call listens on the one run signal; a stack of containers means many.
  setMaxListeners(0, signals.signal);
  try {
    const report = await checkContainers({
      engine: createEngine(request.engine),
      selection,
      writableRoots: request.writableRoots,
      allowedCapabilities: request.allowedCapabilities,
      allowedHostPaths,
      network: request.network,
      probeImage: request.probeImage || DEFAULT_PROBE_IMAGE,
      signal: signals.signal,
    });
    if (request.out) {
      const markdown = await renderReport(report, "markdown");
      await writeBundle(path.resolve(request.out), report, { markdown });
      if (!request.quiet) process.stderr.write(`report bundle: ${path.resolve(request.out)}\n`);
    }
    process.stdout.write(await renderReport(report, request.format));
    const sig = signals.received();
    return sig ? signalExitCode(sig) : exitCodeFor(report);
  } finally {
    signals.dispose();
  }
}
