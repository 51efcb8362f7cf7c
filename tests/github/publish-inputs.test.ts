// The publishing inputs (max-annotations, comment-update, comment-on-pass) mean the same in
// `mode: publish` as in the modes that run the suites: the fork recipe's phase 2 and the command
// recipe's publish job honour them too (both used to drop them, sending up to 1,000 annotations
// whatever max-annotations said).
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishCommandRun } from "../../src/bot/step.js";
import { forkCheckName, publishBundle } from "../../src/commands/publish.js";
import { writeBundle } from "../../src/report/bundle.js";
import type { Report } from "../../src/report/model.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { workflowRunEvent } from "../e2e/events.js";
import { makeCase, makeReport } from "../report/fixtures.js";
import { clientFor, forkPullDouble, HEAD, maintainerRun } from "./helpers.js";

const double = forkPullDouble();

/** `n` failing cases, each annotated on its own Dockerfile line. */
const failing = (n: number): Report =>
  makeReport({
    head: { sha: HEAD },
    cases: Array.from({ length: n }, (_, i) =>
      makeCase({
        id: "containment.user",
        subject: `s${i}`,
        status: "fail",
        message: "uid 0",
        location: { path: "Dockerfile", line: i + 1 },
      }),
    ),
  });
const passing = (): Report =>
  makeReport({ head: { sha: HEAD }, cases: [makeCase({ id: "containment.user", status: "pass" })] });

type Inputs = { maxAnnotations?: number; commentUpdate?: "on-change"; commentOnPass?: "delete" };

async function forkPhase2(report: Report, inputs: Inputs) {
  const root = await mkdtemp(path.join(tmpdir(), "da-inputs-"));
  const dir = path.join(root, "bundle");
  await writeBundle(dir, report, { markdown: "report" });
  await writeFile(
    path.join(root, "event.json"),
    JSON.stringify({ prNumber: 7, headSha: HEAD, repository: "octo-org/app" }),
  );
  const eventPath = path.join(root, "payload.json");
  await writeFile(eventPath, JSON.stringify(workflowRunEvent({ headSha: HEAD, headRepo: "stranger/app" })));
  const out = await publishBundle(dir, {
    env: {
      GITHUB_REPOSITORY: "octo-org/app",
      GITHUB_EVENT_NAME: "workflow_run",
      GITHUB_EVENT_PATH: eventPath,
    },
    client: clientFor(double()),
    publishing: publishingOptions(inputs),
  });
  expect(out.exitCode, out.messages.join("\n")).toBe(0);
  return out.result!;
}

const decision = maintainerRun();
async function commandPublish(report: Report, inputs: Inputs) {
  return (
    await publishCommandRun(report, decision, {
      client: clientFor(double()),
      publishing: publishingOptions(inputs),
    })
  ).published!;
}

describe.each([
  ["the fork recipe's phase 2", forkPhase2, forkCheckName("docker-acceptance")],
  ["the command recipe's publish job", commandPublish, "docker-acceptance"],
] as const)("%s", (_, publish, name) => {
  it("max-annotations: at most that many annotations, and the check run says what was left out", async () => {
    await publish(failing(12), { maxAnnotations: 5 });
    const run = double().checkRuns.find((r) => r.name === name)!;
    expect(run.output.annotations).toHaveLength(5);
    expect(run.output.summary).toContain(
      "Annotations not sent: 7 beyond the limit of 5 (input max-annotations)",
    );
  });

  it("comment-update: on-change leaves a comment that says the same alone", async () => {
    await publish(failing(1), { commentUpdate: "on-change" });
    const again = await publish(failing(1), { commentUpdate: "on-change" });
    expect(again.comment.outcome).toBe("unchanged");
  });

  it("comment-on-pass: delete removes the earlier failing comment on a pass", async () => {
    await publish(failing(1), {});
    const green = await publish(passing(), { commentOnPass: "delete" });
    expect(green.comment.outcome).toBe("deleted");
    expect(double().comments.filter((c) => c.login === "github-actions[bot]" && c.issue === 7)).toHaveLength(
      0,
    );
  });
});
