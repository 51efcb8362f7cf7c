// Untrusted text in the Actions log can never issue a workflow command. The runner's rule
// (actions/runner, ActionCommand.TryParseV2 and TryParse): a line is a command when, after
// .NET's TrimStart (Char.IsWhiteSpace, which includes U+0085 where JavaScript's \s does not), it
// starts with `::name` and has a second `::`; or when `##[name` appears anywhere in it.
import { describe, expect, it } from "vitest";
import { actionsLogger, caseLine, logSafe, resultGroups } from "../../src/action/log.js";
import { makeCase, makeReport } from "../report/fixtures.js";

const REGISTERED = [
  "add-mask",
  "add-path",
  "set-env",
  "set-output",
  "save-state",
  "debug",
  "error",
  "warning",
  "notice",
  "group",
  "endgroup",
  "echo",
  "stop-commands",
  "add-matcher",
  "remove-matcher",
];
// Char.IsWhiteSpace: U+0009-U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028,
// U+2029, U+202F, U+205F, U+3000.
const DOTNET_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** The commands the runner would run from this output (it reads lines split at \n, \r, \r\n). */
function runnerCommands(output: string): string[] {
  const found: string[] = [];
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const line = raw.replace(DOTNET_SPACE, "");
    if (line.startsWith("::")) {
      const end = line.indexOf("::", 2);
      const name = end < 0 ? "" : line.slice(2, end).split(" ")[0]!;
      if (REGISTERED.includes(name)) found.push(`v2 ${name}`);
    }
    const v1 = raw.indexOf("##[");
    if (v1 >= 0) {
      const rb = raw.indexOf("]", v1);
      const name = rb < 0 ? "" : raw.slice(v1 + 3, rb).split(" ")[0]!;
      if (REGISTERED.includes(name)) found.push(`v1 ${name}`);
    }
  }
  return found;
}

const HOSTILE = [
  "::add-mask::FAIL",
  "  ::error file=Dockerfile,line=1::forged",
  "x\n::stop-commands::pwned",
  "x\n\u0085::add-mask::FAIL",
  "\u0085::set-output name=verdict::pass",
  "x\r\u00a0\u3000::warning::forged",
  "\u2028::notice::forged",
  "x\r\n\t::save-state name=check-run::{}",
  "text ##[error]forged",
  "\u0085\u0085::group::forged",
];

describe("workflow commands in untrusted text", () => {
  it("the runner-faithful parser sees the attacks as commands (the test can fail)", () => {
    for (const h of HOSTILE) expect(runnerCommands(h), JSON.stringify(h)).not.toEqual([]);
  });

  it("logSafe leaves none of them a command, whatever whitespace the runner trims", () => {
    for (const h of HOSTILE) expect(runnerCommands(logSafe(h)), JSON.stringify(h)).toEqual([]);
  });

  it("nor does any line the action prints for a case, its group or its fix", () => {
    for (const h of HOSTILE) {
      const c = makeCase({
        id: "containment.user",
        status: "fail",
        message: h,
        remediation: h,
        subject: "web",
      });
      const groups = resultGroups(makeReport({ cases: [c] }));
      const printed = [caseLine(c), ...groups.flatMap((g) => [g.title, ...g.lines])].join("\n");
      expect(runnerCommands(printed), JSON.stringify(h)).toEqual([]);
    }
  });

  it("nor the live log lines (the pipeline's logger), as the runner reads stdout", () => {
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      // A readiness path from the PR's inventory, printed while waiting.
      for (const h of HOSTILE) actionsLogger.info(`  ready: still waiting until GET /${h} answers 200`);
    } finally {
      process.stdout.write = write;
    }
    expect(written.length).toBe(HOSTILE.length);
    expect(runnerCommands(written.join(""))).toEqual([]);
  });
});
