import { describe, expect, test } from "vitest";
import { defaultAlignmentConfig } from "../../src/alignment/config.js";
import { isOpenStatus, parseRfc, withConfig } from "../../src/alignment/rfcs.js";

describe("parseRfc reads the header variants real repositories use", () => {
  test("**Status**: with bold keys, authors with handles, Affects in backticks", () => {
    const text = [
      "# RFC 001: Engine providers",
      "",
      "**Status**: In Review",
      "**Authors**: Jane Doe (@jdoe), @bob",
      "**Affects**: `src/engine/**`, src/suites/**",
      "",
      "## Summary",
      "Status: not a header field down here",
    ].join("\n");
    expect(parseRfc("rfcs/001-engine.md", text)).toEqual({
      file: "rfcs/001-engine.md",
      number: "1",
      numberLine: 1,
      title: "Engine providers",
      status: "In Review",
      authors: ["@jdoe", "@bob"],
      affects: ["src/engine/**", "src/suites/**"],
      affectsFrom: "header",
    });
  });

  test("**Status:** Draft with an Affects bullet list; number from the file name", () => {
    const text =
      "# Better reports\n\n**Status:** Draft\n**Author:** Carol\n**Affects:**\n- src/report/**\n- docs/report.md\n\n## Motivation\n";
    const r = parseRfc("rfcs/0002-better-reports.md", text);
    expect(r).toMatchObject({ number: "2", title: "Better reports", status: "Draft", authors: ["Carol"] });
    expect(r.numberLine).toBeUndefined();
    expect(r.affects).toEqual(["src/report/**", "docs/report.md"]);
  });

  test("Status: on one line with other fields", () => {
    const r = parseRfc(
      "rfcs/0003-sharding.md",
      "# RFC-0003 Sharding\n\nStatus: Accepted | Author: @dave | Created: 2024-01-02\n",
    );
    expect(r).toMatchObject({
      number: "3",
      title: "Sharding",
      status: "Accepted",
      authors: ["@dave"],
      affects: [],
    });
    const spaced = parseRfc(
      "rfcs/0008-x.md",
      "# X\nStatus: Accepted (2024-03-01) Author: Ivan Created: 2024\n",
    );
    expect(spaced).toMatchObject({ status: "Accepted", authors: ["Ivan"] });
  });

  test("YAML front matter wins, including its number line", () => {
    const text =
      '---\nrfc: 4\ntitle: Kubernetes provider\nstatus: In Review\nauthors: [ "@erin", "Frank" ]\naffects:\n  - src/k8s/**\n---\n\n# Something else\n';
    expect(parseRfc("rfcs/k8s.md", text)).toMatchObject({
      number: "4",
      numberLine: 2,
      title: "Kubernetes provider",
      status: "In Review",
      authors: ["@erin", "Frank"],
      affects: ["src/k8s/**"],
      affectsFrom: "front-matter",
    });
  });

  test("missing header: number from the file name, title from the heading, status Unknown; prose is not a field", () => {
    expect(parseRfc("rfcs/0005-idea.md", "# Just an idea\n\nSome prose. the status: unclear.\n")).toEqual({
      file: "rfcs/0005-idea.md",
      number: "5",
      title: "Just an idea",
      status: "Unknown",
      authors: [],
      affects: [],
      affectsFrom: "none",
    });
  });

  test("tables and folder-per-RFC layouts", () => {
    const table = parseRfc(
      "rfcs/0006.md",
      "# RFC 6\n\n| Field | Value |\n|---|---|\n| Status | In review |\n| Authors | @gina |\n",
    );
    expect(table).toMatchObject({ number: "6", title: "RFC 6", status: "In review", authors: ["@gina"] });
    const folder = parseRfc("rfcs/0007-tables/README.md", "- **Status:** Draft · **Authors:** @hank\n");
    expect(folder).toMatchObject({ number: "7", title: "0007-tables", status: "Draft", authors: ["@hank"] });
  });
});

describe("open statuses and the config map", () => {
  test("Draft and In Review are open by default, whatever the spelling", () => {
    const open = defaultAlignmentConfig().rfcs.open;
    expect(["Draft", "in review", "In-Review", "IN_REVIEW"].map((s) => isOpenStatus(s, open))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["Accepted", "Rejected", "Unknown", "Reviewed"].map((s) => isOpenStatus(s, open))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  test("an RFC without Affects takes its paths from rfcs.map; one with Affects keeps its own", () => {
    const config = defaultAlignmentConfig();
    config.rfcs.map = { "0003": ["src/shard/**"], "1": ["ignored/**"] };
    const mapped = withConfig(parseRfc("rfcs/0003-s.md", "# S\n**Status**: Draft\n"), config);
    expect(mapped).toMatchObject({ affects: ["src/shard/**"], affectsFrom: "map", open: true });
    const own = withConfig(
      parseRfc("rfcs/0001-e.md", "# E\n**Status**: Accepted\n**Affects**: src/e/**\n"),
      config,
    );
    expect(own).toMatchObject({ affects: ["src/e/**"], affectsFrom: "header", open: false });
  });
});
