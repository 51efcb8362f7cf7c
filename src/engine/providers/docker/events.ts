// The engine's "oom" and "die" events for the containers this engine starts, read from one stream
// opened before their start: an OOM notice that the engine logs after the exit (Docker's inspect
// misses it then, see ./oom.ts) is read when it arrives, whatever the load, instead of being looked
// for in the event log within a fixed window after the exit.

/** One event as the engine streams it (Docker's /events). */
interface EngineEvent {
  Action?: string;
  status?: string;
  id?: string;
  Actor?: { ID?: string };
  time?: number;
}

interface Followed {
  oom: boolean;
  /** When (this process's clock) its "die" was read. */
  diedAt?: number;
}

/** Opens the stream from `since` (the engine's Unix time, seconds with a fraction). */
type OpenEvents = (since: string) => Promise<NodeJS.ReadableStream>;

export class ExitEvents {
  private readonly followed = new Map<string, Followed>();
  private stream: NodeJS.ReadableStream | undefined;
  private opening: Promise<void> | undefined;
  private readonly wakers = new Set<() => void>();
  /** The engine's time of the last event read: a stream that broke resumes there ("0": its whole buffer). */
  private since = "0";
  /** Why the stream stopped and could not be resumed: what was not read is not known. */
  private broken: string | undefined;

  constructor(private readonly open: OpenEvents) {}

  /** Follows `containerId` from now on; resolves once the stream is open (its start may be sent then). */
  async follow(containerId: string): Promise<void> {
    if (!this.followed.has(containerId)) this.followed.set(containerId, { oom: false });
    this.broken = undefined;
    await this.connect();
  }

  /** Stops following `containerId` (removed); with nothing followed the stream closes. */
  forget(containerId: string): void {
    this.followed.delete(containerId);
    if (this.followed.size === 0) this.close();
  }

  /**
   * Whether the engine reported an OOM kill for `containerId`'s exit: true once its "oom" event is read,
   * false once its "die" was read and `windowMs` passed without one (a notice logged after the exit
   * arrives within that), undefined when it is not known: not followed, its "die" not read within
   * `dieWithinMs`, or the stream broke and could not resume.
   */
  async oomKilled(containerId: string, windowMs: number, dieWithinMs: number): Promise<boolean | undefined> {
    const seen = this.followed.get(containerId);
    if (!seen) return undefined;
    const giveUp = Date.now() + dieWithinMs;
    for (;;) {
      if (seen.oom) return true;
      if (this.broken) return undefined;
      const end = seen.diedAt !== undefined ? seen.diedAt + windowMs : giveUp;
      const left = end - Date.now();
      if (left <= 0) return seen.diedAt !== undefined ? false : undefined;
      await this.nextEvent(left);
    }
  }

  private connect(): Promise<void> {
    if (this.stream) return Promise.resolve();
    this.opening ??= this.open(this.since)
      .then((stream) => this.read(stream))
      .finally(() => {
        this.opening = undefined;
      });
    return this.opening;
  }

  private read(stream: NodeJS.ReadableStream): void {
    this.stream = stream;
    // The stream must not keep a finished CLI alive: the socket under it is not waited for.
    (stream as { socket?: { unref?: () => void } }).socket?.unref?.();
    let partial = "";
    stream.on("data", (chunk: Buffer | string) => {
      const lines = `${partial}${chunk.toString()}`.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) this.take(line);
      this.wake();
    });
    const ended = (err?: Error) => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      this.resume(err?.message ?? "the engine ended its event stream");
    };
    stream.on("end", () => ended());
    stream.on("error", ended);
    stream.on("close", () => ended());
  }

  /** A stream that broke while containers are followed is opened again where it stopped. */
  private resume(why: string): void {
    if (this.followed.size === 0) {
      this.wake();
      return;
    }
    this.connect().then(
      () => this.wake(),
      (err: Error) => {
        this.broken = `the engine's event stream broke (${why}) and could not be resumed (${err.message})`;
        this.wake();
      },
    );
  }

  private take(line: string): void {
    let ev: EngineEvent;
    try {
      ev = JSON.parse(line) as EngineEvent;
    } catch {
      return;
    }
    // The engine's nanoseconds as written: a double would round them by some hundred.
    const nano = /"timeNano":\s*(\d{10,})/.exec(line)?.[1];
    if (nano) this.since = `${nano.slice(0, -9)}.${nano.slice(-9)}`;
    else if (ev.time) this.since = String(ev.time);
    const seen = this.followed.get(ev.Actor?.ID ?? ev.id ?? "");
    if (!seen) return;
    const action = ev.Action ?? ev.status;
    if (action === "oom") seen.oom = true;
    if (action === "die") seen.diedAt ??= Date.now();
  }

  private nextEvent(maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const w of [...this.wakers]) w();
  }

  private close(): void {
    const s = this.stream as { destroy?: () => void } | undefined;
    this.stream = undefined;
    s?.destroy?.();
  }
}
