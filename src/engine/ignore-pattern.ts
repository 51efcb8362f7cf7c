// One .dockerignore pattern, read as Docker reads it (moby/patternmatcher): `*` is any run of
// characters but "/", `?` one such character, `**` any number of directories (`(.*/)?`, or
// everything when it ends the pattern), `[...]` a class as Go's filepath.Match reads one, `\` makes
// the next character literal, and every other character is itself (no braces, no extglobs).
//
// The pattern and the names it is tested on are both the pull request's. Docker runs them on Go's
// linear-time regexp; a backtracking matcher (JavaScript's RegExp, which picomatch compiles to)
// spends minutes on `*a*a*a*a*b` against one long name, synchronously, so no time-out or SIGTERM
// could end it. This is a state-set simulation instead: every test is linear in the name's length
// times the pattern's.

/** Longest .dockerignore pattern accepted (characters): each is a cost per file of the context. */
const IGNORE_PATTERN_MAX_CHARS = 1000;

type Test = (c: string) => boolean;

/** A state consumes one character on each step whose test holds; `eps` are free moves. */
interface State {
  eps: number[];
  steps: { test: Test; to: number }[];
}

const ANY: Test = () => true;
const NOT_SLASH: Test = (c) => c !== "/";
const SLASH: Test = (c) => c === "/";

/**
 * What all of one context's tests may cost together, in states visited: linear per test is not
 * enough when the pull request also picks the number of patterns, of files and the length of
 * their paths. 500 million is under a minute of the one thread at worst (about 12 million a
 * second); ten `**\/*.log`-like patterns over 100,000 files of 40-character paths use a third.
 */
export class MatchBudget {
  constructor(public left = 500_000_000) {}
}

/** Thrown when a context's patterns have spent their MatchBudget. */
export class MatchBudgetSpent extends Error {
  override name = "MatchBudgetSpent";
}

export type IgnoreMatcher = (name: string, budget: MatchBudget) => boolean;

/** Compiles a cleaned pattern; throws an Error saying what is wrong with it (Docker refuses it too). */
export function compileIgnorePattern(pattern: string): IgnoreMatcher {
  if (pattern.length > IGNORE_PATTERN_MAX_CHARS) {
    throw new Error(`is ${pattern.length} characters long; at most ${IGNORE_PATTERN_MAX_CHARS} are accepted`);
  }
  const machine = new Machine(compile([...pattern]));
  return (name, budget) => machine.matches(name, budget);
}

function compile(chars: string[]): State[] {
  const states: State[] = [];
  const add = (): State => {
    const s: State = { eps: [], steps: [] };
    states.push(s);
    return s;
  };
  let i = 0;
  while (i < chars.length) {
    const c = chars[i++]!;
    const at = states.length;
    if (c === "*" && chars[i] === "*") {
      i++;
      if (chars[i] === "/") i++;
      if (i === chars.length) {
        add().steps.push({ test: ANY, to: at }); // everything below
        states[at]!.eps.push(at + 1);
      } else {
        // `(.*/)?`: nothing, or any text that ends with a "/".
        const entry = add();
        const body = add();
        entry.eps.push(at + 2, at + 1);
        body.steps.push({ test: ANY, to: at + 1 }, { test: SLASH, to: at + 2 });
      }
    } else if (c === "*") {
      const s = add();
      s.eps.push(at + 1);
      s.steps.push({ test: NOT_SLASH, to: at });
    } else if (c === "?") {
      add().steps.push({ test: NOT_SLASH, to: at + 1 });
    } else if (c === "[") {
      const [test, next] = characterClass(chars, i);
      add().steps.push({ test, to: at + 1 });
      i = next;
    } else {
      const literal = c === "\\" && i < chars.length ? chars[i++]! : c;
      add().steps.push({ test: (x) => x === literal, to: at + 1 });
    }
  }
  add(); // the accepting state
  return states;
}

/**
 * A class from just after its "[": `^` negates, then ranges `a` or `a-z` (each end may be a
 * `\`-escaped character) up to the "]" that closes it. The test and the index after the "]".
 */
function characterClass(chars: string[], from: number): [Test, number] {
  let i = from;
  const negated = chars[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  const end = (): string => {
    let c = chars[i];
    if (c === undefined || c === "-" || c === "]")
      throw new Error("has an unfinished character class ([...])");
    if (c === "\\") c = chars[++i];
    if (c === undefined) throw new Error("has an unfinished character class ([...])");
    i++;
    return c;
  };
  while (!(chars[i] === "]" && ranges.length > 0)) {
    const lo = end();
    const dash = chars[i] === "-";
    if (dash) i++;
    ranges.push([lo, dash ? end() : lo]);
  }
  const inClass = (c: string) => ranges.some(([lo, hi]) => lo <= c && c <= hi);
  // Docker hands the class to Go's regexp unchanged, where `[^a]` also matches "/".
  return [(c) => inClass(c) !== negated, i + 1];
}

/** The states, each with its free moves already followed, and reusable sets for one test at a time. */
class Machine {
  private readonly closures: number[][];
  private readonly accept: number;
  private current: Int32Array;
  private next: Int32Array;
  private readonly stamp: Int32Array;
  /** Which set a state was last entered into: a new number for each set, so none is cleared. */
  private generation = 0;

  constructor(private readonly states: State[]) {
    this.closures = states.map((_, s) => closure(states, s));
    this.accept = states.length - 1;
    this.current = new Int32Array(states.length);
    this.next = new Int32Array(states.length);
    this.stamp = new Int32Array(states.length);
  }

  matches(name: string, budget: MatchBudget): boolean {
    this.generation++;
    let size = this.enter(this.current, 0, this.closures[0]!);
    for (const c of name) {
      budget.left -= size;
      if (budget.left < 0) throw new MatchBudgetSpent("the .dockerignore's patterns cost too much to apply");
      this.generation++;
      let nextSize = 0;
      for (let k = 0; k < size; k++) {
        for (const step of this.states[this.current[k]!]!.steps) {
          if (step.test(c)) nextSize = this.enter(this.next, nextSize, this.closures[step.to]!);
        }
      }
      if (nextSize === 0) return false;
      [this.current, this.next] = [this.next, this.current];
      size = nextSize;
    }
    for (let k = 0; k < size; k++) if (this.current[k] === this.accept) return true;
    return false;
  }

  /** Adds each state of `states` not yet in this step's set; the set's new size. */
  private enter(set: Int32Array, size: number, states: number[]): number {
    let n = size;
    for (const s of states) {
      if (this.stamp[s] === this.generation) continue;
      this.stamp[s] = this.generation;
      set[n++] = s;
    }
    return n;
  }
}

/** The states reachable from `from` by free moves, `from` included. */
function closure(states: State[], from: number): number[] {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    stack.push(...states[s]!.eps);
  }
  return [...seen];
}
