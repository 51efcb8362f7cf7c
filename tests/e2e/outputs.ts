// What a reader of a run could see, for the tests that look for a secret in every output.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Every file of a report directory, as one text. */
export function bundleText(dir: string): string {
  return readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .map((f) => readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

/** The text with the runner's own mask commands left out (the runner consumes them). */
export const withoutMasks = (text: string) =>
  text
    .split("\n")
    .filter((l) => !l.startsWith("::add-mask::"))
    .join("\n");
