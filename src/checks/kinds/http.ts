// HTTP: a request to the subject's port answers the expected status (and, for a probe, a body
// containing a substring). From the host through the published port; on network "none" from a
// probe in the subject's namespace, over HTTP/1.0, all of a subject's probes in one container.
import * as z from "zod";
import { requestPath, text } from "../fields.js";
import { type HttpAnswer, httpRequest } from "../http.js";
import { defineKind, IN_NETNS, pollReady } from "../kind.js";
import { ASK_TIMEOUT_S, between, type NetnsTarget, PROBE_MARGIN_MS, runInNetns } from "../netns.js";

const status = () => z.number().int().min(100).max(599).default(200);

const readiness = z
  .object({
    type: z.literal("http"),
    path: requestPath().default("/health").describe("GET path"),
    expectStatus: status(),
  })
  .strict()
  .describe("GET path on the subject's port answers expectStatus");

const probe = z
  .object({
    type: z.literal("http").optional().describe("the default probe type"),
    name: text(1).optional().describe("shown in the report; defaults to METHOD path"),
    method: z.enum(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]).default("GET"),
    path: requestPath().describe("request path, starting with /"),
    expectStatus: status().describe("expected HTTP status"),
    bodyContains: text().optional().describe("a substring the response body must contain"),
  })
  .strict()
  .describe("an HTTP request that must answer as expected once the subject is ready");

type HttpProbe = z.output<typeof probe>;

export const httpKind = defineKind({
  type: "http",
  rank: 10,
  readiness: {
    schema: readiness,
    listed: '"http" (default, GET /health)',
    describe: (readiness) => `GET ${readiness.path} answers ${readiness.expectStatus}`,
    asks: "http",
    evidence: (readiness) => ({ healthPath: readiness.path }),
    async wait(readiness, target) {
      if (target.offline) {
        const ready = await waitInNetns(
          target.netns,
          readiness.path,
          target.deadlineMs,
          readiness.expectStatus,
        );
        return { ready, attempts: 1, via: IN_NETNS };
      }
      let last: string | undefined;
      const { ready, attempts } = await pollReady(target, async () => {
        const answer = await httpRequest(target.hostPort!, "GET", readiness.path, 2000, target.signal);
        if (answer) last = `status ${answer.status}`;
        return answer?.status === readiness.expectStatus;
      });
      return { ready, attempts, via: `127.0.0.1:${target.hostPort}`, last: last ?? "no answer" };
    },
  },
  probe: {
    schema: probe,
    listed: "HTTP (the default when `type` is absent)",
    isDefault: true,
    async checkAll(probes, target) {
      const answers = target.offline
        ? await askInNetns(target.netns, probes)
        : await Promise.all(
            probes.map((p) => httpRequest(target.hostPort!, p.method, p.path, 5000, target.signal)),
          );
      return probes.map((p, i) => result(p, answers[i]));
    },
  },
});

function result(p: HttpProbe, answer: HttpAnswer | undefined) {
  const statusOk = answer?.status === p.expectStatus;
  const bodyOk = p.bodyContains === undefined || (answer?.body.includes(p.bodyContains) ?? false);
  return {
    name: p.name ?? `${p.method} ${p.path}`,
    type: "http",
    method: p.method,
    path: p.path,
    expectStatus: p.expectStatus,
    status: answer?.status ?? null,
    bodyContains: p.bodyContains,
    ok: statusOk && bodyOk,
    expected: `${p.expectStatus}${p.bodyContains ? ` with "${p.bodyContains}"` : ""}`,
    got: String(answer?.status ?? "no answer"),
  };
}

// Polls GET DA_PATH until DA_STATUS or DA_DEADLINE seconds.
const WAIT = `
end=$(( $(date +%s) + DA_DEADLINE )); delay=0.05
while :; do
  case "$(ask GET "$DA_PATH" 2 | head -n 1)" in "HTTP/1."[01]" $DA_STATUS"*) echo "@@ready"; exit 0 ;; esac
  [ "$(date +%s)" -ge "$end" ] && { echo "@@timeout"; exit 0; }
  backoff
done
`;

// Each "METHOD PATH" line of DA_REQUESTS once, every answer between markers.
const ASK = `
i=0
echo "$DA_REQUESTS" | while read -r method path; do
  [ -n "$method" ] || continue
  echo "@@begin $i"; ask "$method" "$path" "$DA_ASK_TIMEOUT" | head -c 65536; echo; echo "@@end $i"
  i=$((i + 1))
done
`;

/** Polls `path` from inside the subject's network namespace until `status` or the deadline. */
async function waitInNetns(t: NetnsTarget, path: string, deadlineMs: number, status: number) {
  const env = { DA_PATH: path, DA_STATUS: String(status), DA_DEADLINE: String(Math.ceil(deadlineMs / 1000)) };
  // The probe gives up at the deadline itself; the engine wait allows it that long plus a margin.
  const stdout = await runInNetns(t, WAIT, env, deadlineMs + PROBE_MARGIN_MS);
  return stdout.includes("@@ready");
}

/** Each probe once, in one probe container; answers in order, undefined where none came. */
async function askInNetns(t: NetnsTarget, probes: readonly Pick<HttpProbe, "method" | "path">[]) {
  // Each path is visible ASCII (requestPath): one word on its line, sent as written.
  const requests = probes.map((p) => `${p.method} ${p.path}`).join("\n");
  const timeoutMs = probes.length * ASK_TIMEOUT_S * 1000 + PROBE_MARGIN_MS;
  const stdout = await runInNetns(t, ASK, { DA_REQUESTS: requests }, timeoutMs);
  return probes.map((_, i) => parseAnswer(between(stdout, `@@begin ${i}\n`, `\n@@end ${i}\n`)));
}

/** A raw HTTP/1.x answer: status line, headers, blank line, body. */
function parseAnswer(block: string | undefined): HttpAnswer | undefined {
  const status = block === undefined ? null : /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(block);
  if (!block || !status) return undefined;
  const split = block.search(/\r?\n\r?\n/);
  return {
    status: Number(status[1]),
    body: split === -1 ? "" : block.slice(split).replace(/^\r?\n\r?\n/, ""),
  };
}
