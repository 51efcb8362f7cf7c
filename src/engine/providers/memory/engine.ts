// An engine double: images, containers, logs, labels, listings and trusted probes held in memory,
// behaving as an engine does for the pipeline (states, exit codes, the stop signal's grace, owned
// objects), with faults to inject: a call that hangs (until its deadline), fails, or is refused.
// Checked against the real providers by one contract suite (tests/engine/contract.ts).
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { EngineError } from "../../../errors.js";
import { DEFAULT_CALL_TIMEOUT_MS, InFlight, withTimeout } from "../../deadline.js";
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
  type ImageHealthcheck,
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
} from "../../provider.js";
import { shellQuote } from "../../shell.js";
import { probeLaunch } from "../../trusted-probe.js";
import { type Container, deferred, imageMatches, listed, matches, viewOf } from "./model.js";
import { interpret } from "./script.js";

type Fault = "hang" | "fail" | "refuse";
type EngineMethod = Exclude<keyof Engine, "settle">;

/** What a probe answers: the evidence a test gives it, per probe. */
type ProbeAnswer = (spec: ProbeSpec) => ProbeOutput | Promise<ProbeOutput>;

interface MemoryImage {
  id: string;
  parentId: string;
  tags: string[];
  labels: Record<string, string>;
  created: number;
  user: string;
  volumes: string[];
  /** Files a container of it can read (readFile). */
  files: Record<string, string>;
  /** Directories whose mode is not 0o755 (statPath; every parent of a file is a directory). */
  dirs?: Record<string, number>;
  /** Its HEALTHCHECK, and what running it answers (exec). */
  healthcheck?: ImageHealthcheck;
  healthAnswer?: { exitCode: number; output: string };
}

const FACTS: EngineFacts = {
  kind: "memory",
  name: "in-memory engine",
  cli: "memory",
  remediation: {},
  defaults: {
    capabilities: ["CHOWN", "KILL", "NET_BIND_SERVICE", "SETGID", "SETUID"],
    maskedPaths: ["/proc/kcore", "/proc/keys"],
    readonlyPaths: ["/proc/sys"],
    engineFiles: ["/etc/hosts", "/etc/hostname", "/etc/resolv.conf"],
  },
  reportsOomKills: true,
};

export class MemoryEngine implements Engine {
  readonly images = new Map<string, MemoryImage>();
  readonly containers = new Map<string, Container>();
  /** Every call, in order: "create", "start", ... (the method names). */
  readonly calls: EngineMethod[] = [];
  private readonly faults: { method: EngineMethod; fault: Fault; times: number }[] = [];
  private readonly inflight = new InFlight();
  private answer: ProbeAnswer = () => ({ stdout: "", stderr: "no probe answer given", exitCode: 1 });

  constructor(readonly callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS) {}

  /** An image on the engine (a base image, a prebuilt subject, the probe image). */
  addImage(ref: string, over: Partial<Omit<MemoryImage, "id" | "tags">> = {}): string {
    const id = `sha256:${createHash("sha256")
      .update(`${ref}${randomBytes(4).toString("hex")}`)
      .digest("hex")}`;
    this.images.set(id, {
      id,
      parentId: "",
      tags: [normalizeRef(ref.includes(":") ? ref : `${ref}:latest`)],
      labels: {},
      created: Math.floor(Date.now() / 1000),
      user: "",
      volumes: [],
      files: {},
      ...over,
    });
    return id;
  }

  /** How every probe answers from now on. */
  answerProbes(answer: ProbeAnswer): void {
    this.answer = answer;
  }

  /** The next `times` calls of `method` hang (until their deadline), fail, or are refused. */
  inject(method: EngineMethod, fault: Fault, times = Number.POSITIVE_INFINITY): void {
    this.faults.push({ method, fault, times });
  }

  private call<T>(
    method: EngineMethod,
    operation: () => T | Promise<T>,
    timeoutMs?: number,
    outer?: AbortSignal,
  ) {
    this.calls.push(method);
    const i = this.faults.findIndex((f) => f.method === method && f.times > 0);
    const fault = i >= 0 ? this.faults[i]!.fault : undefined;
    if (fault) this.faults[i]!.times--;
    const p = withTimeout(
      method,
      timeoutMs ?? this.callTimeoutMs,
      () => {
        if (fault === "refuse")
          throw new EngineError(`${method}: engine unreachable (ECONNREFUSED)`, "unreachable");
        if (fault === "fail") throw new EngineError(`${method}: injected failure`, "engine", 500);
        // Never answers: the call's own deadline (or the caller's signal) ends it, as with a real engine.
        if (fault === "hang") return new Promise<T>(() => undefined);
        return Promise.resolve().then(operation);
      },
      outer,
    );
    return this.inflight.track(p);
  }

  settle(maxMs = 3000): Promise<void> {
    return this.inflight.settle(maxMs);
  }

  facts(): Promise<EngineFacts> {
    return this.call("facts", () => FACTS);
  }

  ping(timeoutMs = 5000): Promise<void> {
    return this.call("ping", () => undefined, timeoutMs);
  }

  builderFor(_requested: BuildRequest["builder"]): Promise<BuilderChoice> {
    return this.call("builderFor", () => ({
      builder: "legacy" as const,
      reason: "the in-memory engine's own",
    }));
  }

  build(req: BuildRequest): Promise<BuildResult> {
    return this.call("build", () => this.buildNow(req), req.timeoutMs, req.signal);
  }

  /** FROM, USER, VOLUME and LABEL are read; `RUN exit N` (N > 0) or `RUN false` fails the step. */
  private buildNow(req: BuildRequest): BuildResult {
    const text = readFileSync(path.join(req.context.root, req.context.dockerfile), "utf8");
    const lines = text.split(/\r?\n/);
    const steps = lines.filter((l) => /^(FROM|RUN|COPY|ADD|WORKDIR)\s/i.test(l.trim()));
    const choice: BuilderChoice = { builder: "legacy", reason: "the in-memory engine's own" };
    let log = "";
    let user = "";
    const volumes: string[] = [];
    const labels: Record<string, string> = {};
    for (const [n, l] of lines.entries()) {
      const line = l.trim();
      const step = steps.indexOf(l) + 1;
      if (step) log += `#${step} [${step}/${steps.length}] ${line}\n`;
      const failed = /^RUN\s+(?:exit\s+([1-9]\d*)|false)\s*$/i.exec(line);
      if (failed) {
        const code = failed[1] ?? "1";
        const error = `process "/bin/sh -c ${line.slice(4)}" did not complete successfully: exit code: ${code}`;
        const failedStep = {
          n: step,
          name: `[${step}/${steps.length}] ${line}`,
          cached: false,
          error,
          outputTail: "",
        };
        throw new BuildFailedError(`${error} (Dockerfile line ${n + 1})`, log, choice, failedStep);
      }
      user = /^USER\s+(\S+)/i.exec(line)?.[1] ?? user;
      volumes.push(
        ...(/^VOLUME\s+(.+)$/i
          .exec(line)?.[1]
          ?.replace(/[[\]",]/g, " ")
          .split(/\s+/)
          .filter(Boolean) ?? []),
      );
      const label = /^LABEL\s+([^=\s]+)=("?)(.*)\2$/i.exec(line);
      if (label) labels[label[1]!] = label[3]!;
    }
    const base = this.findImage(/^FROM\s+(\S+)/im.exec(text)?.[1] ?? "");
    const imageId = this.addImage(req.tag, {
      labels: { ...base?.labels, ...labels, ...req.labels },
      user,
      volumes,
      files: { ...base?.files },
      ...(base?.dirs ? { dirs: { ...base.dirs } } : {}),
    });
    return { ...choice, imageId, log, steps: [], intermediateImages: [] };
  }

  private findImage(ref: string): MemoryImage | undefined {
    return [...this.images.values()].find((i) => imageMatches(i, ref));
  }

  private image(ref: string): MemoryImage {
    const found = this.findImage(ref);
    if (!found) throw new EngineError(`no such image: ${ref}`, "engine", 404);
    return found;
  }

  inspectImage(ref: string): Promise<ImageView> {
    return this.call("inspectImage", () => {
      const { files: _, healthAnswer: __, ...view } = this.image(ref);
      return { ...view, repoDigests: [] };
    });
  }

  ensureImage(ref: string, timeoutMs?: number, signal?: AbortSignal): Promise<"present" | "pulled"> {
    return this.call(
      "ensureImage",
      () => {
        if (this.findImage(ref)) return "present" as const;
        throw new EngineError(
          `probe image ${ref} is not on this engine and could not be pulled (the in-memory engine has no registry); load it, or pass --probe-image / input probe-image`,
          "engine",
        );
      },
      timeoutMs,
      signal,
    );
  }

  create(spec: LaunchSpec, signal?: AbortSignal): Promise<string> {
    return this.call("create", () => this.createNow(spec), undefined, signal);
  }

  private createNow(spec: LaunchSpec): string {
    const image = this.image(spec.image);
    if (spec.name && [...this.containers.values()].some((c) => c.name === spec.name))
      throw new EngineError(`create: the name ${spec.name} is already in use`, "engine", 409);
    const id = randomBytes(32).toString("hex");
    this.containers.set(id, {
      id,
      // Named as the Docker transport names an owner's containers (cleanup goes by the name too).
      name: spec.name ?? reservedName(spec.labels, id),
      spec,
      imageId: image.id,
      program: interpret([...(spec.entrypoint ?? []), ...(spec.command ?? [])]),
      status: "created",
      exitCode: 0,
      pid: 0,
      stdout: "",
      stderr: "",
      created: Math.floor(Date.now() / 1000),
      exited: deferred(),
    });
    return id;
  }

  private container(containerId: string): Container {
    const c =
      this.containers.get(containerId) ??
      [...this.containers.values()].find((x) => x.name === containerId || x.id.startsWith(containerId));
    if (!c) throw new EngineError(`no such container: ${containerId}`, "engine", 404);
    return c;
  }

  start(containerId: string, signal?: AbortSignal): Promise<void> {
    return this.call("start", () => this.startNow(this.container(containerId)), undefined, signal);
  }

  private startNow(container: Container): void {
    if (container.status === "running") return;
    container.status = "running";
    container.pid = 1000 + Math.floor(Math.random() * 30000);
    container.startedAt = new Date().toISOString();
    container.stdout += container.program.stdout;
    container.stderr += container.program.stderr;
    const exit = container.program.exit;
    if (exit) container.timer = setTimeout(() => this.exit(container, exit.code), exit.afterMs).unref();
  }

  private exit(container: Container, code: number): void {
    if (container.status !== "running") return;
    clearTimeout(container.timer);
    container.status = "exited";
    container.paused = false;
    container.exitCode = code;
    container.pid = 0;
    container.finishedAt = new Date().toISOString();
    container.exited.resolve(code);
  }

  inspect(containerId: string, signal?: AbortSignal): Promise<ContainerView> {
    return this.call("inspect", () => viewOf(this.container(containerId), FACTS.defaults), undefined, signal);
  }

  pause(containerId: string, signal?: AbortSignal): Promise<void> {
    return this.call(
      "pause",
      () => {
        const c = this.container(containerId);
        if (c.status !== "running")
          throw new EngineError(`pause ${containerId}: the container is not running`, "engine", 409);
        c.paused = true;
      },
      undefined,
      signal,
    );
  }

  unpause(containerId: string): Promise<boolean> {
    return this.call("unpause", () => {
      const c = this.container(containerId);
      const was = c.paused === true;
      c.paused = false;
      return was;
    });
  }

  /** The stop signal; PID 1 without a handler (and no init) ignores it and is killed after the grace. */
  stop(containerId: string, graceSec: number): Promise<StopOutcome> {
    return this.call(
      "stop",
      async (): Promise<StopOutcome> => {
        const c = this.container(containerId);
        if (c.status !== "running") return "not running";
        if (c.spec.init || c.program.handlesTerm) {
          this.exit(c, c.spec.init ? 143 : 0);
          return "exited";
        }
        await new Promise((r) => setTimeout(r, graceSec * 1000));
        this.exit(c, 137);
        return "killed";
      },
      (graceSec + 15) * 1000,
    );
  }

  wait(containerId: string, timeoutMs: number, signal?: AbortSignal): Promise<number> {
    return this.call("wait", () => this.container(containerId).exited.promise, timeoutMs, signal);
  }

  readFile(containerId: string, file: string, maxBytes = 1024 * 1024): Promise<Buffer | undefined> {
    return this.call("readFile", () => {
      const text = this.images.get(this.container(containerId).imageId)?.files[file];
      return text === undefined ? undefined : Buffer.from(text).subarray(0, maxBytes);
    });
  }

  statPath(containerId: string, file: string): Promise<PathStat | undefined> {
    return this.call("statPath", () => {
      const image = this.images.get(this.container(containerId).imageId);
      if (!image) return undefined;
      if (file in image.files) return { type: "file" as const, mode: 0o644 };
      const dir = file.replace(/\/+$/, "");
      const mode = image.dirs?.[dir];
      if (mode !== undefined) return { type: "directory" as const, mode };
      const under = Object.keys(image.files).some((f) => f.startsWith(`${dir}/`));
      return under ? { type: "directory" as const, mode: 0o755 } : undefined;
    });
  }

  logs(containerId: string, tailLines?: number): Promise<{ stdout: string; stderr: string }> {
    return this.call("logs", () => {
      const c = this.container(containerId);
      const tail = (s: string) =>
        tailLines === undefined
          ? s
          : s
              .split(/(?<=\n)/)
              .slice(-tailLines)
              .join("");
      return { stdout: tail(c.stdout), stderr: tail(c.stderr) };
    });
  }

  /** Whatever runs in a running container answers as its image's healthAnswer says (exit 0 if none). */
  execCommand(containerId: string, _argv: string[], timeoutMs: number, signal?: AbortSignal) {
    return this.call(
      "execCommand",
      () => {
        const c = this.container(containerId);
        if (c.status !== "running")
          throw new EngineError(`container ${containerId} is not running`, "engine", 409);
        return this.images.get(c.imageId)?.healthAnswer ?? { exitCode: 0, output: "" };
      },
      timeoutMs,
      signal,
    );
  }

  /** A probe is a container (owned, listed while it runs) whose output is the answer given. */
  probe(spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput> {
    return this.prepareProbe(spec, signal).then((prepared) => prepared.run(signal));
  }

  /** The probe's container is created (owned, listed) now; its answer is taken when it runs. */
  prepareProbe(spec: ProbeSpec, signal?: AbortSignal): Promise<PreparedProbe> {
    return this.call(
      "prepareProbe",
      () => {
        const id = this.createNow(probeLaunch(spec));
        let taken = false;
        const take = () => {
          if (taken) throw new Error("a prepared probe runs once");
          taken = true;
        };
        return {
          run: (runSignal?: AbortSignal) =>
            this.call(
              "probe",
              async () => {
                take();
                try {
                  return await this.answer(spec);
                } finally {
                  this.containers.delete(id);
                }
              },
              spec.timeoutMs,
              runSignal,
            ),
          discard: async () => {
            if (taken) return;
            taken = true;
            this.containers.delete(id);
          },
        };
      },
      undefined,
      signal,
    );
  }

  reproduce(spec: LaunchSpec, image: ReproduceImage): Promise<string> {
    return this.call("reproduce", () => {
      const ref = "ref" in image ? image.ref : `(built from ${image.build.context})`;
      return [FACTS.cli, "run", ...(spec.user ? ["--user", spec.user] : []), ref].map(shellQuote).join(" ");
    });
  }

  listContainers(query: ContainerQuery): Promise<OwnedContainer[]> {
    return this.call("listContainers", () =>
      [...this.containers.values()]
        .filter((c) =>
          matches({ ...c, status: c.paused ? "paused" : c.status, labels: c.spec.labels }, query),
        )
        .map((c) => listed(c, this.images)),
    );
  }

  /** Every image is a tagged or labelled one here: `intermediates` changes nothing. */
  listImages(query: ImageQuery): Promise<OwnedImage[]> {
    return this.call("listImages", () =>
      [...this.images.values()]
        .filter((i) => matches({ labels: i.labels, tags: i.tags }, query))
        .map(({ id, parentId, tags, labels, created }) => ({ id, parentId, tags, labels, created })),
    );
  }

  removeContainer(containerId: string): Promise<void> {
    return this.call("removeContainer", () => {
      const c = this.container(containerId);
      this.exit(c, 137);
      this.containers.delete(c.id);
    });
  }

  /** A tag shared with another tag is untagged; an image a container uses is refused (409). */
  removeImage(ref: string): Promise<void> {
    return this.call("removeImage", () => {
      const image = this.image(ref);
      const tag = normalizeRef(ref);
      if (image.tags.includes(tag) && image.tags.length > 1) {
        image.tags = image.tags.filter((t) => t !== tag);
        return;
      }
      if ([...this.containers.values()].some((c) => c.imageId === image.id))
        throw new EngineError(`remove image ${ref}: in use by a container`, "engine", 409);
      this.images.delete(image.id);
    });
  }
}

/** `<owner>-<role>-<id>` for an owner's container, as the Docker transport reserves it. */
function reservedName(labels: Record<string, string>, id: string): string {
  const owner = labels[OWNER_LABEL];
  return owner
    ? ownedContainerName(owner, labels[ROLE_LABEL] ?? "container", id.slice(0, 12))
    : `memory_${id.slice(0, 8)}`;
}
