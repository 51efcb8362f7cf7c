import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEventContext } from "../../src/github/context.js";

async function eventFile(payload: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "da-event-"));
  const file = path.join(dir, "event.json");
  await writeFile(file, JSON.stringify(payload));
  return file;
}

const pr = (headRepo: string, action = "synchronize") => ({
  action,
  pull_request: {
    number: 12,
    head: { sha: "h".repeat(40), repo: { full_name: headRepo } },
    base: { sha: "b".repeat(40), repo: { full_name: "octo-org/app" } },
  },
});

const env = (over: Record<string, string>) => ({
  GITHUB_REPOSITORY: "octo-org/app",
  GITHUB_SHA: "m".repeat(40),
  GITHUB_RUN_ID: "99",
  ...over,
});

describe("readEventContext", () => {
  it("a same-repo pull_request: the check goes on the PR head, not the merge commit; token can write", async () => {
    const ctx = readEventContext(
      env({ GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: await eventFile(pr("octo-org/app")) }),
    );
    expect(ctx).toMatchObject({
      kind: "pull_request",
      owner: "octo-org",
      repo: "app",
      sha: "h".repeat(40),
      readOnly: false,
      pr: { number: 12, headSha: "h".repeat(40), action: "synchronize" },
      runUrl: "https://github.com/octo-org/app/actions/runs/99",
    });
  });

  it("a fork's pull_request is read-only; the same PR under pull_request_target is not", async () => {
    const file = await eventFile(pr("contributor/app", "opened"));
    expect(
      readEventContext(env({ GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: file })).readOnly,
    ).toBe(true);
    expect(
      readEventContext(env({ GITHUB_EVENT_NAME: "pull_request_target", GITHUB_EVENT_PATH: file })).readOnly,
    ).toBe(false);
  });

  it("scheduled and manual runs have no PR and use GITHUB_SHA", async () => {
    const file = await eventFile({ schedule: "0 3 * * *" });
    expect(readEventContext(env({ GITHUB_EVENT_NAME: "schedule", GITHUB_EVENT_PATH: file }))).toMatchObject({
      kind: "schedule",
      sha: "m".repeat(40),
      pr: undefined,
      readOnly: false,
    });
    expect(readEventContext(env({ GITHUB_EVENT_NAME: "workflow_dispatch" })).kind).toBe("manual");
  });

  it("says what is missing outside Actions", () => {
    expect(() => readEventContext({})).toThrow(/GITHUB_REPOSITORY is not set/);
    expect(() => readEventContext(env({ GITHUB_EVENT_PATH: "/nonexistent/event.json" }))).toThrow(
      /GITHUB_EVENT_PATH \/nonexistent\/event\.json: cannot read the event payload/,
    );
  });
});
