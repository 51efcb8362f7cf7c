// TCP: a connection to the subject's port succeeds (optionally: the answer to `send` contains
// `expect`). From the host through the published port; on network "none" from a probe in the
// subject's namespace.
import * as z from "zod";
import { parseExchange } from "../../engine/probe-exchange.js";
import { text } from "../fields.js";
import { defineKind, eachProbe, IN_NETNS, pollReady } from "../kind.js";
import { ASK_TIMEOUT_S, between, type NetnsTarget, PROBE_MARGIN_MS, runInNetns } from "../netns.js";
import { type TcpAnswer, tcpExchange, tcpHeld } from "../tcp.js";

const fields = {
  send: text().optional().describe('bytes to send once connected (e.g. "PING\\r\\n")'),
  expect: text().optional().describe("a substring the answer must contain"),
};

const readiness = z
  .object({ type: z.literal("tcp"), ...fields })
  .strict()
  .describe("a TCP connection to the subject's port succeeds (and answers `expect` to `send`)");

const probe = z
  .object({
    type: z.literal("tcp"),
    name: text(1).optional().describe("shown in the report; defaults to tcp PORT"),
    ...fields,
  })
  .strict()
  .describe("a TCP connection to the subject's port (optionally send bytes and expect an answer)");

export const tcpKind = defineKind({
  type: "tcp",
  rank: 20,
  readiness: {
    schema: readiness,
    listed: '"tcp"',
    describe: (readiness, port) =>
      `tcp ${port} accepts a connection${readiness.expect !== undefined ? ` and answers ${JSON.stringify(readiness.expect)}` : ""}`,
    asks: "tcp",
    async wait(readiness, target) {
      if (target.offline) {
        const ready = await waitInNetns(target.netns, readiness.send, readiness.expect, target.deadlineMs);
        return { ready, attempts: 1, via: IN_NETNS };
      }
      let last: string | undefined;
      const { ready, attempts } = await pollReady(target, async () => {
        const a = await tcpExchange(target.hostPort!, readiness.send, readiness.expect, 2000);
        last = a.connected ? `answered ${JSON.stringify(a.answer.slice(0, 80))}` : "connection refused";
        return tcpHeld(a, readiness.expect);
      });
      return { ready, attempts, via: `127.0.0.1:${target.hostPort}`, last };
    },
  },
  probe: {
    schema: probe,
    listed: '"tcp"',
    checkAll: eachProbe(async (probe, target) => {
      const a = target.offline
        ? await exchangeInNetns(target.netns, probe.send)
        : await tcpExchange(target.hostPort!, probe.send, probe.expect, 5000);
      return {
        name: probe.name ?? `tcp ${target.port}`,
        type: "tcp",
        ok: tcpHeld(a, probe.expect),
        expected: probe.expect === undefined ? "a connection" : JSON.stringify(probe.expect),
        got: a.connected ? JSON.stringify(a.answer.slice(0, 200)) : "connection refused",
      };
    }),
  },
});

// Connects (sends DA_SEND, expects DA_EXPECT in the answer) until it holds or DA_DEADLINE seconds.
const WAIT = `
end=$(( $(date +%s) + DA_DEADLINE )); delay=0.05
while :; do
  out=$(tcpx 2)
  case "$out" in *@@refused*) ;; *"$DA_EXPECT"*) echo "@@ready"; exit 0 ;; esac
  [ "$(date +%s)" -ge "$end" ] && { echo "@@timeout"; exit 0; }
  backoff
done
`;

// One exchange between markers.
const EXCHANGE = `
echo "@@begin 0"; tcpx "$DA_ASK_TIMEOUT"; echo; echo "@@end 0"
`;

/** Connects (sends, expects) from inside the namespace until it holds or the deadline. */
async function waitInNetns(
  t: NetnsTarget,
  send: string | undefined,
  expect: string | undefined,
  deadlineMs: number,
): Promise<boolean> {
  const env = {
    DA_SEND: send ?? "",
    DA_EXPECT: expect ?? "",
    DA_DEADLINE: String(Math.ceil(deadlineMs / 1000)),
  };
  return (await runInNetns(t, WAIT, env, deadlineMs + PROBE_MARGIN_MS)).includes("@@ready");
}

/** One TCP exchange from inside the namespace. */
async function exchangeInNetns(t: NetnsTarget, send: string | undefined): Promise<TcpAnswer> {
  const timeoutMs = ASK_TIMEOUT_S * 1000 + PROBE_MARGIN_MS;
  const stdout = await runInNetns(t, EXCHANGE, { DA_SEND: send ?? "" }, timeoutMs);
  return parseExchange(between(stdout, "@@begin 0\n", "\n@@end 0\n"));
}
