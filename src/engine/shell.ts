// Words a person pastes into a POSIX shell.

/** POSIX shell quoting: bare when only safe characters, else single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}
