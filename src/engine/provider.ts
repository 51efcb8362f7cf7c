// The engine seam. Every provider (one folder under src/engine/providers/, registered in
// src/engine/providers/index.ts) implements `Engine` over these engine-neutral types; suites,
// report and commands see only this file and createEngine() (docs/providers.md).
import type { BuildContext } from "./context.js";
import type { Role } from "./ownership.js";

export type { BuildContext };

/**
 * The hardened settings read back after create, in the tool's words. Where a person needs the
 * engine's own word for one (a message, a fix), the engine's facts give it (`EngineFacts.fieldNames`).
 */
export type HardenedSetting =
  | "read-only root"
  | "added capabilities"
  | "no-new-privileges"
  | "cgroup namespace"
  | "IPC namespace"
  | "PID namespace"
  | "privileged"
  | "init"
  | "tmpfs mounts"
  | "network"
  | "published ports";

/** What an engine grants a container it is not told otherwise about, and where it puts its own files. */
export interface EngineDefaults {
  /** The capability set a container gets unless it drops them. */
  capabilities: readonly string[];
  /** Paths the engine masks (and makes read-only) in every container. */
  maskedPaths: readonly string[];
  readonlyPaths: readonly string[];
  /** Files the engine mounts into a container itself (name resolution, its init binary). */
  engineFiles: readonly string[];
  /** The name (or name prefix) of the AppArmor profile it confines containers with by default. */
  appArmorProfile?: string;
}

/** Where an engine answers, as createEngine() resolved it. */
export interface Endpoint {
  /** The registered provider's name. */
  provider: string;
  /** unix:///path or tcp://host:port */
  host: string;
  /** Where the choice came from, for messages: "DOCKER_HOST", "default socket", ... */
  from: string;
}

/**
 * How a provider looks for its engine: "env" only where the environment names it, "socket" also
 * where its default socket exists, "named" (the user asked for it) always somewhere.
 */
export type EndpointSearch = "env" | "socket" | "named";

/** Which engine answers; read once. */
export interface EngineFacts {
  /** The provider's name: "docker", "podman", "memory". */
  kind: string;
  /** For messages: "Docker 20.10.24", "Podman 4.3.1". */
  name: string;
  /** The command line tool a person reproduces a launch with, for `{cli}` in remediation: "docker", "podman". */
  cli: string;
  /** How to get a hardened setting applied on this engine, when it silently was not. */
  remediation: Partial<Record<HardenedSetting, string>>;
  /**
   * What this engine calls each hardened setting, where a person reads or sets it under that name
   * (its inspect's field, its flag): a message names the setting so. Absent: the tool's word.
   */
  fieldNames?: Partial<Record<HardenedSetting, string>>;
  defaults: EngineDefaults;
  /**
   * Whether an inspect's `oomKilled: false` can be believed. Podman 4.3 on cgroup v1 reports
   * false for a process the kernel's OOM killer ended; there a SIGKILL is only "most likely" one.
   */
  reportsOomKills: boolean;
  /**
   * What becomes of a build its client leaves (a time-out): absent, the engine stops it there
   * (Docker, both builders); otherwise what it does instead (Podman's Buildah runs the step it was
   * running to its end, and the step image under it stays in use until then).
   */
  leftBuild?: string;
  /**
   * Whether removing an image also removes its parent once that is untagged and childless (Podman
   * ignores `noprune`): cleanup then keeps an image of ours that sits on someone else's such image.
   */
  prunesUntaggedParents?: boolean;
  /**
   * Where a build's RUN steps run when not on the engine's default bridge network, as its
   * containers do: "host" for an engine whose builds share the host's network namespace (its
   * loopback included), with why. The build pre-flight asks from there (src/preflight/).
   */
  buildNetwork?: { mode: "host"; why: string };
  /**
   * Hardened settings this engine applies but its inspect cannot show (why, for the report): the
   * read-back names them as not read back instead of as ignored; containment measures them.
   */
  unreadable?: Partial<Record<HardenedSetting, string>>;
}

/**
 * How to launch a container, in the engine's absence: the subject's hardened launch and every
 * trusted probe are one of these. A provider applies all of it or the read-back says what it did not.
 */
export interface LaunchSpec {
  name?: string;
  image: string;
  /** "uid[:gid]" or a name; absent: the image's own USER. */
  user?: string;
  env: Record<string, string>;
  /** Absent: the image's own ENTRYPOINT / CMD. */
  entrypoint?: string[];
  command?: string[];
  labels: Record<string, string>;
  init: boolean;
  readOnlyRoot: boolean;
  capabilities: { drop: string[]; add: string[] };
  noNewPrivileges: boolean;
  /**
   * Each namespace, in the tool's words (a provider maps them: docs/providers.md): absent or
   * "private" (its own), "host", "none" (net, ipc), "shareable" (ipc: its own, which another
   * container may join) or "container:<id>" (join another container's); net also names a network.
   */
  namespaces: { pid?: string; net: string; ipc?: string; uts?: string; cgroup?: string };
  /** Memory, memory plus swap (equal: no swap), processes, and CPUs in billionths of one. */
  limits: { memoryBytes?: number; memorySwapBytes?: number; pids?: number; nanoCpus?: number };
  /** Path -> the tmpfs's mount options as mount(8) takes them ("rw,noexec,nosuid,nodev,size=64m,mode=1777,uid=1000"). */
  tmpfs: Record<string, string>;
  /** Container TCP ports published on a free host port at `hostIp`. */
  publish: { port: number; hostIp: string }[];
  stop?: { signal: string; timeoutSec: number };
  /** Rotate the container's log at this size and count (absent: the engine's default). */
  logRotation?: { maxSize: string; maxFiles: number };
}

/**
 * A trusted probe: a POSIX sh script run to completion in the pinned probe image, labelled as the
 * run's own, never gaining privileges, read-only, small. Only what is particular to it is said here.
 */
export interface ProbeSpec {
  image: string;
  labels: Record<string, string>;
  script: { name: string; text: string };
  user: string;
  env: Record<string, string>;
  /** The namespaces it joins, as in LaunchSpec (net "none" unless said). */
  namespaces: LaunchSpec["namespaces"];
  /** Capabilities it holds (all others dropped). */
  capabilities: string[];
  timeoutMs: number;
  /**
   * Says when its stdout is whole (a framed report's trailer verifies): the provider may then hand
   * the output over as 0's without waiting for the probe's exit, which an engine notes only after
   * cleaning up after it (tens of milliseconds on Docker, hundreds on Podman). Absent: its exit.
   */
  complete?: (stdout: string) => boolean;
}

/** The image of a reproduction line: a reference, or the build that makes it. */
export type ReproduceImage =
  | { ref: string }
  | { build: { context: string; dockerfile: string; target?: string; args: Record<string, string> } };

export interface ProbeOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * The probe container's removal, when the engine answered before it ended (its output read):
   * whoever says the probe is gone awaits it (runProbe does, or hands it to `removals`).
   */
  removed?: Promise<void>;
}

/**
 * A probe's container, created and not yet started: `run` starts it and runs it to completion (as
 * `Engine.probe` does), `discard` removes it unstarted. Creating it ahead lets its creation overlap
 * what the caller does meanwhile (the subject's freeze); nothing of it runs before `run`.
 */
export interface PreparedProbe {
  run(signal?: AbortSignal): Promise<ProbeOutput>;
  discard(): Promise<void>;
}

/** A path in a container's filesystem: what it is, and its permission bits (0o7777: setuid, setgid, sticky, rwx). */
export interface PathStat {
  type: "directory" | "file" | "symlink" | "other";
  mode: number;
}

export interface MountView {
  type: string;
  source: string;
  destination: string;
  rw: boolean;
  name?: string;
  driver?: string;
  /** Bind propagation (rprivate, rslave, shared, ...). */
  propagation?: string;
  /**
   * A volume's driver options as the engine records them (`type`, `o`, `device` of the local
   * driver): a local volume with `o=bind` and a `device` is a bind of that host path.
   */
  volumeOptions?: Record<string, string>;
}

/** The machine the engine runs its containers on, as the engine describes it (its /info). */
export interface EngineHost {
  memoryBytes: number;
  cpus: number;
  /** "1" or "2" ("" when the engine does not say). */
  cgroupVersion: string;
  /** The mandatory access control layers the host confines containers with ([]: none). */
  macLayers: MacLayer[];
  /** The engine's kernel release (uname -r), when it says. */
  kernelVersion?: string;
  /** Where Docker keeps images: "containerd" with its containerd image store, else unset. */
  imageStore?: "containerd";
}

/** A mandatory access control layer (a Linux security module that confines containers). */
export type MacLayer = "apparmor" | "selinux";

/**
 * The engine's own words for a setting as it recorded it (Docker's `apparmor=unconfined`, a Pod's
 * `appArmorProfile: {type: Unconfined}`): what a message or the evidence quotes, never read for meaning.
 */
interface Said {
  said: string;
}

/** The seccomp filter a container was launched with. */
export type SeccompChoice =
  /** The engine's default profile (nothing said, or said to be the built-in one). */
  | ({ kind: "default" } & Partial<Said>)
  /** No filter at all. */
  | ({ kind: "unconfined" } & Said)
  /**
   * A profile of its own, in the seccomp profile format every engine takes (`defaultAction`,
   * `syscalls`): its text as recorded, judged by content (text that is no such profile, e.g. a
   * path the engine did not resolve, is judged as unreadable, never as the default).
   */
  | ({ kind: "profile"; text: string } & Said);

/** AppArmor as the launch set it. */
export type AppArmorChoice = ({ kind: "unconfined" } & Said) | ({ kind: "profile"; name: string } & Said);

/** One SELinux label option: labelling off, or a part of the label set. */
export type SelinuxOption =
  | ({ kind: "disable" } & Said)
  | ({ kind: "type" | "user" | "role" | "level"; value: string } & Said);

/**
 * The security settings of a launch, in the tool's words; each provider translates its engine's
 * (Docker's and Podman's `SecurityOpt` strings: src/engine/providers/docker/security.ts). Where a
 * setting is given twice, the weaker reading is kept (an unconfined seccomp or AppArmor anywhere
 * is unconfined): a reading can only add a finding.
 */
export interface SecuritySettings {
  /** As the launch set it; absent when it said nothing (the engine's default: off). */
  noNewPrivileges?: { value: boolean } & Said;
  seccomp: SeccompChoice;
  /** Absent: the engine's default profile (where the host has AppArmor). */
  appArmor?: AppArmorChoice;
  selinux: SelinuxOption[];
  /**
   * What the provider could not type, in the engine's words (an option it does not know, a value
   * it cannot read): carried, shown, and never part of a PASS (containment.seccomp says it cannot
   * judge them).
   */
  untyped: string[];
}

/** No security setting said: the engine's defaults (frozen: spread it, never change it). */
export const DEFAULT_SECURITY: SecuritySettings = Object.freeze({
  seccomp: Object.freeze({ kind: "default" }),
  selinux: Object.freeze([]),
  untyped: Object.freeze([]),
}) as unknown as SecuritySettings;

/** The launch settings as the engine recorded them: what the containment graders read. */
export interface ContainerSettings {
  id: string;
  name: string;
  running: boolean;
  /** The user as the engine will apply it ("" means the image's default, root). */
  user: string;
  privileged: boolean;
  capAdd: string[];
  capDrop: string[];
  /** no-new-privileges, seccomp, AppArmor and SELinux as the launch set them, typed (SecuritySettings). */
  security: SecuritySettings;
  readonlyRootfs: boolean;
  /** Each namespace in LaunchSpec's words ("": the engine's default; userns "host", "private" or ""). */
  modes: { pid: string; net: string; ipc: string; uts: string; cgroup: string; userns: string };
  memory: number;
  pidsLimit: number | null;
  nanoCpus: number;
  cpuQuota: number;
  /** CpuPeriod (0: the kernel's default, 100 ms) and CpusetCpus ("" : every CPU). */
  cpuPeriod?: number;
  cpusetCpus?: string;
  /** Host devices given to it, "<path on host>:<path in container>". */
  devices: string[];
  /** Devices requested from a driver (GPUs), counted. */
  deviceRequests: number;
  /** Device cgroup rules beyond the defaults, as the kernel's devices controller writes them ("c 1:3 rwm"). */
  deviceCgroupRules: string[];
  maskedPaths: string[] | null;
  readonlyPaths: string[] | null;
  tmpfs: Record<string, string>;
  mounts: MountView[];
  /** The AppArmor profile the engine launched it under ("" : none, e.g. a host without AppArmor). */
  appArmorProfile?: string;
  /** The host the engine runs it on, where the engine says (limits are judged against it). */
  engineHost?: EngineHost;
  /** The engine's data root (e.g. /var/lib/<engine>), read off the container's own files' paths. */
  dataRoot?: string;
  sysctls: Record<string, string>;
  /** Published ports as bound: "8080/tcp" -> [{ address: "127.0.0.1", port: 49153 }]. */
  ports: Record<string, HostBinding[]>;
}

export interface ContainerState {
  /** "created", "running", "exited", ... */
  status: string;
  running: boolean;
  /** The host PID of its first process (0 when not running). */
  pid: number;
  exitCode: number;
  oomKilled: boolean;
  /**
   * Why the cause of this exit cannot be established, so that it is not put on the subject: its
   * OOM verdict could not be read (the engine's event stream and event log both failed), or the
   * engine went away while it ran (a restarting engine stops the containers it held).
   */
  causeUnknown?: string;
  /**
   * Why an OOM kill is likely though the engine recorded none: the host's kernel counted one while
   * it ran (an engine misses the kill that comes before it watches the container).
   */
  oomLikely?: string;
  /** The engine's own error (e.g. the executable was not found). */
  error?: string;
  startedAt?: string;
  finishedAt?: string;
  restartCount: number;
  /** The image's HEALTHCHECK as the engine reports it; absent when there is none. */
  health?: { status: string; lastOutput?: string };
}

/**
 * How a stop ended, as a fact rather than a duration: "not running" (nothing received the stop
 * signal), "exited" within the grace after it, or "killed" because it was still running when the
 * grace had passed (the kill found it running).
 */
export type StopOutcome = "not running" | "exited" | "killed";

/**
 * Where a container port answers on the engine's host: an address ("" or "0.0.0.0": every
 * address; "::": every IPv6 one) and a port. The engine's own words for it (Docker's
 * "HostIp"/"HostPort", a Kubernetes Service's) are its provider's to translate.
 */
export interface HostBinding {
  address: string;
  port: number;
}

/** A binding as people write it: "127.0.0.1:49153", ":::49153" for IPv6's any-address. */
export function bindingText(binding: HostBinding): string {
  return `${binding.address}:${binding.port || ""}`;
}

/** A port map as evidence: "8080/tcp" -> ["127.0.0.1:49153"]. */
export function publishedText(ports: Record<string, HostBinding[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(ports).map(([port, bs]) => [port, bs.map(bindingText)]));
}

/** One container as observed: its settings, state and what is not graded but read back. */
export interface ContainerView extends ContainerSettings {
  image: string;
  /** The ID of the image it runs (absent: the engine did not say), whose labels it inherited. */
  imageId?: string;
  labels: Record<string, string>;
  state: ContainerState;
  init: boolean;
  /** The engine's defaults this container started under. */
  defaults: EngineDefaults;
  /** Ports asked to be published (even before start): "8080/tcp" -> where (port 0: any free one). */
  publishConfig: Record<string, HostBinding[]>;
  memorySwap: number;
}

export interface ImageView {
  id: string;
  /** Empty for the root of a chain. */
  parentId: string;
  tags: string[];
  repoDigests: string[];
  labels: Record<string, string>;
  /** Unix seconds. */
  created: number;
  /** The image's USER ("" when it has none). */
  user: string;
  /** The image's VOLUME paths. */
  volumes: string[];
  /** The image's HEALTHCHECK, when it declares one ("NONE" and an empty test are none). */
  healthcheck?: ImageHealthcheck;
  /** The image's ENTRYPOINT and CMD as the engine records them (absent or empty: none). */
  entrypoint?: string[];
  cmd?: string[];
  /** The image's WORKDIR (absent or "": none, the engine starts the process in /). */
  workingDir?: string;
  /** The names of the image's ENV variables, never their values. */
  envNames?: string[];
  /** The image's STOPSIGNAL as written ("SIGINT", "INT", "2"; absent: none, the engine's SIGTERM). */
  stopSignal?: string;
  /** The image's EXPOSEd ports ("8080/tcp"). */
  exposedPorts?: string[];
}

/** A HEALTHCHECK as the engine runs it: `CMD-SHELL x` is ["/bin/sh", "-c", x]. */
export interface ImageHealthcheck {
  /** The command as written: ["CMD", ...argv] or ["CMD-SHELL", text]. */
  test: string[];
  /** The argv the engine executes in the container. */
  argv: string[];
  /** Each run's time-out (the engine's default: 30 s). */
  timeoutMs: number;
  /** Consecutive failures before the engine calls it unhealthy (default 3). */
  retries: number;
  /** How long failures do not count while the service starts (default 0). */
  startPeriodMs: number;
}

export interface OwnedContainer {
  id: string;
  /** Its names as given (no leading `/`, which Docker's listing puts before each). */
  names: string[];
  /** Its state, as a ContainerStatus. */
  state: string;
  labels: Record<string, string>;
  image: string;
  /** Unix seconds. */
  created: number;
  /** The network mode as listed (e.g. "container:<id>" when it joined another's network). */
  networkMode?: string;
}

export interface OwnedImage {
  id: string;
  /** Empty for the root of a chain; the legacy builder's intermediate images have parents. */
  parentId: string;
  tags: string[];
  labels: Record<string, string>;
  /** Unix seconds. */
  created: number;
}

/** A label an object must carry: `key`, with `value` when given (any value otherwise). */
export interface LabelMatch {
  key: string;
  value?: string;
}

/**
 * Which objects a listing returns, in the tool's words: every field given must hold (a list: any
 * one of its values); nothing given lists every object. Each provider translates it (Docker's
 * listing filters: src/engine/providers/docker/query.ts; a label selector on a cluster).
 */
interface OwnedQuery {
  /** A run's objects (its owner label), or `true`: any run's. */
  owner?: string | true;
  role?: Role;
  /** One subject's objects (its subject label). */
  subject?: string;
  /** Other labels, each carried (with its value, when given). */
  labels?: LabelMatch[];
}

export interface ContainerQuery extends OwnedQuery {
  /** In any one of these states; absent: any state, stopped ones included. */
  status?: ContainerStatus[];
  /** Whose name contains any one of these (plain text, not a pattern). */
  names?: string[];
  /** Whose ID begins with any one of these. */
  ids?: string[];
}

export interface ImageQuery extends OwnedQuery {
  /** Tagged exactly so, or with a tag beginning so (normalised: `x:y`, never `docker.io/library/x:y`). */
  tag?: string | { prefix: string };
  /** Untagged intermediate images too (the legacy builder keeps one per step). */
  intermediates?: boolean;
}

/** A container's state as a listing names it. */
export type ContainerStatus =
  | "created"
  | "running"
  | "paused"
  | "restarting"
  | "removing"
  | "exited"
  | "dead";

type Builder = "buildkit" | "legacy";

export interface BuildRequest {
  context: BuildContext;
  tag: string;
  labels: Record<string, string>;
  buildArgs?: Record<string, string>;
  target?: string;
  /** "legacy" only when the inventory asks; otherwise BuildKit where the engine has it. */
  builder?: "auto" | "legacy";
  /** Secret id -> value for `RUN --mount=type=secret` (BuildKit only); masked in the log. */
  secrets?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with each line of build output, for progress logging. */
  onLine?: (line: string) => void;
  /** Called as each step starts and ends, so progress can name the step that is running. */
  onStep?: (event: BuildStepEvent) => void;
}

/** A build step starting or ending: BuildKit's vertices, the legacy builder's "Step i/n : ...". */
export interface BuildStepEvent {
  /** As the log names it: "[2/3] RUN make", "Step 2/3 : RUN make". */
  name: string;
  state: "running" | "done" | "cached" | "failed";
}

export interface BuilderChoice {
  builder: Builder;
  /** Why this builder ran, for the report. */
  reason: string;
}

/** One step of a build as the builder reported it. */
export interface BuildStep {
  /** The step's number in the log (`#3`). */
  n: number;
  name: string;
  cached: boolean;
  durationMs?: number;
  error?: string;
  /** The last lines the step printed (bounded). */
  outputTail: string;
}

export interface BuildResult extends BuilderChoice {
  imageId: string;
  /** The tail of the build output. */
  log: string;
  /** BuildKit's steps (name, cached, duration, output tail); empty for the legacy builder. */
  steps: BuildStep[];
  /** Untagged images this build created, by full ID (the legacy builder's per-step images). */
  intermediateImages: string[];
}

/** The engine built nothing because the Dockerfile or its context failed: the subject's fault. */
export class BuildFailedError extends Error {
  override name = "BuildFailedError";
  constructor(
    readonly reason: string,
    /** The tail of the build output, where the failing step stands. */
    readonly log: string,
    readonly choice: BuilderChoice,
    /** The step that failed, with its output's tail. */
    readonly failedStep?: BuildStep,
    readonly intermediateImages: string[] = [],
  ) {
    super(`build failed: ${reason}`);
  }
}

/**
 * One engine. Every call has its own deadline and fails with an EngineError (statusCode 404 for
 * a missing object); every object it creates carries the labels it is given.
 */
export interface Engine {
  facts(): Promise<EngineFacts>;
  /**
   * Where this tool reaches the engine's API over TCP (DOCKER_HOST=tcp://...), or undefined over a
   * unix socket: the address containment tries from inside each subject's network.
   */
  networkApi?(): { host: string; port: number } | undefined;
  ping(timeoutMs?: number): Promise<void>;
  /** Waits (bounded) for calls in flight, so a container being created is listed by cleanup. */
  settle(maxMs?: number): Promise<void>;

  builderFor(requested: BuildRequest["builder"]): Promise<BuilderChoice>;
  /** Starts loading what a build will run on, ahead of it (a provider with nothing to load omits it). */
  prepareBuild?(): void;
  /** Builds and tags an image; BuildFailedError when the Dockerfile or context failed. */
  build(req: BuildRequest): Promise<BuildResult>;
  inspectImage(ref: string): Promise<ImageView>;
  /** Makes sure the (trusted probe) image is present, pulling it once if not. */
  ensureImage(ref: string, timeoutMs?: number, signal?: AbortSignal): Promise<"present" | "pulled">;

  /** Creates (does not start) a container from the spec; its ID. */
  create(spec: LaunchSpec, signal?: AbortSignal): Promise<string>;
  start(containerId: string, signal?: AbortSignal): Promise<void>;
  inspect(containerId: string, signal?: AbortSignal): Promise<ContainerView>;
  /**
   * Freezes every process of a running container (the cgroup freezer): none executes anything until
   * unpause, and inspect shows state "paused". An EngineError when the engine cannot (rootless on
   * cgroup v1 gives a container no cgroup to freeze) or the container is not running.
   */
  pause(containerId: string, signal?: AbortSignal): Promise<void>;
  /**
   * Thaws a paused container. False when it was not paused (never frozen, or thawed by someone
   * else meanwhile); an EngineError when it is gone or the engine refuses. Takes no signal: a
   * thaw is never abandoned half-way by the run's own cancellation.
   */
  unpause(containerId: string): Promise<boolean>;
  /** The stop signal, then a kill when it has not exited `graceSec` after it: how the stop ended. */
  stop(containerId: string, graceSec: number): Promise<StopOutcome>;
  /** Until the container exits: its exit code. */
  wait(containerId: string, timeoutMs: number, signal?: AbortSignal): Promise<number>;
  /** One regular file from the container's filesystem (it need not run); undefined when missing. */
  readFile(containerId: string, path: string, maxBytes?: number): Promise<Buffer | undefined>;
  /** What is at `path` in the container's filesystem (it need not run), not following a last link; undefined when nothing is. */
  statPath(containerId: string, path: string): Promise<PathStat | undefined>;
  /** stdout and stderr apart: the last `tailLines` lines, or all of them. */
  logs(containerId: string, tailLines?: number): Promise<{ stdout: string; stderr: string }>;
  /** Runs a trusted probe to completion and removes it: its whole output, never a counted tail. */
  probe(spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput>;
  /** Creates a trusted probe's container without starting it (see PreparedProbe). */
  prepareProbe(spec: ProbeSpec, signal?: AbortSignal): Promise<PreparedProbe>;
  /**
   * Runs `argv` in the running container as its own user, as the engine runs a HEALTHCHECK: the
   * exit code and the output (stdout and stderr together, at most 4 KB). A container that is not
   * running: EngineError 409.
   */
  execCommand(
    containerId: string,
    argv: string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ exitCode: number; output: string }>;
  /** The shell line that launches `spec` by hand with this engine's CLI (facts().cli). */
  reproduce(spec: LaunchSpec, image: ReproduceImage): Promise<string>;

  /** The containers `query` selects (never the whole host unless it asks for nothing). */
  listContainers(query: ContainerQuery): Promise<OwnedContainer[]>;
  listImages(query: ImageQuery): Promise<OwnedImage[]>;
  /** Forced (a running container is killed), with its anonymous volumes. */
  removeContainer(containerId: string): Promise<void>;
  /** By tag or ID, never forced, never pruning parents. */
  removeImage(ref: string): Promise<void>;
}

/**
 * The runtime's words when it cannot become the image's USER: a name (or group) the image's
 * /etc/passwd (or /etc/group) lacks, or ids past the range it takes. The engine's text, never the
 * subject's: a start refused so is the subject's configuration, not the engine's fault.
 */
export const USER_MISSING =
  /unable to find (user|group) ([^\s:]+): no matching entries in (passwd|group) file/i;
export const USER_OUT_OF_RANGE = /uids and gids must be in range/i;
