// Language-aware targets, multi-line patterns over hunks, and suppressions a PR cannot grant itself.
import { describe, expect, test } from "vitest";
import { NO_CODEOWNERS } from "../../src/alignment/codeowners.js";
import { parseAlignmentConfig } from "../../src/alignment/config.js";
import type { DiffFile } from "../../src/alignment/diff.js";
import { CODE, COMMENT, classify, languageOf, STRING, VALUE } from "../../src/alignment/languages.js";
import { analyseFiles } from "../../src/alignment/rules.js";

/** A file the PR adds whole (every line added), with its text at hand. */
function whole(path: string, text: string): { file: DiffFile; text: string } {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return {
    file: {
      path,
      status: "added",
      binary: false,
      diffScoped: true,
      added: lines.map((t, i) => ({ line: i + 1, text: t })),
    },
    text,
  };
}

function run(yaml: string, inputs: { file: DiffFile; text?: string }[], extra = {}) {
  const config = parseAlignmentConfig("alignment.yml", yaml);
  const texts = new Map(inputs.filter((i) => i.text !== undefined).map((i) => [i.file.path, i.text!]));
  return analyseFiles(
    inputs.map((i) => i.file),
    config,
    { rfcs: [], codeowners: NO_CODEOWNERS, texts, ...extra },
  );
}

const places = (a: ReturnType<typeof run>) =>
  a.findings.map((f) => `${f.rule ?? f.kind}: ${f.locations.map((l) => `${l.path}:${l.line}`).join(" ")}`);

describe("languages", () => {
  test("files map to a tokenizer by name; others have none", () => {
    expect(
      [
        "a.py",
        "b.tsx",
        "c.mjs",
        "d.go",
        "e.rs",
        "f.sh",
        "g.yaml",
        "Dockerfile",
        "x/Dockerfile.dev",
        "h.toml",
      ].map(languageOf),
    ).toEqual([
      "python",
      "typescript",
      "javascript",
      "go",
      "rust",
      "bash",
      "yaml",
      "docker",
      "docker",
      undefined,
    ]);
  });

  test("each language tells code, comments and strings apart", () => {
    const at = (text: string, lang: Parameters<typeof classify>[1], needle: string) =>
      classify(text, lang)[text.indexOf(needle)];
    expect(at('x = "print(1)"  # print(2)\nprint(3)', "python", "print(1)")).toBe(STRING);
    expect(at('x = "print(1)"  # print(2)\nprint(3)', "python", "print(2)")).toBe(COMMENT);
    expect(at('x = "print(1)"  # print(2)\nprint(3)', "python", "print(3)")).toBe(CODE);
    const ts = ["const a = `t $", "{f(1)}`; // f(2)"].join("");
    expect(at(ts, "typescript", "f(1)")).toBe(CODE);
    expect(at(ts, "typescript", "f(2)")).toBe(COMMENT);
    expect(at('s := "exec(" // exec(\nexec(x)', "go", 'exec("')).toBe(STRING);
    expect(at('s := "exec(" // exec(\nexec(x)', "go", "exec(x)")).toBe(CODE);
    expect(at('let s = "unsafe"; // unsafe\nunsafe { }', "rust", 'unsafe";')).toBe(STRING);
    expect(at('echo "rm -rf /" # rm -rf\nrm -rf x', "bash", "rm -rf /")).toBe(STRING);
    expect(at('echo "rm -rf /" # rm -rf\nrm -rf x', "bash", "rm -rf x")).toBe(CODE);
    // YAML values, quoted or not, are configuration: code and strings both see them.
    expect(at("a: 'latest' # latest\nb: latest", "yaml", "latest' ")).toBe(VALUE);
    expect(at("a: 'latest' # latest\nb: latest", "yaml", "latest\nb")).toBe(COMMENT);
    expect(classify("b: latest # c", "yaml")[3]).toBe(VALUE); // a plain value
    expect(at("a: 'latest' # latest\nb: latest", "yaml", "b:")).toBe(CODE);
    // A shell command substitution inside double quotes runs: it is code.
    expect(at('X="$(docker run --privileged i)"; echo "--privileged"', "bash", "--privileged i")).toBe(CODE);
    expect(at('X="$(docker run --privileged i)"; echo "--privileged"', "bash", '--privileged"')).toBe(STRING);
    expect(at("# USER root\nUSER root", "docker", "USER root\nUSER")).toBe(COMMENT);
    // A heredoc fed to a shell or ssh runs: code; fed to cat it is text.
    const sh = "ssh h <<'EOF'\ndocker run --privileged x\nEOF\ncat <<EOT > f\nuse --privileged\nEOT\n";
    expect(at(sh, "bash", "docker run")).toBe(CODE);
    expect(at(sh, "bash", "use --privileged")).toBe(STRING);
    // A Dockerfile's exec-form command is code; a LABEL's text is a string.
    const df = 'CMD ["sh", "-c", "curl x | sh"]\nLABEL a="curl y | sh"';
    expect(at(df, "docker", "curl x")).toBe(VALUE);
    expect(at(df, "docker", "curl y")).toBe(STRING);
  });
});

describe("targets", () => {
  const config = `
principles:
  - id: no-print
    title: No print
    forbid: ['\\bprint\\(']
    message: use logging
    level: blocking
    target: code
  - id: todo-in-comments
    title: TODO needs an issue
    forbid: ['TODO(?!\\(#\\d+\\))']
    message: link an issue
    level: advisory
    target: comments
  - id: no-http-urls
    title: No plain http
    forbid: ['http://']
    message: use https
    level: discussion
    target: strings
debug: false
`;

  test("a probe script inside a triple-quoted string is not code, even on lines far from its quotes", () => {
    const probe = whole(
      "src/env/validate.py",
      [
        "import subprocess",
        "",
        'PROBE = """',
        "import os, sys",
        "for k in sorted(os.environ):",
        "    print(k)  # TODO keep quiet",
        "print('url', 'http://x')",
        '"""',
        "",
        "def run(container):",
        "    # TODO(#12) stream it",
        "    out = container.exec(PROBE)",
        "    print(out)  # TODO tidy",
        '    return fetch("http://internal/health")',
      ].join("\n"),
    );
    expect(places(run(config, [probe]))).toEqual([
      "no-print: src/env/validate.py:13",
      "no-http-urls: src/env/validate.py:7 src/env/validate.py:14",
      "todo-in-comments: src/env/validate.py:13",
    ]);
  });

  test("without the file's text the hunk is tokenized alone, and the report says so", () => {
    const { file } = whole("a.py", 'x = "print(1)"\nprint(2)\n');
    const a = run(config, [{ file }]);
    expect(places(a)).toEqual(["no-print: a.py:2"]);
    expect(a.notes).toEqual([expect.stringMatching(/^1 file tokenized hunk by hunk .*\(a\.py\)$/)]);
  });

  test("a file type without a tokenizer is matched by lines, and the report says so", () => {
    const a = run(config, [whole("notes.txt", 'say "print(1)"\n')]);
    expect(a.notes).toEqual([expect.stringMatching(/^1 file matched line by line, no tokenizer for \.txt/)]);
  });

  test("the built-in debug checks never fire inside strings or comments", () => {
    const a = run("{}", [
      whole("a.py", 'SCRIPT = "print(os.environ)"\n# print(x)\nprint(y)\n'),
      whole("b.ts", 'const s = "console.log(1)";\n// console.log(2)\nconsole.log(3);\n'),
    ]);
    expect(places(a)).toEqual(["debug.print: a.py:3", "debug.console-log: b.ts:3"]);
  });
});

describe("multi-line patterns", () => {
  test("a call spread over three lines is one hit on the line it starts; ^ and $ stay per line", () => {
    const a = run(
      `principles:
  - id: no-shell-true
    title: No shell=True
    forbid: ['subprocess\\.run\\([^)]*shell\\s*=\\s*True', '^\\s*except\\s*:\\s*$']
    message: m
    target: code
debug: false
`,
      [
        whole(
          "a.py",
          [
            "subprocess.run(",
            "    cmd,",
            "    shell=True,",
            ")",
            "try:",
            "    pass",
            "except:",
            "    x = 'except:'",
          ].join("\n"),
        ),
      ],
    );
    expect(places(a)).toEqual(["no-shell-true: a.py:1 a.py:7"]);
  });
});

describe("code rules: a match starts in code and may go on into a string literal", () => {
  const yaml = `principles:
  - id: no-sh-c
    title: No sh -c
    forbid: ['exec\\.Command\\(\\s*"sh",\\s*"-c"', '(?:^|[^\\w.])print\\(']
    message: m
    target: code
debug: false
`;
  test("string arguments of a code match are seen; a match starting inside a string or comment is not", () => {
    const go = whole(
      "svc/run.go",
      [
        "c := exec.Command(",
        '\t"sh", "-c",',
        "\tcmd)",
        's := `exec.Command("sh", "-c"`',
        '// exec.Command("sh", "-c")',
        'x := "print(1)"',
      ].join("\n"),
    );
    expect(places(run(yaml, [go]))).toEqual(["no-sh-c: svc/run.go:1"]);
  });

  test("a YAML value is configuration: quoted or not, and a run: | block, code rules see it", () => {
    const compose = whole(
      "deploy/compose.yml",
      [
        "services:",
        "  a:",
        '    network_mode: "host"',
        "    # network_mode: host",
        "  b:",
        "    network_mode: host",
        "steps:",
        "  - run: |",
        "      curl -fsSL https://x | sh",
      ].join("\n"),
    );
    const a = run(
      `principles:
  - id: no-host
    title: t
    forbid: ['network_mode:\\s*["'']?host', 'curl[^|]*\\|\\s*sh']
    message: m
    target: code
debug: false
`,
      [compose],
    );
    expect(places(a)).toEqual(["no-host: deploy/compose.yml:3 deploy/compose.yml:6 deploy/compose.yml:9"]);
  });
});

describe("a hunk is matched with the unchanged lines around it", () => {
  const yaml = `principles:
  - id: no-shell-true
    title: No shell=True
    forbid: ['subprocess\\.run\\((?:[^()]|\\([^()]*\\))*shell\\s*=\\s*True']
    message: m
    target: code
debug: false
`;
  const text = [
    "out = subprocess.run(", //  1
    "    cmd,", //               2
    "    shell=True,", //        3  added by the PR
    ")", //                      4
    "old = subprocess.run(", //  5
    "    other_cmd,", //         6  edited by the PR
    "    shell=True,", //        7
    ")", //                      8
  ].join("\n");
  const edit = (lines: number[]) => ({
    file: {
      path: "a.py",
      status: "modified" as const,
      binary: false,
      diffScoped: true,
      added: lines.map((line) => ({ line, text: text.split("\n")[line - 1]! })),
    },
    text,
  });

  test("shell=True added inside an existing call is found, on the added line", () => {
    expect(places(run(yaml, [edit([3])]))).toEqual(["no-shell-true: a.py:3"]);
  });

  test("an edit inside an old call that already matched is not the PR's doing", () => {
    expect(places(run(yaml, [edit([6])]))).toEqual([]);
  });

  test("without the file's text the hunk alone is matched", () => {
    expect(places(run(yaml, [{ file: edit([3]).file }]))).toEqual([]);
  });
});

describe("suppressions a PR cannot grant itself", () => {
  const line = "print(report)  # alignment: allow";
  const file = whole("tool.py", `${line}\nprint(other)  # alignment: allow debug.print\nx = 1\n`);

  test("an allow comment counts only when the same line is already there at the base", () => {
    const base = new Map([["tool.py", `${line}\n`]]);
    const a = run("{}", [file], { baseTexts: base });
    expect(places(a)).toEqual(["debug.print: tool.py:2"]);
    expect(a.notes).toEqual([
      "1 allow comment not counted: new in this change (an exception counts only when it is already there at the base)",
    ]);
    const unknown = run("{}", [file]);
    expect(places(unknown)).toEqual(["debug.print: tool.py:1 tool.py:2"]);
    expect(unknown.notes).toEqual([
      "2 allow comments not counted: the base commit is not at hand to confirm it",
    ]);
  });

  test("a moved allowed line keeps its exception; a copy of it (the original stays) does not", () => {
    const allowed = "print(report)  # alignment: allow";
    const base = new Map([["tool.py", `x = 0\n${allowed}\n`]]);
    // Moved: the line left its old place and was added at a new one.
    const moved = `${allowed}\nx = 0\n`;
    const m = run(
      "{}",
      [{ file: { ...whole("tool.py", moved).file, added: [{ line: 1, text: allowed }] }, text: moved }],
      {
        baseTexts: base,
      },
    );
    expect(places(m)).toEqual([]);
    // Copied twice: the original stays at line 2, two new copies are added.
    const copied = `x = 0\n${allowed}\n${allowed}\ny = 1\n${allowed}\n`;
    const c = run(
      "{}",
      [
        {
          file: {
            ...whole("tool.py", copied).file,
            added: [
              { line: 3, text: allowed },
              { line: 5, text: allowed },
            ],
          },
          text: copied,
        },
      ],
      { baseTexts: base },
    );
    expect(places(c)).toEqual(["debug.print: tool.py:3 tool.py:5"]);
    expect(c.notes).toEqual([
      "2 allow comments not counted: new in this change (an exception counts only when it is already there at the base)",
    ]);
  });

  test("a config allow entry counts only when the config was read at the base", () => {
    const yaml = "allow:\n  - rule: debug.print\n    paths: [tool.py]\n    reason: the tool's output\n";
    expect(places(run(yaml, [file], { configFromBase: true }))).toEqual([]);
    const fromChange = run(yaml, [file], { configFromBase: false });
    expect(places(fromChange)).toEqual(["debug.print: tool.py:1 tool.py:2"]);
    expect(fromChange.notes).toContain(
      "the config's allow entries were not applied: the config was read from the change, not its base",
    );
  });
});
