// The shape of one entry of the option table (options.ts): its action input, its CLI flag, its
// kind, its help and what it parses to. A layer of its own below the publishers and the engine, so
// a publisher (src/github/publishers/) declares the options it owns in its own module and the
// request gathers them: one place per option, wherever its owner lives.

/** The CLI's commands (src/cli/commands.ts says what each does and which positionals it takes). */
export const COMMANDS = [
  "init",
  "run",
  "check",
  "verify",
  "merge",
  "sweep",
  "publish",
  "align",
  "pin",
  "schema",
] as const;
export type Command = (typeof COMMANDS)[number];

export type Kind =
  | { kind: "string" }
  | { kind: "list" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "enum-list"; values: readonly string[] }
  | { kind: "boolean" }
  /** A CLI flag without a value (`--stale`): true when given. */
  | { kind: "switch" }
  /** An age such as 30m, 6h or 2d, in milliseconds. */
  | { kind: "duration" }
  | { kind: "int"; min: number; max?: number }
  | { kind: "shard" }
  | { kind: "path-list" }
  | { kind: "capability-list" };

export type RequestOption = Kind & {
  /** The action input (action.yml); absent: a CLI flag only. */
  input?: string;
  /**
   * The input's description in action.yml (and so in the README's inputs table), both generated
   * from it by `npm run docs`. Every option with an input has one.
   */
  description?: string;
  /** The CLI flag and the commands that take it; absent: an action input only. */
  flag?: string;
  /** The flag's one-letter form (`-q`). */
  short?: string;
  commands?: readonly Command[];
  /** What the flag's value is, in usage lines (`--out DIR`); enums show their values instead. */
  arg?: string;
  /** Commands that cannot run without the flag (shown without brackets in the usage line). */
  requiredBy?: readonly Command[];
  /** The value when the input is empty or the flag absent (the action's declared default). */
  default?: string;
  /** action.yml's default where the runner fills it in (`${{ github.token }}`); else `default`. */
  actionDefault?: string;
  help: string;
  /** How a wrong value is described when the generic wording reads worse. */
  problem?: string;
};

/** Options keyed by their field in the parsed request. */
export type OptionTable = Record<string, RequestOption>;

/** What each kind of option parses to (a string option not given is ""). */
export type ValueOf<O> = O extends { kind: "enum"; values: readonly (infer V)[] }
  ? O extends { default: string }
    ? V
    : V | undefined
  : O extends { kind: "enum-list"; values: readonly (infer V)[] }
    ? V[]
    : O extends { kind: "list" | "path-list" | "capability-list" }
      ? string[]
      : O extends { kind: "boolean" | "switch" }
        ? boolean
        : O extends { kind: "int" }
          ? O extends { default: string }
            ? number
            : number | undefined
          : O extends { kind: "duration" }
            ? number
            : O extends { kind: "shard" }
              ? { index: number; total: number } | undefined
              : string;

/** The parsed values of a table's options, typed by each option's kind. */
export type ValuesOf<T> = { -readonly [K in keyof T]: ValueOf<T[K]> };
