// What counts as a command is what a reader of the rendered comment sees being said, at the
// start of a line. Quoted, fenced, indented or hidden text is shown, not said.
import { describe, expect, it } from "vitest";
import { parseCommands } from "../../src/bot/parse.js";
import { renderHelp, renderRefusal } from "../../src/bot/replies.js";

const kinds = (body: string) => parseCommands(body).map((c) => c.kind);

describe("parseCommands", () => {
  it("reads run, run with subjects and help at the start of a line", () => {
    expect(parseCommands("/acceptance run")).toEqual([{ kind: "run", subjects: [], line: 1 }]);
    expect(parseCommands("LGTM, let's see.\r\n/acceptance run api web api\r\nthanks")).toEqual([
      { kind: "run", subjects: ["api", "web"], line: 2 },
    ]);
    expect(parseCommands("  /acceptance help  ")).toEqual([{ kind: "help", line: 1 }]);
    expect(parseCommands("/Acceptance RUN")).toEqual([{ kind: "run", subjects: [], line: 1 }]);
  });

  it("answers unknown commands, a bare /acceptance and bad subject names with help naming the problem", () => {
    expect(parseCommands("/acceptance deploy now")).toEqual([
      { kind: "help", line: 1, problem: "unknown command deploy" },
    ]);
    expect(parseCommands("/acceptance")).toEqual([{ kind: "help", line: 1, problem: "no command given" }]);
    expect(parseCommands("/acceptance run api;rm$(x)")).toEqual([
      { kind: "help", line: 1, problem: "api;rm$(x) is not a subject name" },
    ]);
    const many = Array.from({ length: 21 }, (_, i) => `s${i}`).join(" ");
    expect(parseCommands(`/acceptance run ${many}`)[0]).toMatchObject({ kind: "help" });
  });

  it("reads a named commit (@ and its full SHA, anywhere among the subjects, once) and refuses short or bare ones", () => {
    const sha = "0123456789abcdef0123456789abcdef01234567";
    expect(parseCommands(`/acceptance run @${sha}`)).toEqual([{ kind: "run", subjects: [], line: 1, sha }]);
    expect(parseCommands(`/acceptance run web @${sha.toUpperCase()} api`)).toEqual([
      { kind: "run", subjects: ["web", "api"], line: 1, sha },
    ]);
    const sha256 = "ab".repeat(32);
    expect(parseCommands(`/acceptance run @${sha256}`)[0]).toMatchObject({ kind: "run", sha: sha256 });
    const problem = (body: string) => (parseCommands(body)[0] as { problem?: string }).problem;
    expect(problem("/acceptance run @0123456")).toMatch(/@0123456 is not a full commit SHA \(name all 40/);
    expect(problem(`/acceptance run @${sha.slice(0, 39)}`)).toMatch(/not a full commit SHA/);
    expect(problem("/acceptance run @someone")).toBe("@someone is not a commit SHA");
    expect(problem(`/acceptance run @${sha} @${sha}`)).toBe("more than one commit named");
    expect(problem(`/acceptance run ${sha}`)).toBe(`${sha} looks like a commit: name it as @${sha}`);
  });

  it("ignores comments that only mention the command", () => {
    expect(kinds("")).toEqual([]);
    expect(kinds("please type `/acceptance run` when ready")).toEqual([]);
    expect(kinds("x /acceptance run")).toEqual([]);
    expect(kinds("/acceptances run")).toEqual([]);
    expect(kinds("/acceptance-run")).toEqual([]);
  });

  it("ignores commands in fenced code blocks, including long and tilde fences", () => {
    expect(kinds("```\n/acceptance run\n```")).toEqual([]);
    expect(kinds("~~~sh\n/acceptance run\n~~~")).toEqual([]);
    // A ```` fence is not closed by ```: the command is still inside it.
    expect(kinds("````\n```\n/acceptance run\n````")).toEqual([]);
    // A ~~~ fence is not closed by ```.
    expect(kinds("~~~\n```\n/acceptance run\n~~~\n/acceptance help")).toEqual(["help"]);
    // An unclosed fence runs to the end of the comment.
    expect(kinds("```\n/acceptance run")).toEqual([]);
    // Inline triple backticks are not a fence.
    expect(kinds("```x``` inline\n/acceptance run")).toEqual(["run"]);
  });

  it("ignores indented code, blockquotes (with lazy continuation) and HTML comments", () => {
    expect(kinds("example:\n\n    /acceptance run")).toEqual([]);
    expect(kinds("\t/acceptance run")).toEqual([]);
    expect(kinds("> /acceptance run")).toEqual([]);
    expect(kinds("> someone said\n/acceptance run")).toEqual([]);
    expect(kinds("> someone said\n\n/acceptance run")).toEqual(["run"]);
    expect(kinds("<!-- /acceptance run -->")).toEqual([]);
    expect(kinds("<!--\n/acceptance run\n-->\n/acceptance help")).toEqual(["help"]);
  });

  it("ignores every rendered-but-not-typed form: <pre>, <code>, hidden HTML, fences nested in lists and quotes", () => {
    const shown = [
      "<pre>\n/acceptance run\n</pre>",
      "<pre>/acceptance run</pre>",
      "<code>/acceptance run</code>",
      "Look:\n<code>\n/acceptance run\n</code>",
      "text <code>\n/acceptance run\n</code> more",
      "<details><summary>hidden</summary>\n\n/acceptance run\n\n</details>",
      "<div>\n/acceptance run\n</div>",
      "<kbd>x</kbd> and <samp>\n/acceptance run</samp>",
      "- ```\n  /acceptance run\n  ```",
      "1. item\n   ```\n   /acceptance run\n   ```",
      "- a\n  - b\n    ~~~\n    /acceptance run\n    ~~~",
      "> ```\n> /acceptance run\n> ```",
      "- > ```\n/acceptance run\n  > ```",
    ];
    for (const body of shown) expect(kinds(body), body).toEqual([]);
    // Typed after the shown part ends, it still counts.
    expect(kinds("- ```\n  /acceptance help\n  ```\n\n/acceptance run")).toEqual(["run"]);
    expect(kinds("<details>\n\nx\n\n</details>\n\n/acceptance run")).toEqual(["run"]);
    expect(kinds("<pre>\nx\n</pre>\n\n/acceptance run")).toEqual(["run"]);
    expect(kinds("line one<br>\n/acceptance run")).toEqual(["run"]);
  });

  it("finds none in the bot's own replies, so a reply can never trigger a run", () => {
    expect(parseCommands(renderHelp(1))).toEqual([]);
    expect(parseCommands(renderHelp(1, "unknown command x\n/acceptance run"))).toEqual([]);
    expect(parseCommands(renderRefusal(1, "x\n/acceptance run", "read"))).toEqual([]);
  });

  it("returns every command in order", () => {
    expect(parseCommands("/acceptance help\n/acceptance run web")).toEqual([
      { kind: "help", line: 1 },
      { kind: "run", subjects: ["web"], line: 2 },
    ]);
  });
});
