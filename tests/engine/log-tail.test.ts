// What the run keeps of a container's log: its end, at most a bound per stream, however the
// engine chunks the multiplexed stream (frames split anywhere), and a TTY's raw output as stdout.
import { describe, expect, it } from "vitest";
import { LogTail } from "../../src/engine/providers/docker/log-tail.js";

function frame(stream: 1 | 2, text: string): Buffer {
  const body = Buffer.from(text);
  const head = Buffer.alloc(8);
  head[0] = stream;
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

describe("LogTail", () => {
  it("demultiplexes frames split at every byte", () => {
    const all = Buffer.concat([frame(1, "out one\n"), frame(2, "err one\n"), frame(1, "out two\n")]);
    const tail = new LogTail();
    for (let i = 0; i < all.length; i++) tail.push(all.subarray(i, i + 1));
    expect(tail.result()).toEqual({ stdout: "out one\nout two\n", stderr: "err one\n", droppedBytes: 0 });
  });

  it("keeps only the last bytes of each stream, whatever is written", () => {
    const tail = new LogTail(1024);
    for (let i = 0; i < 10_000; i++) tail.push(frame(1, `line ${i} ${"x".repeat(100)}\n`));
    tail.push(frame(2, "the crash\n"));
    const { stdout, stderr, droppedBytes } = tail.result();
    expect(stdout.length).toBe(1024);
    expect(stdout.endsWith(`line 9999 ${"x".repeat(100)}\n`)).toBe(true);
    expect(stderr).toBe("the crash\n");
    expect(droppedBytes).toBeGreaterThan(1_000_000);
  });

  it("a TTY's log (no frame headers) is stdout as written", () => {
    const tail = new LogTail();
    tail.push(Buffer.from("hello\r\n"));
    tail.push(Buffer.from("world\r\n"));
    expect(tail.result()).toMatchObject({ stdout: "hello\r\nworld\r\n", stderr: "" });
  });
});
