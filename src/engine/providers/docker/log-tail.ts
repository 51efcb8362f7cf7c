// A container's log as it streams in, demultiplexed, keeping only its last bytes per stream: the
// subject writes its log, so however much it writes, the run holds at most LOG_KEPT_BYTES of each
// stream (its end, where a crash's message is). Docker's log rotation on the subject (2 files of
// 1 MB, src/suites/lifecycle/create.ts) bounds what the engine keeps; this bounds what we keep of
// it on any engine, one that ignores the rotation included.

/** Kept per stream (stdout, stderr); more than the rotated log Docker keeps of a subject. */
const LOG_KEPT_BYTES = 4 * 1024 * 1024;

class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  push(b: Buffer): void {
    if (b.length === 0) return;
    this.chunks.push(b);
    this.size += b.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.length >= this.max) {
      const first = this.chunks.shift()!;
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    const cut = Math.max(0, all.length - this.max);
    this.dropped += cut;
    return all.subarray(cut).toString("utf8");
  }
}

/**
 * Frames of Docker's multiplexed log stream (8-byte header: stream type, 3 zero bytes, size) as
 * they arrive in any chunking; a stream that does not start with a header is a TTY's raw output.
 */
export class LogTail {
  private readonly out: Tail;
  private readonly err: Tail;
  private pending = Buffer.alloc(0);
  /** Bytes of the current frame still to come, and which stream it is. */
  private left = 0;
  private into: Tail;
  private raw: boolean | undefined;

  constructor(max = LOG_KEPT_BYTES) {
    this.out = new Tail(max);
    this.err = new Tail(max);
    this.into = this.out;
  }

  push(chunk: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    this.raw ??= !(buf[0]! <= 2 && (buf.length < 4 || (buf[1] === 0 && buf[2] === 0 && buf[3] === 0)));
    if (this.raw) {
      this.out.push(buf);
      return;
    }
    while (buf.length > 0) {
      if (this.left > 0) {
        const take = Math.min(this.left, buf.length);
        this.into.push(buf.subarray(0, take));
        this.left -= take;
        buf = buf.subarray(take);
        continue;
      }
      if (buf.length < 8) {
        this.pending = Buffer.from(buf);
        return;
      }
      this.into = buf[0] === 2 ? this.err : this.out;
      this.left = buf.readUInt32BE(4);
      buf = buf.subarray(8);
    }
  }

  result(): { stdout: string; stderr: string; droppedBytes: number } {
    const stdout = this.out.text();
    const stderr = this.err.text();
    return { stdout, stderr, droppedBytes: this.out.dropped + this.err.dropped };
  }
}
