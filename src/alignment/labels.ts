// How an RFC is named in findings and reports (no heavy imports: the report renderer uses it).

/** "RFC: Environment Auto-Validation" -> "Environment Auto-Validation": the label adds "RFC 8" itself. */
export function withoutRfcPrefix(title: string): string {
  const rest = /^RFC\b[\s_-]*#?\s*\d*\s*[:.\u2013\u2014-]\s*(\S.*)$/i.exec(title)?.[1];
  return rest ?? title;
}

/** "RFC 8: Environment Auto-Validation", never "RFC 8 RFC: ...". */
export function rfcLabel(number: string | null, title: string): string {
  const t = withoutRfcPrefix(title);
  if (number === null) return t;
  return t === "" || new RegExp(`^RFC[\\s_-]*#?0*${number}$`, "i").test(t)
    ? `RFC ${number}`
    : `RFC ${number}: ${t}`;
}
