// Log patterns come from the pull request's inventory and are matched against what the subject
// prints: both sides are the adversary's. A backtracking engine (JavaScript's RegExp) can spend
// minutes on one line (`^(a|aa)+$`), blocking the one thread that also handles time-outs and
// SIGTERM, so every inventory pattern runs on RE2 (re2js, a pure-JavaScript port: no native
// addon in the bundle), whose matching is linear in the line's length. It is loaded only when an
// inventory declares a pattern: most runs never pay its start-up.

/** Longest pattern accepted (characters): RE2's compiled program grows with it. */
export const PATTERN_MAX_CHARS = 1000;

/** A compiled pattern: linear-time `test` of one line. */
export interface LinePattern {
  source: string;
  test(line: string): boolean;
}

type Re2 = typeof import("re2js");
let re2: Promise<Re2> | undefined;

function loadRe2(): Promise<Re2> {
  re2 ??= import("re2js");
  return re2;
}

/** Compiles a JavaScript-syntax pattern for RE2; throws an Error saying what RE2 cannot run. */
export async function compileLinePattern(source: string): Promise<LinePattern> {
  const problem = patternLengthProblem(source);
  if (problem) throw new Error(problem);
  const { RE2JS } = await loadRe2();
  let compiled: InstanceType<Re2["RE2JS"]>;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (err) {
    throw new Error(re2Message(err));
  }
  return { source, test: (line) => compiled.test(line) };
}

/** Why `source` cannot be a pattern, or undefined; the message a ConfigError carries. */
export async function patternProblem(source: string): Promise<string | undefined> {
  try {
    await compileLinePattern(source);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function patternLengthProblem(source: string): string | undefined {
  return source.length > PATTERN_MAX_CHARS
    ? `is ${source.length} characters long; at most ${PATTERN_MAX_CHARS} are accepted`
    : undefined;
}

/** RE2's refusals in a person's words: what it lacks is backreferences and lookaround. */
function re2Message(err: unknown): string {
  const text = (err as Error).message.replace(/^error parsing regexp: /, "");
  if (/unsupported Perl syntax: `\(\?[=!<]/.test(text) || /invalid escape sequence: `\\[1-9k]/.test(text)) {
    return `uses a lookaround or a backreference (${text}), which a linear-time matcher cannot run`;
  }
  return `not a valid regular expression: ${text}`;
}
