// A hostile report rendered the way the README pictures are (marked GFM + GitHub's stylesheet in
// headless Chromium), then read back from the DOM: what a reader on GitHub would get. marked does
// not sanitize HTML the way github.com does, so anything live here is our escaping's failure.
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, typed by use
import { CHROMIUM, renderPage } from "../../scripts/screenshots.mjs";
import { type MarkdownTarget, renderMarkdown } from "../../src/report/markdown.js";
import { computeVerdict, type Report } from "../../src/report/model.js";
import { makeCase, makeReport } from "../helpers/report.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI)
  throw new Error(`CI=true but ${CHROMIUM} is missing: apt-get install -y chromium`);

const HOSTILE = [
  "</details></summary></td></tr></table>",
  "<script>window.__pwned = 1</script>",
  '<img src=x onerror="window.__pwned = 2">',
  '<a href="javascript:window.__pwned=3">click</a>',
  "<iframe src=about:blank></iframe>",
  "<details open><summary>fake</summary>",
  "| cell | break |",
  "```",
  "[link](javascript:alert(1))",
  "@octo-org/security",
  "<!-- docker-acceptance:comment:docker-acceptance -->",
].join(" ");

/** Short enough to escape every length cap, so it lands whole in table cells. */
const CELL = "x|y</td><td>z";

function hostileReport(): Report {
  const cases = [
    makeCase({
      id: "containment.user",
      subject: "web",
      status: "fail",
      message: HOSTILE,
      remediation: HOSTILE,
    }),
    makeCase({
      id: "lifecycle.ready",
      subject: "web",
      status: "fail",
      message: HOSTILE,
      location: { path: `Dockerfile${HOSTILE}`, line: 3 },
    }),
    makeCase({ id: "lifecycle.probes", subject: "web", status: "skip", message: HOSTILE }),
    makeCase({ id: "lifecycle.build", subject: `api${HOSTILE}`, status: "pass", message: HOSTILE }),
    makeCase({ id: "lifecycle.stop", subject: CELL, status: "fail", message: CELL }),
  ];
  const r = makeReport({
    subjects: [
      { name: "web", phases: [], logExcerpt: `${HOSTILE}\n`.repeat(5), buildLog: `${HOSTILE}\n`.repeat(5) },
      { name: `api${HOSTILE}`, phases: [] },
      { name: CELL, phases: [] },
    ],
    cases,
    errors: [{ kind: "engine", message: HOSTILE }],
  });
  r.verdict = computeVerdict(r);
  return r;
}

/** The tags our renderer writes itself, learned from a benign report of the same shape. */
const BENIGN_TAGS = new Set<string>();

describe.skipIf(!haveChromium)(
  "a hostile report rendered in headless Chromium with GitHub's stylesheet",
  () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      });
      page = await browser.newPage();
      const benign = makeReport({
        subjects: [{ name: "web", phases: [], logExcerpt: "ok\n", buildLog: "ok\n" }],
        cases: [
          makeCase({
            id: "containment.user",
            status: "fail",
            message: "runs as root",
            remediation: "add USER",
          }),
          makeCase({
            id: "lifecycle.ready",
            status: "fail",
            message: "404",
            location: { path: "Dockerfile", line: 3 },
          }),
          makeCase({ id: "lifecycle.probes", status: "skip", message: "not run" }),
          makeCase({ id: "lifecycle.build", subject: "api", status: "pass", message: "built" }),
        ],
        errors: [{ kind: "engine", message: "boom" }],
      });
      for (const target of ["comment", "check-summary", "job-summary"] as const) {
        await page.setContent(renderPage(renderMarkdown(benign, { target })));
        for (const t of await page.$$eval("article *", (els) => els.map((e) => e.tagName)))
          BENIGN_TAGS.add(t);
      }
    });
    afterAll(async () => {
      await browser?.close();
    });

    for (const target of ["comment", "check-summary", "job-summary"] satisfies MarkdownTarget[]) {
      describe(target, () => {
        const md = renderMarkdown(hostileReport(), { target });
        const dom = async () => {
          await page.setContent(renderPage(md));
          return page;
        };

        it("no input-supplied HTML became live: no scripts ran, no foreign elements, no handlers, no javascript: links", async () => {
          const p = await dom();
          expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
          const tags = await p.$$eval("article *", (els) => [...new Set(els.map((e) => e.tagName))]);
          expect(tags.filter((t) => !BENIGN_TAGS.has(t))).toEqual([]);
          for (const t of ["SCRIPT", "IFRAME", "IMG"]) expect(tags).not.toContain(t);
          const handlers = await p.$$eval("article *", (els) =>
            els.flatMap((e) =>
              [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => `${e.tagName} ${a.name}`),
            ),
          );
          expect(handlers).toEqual([]);
          const hrefs = await p.$$eval("article a", (as) => as.map((a) => a.getAttribute("href") ?? ""));
          expect(hrefs.filter((h) => /^\s*javascript:/i.test(h))).toEqual([]);
          // The hostile text is still there, as text a reader can see (rendered text, on purpose).
          // biome-ignore lint/performance/useDomNodeTextContent: what is visible is the point here
          expect(await p.locator("article").innerText()).toContain("window.__pwned = 1");
        });

        it("details blocks are balanced: as many in the page as the renderer opened, each led by its summary", async () => {
          const p = await dom();
          const opened = md.split("<details").length - 1;
          expect(md.split("</details>").length - 1).toBe(opened);
          const details = await p.$$eval("article details", (ds) =>
            ds.map((d) => d.firstElementChild?.tagName ?? ""),
          );
          expect(details).toHaveLength(opened);
          expect(details.every((t) => t === "SUMMARY")).toBe(true);
          // Nothing the input wrote swallowed the sections after it: the last heading is top level.
          const lastHeading = await p.$$eval(
            "article h2, article h3",
            (hs) => hs.at(-1)?.closest("details") === null,
          );
          expect(lastHeading).toBe(true);
        });

        it("tables are intact: hostile pipes split no cell, every row has as many cells as its header", async () => {
          const p = await dom();
          // GFM drops cells beyond the header's count, so a split shows as a cell holding only part
          // of the hostile name: every cell with its start must hold all of it, as text.
          const cells = await p.$$eval("article td", (tds) => tds.map((td) => td.textContent ?? ""));
          const touched = cells.filter((c) => c.includes("x|y"));
          expect(touched.length).toBeGreaterThan(0);
          for (const c of touched) expect(c).toContain(CELL);
          const tables = await p.$$eval("article table", (ts) =>
            ts.map((t) => ({
              header: t.querySelectorAll("thead th").length,
              rows: [...t.querySelectorAll("tbody tr")].map((r) => r.children.length),
            })),
          );
          expect(tables.length).toBeGreaterThan(0);
          for (const t of tables) for (const n of t.rows) expect(n).toBe(t.header);
        });
      });
    }
  },
);
