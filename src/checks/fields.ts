// What the kinds' schemas share with the rest of the inventory: its bounds on text and time
// (the inventory's BOUNDS, ../inventory/schema.ts, reads them from here).
import * as z from "zod";

/** Names, paths, references, probe strings. */
export const TEXT_CHARS = 4096;
/** The longest readiness `delay`. */
export const DELAY_MS = 600_000;

/** A bounded string of the inventory: the PR's author picks its length, not the runner's memory. */
export const text = (min = 0) => z.string().min(min).max(TEXT_CHARS);

/**
 * An HTTP request path as it goes on the request line: "/" then visible ASCII, each "%" starting
 * an escape. Node refuses any other character when it sends (a TypeError in the middle of the
 * readiness wait), and the probe in the subject's namespace sends the line as written: refused
 * at load instead, with the encoding to write.
 */
export const requestPath = () =>
  text()
    .startsWith("/")
    .superRefine((p, ctx) => {
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
    })
    .meta({ pattern: "^/(?:[!-$&-~]|%[0-9A-Fa-f]{2})*$" });
