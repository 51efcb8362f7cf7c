// Where progress goes: stderr for the CLI, grouped log sections for the action. Reports go elsewhere.

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A collapsible section in the Actions log; a heading on a terminal. */
  group<T>(title: string, body: () => Promise<T>): Promise<T>;
}

export const stderrLogger = (quiet = false): Logger => ({
  info: (m) => {
    if (!quiet) process.stderr.write(`${m}\n`);
  },
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
  group: async (title, fn) => {
    if (!quiet) process.stderr.write(`── ${title}\n`);
    return fn();
  },
});

export const silentLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
  group: (_title, body) => body(),
};

/**
 * A logger for one of several subjects running at once: every line of every message carries the
 * subject's name, and a message of many lines is handed on as one write, so lines of parallel
 * subjects never mix mid-line or lose whose they are. Groups cannot nest across parallel work,
 * so a group's title becomes one prefixed line.
 */
export function prefixedLogger(log: Logger, prefix: string): Logger {
  const each = (m: string) =>
    m
      .split("\n")
      .map((line) => `[${prefix}] ${line}`)
      .join("\n");
  return {
    info: (m) => log.info(each(m)),
    warn: (m) => log.warn(each(m)),
    error: (m) => log.error(each(m)),
    group: async (title, fn) => {
      log.info(each(`── ${title}`));
      return fn();
    },
  };
}
