// TCP checks against the subject's published port: connect, optionally send bytes, and read the
// answer until it contains what is expected, the peer closes, or the time is up.
import net from "node:net";

export interface TcpAnswer {
  connected: boolean;
  /** What came back (bounded), as text. */
  answer: string;
}

const ANSWER_LIMIT = 64 * 1024;

/** Never rejects: a refused or timed-out connection is `connected: false`. */
export function tcpExchange(
  port: number,
  send: string | undefined,
  expect: string | undefined,
  timeoutMs: number,
  host = "127.0.0.1",
): Promise<TcpAnswer> {
  return new Promise((resolve) => {
    let connected = false;
    let answer = "";
    let settled = false;
    const socket = net.connect({ host, port });
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ connected, answer });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("connect", () => {
      connected = true;
      if (send !== undefined) socket.write(send);
      // Nothing to wait for: connecting (and sending) is the whole check.
      if (expect === undefined) finish();
    });
    socket.on("data", (chunk: Buffer) => {
      answer = (answer + chunk.toString("utf8")).slice(0, ANSWER_LIMIT);
      if (expect !== undefined && answer.includes(expect)) finish();
    });
    socket.on("end", finish);
    socket.on("error", finish);
    socket.on("close", finish);
  });
}

/** Whether an exchange satisfies a check: connected, and the expected text came back. */
export function tcpHeld(answer: TcpAnswer | undefined, expect: string | undefined): boolean {
  return !!answer?.connected && (expect === undefined || answer.answer.includes(expect));
}
