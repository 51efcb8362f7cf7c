// The Docker Engine API engine, loaded while it answers its first call. A run's first engine call
// is the ping, which needs only the transport (./ping.ts); the engine itself (./engine.ts:
// dockerode and everything past the ping) is loaded after the ping has left, so that loading it
// overlaps the engine's answer instead of delaying the call. The loaded engine adopts that ping as
// its own first call, so what the run sees (the answer, its deadline, the engine's measured pace) is
// what it saw when the engine was loaded first. Any other first call loads the engine and is sent
// by it, as before.
import type Modem from "docker-modem";
import type {
  BuilderChoice,
  BuildRequest,
  BuildResult,
  ContainerQuery,
  ContainerView,
  Engine,
  EngineFacts,
  ImageQuery,
  ImageView,
  LaunchSpec,
  OwnedContainer,
  OwnedImage,
  PathStat,
  PreparedProbe,
  ProbeOutput,
  ProbeSpec,
  ReproduceImage,
  StopOutcome,
} from "../../provider.js";
import { networkApiOf, type SentPing, sendPing } from "./ping.js";

export class DeferredEngine implements Engine {
  private loading: Promise<Engine> | undefined;

  constructor(
    /** The transport the engine will speak through, made apart so that the ping can leave first. */
    readonly modem: Modem,
    /** Loads the engine over `modem`, adopting the ping already sent (when there is one). */
    private readonly load: (firstPing?: SentPing) => Promise<Engine>,
  ) {}

  /** The engine itself, loaded on first use. */
  loaded(): Promise<Engine> {
    this.loading ??= this.load();
    return this.loading;
  }

  async ping(timeoutMs?: number): Promise<void> {
    if (!this.loading) {
      const first = sendPing(this.modem);
      // The request leaves on the next turns (docker-modem resolves a socket path first); an import
      // reads and compiles the module graph before it returns, so it waits until the ping is out.
      // Set at once, so that a call made right after this one waits for the same engine.
      this.loading = new Promise((resolve) => setImmediate(resolve)).then(() => this.load(first));
      this.loading.catch((err: unknown) => first.abort(err));
    }
    return (await this.loading).ping(timeoutMs);
  }

  networkApi(): { host: string; port: number } | undefined {
    return networkApiOf(this.modem);
  }

  /** Nothing is in flight before the engine is loaded (a ping sent ahead is its own to settle). */
  async settle(maxMs?: number): Promise<void> {
    if (this.loading) await (await this.loading).settle(maxMs);
  }

  prepareBuild(): void {
    this.loaded().then(
      (e) => e.prepareBuild?.(),
      () => undefined, // nothing to prepare: the build itself reports the failure
    );
  }

  async facts(): Promise<EngineFacts> {
    return (await this.loaded()).facts();
  }
  async builderFor(requested: BuildRequest["builder"]): Promise<BuilderChoice> {
    return (await this.loaded()).builderFor(requested);
  }
  async build(req: BuildRequest): Promise<BuildResult> {
    return (await this.loaded()).build(req);
  }
  async inspectImage(ref: string): Promise<ImageView> {
    return (await this.loaded()).inspectImage(ref);
  }
  async ensureImage(ref: string, timeoutMs?: number, signal?: AbortSignal): Promise<"present" | "pulled"> {
    return (await this.loaded()).ensureImage(ref, timeoutMs, signal);
  }
  async create(spec: LaunchSpec, signal?: AbortSignal): Promise<string> {
    return (await this.loaded()).create(spec, signal);
  }
  async start(containerId: string, signal?: AbortSignal): Promise<void> {
    return (await this.loaded()).start(containerId, signal);
  }
  async inspect(containerId: string, signal?: AbortSignal): Promise<ContainerView> {
    return (await this.loaded()).inspect(containerId, signal);
  }
  async pause(containerId: string, signal?: AbortSignal): Promise<void> {
    return (await this.loaded()).pause(containerId, signal);
  }
  async unpause(containerId: string): Promise<boolean> {
    return (await this.loaded()).unpause(containerId);
  }
  async stop(containerId: string, graceSec: number): Promise<StopOutcome> {
    return (await this.loaded()).stop(containerId, graceSec);
  }
  async wait(containerId: string, timeoutMs: number, signal?: AbortSignal): Promise<number> {
    return (await this.loaded()).wait(containerId, timeoutMs, signal);
  }
  async readFile(containerId: string, path: string, maxBytes?: number): Promise<Buffer | undefined> {
    return (await this.loaded()).readFile(containerId, path, maxBytes);
  }
  async statPath(containerId: string, path: string): Promise<PathStat | undefined> {
    return (await this.loaded()).statPath(containerId, path);
  }
  async logs(containerId: string, tailLines?: number): Promise<{ stdout: string; stderr: string }> {
    return (await this.loaded()).logs(containerId, tailLines);
  }
  async probe(spec: ProbeSpec, signal?: AbortSignal): Promise<ProbeOutput> {
    return (await this.loaded()).probe(spec, signal);
  }
  async prepareProbe(spec: ProbeSpec, signal?: AbortSignal): Promise<PreparedProbe> {
    return (await this.loaded()).prepareProbe(spec, signal);
  }
  async execCommand(
    containerId: string,
    argv: string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ exitCode: number; output: string }> {
    return (await this.loaded()).execCommand(containerId, argv, timeoutMs, signal);
  }
  async reproduce(spec: LaunchSpec, image: ReproduceImage): Promise<string> {
    return (await this.loaded()).reproduce(spec, image);
  }
  async listContainers(query: ContainerQuery): Promise<OwnedContainer[]> {
    return (await this.loaded()).listContainers(query);
  }
  async listImages(query: ImageQuery): Promise<OwnedImage[]> {
    return (await this.loaded()).listImages(query);
  }
  async removeContainer(containerId: string): Promise<void> {
    return (await this.loaded()).removeContainer(containerId);
  }
  async removeImage(ref: string): Promise<void> {
    return (await this.loaded()).removeImage(ref);
  }
}
