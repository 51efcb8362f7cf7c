// Docker's legacy builder labels only a build's last image: the Dockerfile it is sent opens every
// stage with our labels (src/engine/providers/docker/stage-labels.ts). What the rewrite may and may
// not touch: each FROM, wherever its continuation lines end, and nothing else.
import { describe, expect, it } from "vitest";
import { parseDockerfile } from "../../src/engine/dockerfile.js";
import { withStageLabels } from "../../src/engine/providers/docker/stage-labels.js";

const LABELS = { "org.docker-acceptance.owner": "da-0123abcd", "org.docker-acceptance.subject": "web.api_1" };
const LABEL = "LABEL org.docker-acceptance.owner=da-0123abcd org.docker-acceptance.subject=web.api_1";

/** The rewritten text with our LABEL lines taken out again. */
const without = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== LABEL)
    .join("\n");

describe("every stage labelled", () => {
  it("puts the labels right after each FROM, past its continuation lines and comments", () => {
    const text = [
      "# syntax=docker/dockerfile:1",
      "ARG BASE=busybox",
      "FROM --platform=linux/amd64 \\",
      "  # a comment inside the continuation",
      "  ${BASE} AS build",
      "RUN echo FROM not-an-instruction \\",
      "FROM is-a-word-here",
      "from busybox",
      "COPY --from=build /x /x",
    ].join("\n");
    const out = withStageLabels(text, LABELS)!;
    expect(out.name).toMatch(/^\.dockerfile\.[0-9a-f]{20}$/);
    expect(without(out.text)).toBe(text);
    const parsed = parseDockerfile(out.text).instructions;
    const after = (i: number) => parsed[i + 1]?.text;
    const froms = parsed.flatMap((ins, i) => (/^FROM\s/i.test(ins.text) ? [i] : []));
    expect(froms).toHaveLength(2);
    for (const i of froms) expect(after(i)).toBe(LABEL);
    expect(out.text.split("\n")[5]).toBe(LABEL);
  });

  it("reads continuation lines by the escape directive's character", () => {
    const text = "# escape=`\nFROM busybox `\n  AS one\nRUN dir c:\\\nFROM one\n";
    const out = withStageLabels(text, LABELS)!;
    expect(out.text).toBe(
      `# escape=\`\nFROM busybox \`\n  AS one\n${LABEL}\nRUN dir c:\\\nFROM one\n${LABEL}\n`,
    );
  });

  it("keeps a CRLF file's lines as they were", () => {
    const text = "FROM busybox\r\nRUN true\r\n";
    expect(withStageLabels(text, LABELS)!.text).toBe(`FROM busybox\r\n${LABEL}\nRUN true\r\n`);
  });

  it("writes nothing it would have to quote, and nothing for a Dockerfile without a FROM", () => {
    expect(withStageLabels("FROM busybox\n", { k: "two words" })).toBeUndefined();
    expect(withStageLabels("FROM busybox\n", { 'k"': "v" })).toBeUndefined();
    expect(withStageLabels("FROM busybox\n", {})).toBeUndefined();
    expect(withStageLabels("RUN true\n", LABELS)).toBeUndefined();
  });

  it("labels a file of FROMs on every line in one pass (the pull request writes it)", () => {
    const text = "FROM busybox\n".repeat(100_000);
    const out = withStageLabels(text, LABELS)!.text.split("\n");
    expect(out).toHaveLength(200_001);
    expect(out.filter((l) => l === LABEL)).toHaveLength(100_000);
  });
});
