// Pictures for the README from a real failing run: runs the bundled CLI on a failing inventory
// (an unhealthy subject and one running as root), renders the run's report as the PR comment and
// as the check run summary with a GitHub-flavoured markdown renderer (marked) and GitHub's own
// stylesheet (github-markdown-css), and screenshots them in Debian's headless Chromium:
// docs/img/pr-comment.png and docs/img/check-summary.png, and the fork recipe's unverified
// publication of the run's passing subject, docs/img/fork-unverified.png. Needs the engine (scripts/engine.sh)
// and `apt-get install -y chromium`. tests/e2e/render.test.ts renders hostile reports the same way.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { marked } from "marked";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("..", import.meta.url));
export const CHROMIUM = process.env.DA_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** GFM to HTML as a page styled like github.com's markdown body (light theme, 880 px wide). */
export function renderPage(markdown, title = "report") {
  const css = readFileSync(
    path.join(root, "node_modules/github-markdown-css/github-markdown-light.css"),
    "utf8",
  );
  const body = marked.parse(markdown, { gfm: true, async: false });
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>${css}
body { margin: 0; background: #fff; }
.markdown-body { box-sizing: border-box; width: 880px; padding: 24px 32px; border: 1px solid #d0d7de; border-radius: 6px; margin: 16px; }
</style></head><body><article class="markdown-body">${body}</article></body></html>`;
}

/** Runs `fn(browser)` with headless Chromium; nothing from the network (pages are set inline). */
export async function withBrowser(fn) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/** The renderer from src/, bundled on the fly so this plain script can call it. */
export async function loadRenderer() {
  const dir = mkdtempSync(path.join(tmpdir(), "da-render-"));
  const out = path.join(dir, "markdown.mjs");
  await build({
    entryPoints: [path.join(root, "src/report/markdown.ts")],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    logLevel: "warning",
  });
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  // A workspace laid out as a user's repository (acceptance/inventory.json beside the fixtures),
  // run from inside it: the report names acceptance/inventory.json, not a temporary directory.
  const work = mkdtempSync(path.join(tmpdir(), "da-shots-"));
  cpSync(path.join(root, "acceptance/fixtures"), path.join(work, "acceptance/fixtures"), { recursive: true });
  const inventory = "acceptance/inventory.json";
  const own = JSON.parse(readFileSync(path.join(root, inventory), "utf8"));
  const base = process.env.DA_BASE_IMAGE ?? "docker-acceptance/busybox:local";
  const subject = (name, fixture, over = {}) => ({
    name,
    build: { context: `acceptance/fixtures/${fixture}`, args: { BASE_IMAGE: base } },
    port: 8080,
    limits: { memory: "64m", pids: 64, cpus: 0.5 },
    stopTimeoutMs: 3000,
    ...over,
  });
  // Laid out as a person writes it, so each finding points at its subject's own line.
  writeFileSync(
    path.join(work, inventory),
    JSON.stringify(
      {
        schemaVersion: 1,
        subjects: [
          // The passing subject is this repository's own reference subject, as its inventory declares
          // it (init included: its httpd is PID 1 without a TERM handler), so the picture shows what
          // a run of it gives.
          { ...own.subjects.find((x) => x.name === "hardened"), name: "web" },
          subject("worker", "unhealthy", { startupTimeoutMs: 3000 }),
          subject("legacy", "faults/root-user", { user: "0:0", healthPath: "/", startupTimeoutMs: 3000 }),
        ],
        // Every case pinned, as this repository's own inventory pins them.
        suites: own.suites,
      },
      null,
      2,
    ) + "\n",
  );
  const out = path.join(work, "bundle");
  const run = spawnSync(
    process.execPath,
    [
      path.join(root, "dist/cli.js"),
      "run",
      "--inventory",
      inventory,
      "--probe-image",
      base,
      "--out",
      out,
      "--format",
      "text",
    ],
    { cwd: work, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (run.status !== 1) throw new Error(`expected a failing run (exit 1), got exit ${run.status}`);
  const report = JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
  // The head a PR run would record; the local run has none.
  report.head = { sha: "8f3c2a1b9d4e5f60718293a4b5c6d7e8f9a0b1c2", ref: "refs/pull/42/merge" };
  const { renderMarkdown } = await loadRenderer();
  // The fork recipe's publication of the same run's passing part (the web subject's containment
  // cases): what a fork's own workflow claims is shown as unverified, never as a green pass.
  const web = {
    ...report,
    verdict: "pass",
    subjects: report.subjects.filter((s) => s.name === "web").map((s) => ({ ...s, buildLog: undefined })),
    cases: report.cases.filter((c) => c.subject === "web" && c.suite === "containment"),
    inventory: null,
    alignment: null,
  };
  const notPassing = web.cases.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.message}`);
  if (notPassing.length) throw new Error(`expected web's containment to pass: ${notPassing.join("; ")}`);
  const fork = "docker-acceptance (fork, unverified)";
  const shots = [
    ["pr-comment.png", renderMarkdown(report, { target: "comment" })],
    ["check-summary.png", renderMarkdown(report, { target: "check-summary" })],
    [
      "fork-unverified.png",
      renderMarkdown(web, { target: "check-summary", checkName: fork, unverified: true }),
    ],
  ];
  // Nothing of this machine in a picture meant for every reader.
  for (const [file, md] of shots) {
    const leaked = [work, root.replace(/\/$/, ""), "da-shots-"].filter((p) => md.includes(p));
    if (leaked.length)
      throw new Error(`${file}: the markdown shows ${leaked.join(", ")}; fix the run's paths`);
  }
  mkdirSync(path.join(root, "docs/img"), { recursive: true });
  await withBrowser(async (browser) => {
    const page = await browser.newPage({ viewport: { width: 912, height: 800 }, deviceScaleFactor: 1 });
    for (const [file, md] of shots) {
      await page.setContent(renderPage(md, file), { waitUntil: "load" });
      await page.locator("article.markdown-body").screenshot({ path: path.join(root, "docs/img", file) });
      console.log(`docs/img/${file}: ${md.length} characters of markdown`);
    }
  });
  rmSync(work, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
