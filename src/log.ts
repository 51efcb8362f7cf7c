// Where progress goes: stderr for the CLI, grouped log sections for the action. Reports go elsewhere.

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A collapsible section in the Actions log; a heading on a terminal. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
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
  group: (_t, fn) => fn(),
};
