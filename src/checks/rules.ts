// What the kinds' schemas check beyond a value's shape, without the schema library: their bounds
// and their refinements. The kinds' zod schemas (./fields.ts, ./kinds/) refine with these
// functions, and the inventory's precompiled check (src/inventory/precheck.ts) runs the same ones,
// so a run can vouch for a valid inventory before it loads zod.
import { patternLengthProblem } from "./pattern.js";

/** Names, paths, references, probe strings. */
export const TEXT_CHARS = 4096;
/** The longest readiness `delay`. */
export const DELAY_MS = 600_000;

/** One problem a refinement found: zod's custom issue, its fix in `params.fix` (a type, not an
 * interface, so that zod's issue type, which has an index signature, accepts it). */
type RuleIssue = {
  code: "custom";
  message: string;
  path?: (string | number)[];
  params?: { fix?: string };
};

/** Where a refinement reports: zod's refinement context, or the precompiled check's. */
export interface RuleContext {
  addIssue(issue: RuleIssue): void;
}

/**
 * An HTTP request path as it goes on the request line: "/" then visible ASCII, each "%" starting
 * an escape. Node refuses any other character when it sends (a TypeError in the middle of the
 * readiness wait), and the probe in the subject's namespace sends the line as written: refused
 * at load instead, with the encoding to write.
 */
export function requestPathRule(p: string, ctx: RuleContext): void {
  const bad = /[^\x21-\x7e]/u.exec(p)?.[0];
  const badEscape = /%(?![0-9A-Fa-f]{2})/.test(p);
  if (bad === undefined && !badEscape) return;
  const shown = bad === undefined ? undefined : JSON.stringify(bad).slice(1, -1);
  ctx.addIssue({
    code: "custom",
    message:
      bad !== undefined
        ? `is not a request path: "${shown}" cannot go on an HTTP request line as it is`
        : 'is not a request path: a "%" must start an escape of two hex digits',
    params: {
      fix:
        bad !== undefined
          ? `percent-encode it (${[...Buffer.from(bad)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")})`
          : 'write a literal "%" as %25',
    },
  });
}

/**
 * A log pattern's length and JavaScript syntax. What the linear-time matcher cannot run
 * (lookaround, backreferences) is checked by loadInventory, which loads that matcher only when a
 * pattern is declared.
 */
export function logPatternRule(p: string, ctx: RuleContext): void {
  const problem = patternLengthProblem(p);
  if (problem) ctx.addIssue({ code: "custom", message: problem, params: { fix: "shorten the pattern" } });
  else
    try {
      new RegExp(p); // only compiled, never run: JavaScript's syntax errors, with the rest
    } catch (err) {
      ctx.addIssue({
        code: "custom",
        message: `not a valid regular expression: ${(err as Error).message}`,
        params: { fix: "escape special characters such as ( [ . with a backslash" },
      });
    }
}
