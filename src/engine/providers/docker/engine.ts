// The Docker Engine API transport: a narrow, typed surface over dockerode where every call has its
// own timeout and every object the tool creates carries the owner labels. It serves every engine
// that speaks this API (Docker, Podman's compatible socket); what one of them needs said or read
// differently is its dialect (./dialect.ts), chosen by the engine's identity (./identity.ts).
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type Modem from "docker-modem";
import Docker from "dockerode";
import { EngineError, ProbeOverrunError } from "../../../errors.js";
import {
  type CallKind,
  DEFAULT_CALL_TIMEOUT_MS,
  EngineLoad,
  InFlight,
  MAX_CALL_TIMEOUT_MS,
  sleep,
  withTimeout,
} from "../../deadline.js";
import { normalizeRef, OWNER_LABEL, ownedContainerName, ROLE_LABEL } from "../../ownership.js";
import {
  type BuilderChoice,
  BuildFailedError,
  type BuildRequest,
  type BuildResult,
  type ContainerQuery,
  type ContainerView,
  type Engine,
  type EngineFacts,
  type EngineHost,
  type ImageQuery,
  type ImageView,
  type LaunchSpec,
  type OwnedContainer,
  type OwnedImage,
  type PathStat,
  type PreparedProbe,
  type ProbeOutput,
  type ProbeSpec,
  type ReproduceImage,
  type StopOutcome,
  USER_MISSING,
  USER_OUT_OF_RANGE,
} from "../../provider.js";
import { probeLaunch } from "../../trusted-probe.js";
import { chooseBuilder, loadBuildKit, readImage, runBuild } from "./build.js";
import { type DockerDialect, dockerDialect } from "./dialect.js";
import { ExitEvents } from "./events.js";
import { type EngineIdentity, identityFromPing, identityFromVersion } from "./identity.js";
import { LogTail } from "./log-tail.js";
import { hostOomKills, noticeWindowMs, oomEventLogged, unconfirmedKill } from "./oom.js";
import { dialPing, networkApiOf, type SentPing } from "./ping.js";
import { containerFilters, imageFilters, matchesExactly } from "./query.js";
import { runLine } from "./run-line.js";
import { isStorageRace, readThroughRace } from "./storage-race.js";
import {
  type ContainerInspect,
  type CreateOptions,
  createBody,
  engineHostOf,
  imageView,
  toView,
} from "./translate.js";

export type { CreateOptions };

/** A counting semaphore: take() resolves to a release function once one of `size` slots is free. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** How often a build is made when the engine's storage changed under it (STORAGE_RACE, Podman). */
const STORAGE_RACE_BUILDS = 3;
/** How long a listing's liveness ping may take (an engine that answers a listing slowly pings fast). */
const LIVENESS_PING_MS = 10_000;
/** How long a reserved name is watched, at least, after a create that went unanswered. */
const RECONCILE_MS = 5000;

/** A HEALTHCHECK's output kept, as the engine keeps its own health log's (4 KB). */
const EXEC_OUTPUT_BYTES = 4096;

export class DockerEngine implements Engine {
  readonly docker: Docker;
  private readonly inflight = new InFlight();
  /** How loaded the engine answers: every call's deadline scales with it (../../deadline.ts). */
  readonly load = new EngineLoad();
  /** The "oom" and "die" events of the subjects this engine starts, followed from before the start. */
  private readonly exits = new ExitEvents((since) => this.openEvents(since));
  /** Containers this engine created under a memory limit (not probes): their exits are followed. */
  private readonly limited = new Set<string>();
  /** The host kernel's OOM kill count read before each limited subject's start (./oom.ts). */
  private readonly oomKillsBefore = new Map<string, number>();
  private dialectPromise: Promise<{ dialect: DockerDialect; facts: EngineFacts }> | undefined;
  private identityPromise: Promise<EngineIdentity> | undefined;
  private createSlots: Slots | undefined;
  private readonly oomAnswers = new Map<string, Promise<boolean>>();
  private hostPromise: Promise<EngineHost> | undefined;
  private readonly volumeOptions = new Map<string, Promise<Record<string, string>>>();

  constructor(
    docker?: Docker,
    readonly callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS,
    /** The engine the user asked for (engine: docker|podman); ping refuses the other one. */
    private readonly expectKind?: EngineFacts["kind"],
    /** The dialects this transport may meet; Docker's own is the fallback. */
    private readonly dialects: readonly DockerDialect[] = [dockerDialect],
    /** A ping sent on this engine's transport before it was loaded (./deferred.ts): its first ping. */
    private firstPing?: SentPing,
  ) {
    this.docker = docker ?? new Docker();
  }

  networkApi(): { host: string; port: number } | undefined {
    return networkApiOf(this.docker.modem);
  }

  /**
   * Wraps one engine call: its deadline, tracked so a signal handler can let it settle. A call
   * that says how long it needs (`timeoutMs`: a wait, a build, a stop's grace) gets that plus the
   * engine's share of the load, as every other call gets it on top of the base allowance; the
   * others' durations (`sample`) measure how fast the engine answers.
   */
  private call<T>(
    what: string,
    operation: (signal: AbortSignal) => Promise<T>,
    timeoutMs?: number,
    outer?: AbortSignal,
    sample = timeoutMs === undefined,
    kind: CallKind = "short",
    /** When it was sent: now, or earlier for a ping sent before this engine was loaded. */
    sent = Date.now(),
    /** When it was answered, when that was before it settled here (such a ping, adopted late). */
    answeredAt?: () => number | undefined,
  ): Promise<T> {
    // The deadline is read again when it falls due, and may only grow: other calls answered
    // meanwhile may show the engine slower than when this one was sent (the first of sixteen
    // starts knows no start's cost yet), never faster.
    const allowance = () => this.load.deadlineMs(timeoutMs ?? this.callTimeoutMs, kind);
    const first = sent + allowance();
    const end = () => Math.max(first, sent + allowance());
    return this.inflight.track(
      this.load.track(
        () =>
          this.whileRestarting(what, end, (from) =>
            withTimeout(what, () => end() - from, operation, outer),
          ).catch((err: unknown) => {
            const converted = toEngineError(what, err);
            if (converted.kind === "unreachable") this.sawOutage(converted.message);
            throw converted;
          }),
        sample,
        kind,
        sent,
        answeredAt,
      ),
    );
  }

  /**
   * An engine that answered before and now refuses connections (its socket gone or not listening)
   * is restarting: nothing was sent, so the call is sent again, backing off, until its deadline.
   * An engine that never answered is absent, and says so at once.
   */
  private async whileRestarting<T>(
    what: string,
    end: () => number,
    /** Sends the call; `from`: when this attempt was sent (its allowance runs to `end()`). */
    send: (from: number) => Promise<T>,
  ): Promise<T> {
    for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
      try {
        return await send(Math.min(Date.now(), end() - 1));
      } catch (err) {
        const code = (err as { code?: string })?.code;
        const refused = code === "ECONNREFUSED" || code === "ENOENT";
        if (!refused || this.load.perCallMs === undefined || Date.now() + delay >= end()) throw err;
        this.sawOutage(`${what}: connection refused (${code})`);
        await sleep(delay);
      }
    }
  }

  /** The last time the engine could not be reached, after it had answered. */
  private outage: { at: number; why: string } | undefined;

  private sawOutage(why: string): void {
    if (this.load.perCallMs !== undefined) this.outage = { at: Date.now(), why };
  }

  /** Waits (bounded) for calls in flight, so a container being created is listed by cleanup. */
  settle(maxMs = 3000): Promise<void> {
    return this.inflight.settle(maxMs);
  }

  async ping(timeoutMs = 5000): Promise<void> {
    const named = identityFromPing(await this.pingHeaders(timeoutMs));
    // The answer names the engine: its facts and the builder choice need no call of their own.
    if (named) this.identityPromise ??= Promise.resolve(named);
    // The host's size and security options, which containment judges limits and MAC against, are
    // asked for now, off the subjects' paths (Podman gathers its /info under the store lock).
    this.engineHost().catch(() => undefined);
    if (!this.expectKind) return;
    const facts = await this.facts();
    if (facts.kind !== this.expectKind)
      throw new EngineError(
        `engine ${this.expectKind} was asked for, but the endpoint answers as ${facts.name}; point DOCKER_HOST/CONTAINER_HOST at ${this.expectKind === "podman" ? "Podman's socket (podman system service)" : "dockerd's socket"} or use engine: auto`,
        "engine",
      );
  }

  /**
   * GET /_ping: the engine answers, and its headers say which engine it is. The first may have
   * been sent before this engine was loaded (`firstPing`): it is adopted as this call's first
   * attempt (a refused one is sent again, as any), its deadline counted from its sending and the
   * engine's pace from its sending to its answer, as if this engine had sent it.
   */
  private pingHeaders(timeoutMs = this.callTimeoutMs): Promise<IncomingHttpHeaders> {
    let early = this.firstPing;
    this.firstPing = undefined;
    const sentAt = early?.sentAt;
    let answeredAt: number | undefined;
    return this.call(
      "ping",
      (abortSignal) => {
        const sent = early;
        early = undefined;
        answeredAt = undefined;
        if (!sent) return dialPing(this.docker.modem, abortSignal);
        if (abortSignal.aborted) sent.abort(abortSignal.reason);
        else abortSignal.addEventListener("abort", () => sent.abort(abortSignal.reason), { once: true });
        const answered = () => {
          answeredAt = sent.answeredAt;
        };
        return sent.headers.finally(answered);
      },
      timeoutMs,
      undefined,
      true, // the first round trip: how fast this engine answers, before any other call has
      "short",
      sentAt,
      () => answeredAt,
    );
  }

  /** Which engine answers, read once (a failure is asked again): see ./identity.ts. */
  private identity(): Promise<EngineIdentity> {
    this.identityPromise ??= this.pingHeaders().then(
      async (headers) =>
        identityFromPing(headers) ??
        identityFromVersion(
          await this.call("version", (abortSignal) =>
            (this.docker.version as (o: object) => Promise<Docker.DockerVersion>)({ abortSignal }),
          ),
        ),
    );
    this.identityPromise.catch(() => {
      this.identityPromise = undefined;
    });
    return this.identityPromise;
  }

  /** The dialect of the engine that answers (Docker's when no other is its product). */
  private dialect(): Promise<{ dialect: DockerDialect; facts: EngineFacts }> {
    this.dialectPromise ??= this.identity().then((engine) => {
      const dialect = this.dialects.find((d) => d.kind === engine.product) ?? dockerDialect;
      return { dialect, facts: dialect.facts(engine) };
    });
    this.dialectPromise.catch(() => {
      this.dialectPromise = undefined;
    });
    return this.dialectPromise;
  }

  async facts(): Promise<EngineFacts> {
    return (await this.dialect()).facts;
  }

  /** Which builder a build would use here, and why. */
  async builderFor(requested: BuildRequest["builder"]): Promise<BuilderChoice> {
    return chooseBuilder(requested, await this.identity(), await this.imageStore());
  }

  /**
   * Starts loading what a BuildKit build runs on, when this engine builds with BuildKit: a run
   * that will build pays for it while it waits on the engine, not at its first build's start.
   */
  prepareBuild(): void {
    this.builderFor("auto").then(
      (choice) => (choice.builder === "buildkit" ? loadBuildKit() : undefined),
      () => undefined, // nothing to prepare: the build itself reports the engine's error
    );
  }

  /**
   * Builds and tags. A build the engine failed on its own storage (Podman: an image or layer that
   * another client removed while this build looked it up, "image not known", "layer not known";
   * Docker's legacy builder: a cached step image another build's cleanup removed, "unable to find
   * image") is the engine's fault, not the Dockerfile's, as is a build it reported done whose tag it then
   * does not know (seen on Podman with twenty subjects building the same image from one cache):
   * it is built again, up to STORAGE_RACE_BUILDS times, then an ERROR naming the engine. What each attempt created is kept for the cleanup.
   */
  async build(req: BuildRequest): Promise<BuildResult> {
    const engine = await this.identity();
    const choice = chooseBuilder(req.builder, engine, await this.imageStore());
    const created: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const out = await this.call(
        "build",
        (abortSignal) => runBuild(this.docker, req, choice, abortSignal, engine),
        req.timeoutMs,
        req.signal,
      );
      created.push(...out.intermediateImages);
      const failedStep = out.steps.find((s) => s.error);
      const reason = out.failure ?? failedStep?.error;
      // The engine's own failures, named by its own words or status: built again, then an ERROR.
      const lost = out.lostTag
        ? `reported the build done but did not know its tag ${req.tag} afterwards`
        : reason && isStorageRace(reason, engine.product)
          ? `lost track of its own images while building (${reason})`
          : undefined;
      if (lost && !req.signal?.aborted) {
        if (attempt < STORAGE_RACE_BUILDS) continue;
        throw new EngineError(
          `build: the engine ${lost}, ${attempt} times: the engine's fault, not the Dockerfile's`,
          "fault",
        );
      }
      if (reason) throw new BuildFailedError(reason, out.log, choice, failedStep, created);
      // The aux ID is the immutable image ID; older engines omit it, so read it back by our tag.
      const imageId = out.imageId ?? (await this.inspectImage(req.tag)).id;
      return { ...choice, imageId, log: out.log, steps: out.steps, intermediateImages: created };
    }
  }

  async inspectImage(ref: string): Promise<ImageView> {
    const info = await this.call(`inspect image ${ref}`, (abortSignal) =>
      readImage(this.docker, ref, abortSignal),
    );
    return imageView(info, normalizeRef);
  }

  /**
   * Makes sure `ref` (the trusted probe image, pinned by digest) is on the engine: creating a
   * container never pulls. A missing image is pulled once, with its own timeout; failing that, an
   * EngineError says which image and why, since nothing can be measured without it.
   */
  async ensureImage(
    ref: string,
    timeoutMs = 5 * 60_000,
    signal?: AbortSignal,
  ): Promise<"present" | "pulled"> {
    try {
      await this.inspectImage(ref);
      return "present";
    } catch (err) {
      if (!(err instanceof EngineError) || err.statusCode !== 404) throw err;
    }
    try {
      await this.call(
        `pull ${ref}`,
        async (abortSignal) => {
          const stream = await this.docker.pull(ref, { abortSignal });
          await new Promise<void>((resolve, reject) =>
            this.docker.modem.followProgress(stream, (e: Error | null, events: { error?: string }[]) => {
              const failed = e ?? events.find((ev) => ev.error)?.error;
              if (failed) reject(failed instanceof Error ? failed : new Error(failed));
              else resolve();
            }),
          );
        },
        timeoutMs,
        signal,
      );
    } catch (err) {
      throw new EngineError(
        `probe image ${ref} is not on this engine and could not be pulled (${(err as Error).message}); pull or load it, or pass --probe-image / input probe-image`,
        "engine",
      );
    }
    return "pulled";
  }

  create(spec: LaunchSpec, signal?: AbortSignal): Promise<string> {
    return this.createContainer(createBody(spec), signal);
  }

  /**
   * A create body as written (in Docker's terms; the dialect translates): tests and fixtures. An
   * owned container is created under a name reserved before the call, so a create the engine
   * applied without answering (a time-out here, a dropped connection, a cancelled run) is found by
   * that name and the owner label, and removed.
   */
  async createContainer(opts: CreateOptions, signal?: AbortSignal): Promise<string> {
    const { dialect } = await this.dialect();
    const named = withReservedName(opts);
    const spoken = dialect.speak(named);
    // An engine that creates one container at a time behind a lock (Podman): 50 creates sent
    // together (a stack's probes) each wait for all the others and pass their own timeout. A few
    // at a time each answer within it, and the whole takes no longer.
    this.createSlots ??= dialect.concurrentCreates ? new Slots(dialect.concurrentCreates) : undefined;
    const release = await this.createSlots?.take();
    try {
      const id = await this.call(
        "create container",
        async (abortSignal) =>
          dialect.create
            ? dialect.create(spoken, this.request, abortSignal)
            : (await this.docker.createContainer(createCall(spoken, abortSignal))).id,
        undefined,
        signal,
      );
      const labels = named.Labels ?? {};
      if ((named.HostConfig?.Memory ?? 0) > 0 && labels[ROLE_LABEL] !== "probe") this.limited.add(id);
      return id;
    } catch (err) {
      if (named.name && unanswered(err)) await this.reconcileCreate(named.name, named.Labels?.[OWNER_LABEL]);
      throw err;
    } finally {
      release?.();
    }
  }

  /**
   * A create the engine did not answer may still be applied, now or once the calls queued before
   * it are served: the reserved name is looked for at once and then, in the background (settle()
   * waits for it), for as long as the engine's queue would take (at least RECONCILE_MS); whatever
   * appears under it goes.
   */
  private async reconcileCreate(name: string, owner: string | undefined): Promise<void> {
    if (!owner) return;
    const removeNamed = async () => {
      const found = (await this.listContainers({ owner })).filter((c) => c.names.includes(name));
      await Promise.all(found.map((c) => this.removeContainer(c.id).catch(() => undefined)));
      return found.length > 0 ? true : undefined;
    };
    if (await removeNamed().catch(() => undefined)) return;
    const until = Date.now() + Math.max(RECONCILE_MS, this.load.deadlineMs(0));
    const watch = (async () => {
      for (let delay = 250; Date.now() < until; delay = Math.min(delay * 2, 5000)) {
        await sleep(delay);
        if (await removeNamed().catch(() => undefined)) return;
      }
    })();
    this.inflight.track(watch);
  }

  /**
   * Starts it. The exits of a subject under a memory limit are followed from before the start (an
   * OOM notice logged after the exit is still read). A start that failed is judged from the engine's
   * record of the container, not from the answer alone: started after all (the answer was lost), a
   * refusal the engine recorded against the container (the subject's), or the engine's own fault.
   */
  async start(containerId: string, signal?: AbortSignal): Promise<void> {
    if (this.limited.has(containerId) && (await this.facts().catch(() => undefined))?.reportsOomKills) {
      await this.exits.follow(containerId).catch(() => undefined); // unfollowed: the event log is read instead
      const count = hostOomKills(await this.engineHost().catch(() => undefined));
      if (count !== undefined) this.oomKillsBefore.set(containerId, count);
    }
    try {
      await this.call(
        `start ${short(containerId)}`,
        (abortSignal) =>
          this.docker
            .getContainer(containerId)
            .start({ abortSignal })
            .then(() => undefined),
        undefined,
        signal,
        true,
        "start",
      );
    } catch (err) {
      if (!(err instanceof EngineError) || err.kind === "aborted") throw err;
      const record = await this.inspectRaw(containerId).catch(() => undefined);
      if (record && startedAt(record)) return;
      if (record && refusedByRuntime(err, record)) throw err;
      throw new EngineError(
        `${err.message} (the engine did not start the container and recorded no reason against it: the engine's fault, not the subject's)`,
        err.kind === "engine" ? "fault" : err.kind,
        err.statusCode,
      );
    }
  }

  async inspect(containerId: string, signal?: AbortSignal): Promise<ContainerView> {
    const { dialect, facts } = await this.dialect();
    const doc = await dialect.hear(
      await this.inspectRaw(containerId, signal),
      (ref) => this.nameOf(ref),
      (method, path, body, inner) =>
        this.call(
          `${method} ${path}`,
          (s) => this.request(method, path, body, s),
          undefined,
          inner ?? signal,
        ),
    );
    // The events only confirm; when they cannot be read, the kill is said to be of unknown cause.
    let causeUnknown = this.outageDuring(doc);
    let oomLikely: string | undefined;
    if (facts.reportsOomKills && unconfirmedKill(doc)) {
      doc.State.OOMKilled = await this.oomEventOf(doc, signal).catch((err: Error) => {
        causeUnknown ??= `the engine's events, which say whether it was an OOM kill, could not be read (${err.message})`;
        return false;
      });
      oomLikely = doc.State.OOMKilled ? undefined : await this.kernelCountedOom(doc.Id);
    }
    await this.withVolumeOptions(doc, signal);
    // Not knowing the host leaves the limits unjudged against it (the case says so), never an error.
    const host = await this.engineHost().catch(() => undefined);
    const view = { ...toView(doc, facts.defaults), ...(host ? { engineHost: host } : {}) };
    if (!causeUnknown && !oomLikely) return view;
    return { ...view, state: { ...view.state, ...(causeUnknown ? { causeUnknown } : { oomLikely }) } };
  }

  /** Why an OOM kill is likely though no event says so: the kernel's count moved while it ran. */
  private async kernelCountedOom(containerId: string): Promise<string | undefined> {
    const kills = await this.oomKillsSince(containerId);
    if (kills === undefined || kills <= 0) return undefined;
    return `the engine recorded no OOM kill, but the host's kernel counted ${kills} since its start; the engine misses a kill that comes as the container starts`;
  }

  /** The OOM kills the host's kernel counted since the container's start (this host's engine only). */
  private async oomKillsSince(containerId: string): Promise<number | undefined> {
    const before = this.oomKillsBefore.get(containerId);
    const now = hostOomKills(await this.engineHost().catch(() => undefined));
    return before === undefined || now === undefined ? undefined : now - before;
  }

  /** Where Docker keeps images, when a build could use BuildKit (from /info, read once). */
  private async imageStore(): Promise<Pick<EngineHost, "imageStore">> {
    const { product } = await this.identity();
    return product === "docker" ? await this.engineHost().catch(() => ({})) : {};
  }

  /** The engine's /info, read once per engine (asked again after a failure). */
  private engineHost(): Promise<EngineHost> {
    this.hostPromise ??= this.call("info", (abortSignal) =>
      (this.docker.info as (o: object) => Promise<Record<string, unknown>>)({ abortSignal }),
    ).then(engineHostOf);
    this.hostPromise.catch(() => {
      this.hostPromise = undefined;
    });
    return this.hostPromise;
  }

  /**
   * Each local volume's driver options, which the container's inspect leaves out: a volume made
   * with `-o bind -o device=<dir>` is a bind of that directory, whatever filesystem holds it. A
   * volume in use cannot be removed or changed, so its options are read once per container.
   */
  private async withVolumeOptions(doc: ContainerInspect, signal?: AbortSignal): Promise<void> {
    await Promise.all(
      (doc.Mounts ?? [])
        .filter((m) => m.Type === "volume" && m.Driver === "local" && m.Name)
        .map(async (m) => {
          const key = `${doc.Id}/${m.Name}`;
          let options = this.volumeOptions.get(key);
          if (!options) {
            options = this.call(
              `inspect volume ${m.Name}`,
              (abortSignal) =>
                readThroughRace(
                  () => this.docker.getVolume(m.Name!).inspect({ abortSignal } as object),
                  abortSignal,
                ),
              undefined,
              signal,
            ).then((v) => (v as { Options?: Record<string, string> | null }).Options ?? {});
            if (this.volumeOptions.size >= 1000) this.volumeOptions.clear();
            this.volumeOptions.set(key, options);
            options.catch(() => this.volumeOptions.delete(key));
          }
          const read = await options.catch(() => undefined);
          if (read) Object.assign(m, { VolumeOptions: read });
        }),
    );
  }

  /**
   * An engine that went away (restarted, its socket gone) while the container ran may have
   * stopped it itself: an exit after that is not the subject's to answer for.
   */
  private outageDuring(doc: ContainerInspect): string | undefined {
    const outage = this.outage;
    if (!outage || doc.State?.Running || !startedAt(doc)) return undefined;
    const started = Date.parse(doc.State.StartedAt.replace(/(\.\d{3})\d+/, "$1"));
    if (!(outage.at >= started)) return undefined;
    return `the engine could not be reached while it ran (${outage.why}, ${new Date(outage.at).toISOString()}): an engine that restarts stops the containers it held`;
  }

  /**
   * Whether the engine reported an OOM kill for this run of the container. Docker records an OOM
   * kill from two events that race (the task's exit and the kernel's OOM notice): when the exit is
   * handled first, inspect can read OOMKilled false although the engine logs "oom" (seen in CI
   * under load, a 16m subject diagnosed "killed by SIGKILL"). Read from the events followed since
   * its start; for a container not followed, from the event log. The answer is kept per exit.
   */
  private oomEventOf(doc: ContainerInspect, signal?: AbortSignal): Promise<boolean> {
    const key = `${doc.Id}@${doc.State.FinishedAt}`;
    let answer = this.oomAnswers.get(key);
    if (!answer) {
      answer = this.oomKillsSince(doc.Id).then((kills) =>
        // The kernel counts each OOM kill as it makes it: none since the start, and this was none.
        kills === 0 ? false : this.oomNotice(doc, noticeWindowMs(this.load.perCallMs, kills), signal),
      );
      this.oomAnswers.set(key, answer);
      answer.catch(() => this.oomAnswers.delete(key));
    }
    return answer;
  }

  /** The engine's own word on an OOM kill: its followed events, else its event log, within `windowMs` of the exit. */
  private oomNotice(doc: ContainerInspect, windowMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.exits
      .oomKilled(doc.Id, windowMs, this.load.deadlineMs())
      .then(
        (followed) =>
          followed ??
          this.call(
            `read the events of ${short(doc.Id)}`,
            (abortSignal) => oomEventLogged(this.docker, doc, abortSignal, windowMs),
            windowMs,
            signal,
          ),
      );
  }

  /** One call to the engine's API as the dialect words it: its JSON answer, an error for a 4xx/5xx. */
  private readonly request = (
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    abortSignal?: AbortSignal,
  ): Promise<unknown> =>
    new Promise((resolve, reject) =>
      this.docker.modem.dial(
        {
          path,
          method,
          ...(body !== undefined ? { options: body } : {}),
          abortSignal,
          statusCodes: {
            200: true,
            201: true,
            204: true,
            400: "bad parameter",
            404: "no such object",
            409: "conflict",
            500: "server error",
          },
        } as Parameters<Docker["modem"]["dial"]>[0],
        (err, data) => (err ? reject(err) : resolve(data)),
      ),
    );

  /** GET /events for the tool's own containers' "oom" and "die", kept open (./events.ts). */
  private openEvents(since: string): Promise<NodeJS.ReadableStream> {
    return this.call("follow the engine's events", (abortSignal) =>
      this.docker.getEvents({
        since,
        filters: { type: ["container"], event: ["oom", "die"], label: [OWNER_LABEL] },
        abortSignal,
      } as unknown as Docker.GetEventsOptions),
    );
  }

  /** The inspect document as the engine returned it. */
  inspectRaw(containerId: string, signal?: AbortSignal): Promise<ContainerInspect> {
    return this.call(
      `inspect ${short(containerId)}`,
      (abortSignal) =>
        readThroughRace(() => this.docker.getContainer(containerId).inspect({ abortSignal }), abortSignal),
      undefined,
      signal,
    );
  }

  private async nameOf(containerId: string): Promise<string> {
    return (await this.inspectRaw(containerId)).Name.replace(/^\//, "");
  }

  pause(containerId: string, signal?: AbortSignal): Promise<void> {
    return this.call(
      `pause ${short(containerId)}`,
      (abortSignal) => this.docker.getContainer(containerId).pause({ abortSignal }),
      undefined,
      signal,
    );
  }

  /**
   * Docker and Podman both answer 500 for a container that is not paused, each in its own words:
   * what the container's state is decides, not the message.
   */
  async unpause(containerId: string): Promise<boolean> {
    try {
      await this.call(`unpause ${short(containerId)}`, (abortSignal) =>
        this.docker.getContainer(containerId).unpause({ abortSignal }),
      );
      return true;
    } catch (err) {
      if ((err as EngineError).statusCode === 404) throw err;
      const state = await this.inspectRaw(containerId).catch(() => undefined);
      if (state && !state.State.Paused) return false;
      throw err;
    }
  }

  /**
   * The engine's stop in its two steps: the container's stop signal (SIGTERM unless its image says
   * otherwise), then SIGKILL when it is still running `graceSec` after the signal was delivered.
   * Whether the kill was needed is then a fact (the kill found it running), not read from how long
   * the stop took, which a loaded engine or client stretches. The grace is counted here from the
   * signal's answer, so the subject gets at least the whole of it.
   */
  async stop(containerId: string, graceSec: number): Promise<StopOutcome> {
    const doc = await this.inspectRaw(containerId);
    if (!doc.State?.Running) return "not running";
    const stopSignal = (doc.Config as { StopSignal?: string } | undefined)?.StopSignal || "SIGTERM";
    if (!(await this.kill(containerId, stopSignal))) return "not running";
    const exited = await withTimeout(`wait ${short(containerId)}`, graceSec * 1000, (abortSignal) =>
      this.waitCall(containerId, abortSignal),
    ).then(
      () => true,
      (err: unknown) => {
        if (err instanceof EngineError && err.kind === "timeout") return false;
        throw toEngineError(`wait ${short(containerId)}`, err);
      },
    );
    if (exited || !(await this.kill(containerId, "SIGKILL"))) return "exited";
    await this.wait(containerId, DEFAULT_CALL_TIMEOUT_MS);
    return "killed";
  }

  /** Sends `signal` to its first process; false when it was not running (nothing received it). */
  private async kill(containerId: string, signal: string): Promise<boolean> {
    // A kill this engine sent explains a SIGKILL exit: the host's OOM count is then no evidence.
    this.oomKillsBefore.delete(containerId);
    try {
      return await this.call(`kill ${short(containerId)} with ${signal}`, (abortSignal) =>
        this.docker
          .getContainer(containerId)
          .kill({ signal, abortSignal })
          .then(
            () => true,
            (err: { statusCode?: number }) => {
              if (err?.statusCode === 409 || err?.statusCode === 304) return false;
              throw err;
            },
          ),
      );
    } catch (err) {
      // Docker refuses a container that is not running with 409, Podman with 500 ("can only kill
      // running containers ... container state improper", met when it exited just as the grace
      // ran out): whether it still runs is asked of the engine, not read from its words.
      if (!(err instanceof EngineError) || err.kind !== "engine" || err.statusCode !== 500) throw err;
      if ((await this.inspectRaw(containerId)).State?.Running) throw err;
      return false;
    }
  }

  private waitCall(containerId: string, abortSignal: AbortSignal): Promise<number> {
    return this.docker
      .getContainer(containerId)
      .wait({ abortSignal })
      .then((r: { StatusCode: number }) => r.StatusCode);
  }

  wait(containerId: string, timeoutMs: number, signal?: AbortSignal): Promise<number> {
    return this.call(
      `wait ${short(containerId)}`,
      (abortSignal) => this.waitCall(containerId, abortSignal),
      timeoutMs,
      signal,
    );
  }

  /**
   * One regular file from a container's filesystem (it need not be running), at most `maxBytes`;
   * undefined when it is missing or not a regular file.
   */
  async readFile(containerId: string, path: string, maxBytes = 1024 * 1024): Promise<Buffer | undefined> {
    try {
      const tar = await this.call(`read ${path} in ${short(containerId)}`, async (abortSignal) => {
        const stream = (await this.docker
          .getContainer(containerId)
          .getArchive({ path, abortSignal } as { path: string })) as unknown as NodeJS.ReadableStream;
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const c of stream) {
          chunks.push(c as Buffer);
          size += (c as Buffer).length;
          if (size > maxBytes + 1024) break;
        }
        return Buffer.concat(chunks);
      });
      return firstTarFile(tar, maxBytes);
    } catch (err) {
      if (err instanceof EngineError && err.statusCode === 404) return undefined;
      throw err;
    }
  }

  /**
   * Demultiplexed stdout and stderr: the last `tailLines` lines, or all of them when not given;
   * either way at most LOG_KEPT_BYTES of each (./log-tail.ts), read as a stream, so a subject that
   * writes gigabytes costs the run no more memory than one that writes a line.
   */
  async statPath(containerId: string, path: string): Promise<PathStat | undefined> {
    try {
      const res = await this.call(`stat ${path} in ${short(containerId)}`, (abortSignal) =>
        dialStream(
          this.docker,
          `/containers/${encodeURIComponent(containerId)}/archive?`,
          "HEAD",
          { path },
          abortSignal,
        ),
      );
      res.resume();
      return pathStat(res.headers["x-docker-container-path-stat"]);
    } catch (err) {
      if (err instanceof EngineError && err.statusCode === 404) return undefined;
      throw err;
    }
  }

  async logs(containerId: string, tailLines?: number): Promise<{ stdout: string; stderr: string }> {
    const whole = tailLines !== undefined && (await this.dialect()).dialect.tailDropsPartialLines;
    const tail = await this.call(`logs ${short(containerId)}`, (abortSignal) =>
      streamLogs(
        this.docker,
        containerId,
        tailLines === undefined || whole ? undefined : tailLines,
        abortSignal,
      ),
    );
    const { stdout, stderr } = tail.result();
    return whole
      ? { stdout: lastLines(stdout, tailLines), stderr: lastLines(stderr, tailLines) }
      : { stdout, stderr };
  }

  /** Runs a trusted probe to completion and removes it at once (cleanup is only the safety net). */
  async probe(spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput> {
    const body = probeBody(spec);
    try {
      return await this.probeOnce(body, spec, signal);
    } catch (err) {
      // The engine failed it (no answer, a broken connection, a start it did not make): a probe
      // measures and changes nothing, so it runs once more, in a fresh container.
      if (!engineFault(err) || signal?.aborted) throw err;
      return this.probeOnce(body, spec, signal);
    }
  }

  async prepareProbe(spec: ProbeSpec, signal?: AbortSignal): Promise<PreparedProbe> {
    const body = probeBody(spec);
    const id = await this.createContainer(body, signal);
    let taken = false;
    return {
      run: async (runSignal) => {
        if (taken) throw new Error("a prepared probe runs once");
        taken = true;
        try {
          return await this.runCreated(id, spec, runSignal);
        } catch (err) {
          // As probe(): an engine's failure gets one more run, in a fresh container.
          if (!engineFault(err) || runSignal?.aborted) throw err;
          return this.probeOnce(body, spec, runSignal);
        }
      },
      discard: async () => {
        if (taken) return;
        taken = true;
        await this.removeProbe(id);
      },
    };
  }

  private async probeOnce(body: CreateOptions, spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput> {
    return this.runCreated(await this.createContainer(body, signal), spec, signal);
  }

  /**
   * Starts a created probe and runs it to its end; it is removed on every path. A framed report is
   * read as it is written, from an attach stream opened before the start: once it is whole the
   * probe's exit is not waited for (the engine notes it only after cleaning up after the probe).
   */
  private async runCreated(id: string, spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput> {
    let removed: Promise<void> | undefined;
    const stream = spec.complete
      ? await this.attachProbe(id, spec.complete).catch(() => undefined)
      : undefined;
    let started = false;
    try {
      await this.start(id, signal);
      started = true;
      const whole =
        stream && (await this.call(`probe ${short(id)}`, () => stream.whole, spec.timeoutMs, signal));
      if (whole) {
        removed = this.removeProbe(id);
        return { ...whole, exitCode: 0, removed };
      }
      // No whole report on the stream (none was asked for, or it ended first): the exit and the
      // whole log, never a counted tail, decide; the report's frame says whether it arrived intact.
      const exitCode = await this.wait(id, spec.timeoutMs, signal);
      const { stdout, stderr } = await this.logs(id);
      // Its output read, the probe is removed beside what the caller does next (the subject's
      // thaw), not before it: the caller awaits `removed` before it calls the probe gone.
      removed = this.removeProbe(id);
      return { stdout, stderr, exitCode, removed };
    } catch (err) {
      throw (started && (await this.overran(id, err, signal))) || err;
    } finally {
      stream?.close();
      if (!removed) await this.removeProbe(id);
    }
  }

  /**
   * A started probe whose deadline passed while it still runs is slow, not failed by the engine:
   * what it reads made it so (a subject can make itself costly to read), and another run would
   * only hold the frozen subject as long again. Said so, and not run again.
   */
  private async overran(
    id: string,
    err: unknown,
    signal?: AbortSignal,
  ): Promise<ProbeOverrunError | undefined> {
    if (!(err instanceof EngineError) || err.kind !== "timeout" || signal?.aborted) return undefined;
    // The engine's record alone: a probe needs none of what a subject's inspect adds to it.
    const running = await this.inspectRaw(id, signal).then(
      (c) => c.State?.Running === true,
      () => false,
    );
    return running
      ? new ProbeOverrunError(`the probe was still reading when its deadline passed (${err.message})`)
      : undefined;
  }

  /**
   * What a created probe writes, as it writes it (the engine's attach stream). `whole` is its
   * output once `complete` says it is whole, or undefined when the stream ends or fails first.
   */
  private async attachProbe(
    id: string,
    complete: (stdout: string) => boolean,
  ): Promise<{ whole: Promise<{ stdout: string; stderr: string } | undefined>; close: () => void }> {
    const closed = new AbortController();
    const res = await this.call(`attach ${short(id)}`, (abortSignal) =>
      dialStream(
        this.docker,
        `/containers/${encodeURIComponent(id)}/attach?`,
        "POST",
        { stream: true, stdout: true, stderr: true },
        AbortSignal.any([abortSignal, closed.signal]),
      ),
    );
    const kept = new LogTail();
    const whole = new Promise<{ stdout: string; stderr: string } | undefined>((resolve) => {
      res.on("data", (chunk: Buffer) => {
        kept.push(chunk);
        // A report ends with its trailer's newline: only then is it worth asking.
        if (chunk[chunk.length - 1] !== 0x0a) return;
        const { stdout, stderr } = kept.result();
        if (complete(stdout)) resolve({ stdout, stderr });
      });
      for (const end of ["end", "close", "error"]) res.on(end, () => resolve(undefined));
    });
    return {
      whole,
      close: () => {
        closed.abort();
        res.destroy();
      },
    };
  }

  async execCommand(
    containerId: string,
    argv: string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ exitCode: number; output: string }> {
    try {
      return await this.execOnce(containerId, argv, timeoutMs, signal);
    } catch (err) {
      // Docker refuses a stopped container with 409, Podman with 500 ("container state
      // improper"): both are said as Docker says it.
      if (!(err instanceof EngineError) || err.kind !== "engine" || err.statusCode === 409) throw err;
      if ((await this.inspect(containerId, signal)).state.running) throw err;
      throw new EngineError(`exec in ${short(containerId)}: the container is not running`, "engine", 409);
    }
  }

  private execOnce(
    containerId: string,
    argv: string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ exitCode: number; output: string }> {
    return this.call(
      `exec in ${short(containerId)}`,
      async (abortSignal) => {
        const exec = await this.docker.getContainer(containerId).exec({
          Cmd: argv,
          AttachStdout: true,
          AttachStderr: true,
          abortSignal,
        } as Docker.ExecCreateOptions);
        const stream = await exec.start({
          hijack: true,
          stdin: false,
          abortSignal,
        } as Docker.ExecStartOptions);
        abortSignal.addEventListener("abort", () => stream.destroy(), { once: true });
        // The command's output is the subject's (an image's HEALTHCHECK may print without end until
        // its time-out): only its end is kept, as it streams in, never the whole of it.
        const tail = new LogTail(EXEC_OUTPUT_BYTES);
        for await (const chunk of stream) tail.push(chunk as Buffer);
        const { stdout, stderr } = tail.result();
        const { ExitCode } = await exec.inspect({ abortSignal } as object);
        return { exitCode: ExitCode ?? -1, output: `${stdout}${stderr}`.slice(-EXEC_OUTPUT_BYTES) };
      },
      timeoutMs,
      signal,
    );
  }

  /**
   * A probe goes as soon as it is read. A refused removal (Podman under load: a lock held past
   * its timeout, "removal already in progress") is tried again, briefly; what still stays is the
   * run's closing sweep's, which lists by the owner label.
   */
  private async removeProbe(containerId: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await this.removeContainer(containerId);
      } catch (err) {
        if ((err as EngineError).statusCode === 404) return;
        await sleep(100 * 2 ** attempt);
      }
    }
  }

  async reproduce(spec: LaunchSpec, image: ReproduceImage): Promise<string> {
    return runLine((await this.facts()).cli, spec, image);
  }

  /**
   * A listing is a read Podman answers only after taking each container's lock (the image store's,
   * for images), so it waits on whatever holds them, in this process or any other: under load that
   * is minutes, and no count of this engine's own calls foretells it (a fixed 30 s ERRORed four
   * subjects of a loaded CI run). So a listing may take up to MAX_CALL_TIMEOUT_MS while the engine
   * keeps answering its /_ping, asked once per base allowance; when a ping goes unanswered the
   * listing ends as any call that timed out. A slow engine gives a slow listing, a dead one an ERROR.
   */
  private async listing<T>(what: string, operation: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const watch = new AbortController();
    const sent = Date.now();
    let silent: string | undefined;
    const timer = setInterval(() => {
      this.pingHeaders(LIVENESS_PING_MS).catch((err: unknown) => {
        silent ??= (err as Error).message;
        watch.abort();
      });
    }, this.load.deadlineMs(this.callTimeoutMs));
    try {
      return await this.call(what, operation, MAX_CALL_TIMEOUT_MS, watch.signal, false);
    } catch (err) {
      if (silent === undefined) throw err;
      throw new EngineError(
        `${what}: no answer within ${Date.now() - sent} ms, and the engine stopped answering meanwhile (${silent})`,
        "timeout",
      );
    } finally {
      clearInterval(timer);
    }
  }

  async listContainers(query: ContainerQuery): Promise<OwnedContainer[]> {
    const filters = containerFilters(query);
    const list = await this.listing("list containers", (abortSignal) =>
      readThroughRace(() => this.docker.listContainers({ all: true, filters, abortSignal }), abortSignal),
    );
    return list
      .map((c) => ({
        id: c.Id,
        names: (c.Names ?? []).map((n) => n.replace(/^\//, "")),
        state: c.State,
        labels: c.Labels ?? {},
        image: c.Image,
        created: c.Created,
        ...(c.HostConfig?.NetworkMode ? { networkMode: c.HostConfig.NetworkMode } : {}),
      }))
      .filter((c) => matchesExactly(query, c));
  }

  /** Intermediate images on `query.intermediates` (the legacy builder keeps one per Dockerfile step). */
  async listImages(query: ImageQuery): Promise<OwnedImage[]> {
    const [filters, all] = [imageFilters(query), query.intermediates === true];
    const list = await this.listing("list images", (abortSignal) =>
      readThroughRace(() => this.docker.listImages({ all, filters, abortSignal }), abortSignal),
    );
    return list.map((i) => ({
      id: i.Id,
      parentId: i.ParentId ?? "",
      tags: (i.RepoTags ?? []).filter((t) => t !== "<none>:<none>").map(normalizeRef),
      labels: i.Labels ?? {},
      created: i.Created,
    }));
  }

  /**
   * Forced, with its anonymous volumes. A removal the engine did not answer may have been applied
   * (or still be under way): whether it is gone is asked of the engine, and one still there is
   * removed once more, on a fresh deadline.
   */
  async removeContainer(containerId: string): Promise<void> {
    // An engine whose forced removal stops with the grace period first (Podman): SIGKILL first.
    if ((await this.dialect()).dialect.killBeforeRemove)
      await this.kill(containerId, "SIGKILL").catch(() => false);
    const remove = () =>
      this.call(`remove ${short(containerId)}`, (abortSignal) =>
        this.docker
          .getContainer(containerId)
          .remove({ force: true, v: true, abortSignal })
          .then(() => undefined),
      );
    await removeChecked(remove, () => present(this.inspectRaw(containerId)));
    this.exits.forget(containerId);
    this.limited.delete(containerId);
    this.oomKillsBefore.delete(containerId);
  }

  /**
   * By tag or ID, never forced, never pruning parents: a shared layer or cache is never collateral.
   * As with a container, a removal the engine did not answer (an image delete waits behind a busy
   * engine's other image work) is asked after: one still there is removed again, on a fresh deadline.
   */
  async removeImage(ref: string): Promise<void> {
    const { dialect } = await this.dialect();
    const remove = () =>
      this.call(`remove image ${ref}`, (abortSignal) =>
        dialect.removeImage
          ? dialect.removeImage(ref, this.request, abortSignal)
          : this.docker
              .getImage(ref)
              .remove({ noprune: true, abortSignal })
              .then(() => undefined),
      );
    await removeChecked(remove, () => present(this.inspectImage(ref)));
  }
}

/** GET /containers/{id}/logs (not following) as a stream into a bounded tail. */
function streamLogs(docker: Docker, id: string, tail: number | undefined, abortSignal: AbortSignal) {
  const options = { stdout: true, stderr: true, follow: false, ...(tail === undefined ? {} : { tail }) };
  return dialStream(docker, `/containers/${encodeURIComponent(id)}/logs?`, "GET", options, abortSignal).then(
    (stream) =>
      new Promise<LogTail>((resolve, reject) => {
        const kept = new LogTail();
        stream.on("data", (c: Buffer) => kept.push(c));
        stream.on("end", () => resolve(kept));
        stream.on("error", reject);
      }),
  );
}

/** A streamed answer of the engine (a log, an attach), as it comes. */
function dialStream(
  docker: Docker,
  path: string,
  method: "GET" | "POST" | "HEAD",
  options: Record<string, unknown>,
  abortSignal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) =>
    docker.modem.dial(
      {
        path,
        method,
        isStream: true,
        abortSignal,
        options,
        statusCodes: { 200: true, 404: "no such container", 409: "conflict", 500: "server error" },
      } as Parameters<Docker["modem"]["dial"]>[0],
      (err, res) => (err || !res ? reject(err ?? new Error("no answer")) : resolve(res as IncomingMessage)),
    ),
  );
}

/**
 * dockerode's create sends its whole options as the query string too (docker-modem builds one from
 * them for any path with a "?"): a probe's script then makes a request line of 30 KiB or more,
 * which a socket proxy in front of the engine refuses (Node's HTTP server answers 431 past 16 KiB;
 * HAProxy's default buffer is the same size). Only the name goes in the query; the rest is the body.
 */
function createCall(spoken: CreateOptions, abortSignal: AbortSignal): CreateOptions {
  const { name, ...body } = spoken;
  return { _query: name ? { name } : {}, _body: body, abortSignal } as unknown as CreateOptions;
}

/**
 * A call the engine may have applied although its answer did not arrive: no answer in time, a
 * connection that broke, a cancelled run, or a status from something between us and the engine.
 * A refusal the engine itself gave (4xx, or 500 naming why) was not applied.
 */
function unanswered(err: unknown): boolean {
  if (!(err instanceof EngineError)) return true;
  if (err.kind !== "engine") return true;
  return err.statusCode === undefined || GATEWAY_STATUS.has(err.statusCode);
}

const GATEWAY_STATUS = new Set([502, 503, 504]);

/**
 * A removal the engine did not answer may have been applied (or still be under way): whether the
 * object is gone is asked of the engine, and one still there is removed once more, on a fresh
 * deadline. A refusal (a 404 included) is the caller's to judge.
 */
async function removeChecked(remove: () => Promise<unknown>, stillThere: () => Promise<boolean>) {
  try {
    await remove();
  } catch (err) {
    if (!unanswered(err)) throw err;
    if (await stillThere()) await remove();
  }
}

/** Whether the engine still shows an object (an unanswered inspect: assume it does). */
function present(inspect: Promise<unknown>): Promise<boolean> {
  return inspect.then(
    () => true,
    (err: unknown) => !(err instanceof EngineError && err.statusCode === 404),
  );
}

/** A trusted probe's create body: the launch every probe gets, with no network at all when it needs none. */
function probeBody(spec: ProbeSpec): CreateOptions {
  const body = createBody(probeLaunch(spec));
  if (spec.namespaces.net === "none") body.NetworkDisabled = true;
  return body;
}

/** The engine's own failure, not a refusal: no answer, unreachable, or a fault it recorded nowhere. */
function engineFault(err: unknown): boolean {
  return (
    err instanceof EngineError &&
    (err.kind === "timeout" || err.kind === "unreachable" || err.kind === "fault")
  );
}

/**
 * The owner's containers get a name reserved before their create (`<owner>-<role>-<random>`)
 * unless they have one: a create the engine applied without answering is found by it.
 */
function withReservedName(opts: CreateOptions): CreateOptions {
  const owner = opts.Labels?.[OWNER_LABEL];
  if (opts.name || !owner) return opts;
  const role = opts.Labels?.[ROLE_LABEL] ?? "container";
  return { ...opts, name: ownedContainerName(owner, role, randomBytes(6).toString("hex")) };
}

/** Whether the engine started it (its start time is set; Go's zero time means never). */
function startedAt(doc: ContainerInspect): boolean {
  const t = doc.State?.StartedAt ?? "";
  return doc.State?.Running === true || (t !== "" && !t.startsWith("0001-"));
}

/**
 * A refused start that is the container's: the engine recorded the error against it (Docker), or
 * its answer is the OCI runtime's refusal (Podman records nothing; its runtime names itself), or
 * the runtime's words for a USER it cannot become (src/engine/provider.ts).
 */
function refusedByRuntime(err: EngineError, doc: ContainerInspect): boolean {
  if (err.kind !== "engine" || GATEWAY_STATUS.has(err.statusCode ?? 0)) return false;
  return (
    !!doc.State?.Error ||
    /\bOCI runtime\b|\b(runc|crun)\b/.test(err.message) ||
    USER_MISSING.test(err.message) ||
    USER_OUT_OF_RANGE.test(err.message)
  );
}

function short(id: string): string {
  return id.replace(/^sha256:/, "").slice(0, 12);
}

/**
 * The engine's stat of a path (its archive HEAD's header: base64 JSON of Go's os.FileMode and the
 * link target). Podman also marks a link to a directory as one (isDir): the link bit decides.
 */
function pathStat(header: string | string[] | undefined): PathStat | undefined {
  if (typeof header !== "string") return undefined;
  let stat: { mode?: unknown };
  try {
    stat = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof stat.mode !== "number") return undefined;
  const mode = stat.mode;
  const bit = (n: number) => Math.floor(mode / 2 ** n) % 2 === 1;
  const type = bit(27) ? "symlink" : bit(31) ? "directory" : mode < 2 ** 19 ? "file" : "other";
  // Go keeps setuid (23), setgid (22) and sticky (20) apart from the permission bits.
  return {
    type,
    mode: (mode % 0o1000) + (bit(23) ? 0o4000 : 0) + (bit(22) ? 0o2000 : 0) + (bit(20) ? 0o1000 : 0),
  };
}

/** The first entry of a tar archive when it is a regular file (type "0" or NUL), bounded. */
function firstTarFile(tar: Buffer, maxBytes: number): Buffer | undefined {
  if (tar.length < 512) return undefined;
  const type = tar[156];
  if (type !== 0x30 && type !== 0) return undefined;
  const size = Number.parseInt(
    tar.subarray(124, 136).toString("ascii").replace(/\0.*$/, "").trim() || "0",
    8,
  );
  return tar.subarray(512, 512 + Math.min(size, maxBytes));
}

/** The last `count` lines of a text (a final newline ends the last line, it does not start another). */
function lastLines(text: string, count: number): string {
  const lines = text.split("\n");
  const ended = text.endsWith("\n");
  const kept = lines.slice(0, ended ? -1 : undefined).slice(-count);
  return kept.length ? `${kept.join("\n")}${ended ? "\n" : ""}` : "";
}

function toEngineError(what: string, err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  const e = err as { statusCode?: number; code?: string; message?: string; json?: { message?: string } };
  if (e?.code === "ENOENT" || e?.code === "ECONNREFUSED" || e?.code === "EACCES") {
    return new EngineError(
      `${what}: Docker engine unreachable (${e.code}); is dockerd running and DOCKER_HOST right?`,
      "unreachable",
    );
  }
  // The connection broke mid-call (the engine restarted, a proxy dropped it): no answer arrived.
  if (
    e?.code === "ECONNRESET" ||
    e?.code === "EPIPE" ||
    /socket hang up|premature close/i.test(e?.message ?? "")
  ) {
    return new EngineError(
      `${what}: the connection to the engine broke before it answered (${e.code ?? e.message})`,
      "unreachable",
    );
  }
  if (e?.statusCode !== undefined && GATEWAY_STATUS.has(e.statusCode)) {
    return new EngineError(
      `${what}: the engine could not be reached through the endpoint (HTTP ${e.statusCode}: ${e?.json?.message ?? e?.message ?? ""})`,
      "unreachable",
      e.statusCode,
    );
  }
  const detail = e?.json?.message ?? e?.message ?? String(err);
  return new EngineError(`${what}: ${detail}`, "engine", e?.statusCode);
}

/**
 * The engine over a transport made apart (./index.ts: the run's first ping may already be in
 * flight on it), as dockerode would have made it.
 */
export function dockerEngineOver(
  modem: Modem,
  expect: EngineFacts["kind"] | undefined,
  dialects: readonly DockerDialect[],
  firstPing?: SentPing,
): DockerEngine {
  // dockerode takes a transport made apart as its own (lib/docker.js); its types do not say so.
  const docker = new Docker({ modem } as unknown as Docker.DockerOptions);
  return new DockerEngine(docker, undefined, expect, dialects, firstPing);
}
