// A failing run's check run annotates where each problem is: a real subject on the real engine
// fails three cases (it runs as root, its PID 1 ignores SIGTERM, a declared probe gets 404), and
// the completed check run, validated by the GitHub double against GitHub's OpenAPI description,
// carries one annotation per failing case at the Dockerfile or inventory line, repository-relative.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishReport } from "../../src/github/publish.js";
import { silentLogger } from "../../src/log.js";
import { runPipeline } from "../../src/pipeline.js";
import type { Finding } from "../../src/report/model.js";
import { publishingOptions } from "../../src/request/publishing.js";
import { GitHubDouble } from "../double/github-double.js";
import { BASE_IMAGE, hasEngine, newEngine, PROBE_IMAGE } from "../helpers/engine.js";
import { writeInventory } from "../helpers/inventory.js";
import { makeReport } from "../report/fixtures.js";
import { clientFor, HEAD, prContext } from "./helpers.js";

const DOCKERFILE = [
  `FROM ${BASE_IMAGE}`,
  "RUN mkdir -p /www && echo ok > /www/health",
  // An ignored signal stays ignored across exec: httpd as PID 1 never hears SIGTERM.
  `CMD ["sh", "-c", "trap '' TERM; exec httpd -f -p 8080 -h /www"]`,
  "EXPOSE 8080",
  "",
].join("\n");

/** A repository: svc/Dockerfile and acceptance/inventory.json, written as a person would. */
function repository(): { workspace: string; inventory: string } {
  const workspace = mkdtempSync(path.join(tmpdir(), "da-annotate-"));
  mkdirSync(path.join(workspace, "svc"));
  mkdirSync(path.join(workspace, "acceptance"));
  writeFileSync(path.join(workspace, "svc", "Dockerfile"), DOCKERFILE);
  const text = readFileSync(
    writeInventory([
      {
        name: "web",
        build: { context: "svc" },
        port: 8080,
        limits: { memory: "64m", pids: 64, cpus: 0.5 },
        startupTimeoutMs: 15_000,
        stopTimeoutMs: 2_000,
        probes: [{ path: "/missing" }],
      },
    ]),
    "utf8",
  );
  const inventory = path.join(workspace, "acceptance", "inventory.json");
  writeFileSync(inventory, text);
  return { workspace, inventory };
}

let double: GitHubDouble;
beforeEach(async () => {
  double = await new GitHubDouble().start();
  double.seedPull(7, { headSha: HEAD });
});
afterEach(async () => {
  await double.stop();
  expect(double.problems).toEqual([]);
});

describe.skipIf(!hasEngine)("annotations of a failing run", () => {
  it("one per failing case, at the line to change, repository-relative", async () => {
    const { workspace, inventory } = repository();
    const report = await runPipeline({
      workspace,
      inventoryPath: "acceptance/inventory.json",
      probeImage: PROBE_IMAGE,
      log: silentLogger,
      signal: AbortSignal.timeout(5 * 60_000),
      engine: newEngine(),
    });
    const failing = report.cases.filter((c) => c.status === "fail" || c.status === "error");
    expect(failing.map((c) => c.id)).toEqual(
      expect.arrayContaining(["lifecycle.probes", "lifecycle.stop", "containment.user"]),
    );
    await publishReport(report, {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ comment: "never" }),
    });
    const annotations = double.checkRuns[0]!.output.annotations as {
      path: string;
      start_line: number;
      title: string;
    }[];
    expect(annotations).toHaveLength(failing.length);
    const at = (id: string) => annotations.find((a) => a.title === `web ${id}`);
    const inventoryText = readFileSync(inventory, "utf8").split("\n");
    const probeLine = inventoryText.findIndex((l) => l.includes('"path": "/missing"')) + 1;
    // The probe's entry opens a line or two above its path: the annotation is on the entry.
    expect(at("lifecycle.probes")).toMatchObject({ path: "acceptance/inventory.json" });
    expect(probeLine - at("lifecycle.probes")!.start_line).toBeGreaterThanOrEqual(0);
    expect(probeLine - at("lifecycle.probes")!.start_line).toBeLessThanOrEqual(1);
    expect(at("lifecycle.stop")).toMatchObject({ path: "svc/Dockerfile", start_line: 3 });
    expect(at("containment.user")).toMatchObject({ path: "svc/Dockerfile", start_line: 4 });
    for (const a of annotations) {
      expect(a.path, a.title).toMatch(/^(svc\/Dockerfile|acceptance\/inventory\.json)$/);
      expect(a.path.startsWith("/") || a.path.includes(workspace)).toBe(false);
    }
  }, 300_000);
});

describe("annotations of alignment findings and external tests", () => {
  const finding = (places: number): Finding => ({
    tier: 1,
    level: "blocking",
    kind: "principle",
    title: "No print in library code",
    concern: "use the logger",
    reviewers: [],
    locations: Array.from({ length: places }, (_, i) => ({ path: `src/m${i % 3}.py`, line: i + 1 })),
    hits: places,
  });

  it("every place of a finding is annotated up to max-annotations, and what was left out is said", async () => {
    const report = makeReport({
      alignment: {
        configured: true,
        findings: [finding(120)],
        openRfcs: [],
        notes: [],
        clean: [],
        summary: "",
      },
    });
    await publishReport(report, {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ comment: "never", maxAnnotations: 100 }),
    });
    const run = double.checkRuns[0]!;
    expect(run.output.annotations).toHaveLength(100);
    expect(new Set(run.output.annotations.map((a) => `${a.path}:${a.start_line}`)).size).toBe(100);
    expect(run.output.summary).toMatch(
      /Annotations not sent: 20 beyond the limit of 100 \(input max-annotations\)/,
    );
  });

  it("a failing external test is annotated where its runner says, its hostile text plain and bounded", async () => {
    const report = makeReport({
      external: {
        tests: {
          passed: 1,
          skipped: 0,
          failed: 2,
          files: ["junit.xml"],
          failures: [
            {
              name: "tests.test_app > test_login",
              message: `AssertionError: \u001b[31m${"x".repeat(2000)}`,
              path: "tests/test_app.py",
              line: 42,
              file: "junit.xml",
            },
            { name: "nowhere", message: "no file attribute", file: "junit.xml" },
          ],
        },
      },
    });
    await publishReport(report, {
      context: prContext(),
      client: clientFor(double),
      publishing: publishingOptions({ comment: "never" }),
    });
    const [a, ...rest] = double.checkRuns[0]!.output.annotations as Record<string, unknown>[];
    expect(rest).toEqual([]); // a failure with no place is listed in the summary, not annotated
    expect(a).toMatchObject({
      path: "tests/test_app.py",
      start_line: 42,
      annotation_level: "failure",
      title: "Test failed: tests.test_app > test_login",
    });
    expect(String(a!.message)).not.toContain("\u001b");
    expect(double.checkRuns[0]!.output.summary).toContain("**Failing tests**");
  });
});
