// How findings name an RFC and their places (no heavy imports: the report renderer uses these).
import type { Finding } from "./model.js";

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

/** Locations listed inline before "and N more". */
const LOCATIONS_SHOWN = 5;

function where(l: { path?: string; line?: number }): string {
  return l.path ? `${l.path}${l.line ? `:${l.line}` : ""}` : "";
}

/** A finding's places: every location, or its first path for reports written before locations. */
function placesOf(finding: Finding): { path: string; line?: number }[] {
  if (finding.locations.length > 0) return finding.locations;
  return finding.path ? [{ path: finding.path, ...(finding.line ? { line: finding.line } : {}) }] : [];
}

/** "a.py:3, a.py:9, b.py and 4 more in 2 files" (each place through `format`). */
export function formatPlaces(
  finding: Finding,
  format: (place: string) => string,
  shown = LOCATIONS_SHOWN,
): string {
  const places = placesOf(finding);
  if (places.length === 0) return "";
  const head = places.slice(0, shown).map((p) => format(where(p)));
  const restPlaces = places.slice(shown);
  const hits = Math.max(finding.hits ?? places.length, places.length);
  const more = hits - head.length;
  if (more <= 0) return head.join(", ");
  const restFiles = new Set(restPlaces.map((p) => p.path)).size;
  return `${head.join(", ")} and ${more} more${restFiles > 0 ? ` (${restFiles} file${restFiles === 1 ? "" : "s"} listed in report.json)` : ""}`;
}
